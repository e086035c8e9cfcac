// oneDNN's s8 x s8 -> s32 matmul as the "what a tuned CPU library does" yardstick. The
// primitive and its memories are built once; run() is the only thing inside a timed loop.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bench {

class OnednnGemm {
 public:
  // a: M x K row-major, b: K x N row-major (plain layouts, like a user hands them over).
  OnednnGemm(const std::vector<int8_t>& a, const std::vector<int8_t>& b, uint32_t M, uint32_t K, uint32_t N);
  ~OnednnGemm();
  void run();
  const int32_t* c() const;  // M x N row-major, valid after run()
  std::string impl() const;  // implementation oneDNN picked (e.g. "brg:avx512_core_vnni")

 private:
  struct State;
  std::unique_ptr<State> s_;
};

// oneDNN 2.6 here is built on OpenMP and has no dnnl::set_max_threads, so the thread count
// is OpenMP's: pin it to 1 so the comparison is against one core, like our kernel.
void onednn_single_thread();
int onednn_max_threads();
std::string onednn_version();  // "2.6.3"

}  // namespace bench
