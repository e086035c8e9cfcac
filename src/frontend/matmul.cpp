// The Matmul API's runtime (aicore/frontend/matmul_core.hpp): the kernel's settings -> the
// generator's plan of the best-practice schedule -> its instructions on the kernel's tensors.
#include "aicore/frontend/matmul_core.hpp"

#include <algorithm>
#include <vector>

#include "aicore/common/error.hpp"
#include "aicore/frontend/pipe_core.hpp"
#include "aicore/frontend/runtime.hpp"
#include "aicore/gen/matmul.hpp"
#include "names.hpp"
#include "state.hpp"

namespace aicore::frontend {

namespace {

using AscendC::HardEvent;
using isa::Pipe;

constexpr isa::Origin kLib = isa::Origin::Library;

// The HardEvent of a flag the schedule uses.
HardEvent hard_event(isa::EventPair e) {
  if (e.src == Pipe::MTE2 && e.dst == Pipe::MTE1) return HardEvent::MTE2_MTE1;
  if (e.src == Pipe::MTE1 && e.dst == Pipe::MTE2) return HardEvent::MTE1_MTE2;
  if (e.src == Pipe::MTE1 && e.dst == Pipe::M) return HardEvent::MTE1_M;
  if (e.src == Pipe::M && e.dst == Pipe::MTE1) return HardEvent::M_MTE1;
  if (e.src == Pipe::M && e.dst == Pipe::FIX) return HardEvent::M_FIX;
  if (e.src == Pipe::FIX && e.dst == Pipe::M) return HardEvent::FIX_M;
  return HardEvent::MAX;
}

bool is_m_mte1(const isa::EventPair& e) {
  return e.src == Pipe::M && e.dst == Pipe::MTE1;
}

// The TPipe holds M_MTE1 ids 0-2 set for the whole kernel (pipe_core.hpp), as the library's
// "L0A/L0B slot free" flags: the schedule takes them as they are instead of pre-setting its own,
// and leaves them set instead of draining them (TPipe::Destroy waits them). Removes each id's
// first SetFlag (the pre-set, before any wait of it) and last WaitFlag (the drain, after every set).
void adopt_pipe_flags(std::vector<gen::Emitted>& prog) {
  std::vector<size_t> drop;
  for (int id = 0; id < 3; ++id) {  // the TPipe's ids (the bias table's M_MTE1 3 is the schedule's own)
    size_t first_set = prog.size(), first_wait = prog.size(), last_wait = prog.size(), last_set = prog.size();
    for (size_t i = 0; i < prog.size(); ++i) {
      if (const auto* s = std::get_if<isa::SetFlag>(&prog[i].op); s && is_m_mte1(s->event) && s->id == id) {
        if (first_set == prog.size()) first_set = i;
        last_set = i;
      }
      if (const auto* w = std::get_if<isa::WaitFlag>(&prog[i].op); w && is_m_mte1(w->event) && w->id == id) {
        if (first_wait == prog.size()) first_wait = i;
        last_wait = i;
      }
    }
    if (first_set == prog.size()) continue;
    // The schedule's protocol (matmul.hpp): pre-set before the first wait, drained after the last set.
    if (first_set < first_wait && last_wait < prog.size() && last_wait > last_set) {
      drop.push_back(first_set);
      drop.push_back(last_wait);
    }
  }
  std::sort(drop.begin(), drop.end());
  for (size_t k = drop.size(); k-- > 0;) {
    // A comment on a dropped instruction stays with the next one.
    if (!prog[drop[k]].comment.empty() && drop[k] + 1 < prog.size() && prog[drop[k] + 1].comment.empty())
      prog[drop[k] + 1].comment = prog[drop[k]].comment;
    prog.erase(prog.begin() + static_cast<std::ptrdiff_t>(drop[k]));
  }
}

isa::Addr remap(const isa::Addr& a, const isa::Addr tensors[4]) {
  if (a.space != isa::Space::GM || a.tensor > 3) return a;
  const isa::Addr& t = tensors[a.tensor];
  return isa::Addr{isa::Space::GM, t.tensor, t.offset + a.offset};
}

std::string num(int64_t v) {
  return std::to_string(v);
}

}  // namespace

void MatmulCore::need_object(CallSite site, const char* api) const {
  need_block(site, api);
  if (ended_) fail(site, api, "the Matmul object was ended already (End)");
}

void MatmulCore::init(const AscendC::tiling::TCubeTiling* tiling, PipeCore* pipe, CallSite site,
                      const char* api) {
  need_block(site, api);
  if (!pipe) pipe = PipeCore::current();
  if (!pipe)
    fail(site, api, "no TPipe: declare the kernel's TPipe before REGIST_MATMUL_OBJ and pass its address");
  if (pipe != PipeCore::current() || pipe->destroyed())
    fail(site, api, "the TPipe given is not the kernel's live TPipe");
  pipe_ = pipe;
  registered_ = true;
  ended_ = false;
  if (tiling) {
    tiling_ = *tiling;
    has_tiling_ = true;
  }
}

void MatmulCore::set_constant_tiling(const AscendC::tiling::TCubeTiling& constant) {
  constant_ = constant;
  has_constant_ = true;
}

bool MatmulCore::full_constant() const {
  return has_constant_ && constant_.singleCoreM > 0 && constant_.singleCoreN > 0 && constant_.singleCoreK > 0;
}

const AscendC::tiling::TCubeTiling& MatmulCore::tiling(CallSite site, const char* api) const {
  if (full_constant()) return constant_;
  if (!has_tiling_)
    fail(site, api,
         has_constant_ ? "the Matmul object's constant tiling has no singleCoreM/N/K (partial constants): "
                         "REGIST_MATMUL_OBJ "
                         "or Init must give it a TCubeTiling"
                       : "the Matmul object has no tiling (REGIST_MATMUL_OBJ or Init with a TCubeTiling)");
  if (has_constant_ && (tiling_.baseM != constant_.baseM || tiling_.baseN != constant_.baseN ||
                        tiling_.baseK != constant_.baseK))
    fail(site, api,
         "the tiling's base " + num(tiling_.baseM) + " x " + num(tiling_.baseN) + " x " + num(tiling_.baseK) +
             " is not the constant tiling's " + num(constant_.baseM) + " x " + num(constant_.baseN) + " x " +
             num(constant_.baseK) + " (the config's basicM/N/K must be what the tiling computed)");
  return tiling_;
}

void MatmulCore::set_a(const void* gm, bool transpose, CallSite site) {
  const char* api = "Matmul::SetTensorA";
  need_object(site, api);
  if (transpose)
    fail(site, api, "a transposed A (isTransposeA = true) is not supported yet by aicore-sim's Matmul");
  a_ = gm_address(gm, site, api);
  has_a_ = true;
}

void MatmulCore::set_b(const void* gm, bool transpose, CallSite site) {
  const char* api = "Matmul::SetTensorB";
  need_object(site, api);
  b_ = gm_address(gm, site, api);
  b_trans_ = transpose;
  has_b_ = true;
}

void MatmulCore::set_bias(const void* gm, CallSite site) {
  const char* api = "Matmul::SetBias";
  need_object(site, api);
  if (kind_.bias != isa::DType::Float && kind_.bias != isa::DType::Half)
    fail(site, api,
         std::string("a bias of ") + isa::to_string(kind_.bias) +
             " (BIAS_TYPE) is not supported: the bias table takes float, or half converted on the way");
  if ((full_constant() ? constant_.isBias : has_tiling_ ? tiling_.isBias : 1) == 0)
    fail(site, api,
         "the tiling has isBias = 0: a kernel that calls SetBias needs a tiling made with SetBias(true)");
  bias_ = gm_address(gm, site, api);
  has_bias_ = true;
}

void MatmulCore::clear_bias(CallSite site, const char* api) {
  need_object(site, api);
  has_bias_ = false;
}

void MatmulCore::unsupported(const char* api, const std::string& what, CallSite site) {
  fail(site, api, what + " is not supported yet by aicore-sim's Matmul");
}

void MatmulCore::set_tail(int32_t m, int32_t n, int32_t k, CallSite site) {
  need_object(site, "Matmul::SetTail");
  tail_m_ = m;
  tail_n_ = n;
  tail_k_ = k;
}

void MatmulCore::set_org_shape(int32_t m, int32_t n, int32_t ka, int32_t kb, CallSite site) {
  need_object(site, "Matmul::SetOrgShape");
  if (m <= 0 || n <= 0 || ka <= 0 || kb <= 0)
    fail(site, "Matmul::SetOrgShape",
         "orgM, orgN and orgK must be positive (got " + num(m) + ", " + num(n) + ", " + num(ka) + ", " +
             num(kb) + ")");
  org_m_ = m;
  org_n_ = n;
  org_ka_ = ka;
  org_kb_ = kb;
}

void MatmulCore::set_single_shape(int32_t m, int32_t n, int32_t k, CallSite site) {
  need_object(site, "Matmul::SetSingleShape");
  single_m_ = m;
  single_n_ = n;
  single_k_ = k;
  tail_m_ = tail_n_ = tail_k_ = -1;
}

void MatmulCore::end(CallSite site) {
  const char* api = "Matmul::End";
  need_block(site, api);
  if (iterating_) {
    if (awaiting_c_)
      fail(site, api,
           "block " + std::to_string(block_) + " was computed by Iterate but not written (GetTensorC)");
    if (block_ < outs_.size())
      fail(site, api,
           "the Iterate loop stopped after " + std::to_string(block_) + " of " +
               std::to_string(outs_.size()) + " blocks of C");
    issue_range(next_, prog_.size(), nullptr, site, api);  // the drains the last Iterate would have issued
    iterating_ = false;
    prog_.clear();
  }
  ended_ = true;
}

std::vector<isa::Op> MatmulCore::program(CallSite site, const char* api) {
  need_block(site, api);  // api: "Matmul::..."
  if (!registered_)
    fail(site, api,
         "the Matmul object is not registered: REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling) "
         "must come before its first use");
  if (ended_) fail(site, api, "the Matmul object was ended already (End)");
  const AscendC::tiling::TCubeTiling& t = tiling(site, api);
  if (!has_a_) fail(site, api, std::string("no A matrix: call SetTensorA before ") + (api + 8));
  if (!has_b_) fail(site, api, std::string("no B matrix: call SetTensorB before ") + (api + 8));
  PipeCore* pipe = PipeCore::current();
  if (!pipe || pipe != pipe_ || pipe->destroyed())
    fail(site, api, "the TPipe the Matmul object was registered with is gone or destroyed");
  if (has_bias_ && !t.isBias)
    fail(site, api,
         "a bias was set (SetBias) but the tiling has isBias = 0: a kernel that calls SetBias needs a tiling "
         "made with SetBias(true)");
  if (t.stepM != 1 || t.stepN != 1)
    fail(site, api,
         "stepM = " + num(t.stepM) + ", stepN = " + num(t.stepN) +
             ": aicore-sim's Matmul keeps one base block of M and N in L1 (stepM = stepN = 1)");
  // The order of C's base blocks: the config's iterateOrder, else the tiling's (0 ORDER_M, 1 ORDER_N).
  const int order =
      kind_.iterate_order == 0 || kind_.iterate_order == 1 ? kind_.iterate_order : t.iterateOrder;
  if (order != 0 && order != 1)
    fail(site, api,
         "iterateOrder = " + num(t.iterateOrder) +
             " in the tiling: 0 (ORDER_M) or 1 (ORDER_N), as GetTiling sets it");
  if (t.dbL0A != t.dbL0B || t.dbL0A < 1 || t.dbL0A > 2)
    fail(site, api,
         "dbL0A = " + num(t.dbL0A) + ", dbL0B = " + num(t.dbL0B) +
             ": aicore-sim's Matmul double-buffers L0A and L0B together (both 1 or both 2)");
  // The shapes: org (strides) from SetOrgShape or the tiling, this call's part from SetTail,
  // SetSingleShape or the tiling's singleCore sizes.
  const int64_t org_m = org_m_ > 0 ? org_m_ : t.M, org_n = org_n_ > 0 ? org_n_ : t.N,
                org_ka = org_ka_ > 0 ? org_ka_ : t.Ka, org_kb = org_kb_ > 0 ? org_kb_ : t.Kb;
  const int64_t rows = tail_m_ >= 0 ? tail_m_ : (single_m_ > 0 ? single_m_ : t.singleCoreM);
  const int64_t cols = tail_n_ >= 0 ? tail_n_ : (single_n_ > 0 ? single_n_ : t.singleCoreN);
  const int64_t k = tail_k_ >= 0 ? tail_k_ : (single_k_ > 0 ? single_k_ : t.singleCoreK);
  if (org_ka != org_kb)
    fail(site, api,
         "Ka = " + num(org_ka) + " and Kb = " + num(org_kb) + " differ: A's K and B's K must be equal");
  if (rows <= 0 || cols <= 0 || k <= 0)
    fail(site, api,
         "the part to compute is empty or negative: " + num(rows) + " x " + num(cols) + " x " + num(k) +
             " (SetTail / singleCoreM, singleCoreN, singleCoreK)");
  if (k != org_ka)
    fail(site, api,
         "singleCoreK (or tailK) = " + num(k) + " is not K = " + num(org_ka) +
             ": splitting K is not supported yet by aicore-sim's Matmul");
  const auto m16 = [&](const char* what, int64_t v) {
    if (v % 16)
      fail(site, api,
           std::string(what) + " = " + num(v) +
               " is not a multiple of 16: aicore-sim's Matmul (the gen schedule) needs M, N and K (and, with "
               "a bias, the parts' N) in multiples of 16");
  };
  // A part of any size is padded to whole fractals (not with a bias: its copies move whole blocks).
  if (has_bias_) m16("the part's N (tailN / singleCoreN) with a bias", cols);
  m16("K", k);
  m16("M", org_m);
  m16("N", org_n);
  if (rows > org_m)
    fail(site, api,
         "the part's M = " + num(rows) + " is taller than C's M = " + num(org_m) +
             " (SetOrgShape / tiling.M)");
  if (cols > org_n)
    fail(
        site, api,
        "the part's N = " + num(cols) + " is wider than C's N = " + num(org_n) + " (SetOrgShape / tiling.N)");
  // The schedule's buffers are laid out for arch 2201's sizes (gen/gemm.hpp).
  const std::pair<isa::Space, uint64_t> needs[] = {
      {isa::Space::L1, gen::kL1Bytes},
      {isa::Space::BiasTable, has_bias_ ? gen::kBiasTableBytes : 0},
      {isa::Space::L0A, gen::kL0ABytes},
      {isa::Space::L0B, gen::kL0BBytes},
      {isa::Space::L0C, gen::kL0CBytes}};
  for (const auto& [space, bytes] : needs)
    if (space_bytes(space) < bytes)
      fail(site, api,
           std::string("the schedule is laid out for ") + std::to_string(bytes / 1024) + " KiB of " +
               isa::to_string(space) + "; the configuration has " + std::to_string(space_bytes(space)) +
               " bytes");
  // The object owns L1, L0A, L0B and L0C: no TPipe buffer may be there.
  const std::pair<AscendC::Hardware, const char*> pools[] = {{AscendC::Hardware::L1, "L1"},
                                                             {AscendC::Hardware::L0A, "L0A"},
                                                             {AscendC::Hardware::L0B, "L0B"},
                                                             {AscendC::Hardware::L0C, "L0C"}};
  for (const auto& [hw, name] : pools)
    if (pipe->pool_used(hw))
      fail(site, api,
           std::string("the TPipe has ") + std::to_string(pipe->pool_used(hw)) + " bytes of " + name +
               " in InitBuffer'd queues or TBufs; aicore-sim's Matmul object uses all of L1, L0A, L0B and "
               "L0C (keep TPipe buffers out of them in a kernel that uses it)");

  // With a bias it owns the bias table too.
  if (has_bias_ && pipe->pool_used(AscendC::Hardware::BIAS))
    fail(site, api,
         "the TPipe has " + std::to_string(pipe->pool_used(AscendC::Hardware::BIAS)) +
             " bytes of the bias table in InitBuffer'd queues (TQue<C2>); a Matmul object with a bias "
             "(SetBias) "
             "uses all of it");
  gen::MatmulShape shape;
  // The whole matrices' shape, as `gen` is given it (the L1 layout follows it), and this call's part
  // at their origin.
  shape.M = static_cast<uint32_t>(org_m);
  shape.K = static_cast<uint32_t>(k);
  shape.N = static_cast<uint32_t>(org_n);
  shape.dtype = kind_.a;
  shape.c_dtype = kind_.c;
  shape.b_layout = b_trans_ ? gen::BLayout::NT : gen::BLayout::ND;
  gen::MatmulOptions o;
  o.base_m = static_cast<uint32_t>(std::max(t.baseM, 0));
  o.base_n = static_cast<uint32_t>(std::max(t.baseN, 0));
  o.base_k = static_cast<uint32_t>(std::max(t.baseK, 0));
  o.l0_buffers = static_cast<uint32_t>(t.dbL0A);
  o.unit_flag = kind_.unit_flag;
  o.tmpl = kind_.mdl ? gen::MatmulTemplate::Mdl : gen::MatmulTemplate::Norm;
  o.step_ka = static_cast<uint32_t>(std::max(t.stepKa, 0));
  o.step_kb = static_cast<uint32_t>(std::max(t.stepKb, 0));
  o.depth_a1 = static_cast<uint32_t>(std::max(t.depthA1, 0));
  o.depth_b1 = static_cast<uint32_t>(std::max(t.depthB1, 0));
  o.load3d_a = true;
  o.order_m = order == 0;
  // Only a bias set by SetBias is added: with isBias = 1 and none (never set, or DisableBias /
  // ClearBias), C = A x B by the schedule without a bias (gen without --bias).
  o.bias = has_bias_;
  o.bias_dtype = kind_.bias;
  if (o.depth_a1 == 0 || o.depth_b1 == 0)
    fail(site, api,
         "depthA1 and depthB1 must be positive (got " + num(t.depthA1) + ", " + num(t.depthB1) + ")");
  std::vector<gen::Emitted> prog;
  try {
    const gen::MatmulPlan whole = gen::make_matmul_plan(shape, o);
    prog = gen::emit_matmul(
        gen::window_plan(whole, 0, static_cast<uint32_t>(rows), 0, static_cast<uint32_t>(cols)));
  } catch (const InputError& e) {
    fail(site, api, "the tiling makes no schedule: " + e.message());
  }
  adopt_pipe_flags(prog);
  // Its flags must not meet ids the kernel's queues (or AllocEventID) hold now.
  for (const gen::Emitted& e : prog) {
    const isa::EventPair* ev = nullptr;
    int id = 0;
    if (const auto* s = std::get_if<isa::SetFlag>(&e.op)) ev = &s->event, id = s->id;
    if (const auto* w = std::get_if<isa::WaitFlag>(&e.op)) ev = &w->event, id = w->id;
    if (!ev || is_m_mte1(*ev)) continue;
    const HardEvent h = hard_event(*ev);
    if (h != HardEvent::MAX && pipe->event_taken(h, id))
      fail(site, api,
           std::string("event id ") + std::to_string(id) + " of HardEvent::" + hard_event_name(h) +
               " is held by the kernel (a queue's EnQue/FreeTensor or AllocEventID) and the Matmul's "
               "schedule uses it: DeQue/AllocTensor or ReleaseEventID it before IterateAll");
  }
  // A, B and the bias now; C (tensor 2) when it is known (IterateAll, GetTensorC).
  const isa::Addr tensors[4] = {a_, b_, isa::Addr{isa::Space::GM, 2, 0}, bias_};
  std::vector<isa::Op> ops;
  ops.reserve(prog.size());
  for (gen::Emitted& e : prog) {
    if (auto* cp = std::get_if<isa::DataCopyNd2Nz>(&e.op)) cp->src = remap(cp->src, tensors);
    if (auto* cp = std::get_if<isa::DataCopy>(&e.op)) cp->src = remap(cp->src, tensors);
    ops.push_back(std::move(e.op));
  }
  return ops;
}

void MatmulCore::issue_range(size_t from, size_t to, const isa::Addr* c, CallSite site, const char* api) {
  for (size_t i = from; i < to; ++i) {
    isa::Op op = prog_[i];
    if (auto* fx = std::get_if<isa::Fixpipe>(&op)) {
      const isa::Addr tensors[4] = {a_, b_, *c, bias_};
      fx->dst = remap(fx->dst, tensors);
    }
    issue(op, site, api, kLib);
  }
}

void MatmulCore::iterate_all(const void* c, uint8_t en_atomic, CallSite site) {
  const char* api = "Matmul::IterateAll";
  if (iterating_)
    fail(site, api, "an Iterate loop is running (its last Iterate returns false, or End ends it)");
  prog_ = program(site, api);
  if (en_atomic != 0)
    fail(site, api, "enAtomic != 0 (accumulating into C) is not supported yet by aicore-sim's Matmul");
  const isa::Addr c_addr = gm_address(c, site, api);
  issue_range(0, prog_.size(), &c_addr, site, api);
  prog_.clear();
}

bool MatmulCore::iterate(CallSite site) {
  const char* api = "Matmul::Iterate";
  if (!iterating_) {
    prog_ = program(site, api);
    outs_.clear();
    // Each block's Fixpipe with the flags around it that belong to the FIX side: the wait for its
    // M_FIX before, the FIX_M release after (without unitFlag).
    for (size_t i = 0; i < prog_.size(); ++i) {
      if (!std::holds_alternative<isa::Fixpipe>(prog_[i])) continue;
      size_t from = i, to = i + 1;
      if (const auto* w = i ? std::get_if<isa::WaitFlag>(&prog_[i - 1]) : nullptr;
          w && w->event.src == Pipe::M && w->event.dst == Pipe::FIX)
        from = i - 1;
      if (const auto* st = to < prog_.size() ? std::get_if<isa::SetFlag>(&prog_[to]) : nullptr;
          st && st->event.src == Pipe::FIX && st->event.dst == Pipe::M)
        to = i + 2;
      outs_.emplace_back(from, to);
    }
    iterating_ = true;
    next_ = block_ = 0;
  } else if (awaiting_c_) {
    fail(site, api,
         "block " + std::to_string(block_) + "'s GetTensorC was not called before the next Iterate");
  }
  if (block_ >= outs_.size()) {
    issue_range(next_, prog_.size(), nullptr, site, api);  // the drains
    iterating_ = false;
    prog_.clear();
    return false;
  }
  issue_range(next_, outs_[block_].first, nullptr, site, api);
  next_ = outs_[block_].first;
  awaiting_c_ = true;
  return true;
}

void MatmulCore::get_tensor_c(const void* c, uint8_t en_atomic, bool sequential, CallSite site) {
  const char* api = "Matmul::GetTensorC";
  need_object(site, api);
  if (!iterating_ || !awaiting_c_)
    fail(site, api, "no block to write: call Iterate first (while (mm.Iterate()) ...)");
  if (en_atomic != 0)
    fail(site, api, "enAtomic != 0 (accumulating into C) is not supported yet by aicore-sim's Matmul");
  if (sequential)
    fail(site, api,
         "enSequentialWrite = true (blocks one after another) is not supported yet by aicore-sim's Matmul");
  const isa::Addr c_addr = gm_address(c, site, api);
  issue_range(outs_[block_].first, outs_[block_].second, &c_addr, site, api);
  next_ = outs_[block_].second;
  ++block_;
  awaiting_c_ = false;
}

}  // namespace aicore::frontend
