// The `.asc` launch syntax, translated before the compiler sees it (docs/ascendc.md, "Huawei's
// samples as they are"): `kernel<<<blockDim, l2ctrl, stream>>>(args)` becomes
// `::aicore::frontend::asc_kernel(kernel, "kernel", "args", __FILE__, __LINE__).launch(blockDim,
// l2ctrl, stream)(args)`, with every newline of the original kept where it was, so the compiler's
// messages and the simulator's reports name the `.asc` file's own lines. Comments, string and
// character literals are copied untouched.
#pragma once
#include <string>

namespace aicore::cli {

struct AscRewrite {
  std::string text;       // the translated source ("" when error is set)
  std::string error;      // "LINE:COLUMN: message" of the first launch that cannot be translated
  unsigned launches = 0;  // <<<>>> launches translated
};

AscRewrite rewrite_asc_launches(const std::string& source);

}  // namespace aicore::cli
