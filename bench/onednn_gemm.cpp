#include "onednn_gemm.hpp"

#include <omp.h>

#include <cstring>
#include <oneapi/dnnl/dnnl.hpp>

namespace bench {

struct OnednnGemm::State {
  dnnl::engine eng{dnnl::engine::kind::cpu, 0};
  dnnl::stream strm{eng};
  dnnl::memory a, b, c;
  dnnl::matmul prim;
  std::string impl;
};

OnednnGemm::OnednnGemm(const std::vector<int8_t>& a, const std::vector<int8_t>& b, uint32_t M, uint32_t K,
                       uint32_t N)
    : s_(std::make_unique<State>()) {
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  const dnnl::memory::dim m = M, k = K, n = N;
  const dnnl::memory::desc a_md({m, k}, dt::s8, tag::ab), b_md({k, n}, dt::s8, tag::ab),
      c_md({m, n}, dt::s32, tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), s_->eng);
  s_->impl = pd.impl_info_str();
  s_->prim = dnnl::matmul(pd);
  s_->a = dnnl::memory(a_md, s_->eng);
  s_->b = dnnl::memory(b_md, s_->eng);
  s_->c = dnnl::memory(c_md, s_->eng);
  std::memcpy(s_->a.get_data_handle(), a.data(), a.size());
  std::memcpy(s_->b.get_data_handle(), b.data(), b.size());
}

OnednnGemm::~OnednnGemm() = default;

void OnednnGemm::run() {
  s_->prim.execute(s_->strm, {{DNNL_ARG_SRC, s_->a}, {DNNL_ARG_WEIGHTS, s_->b}, {DNNL_ARG_DST, s_->c}});
  s_->strm.wait();
}

const int32_t* OnednnGemm::c() const {
  return static_cast<const int32_t*>(s_->c.get_data_handle());
}
std::string OnednnGemm::impl() const {
  return s_->impl;
}

void onednn_single_thread() {
  omp_set_num_threads(1);
}
int onednn_max_threads() {
  return omp_get_max_threads();
}
std::string onednn_version() {
  const dnnl_version_t* v = dnnl_version();
  return std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
}

}  // namespace bench
