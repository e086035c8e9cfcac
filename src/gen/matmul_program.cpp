// Instruction stream of the best-practice matmul kernel (matmul.hpp): one step per (output block,
// K step), its tiles moving GM -> L1 slot -> L0A/L0B slot -> one Mmad accumulating into the
// block's L0C slot, and one Fixpipe per block. Slots alternate so MTE2, MTE1, M and FIX overlap.
#include <algorithm>

#include "aicore/gen/matmul.hpp"
#include "aicore/isa/check.hpp"

namespace aicore::gen {

namespace {

using isa::ceil_div;
using isa::Pipe;
using isa::Space;

isa::Addr on(Space s, uint64_t off) {
  return isa::Addr{s, 0, off};
}
isa::Addr gm(uint32_t tensor, uint64_t off) {
  return isa::Addr{Space::GM, tensor, off};
}
uint16_t u16(uint64_t v) {
  return static_cast<uint16_t>(v);  // ranges proven by make_matmul_plan
}

constexpr uint32_t kA = 0, kB = 1, kC = 2, kBias = 3;  // GM tensor ids, in declaration order
// The bias's flags (opt.bias): "L1 bias region free" (MTE1_MTE2, the first id after the rings',
// l1_ids(), at most 5) and "bias table free" (M_MTE1 3, past the TPipe's 0-2), each set and waited
// only where nothing else orders the two (add_bias_flags).
constexpr uint8_t kBiasTableFree = 3;

// One base block of A or B in its L1 packet.
struct Packet {
  uint64_t slot = 0, id = 0;  // ring slot (L1 place) and its flag id
  uint32_t k0 = 0, kr = 0;    // K extent of the whole packet
  uint32_t index = 0;         // this base block's place in the packet
  bool first = false, last = false;
  bool skip_wait = false;  // its slot's release came with an earlier-waited one (plan_steps)
};

struct Step {
  uint32_t m0, n0, k0, mr, nr, kr;  // origin and extent of the block / K step
  bool first_k, last_k;
  uint64_t l0, c;  // slot numbers
  Packet a, b;
  uint64_t block;
};

class Builder {
 public:
  explicit Builder(const std::vector<MatmulPlan>& rounds)
      : rounds_(rounds), p0_(rounds.front()), s_(p0_.shape) {}

  std::vector<Emitted> run() {
    plan_steps();
    note_ = "pre-set the 'slot free' flags: every slot starts free";
    for (const Release& r : ordered(presets_)) set(Pipe::MTE1, Pipe::MTE2, r.id);
    for (uint64_t id = 0; id < p0_.opt.l0_buffers; ++id) set(Pipe::M, Pipe::MTE1, id);
    if (!p0_.opt.unit_flag)
      for (uint64_t id = 0; id < p0_.l0c_buffers; ++id) set(Pipe::FIX, Pipe::M, id);
    for (size_t t = 0; t < steps_.size(); ++t) step(steps_[t], t);
    note_ = "drain the 'slot free' flags: nothing stays set at the end";
    for (uint64_t id = 0; id < l1_ids(); ++id)
      if (free_set_ >> id & 1) wait(Pipe::MTE1, Pipe::MTE2, id);
    for (uint64_t id = 0; id < p0_.opt.l0_buffers; ++id) wait(Pipe::M, Pipe::MTE1, id);
    if (!p0_.opt.unit_flag)
      for (uint64_t id = 0; id < p0_.l0c_buffers; ++id) wait(Pipe::FIX, Pipe::M, id);
    if (p0_.opt.bias) add_bias_flags();
    return std::move(out_);
  }

 private:
  // An L1 slot's MTE1_MTE2 release and the wait that consumes it: the first step of the packet
  // that next fills the slot (ties: A's copy comes first), or none (the drain at the end, by id).
  struct Release {
    uint64_t id = 0, wait_step = UINT64_MAX, ring = 0;
    size_t natural = 0;  // the step whose loads finish the packet
  };
  static bool wait_order(const Release& x, const Release& y) {
    return x.wait_step != y.wait_step ? x.wait_step < y.wait_step
                                      : (x.wait_step == UINT64_MAX ? x.id < y.id : x.ring < y.ring);
  }
  static std::vector<Release> ordered(std::vector<Release> v) {
    std::stable_sort(v.begin(), v.end(), wait_order);
    return v;
  }

  // Pass 1: every step (blocks and K steps counting on across the rounds, --blocks limiting the
  // total) and when each L1 release is set. MTE1 sets the releases in the order MTE2 waits for
  // them, holding one back behind any that is waited earlier but set later: a release set after
  // one that MTE2 waits for later would be ordered already by that later wait (the checker's
  // "unneeded synchronisation"), and MTE2 is in order, so holding it back costs no time.
  void plan_steps() {
    uint64_t t = 0, packets_a = 0, packets_b = 0, blocks = 0;
    const uint64_t limit = p0_.opt.blocks ? p0_.opt.blocks : UINT64_MAX;
    std::vector<uint64_t> first_a, first_b;  // first step of every packet
    for (const MatmulPlan& p : rounds_) {
      p_ = &p;
      for (uint64_t b = 0; b < p.blocks() && blocks < limit; ++b, ++blocks)
        for (uint32_t kt = 0; kt < p.k_steps; ++kt, ++t) {
          steps_.push_back(make_step(b, kt, t, packets_a, packets_b));
          const Step& st = steps_.back();
          if (st.a.first) first_a.push_back(t);
          if (st.b.first) first_b.push_back(t);
          packets_a += st.a.last;
          packets_b += st.b.last;
        }
    }
    const auto next_wait = [](const std::vector<uint64_t>& first, uint64_t packet) {
      return packet < first.size() ? first[packet] : UINT64_MAX;
    };
    std::vector<Release> releases;
    const bool two = !p0_.shared_ring;
    for (uint64_t s = 0; s < p0_.packets_a; ++s) presets_.push_back({s, next_wait(first_a, s), 0, 0});
    if (two)
      for (uint64_t s = 0; s < p0_.packets_b; ++s)
        presets_.push_back({p0_.packets_a + s, next_wait(first_b, s), 1, 0});
    uint64_t qa = 0, qb = 0;
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& st = steps_[i];
      if (st.a.last) releases.push_back({st.a.id, next_wait(first_a, qa++ + p0_.packets_a), 0, i});
      if (two && st.b.last) releases.push_back({st.b.id, next_wait(first_b, qb++ + p0_.packets_b), 1, i});
    }
    releases = ordered(std::move(releases));
    release_at_.assign(steps_.size(), {});
    size_t at = 0;
    bool any = false;
    for (const Release& r : releases) {
      const size_t here = std::max(at, r.natural);
      // Releases due at the same point free their slots by the same MTE1 work: one flag (the
      // first waited) carries them all, and the later copies are ordered after its wait by MTE2's
      // program order (a second flag would order nothing: the checker's "unneeded synchronisation").
      if (any && here == at) {
        if (r.wait_step < steps_.size())
          (r.ring ? steps_[r.wait_step].b : steps_[r.wait_step].a).skip_wait = true;
        continue;
      }
      at = here;
      any = true;
      release_at_[at].push_back(r.id);
    }
  }

  // A flag's set and the wait that consumes it (the k-th set of an id meets its k-th wait).
  struct Pair {
    size_t set, wait;
    isa::EventPair ev;
  };
  std::vector<Pair> pairs() const {
    std::vector<Pair> v;
    const auto key = [](const isa::EventPair& e, uint8_t id) {
      return (static_cast<size_t>(e.src) * 8 + static_cast<size_t>(e.dst)) * 8 + id;
    };
    std::vector<std::vector<size_t>> sets(512);
    std::vector<size_t> head(512, 0);
    for (size_t i = 0; i < out_.size(); ++i) {
      if (const auto* st = std::get_if<isa::SetFlag>(&out_[i].op)) sets[key(st->event, st->id)].push_back(i);
      if (const auto* w = std::get_if<isa::WaitFlag>(&out_[i].op)) {
        const size_t k = key(w->event, w->id);
        if (head[k] < sets[k].size()) v.push_back({sets[k][head[k]++], i, w->event});
      }
    }
    return v;
  }
  // Whether a flag already orders op i (on e.src) before op j (on e.dst): one set after i and waited
  // before j (a chain through a third pipe ends in such a pair here: only MTE1 sets MTE1_MTE2, and
  // M_MTE1 is the only way into MTE1 from M).
  static bool flag_orders(const std::vector<Pair>& v, isa::EventPair e, size_t i, size_t j) {
    for (const Pair& q : v)
      if (q.ev == e && q.set > i && q.wait < j) return true;
    return false;
  }
  // The bias's two hazards between a block and the next: the next block's GM -> L1 bias copy (MTE2)
  // overwrites the L1 bytes this block's L1 -> BT copy (MTE1) reads, and the next block's L1 -> BT
  // copy overwrites the table this block's first Mmad (M) reads. Each gets its own flag only where
  // the schedule's flags leave it unordered, and a schedule flag the new one makes redundant (it
  // orders nothing the new one does not) is dropped: the race checker reports neither a race nor an
  // unneeded synchronisation.
  void add_bias_flags() {
    struct Insert {
      size_t at;
      isa::Op op;
    };
    std::vector<Insert> ins;
    const std::vector<Pair> base = pairs();
    const isa::EventPair l1_free{Pipe::MTE1, Pipe::MTE2}, bt_free{Pipe::M, Pipe::MTE1};
    const uint8_t kBiasL1Free = static_cast<uint8_t>(l1_ids());
    for (size_t b = 0; b + 1 < bias_.size(); ++b) {
      const BiasOps &x = bias_[b], &y = bias_[b + 1];
      if (!flag_orders(base, l1_free, x.to_bt, y.copy)) {
        ins.push_back({x.to_bt + 1, isa::SetFlag{l1_free, kBiasL1Free}});
        ins.push_back({y.copy, isa::WaitFlag{l1_free, kBiasL1Free}});
      }
      if (!flag_orders(base, bt_free, x.mmad, y.to_bt)) {
        ins.push_back({x.mmad + 1, isa::SetFlag{bt_free, kBiasTableFree}});
        ins.push_back({y.to_bt, isa::WaitFlag{bt_free, kBiasTableFree}});
      }
    }
    std::stable_sort(ins.begin(), ins.end(), [](const Insert& p, const Insert& q) { return p.at < q.at; });
    std::vector<Emitted> prog;
    prog.reserve(out_.size() + ins.size());
    size_t k = 0;
    for (size_t i = 0; i <= out_.size(); ++i) {
      for (; k < ins.size() && ins[k].at == i; ++k) {
        prog.push_back({std::move(ins[k].op), {}});
        if (i < out_.size() && !out_[i].comment.empty()) {  // the step's note stays first
          prog.back().comment = std::move(out_[i].comment);
          out_[i].comment.clear();
        }
      }
      if (i < out_.size()) prog.push_back(std::move(out_[i]));
    }
    out_ = std::move(prog);
    // Drop the schedule's flags the bias flags make redundant: one that releases no more of its
    // source pipe's work (no op of it between the two sets) to no earlier point of its destination
    // (no op of it between the two waits) than a bias flag on the same pipes. Never a pre-set or a
    // drain: those order no work.
    std::vector<std::vector<size_t>> at(isa::kPipeCount);  // each pipe's ops (not flags), in order
    for (size_t i = 0; i < out_.size(); ++i)
      if (!std::holds_alternative<isa::SetFlag>(out_[i].op) &&
          !std::holds_alternative<isa::WaitFlag>(out_[i].op))
        at[static_cast<size_t>(isa::pipe_of(out_[i].op))].push_back(i);
    // How many of pipe p's ops come before position x.
    const auto before = [&](Pipe p, size_t x) {
      const auto& v = at[static_cast<size_t>(p)];
      return static_cast<size_t>(std::lower_bound(v.begin(), v.end(), x) - v.begin());
    };
    const std::vector<Pair> all = pairs();
    const auto is_bias = [&](const Pair& q) {
      const auto& st = std::get<isa::SetFlag>(out_[q.set].op);
      return (q.ev == l1_free && st.id == kBiasL1Free) || (q.ev == bt_free && st.id == kBiasTableFree);
    };
    std::vector<Pair> mine;
    for (const Pair& q : all)
      if (is_bias(q)) mine.push_back(q);
    std::vector<bool> drop(out_.size(), false);
    for (const Pair& q : all) {
      const size_t released = before(q.ev.src, q.set), waited = before(q.ev.dst, q.wait);
      if (is_bias(q) || released == 0 || waited == at[static_cast<size_t>(q.ev.dst)].size()) continue;
      for (const Pair& r : mine)
        if (r.ev == q.ev && before(r.ev.src, r.set) >= released && before(r.ev.dst, r.wait) <= waited) {
          drop[q.set] = drop[q.wait] = true;
          break;
        }
    }
    std::vector<Emitted> kept;
    kept.reserve(out_.size());
    for (size_t i = 0; i < out_.size(); ++i) {
      if (!drop[i]) {
        kept.push_back(std::move(out_[i]));
        continue;
      }
      if (!out_[i].comment.empty() && i + 1 < out_.size() && out_[i + 1].comment.empty())
        out_[i + 1].comment = std::move(out_[i].comment);
    }
    out_ = std::move(kept);
  }

  uint64_t l1_ids() const { return p0_.shared_ring ? p0_.packets_a : p0_.packets_a + p0_.packets_b; }

  // The packet that holds K step kt of a block: `done` packets of this ring came before it.
  Packet packet_of(uint32_t kt, uint32_t step, uint64_t done, uint64_t slots, uint64_t first_id) const {
    Packet pk;
    const uint32_t begin = kt / step * step, end = std::min(begin + step, p_->k_steps);
    pk.slot = done % slots;
    pk.id = first_id + pk.slot;
    pk.k0 = begin * p0_.opt.base_k;
    pk.kr = std::min(end * p0_.opt.base_k, s_.K) - pk.k0;
    pk.index = kt - begin;
    pk.first = kt == begin;
    pk.last = kt + 1 == end;
    return pk;
  }

  Step make_step(uint64_t block, uint32_t kt, uint64_t t, uint64_t packets_a, uint64_t packets_b) const {
    const auto& o = p0_.opt;
    const MatmulPlan& p = *p_;
    Step st;
    const uint64_t bm = o.order_m ? block % p.m_blocks : block / p.n_blocks;
    const uint64_t bn = o.order_m ? block / p.m_blocks : block % p.n_blocks;
    st.m0 = p.m_begin + static_cast<uint32_t>(bm) * o.base_m;
    st.n0 = p.n_begin + static_cast<uint32_t>(bn) * o.base_n;
    st.k0 = kt * o.base_k;
    st.mr = std::min(o.base_m, p.m_end - st.m0);
    st.nr = std::min(o.base_n, p.n_end - st.n0);
    st.kr = std::min(o.base_k, s_.K - st.k0);
    st.first_k = kt == 0;
    st.last_k = kt + 1 == p.k_steps;
    st.a = packet_of(kt, o.step_ka, packets_a, p0_.packets_a, 0);
    st.b = packet_of(kt, o.step_kb, packets_b, p0_.packets_b, p0_.shared_ring ? 0 : p0_.packets_a);
    st.l0 = t % o.l0_buffers;
    st.c = t / p.k_steps % p0_.l0c_buffers;
    st.block = block;
    return st;
  }

  uint64_t l1_a(const Step& st) const { return st.a.slot * p0_.l1_slot; }
  uint64_t l1_b(const Step& st) const {
    return p0_.shared_ring ? st.b.slot * p0_.l1_slot + p0_.l1_b : p0_.l1_b + st.b.slot * p0_.l1_b_slot;
  }

  void op(isa::Op o) {
    out_.push_back({std::move(o), std::move(note_)});
    note_.clear();
  }
  void set(Pipe s, Pipe d, uint64_t id) {
    if (s == Pipe::MTE1 && d == Pipe::MTE2) free_set_ |= uint64_t{1} << id;
    op(isa::SetFlag{{s, d}, static_cast<uint8_t>(id)});
  }
  void wait(Pipe s, Pipe d, uint64_t id) {
    if (s == Pipe::MTE1 && d == Pipe::MTE2) free_set_ &= ~(uint64_t{1} << id);
    op(isa::WaitFlag{{s, d}, static_cast<uint8_t>(id)});
  }

  void step(const Step& st, size_t t) {
    copy_in(st);
    load(st, t);
    compute(st);
    if (st.last_k) write_out(st);
  }

  // MTE2, at a packet's first base block: the A packet (mr x its K) and the B packet (its K x nr,
  // or nr x its K for nt) GM (ND) -> L1 (NZ).
  void copy_in(const Step& st) {
    note_ = "block " + std::to_string(st.block) + " (rows " + std::to_string(st.m0) + "+" +
            std::to_string(st.mr) + ", cols " + std::to_string(st.n0) + "+" + std::to_string(st.nr) +
            "), k " + std::to_string(st.k0) + "+" + std::to_string(st.kr) + ": L1 slot " +
            (p0_.shared_ring ? std::to_string(st.a.slot)
                             : "A " + std::to_string(st.a.slot) + " B " + std::to_string(st.b.slot)) +
            ", L0 slot " + std::to_string(st.l0) + ", L0C slot " + std::to_string(st.c);
    if (st.a.first) {
      if (!st.a.skip_wait) wait(Pipe::MTE1, Pipe::MTE2, st.a.id);
      op(nd2nz(l1_a(st), kA, (uint64_t{st.m0} * s_.K + st.a.k0) * 2, st.mr, st.a.kr, s_.K));
    }
    if (st.b.first) {
      if (!p0_.shared_ring && !st.b.skip_wait) wait(Pipe::MTE1, Pipe::MTE2, st.b.id);
      if (s_.b_layout == BLayout::NT)
        op(nd2nz(l1_b(st), kB, (uint64_t{st.n0} * s_.K + st.b.k0) * 2, st.nr, st.b.kr, s_.K));
      else
        op(nd2nz(l1_b(st), kB, (uint64_t{st.b.k0} * s_.N + st.n0) * 2, st.b.kr, st.nr, s_.N));
    }
    // The block's bias, GM -> the L1 bias region, carried by the step's "filled" flag (a block's
    // first K step always copies A and B: packets start at K 0).
    if (p0_.opt.bias && st.first_k) {
      const uint64_t e = isa::byte_size(p0_.opt.bias_dtype);
      isa::DataCopy c;
      c.dst = on(Space::L1, p0_.l1_bias);
      c.src = gm(kBias, st.n0 * e);
      c.blockLen = u16(st.nr * e / 32);
      bias_.push_back({out_.size(), 0, 0});
      op(c);
    }
    if (st.a.first || st.b.first) set(Pipe::MTE2, Pipe::MTE1, filled_id(st));
  }

  // The one "filled" flag of a step's copies (two would carry the same MTE2 work): the id of
  // the A slot when A was copied, else the B slot's. It is waited in the same step, and a slot's
  // id is set again only after MTE2 waited that slot's release, so it is never set twice.
  static uint64_t filled_id(const Step& st) { return st.a.first ? st.a.id : st.b.id; }

  isa::DataCopyNd2Nz nd2nz(uint64_t dst, uint32_t tensor, uint64_t src, uint32_t rows, uint32_t cols,
                           uint32_t row_elems) const {
    isa::DataCopyNd2Nz c;
    c.dst = on(Space::L1, dst);
    c.src = gm(tensor, src);
    c.dtype = s_.dtype;
    c.nValue = u16(rows);
    c.dValue = u16(cols);
    c.srcDValue = u16(row_elems);
    // One fractal column per 16 rows: a part's last rows of a tail that is not a multiple of 16
    // leave their fractal's other rows as they were (the Cube reads rows < m, n only).
    c.dstNzC0Stride = u16(isa::ceil_div(rows, 16) * 16);
    return c;
  }

  isa::LoadData load_data(Space dst, uint64_t dst_off, uint64_t src_off, uint64_t start, uint64_t repeat,
                          uint64_t stride, uint64_t gap, bool transpose) const {
    isa::LoadData ld;
    ld.dst = on(dst, dst_off);
    ld.src = on(Space::L1, src_off);
    ld.dtype = s_.dtype;
    ld.startIndex = u16(start);
    ld.repeatTimes = static_cast<uint8_t>(repeat);
    ld.srcStride = u16(stride);
    ld.dstGap = u16(gap);
    ld.ifTranspose = transpose;
    return ld;
  }

  // MTE1: L1 NZ -> L0A Zz, and B -> L0B Zn.
  void load(const Step& st, size_t t) {
    const uint64_t l0a = st.l0 * p0_.l0a_slot, l0b = st.l0 * p0_.l0b_slot;
    const uint64_t m1 = isa::ceil_div(st.mr, 16), k1 = st.kr / 16, n1 = isa::ceil_div(st.nr, 16);
    // This base block inside its packets: A's NZ packet holds mr/16 fractals per 16 K columns,
    // B's (nt) nr/16; B's (nd) is a packet of K rows, each fractal column its K / 16 fractals.
    const uint64_t kb = p0_.opt.base_k / 16;
    const uint64_t l1 = l1_a(st) + st.a.index * kb * m1 * 512;
    const uint64_t l1b = l1_b(st) + st.b.index * kb * (s_.b_layout == BLayout::NT ? n1 : 1) * 512;
    if (st.a.first || st.b.first) wait(Pipe::MTE2, Pipe::MTE1, filled_id(st));
    wait(Pipe::M, Pipe::MTE1, st.l0);
    // A: L1 fractal (k, m) is at k * m1 + m, L0A wants (m, k) at m * k1 + k: one LoadData per
    // fractal column k (repeat m1, one destination fractal in every k1), or per fractal row m.
    if (p0_.opt.load3d_a) {
      // Or one Load3Dv2: the A tile in NZ is an NC1HWC0 map of 1 x mr positions and kr channels;
      // a 1 x 1 filter reads it back as the mr x kr matrix, written zZ (docs/semantics.md).
      isa::LoadData3DV2 l3;
      l3.dst = on(Space::L0A, l0a);
      l3.src = on(Space::L1, l1);
      l3.dtype = s_.dtype;
      l3.l1H = 1;
      l3.l1W = u16(m1 * 16);
      l3.channelSize = u16(st.kr);
      l3.kExtension = u16(st.kr);
      l3.mExtension = u16(m1 * 16);
      op(l3);
    } else if (k1 <= m1) {
      for (uint64_t k = 0; k < k1; ++k)
        op(load_data(Space::L0A, l0a + k * 512, l1, k * m1, m1, 1, k1 - 1, false));
    } else {
      for (uint64_t m = 0; m < m1; ++m)
        op(load_data(Space::L0A, l0a + m * k1 * 512, l1, m, k1, m1, 0, false));
    }
    if (s_.b_layout == BLayout::NT) {
      // B^T in NZ is B in Zn fractal for fractal: one contiguous run, 255 fractals at most.
      const uint64_t frac = k1 * n1;
      for (uint64_t off = 0; off < frac; off += 255)
        op(load_data(Space::L0B, l0b + off * 512, l1b, off, std::min<uint64_t>(255, frac - off), 1, 0,
                     false));
    } else {
      // B in NZ: fractal (n, k) at n * K1 + k (K1: the packet's K / 16) holds rows k; Zn wants
      // (k, n) at k * n1 + n with rows n: every fractal transposed, one LoadData per fractal row k.
      for (uint64_t k = 0; k < k1; ++k)
        op(load_data(Space::L0B, l0b + k * n1 * 512, l1b, k, n1, st.b.kr / 16, 0, true));
    }
    // The block's bias, L1 -> the bias table (as floats), after the step's loads: ordered before
    // the Mmad by the step's MTE1_M flag.
    if (p0_.opt.bias && st.first_k) {
      isa::DataCopyL1ToBT c;
      c.dst = on(Space::BiasTable, 0);
      c.src = on(Space::L1, p0_.l1_bias);
      c.blockLen = u16(st.nr * 4 / isa::kBiasBlockBytes);
      c.convControl = p0_.opt.bias_dtype == isa::DType::Half;
      bias_.back().to_bt = out_.size();
      op(c);
    }
    for (const uint64_t id : release_at_[t]) set(Pipe::MTE1, Pipe::MTE2, id);
    set(Pipe::MTE1, Pipe::M, st.l0);
  }

  // M: this K step into the block's L0C slot.
  void compute(const Step& st) {
    wait(Pipe::MTE1, Pipe::M, st.l0);
    const bool uf = p0_.opt.unit_flag;
    if (st.first_k && !uf) wait(Pipe::FIX, Pipe::M, st.c);
    // Small blocks ((m/16)*(n/16) <= 10, as in program.cpp) are not ordered by the Cube itself:
    // the accumulating Mmad waits for the previous K step's with a barrier (docs/checking.md).
    if (!st.first_k && isa::ceil_div(st.mr, 16) * isa::ceil_div(st.nr, 16) <= 10)
      op(isa::PipeBarrier{Pipe::M, false});
    isa::MmadCommon mm;
    mm.dst = on(Space::L0C, st.c * p0_.l0c_slot);
    mm.fm = on(Space::L0A, st.l0 * p0_.l0a_slot);
    mm.filter = on(Space::L0B, st.l0 * p0_.l0b_slot);
    mm.m = u16(st.mr);
    mm.n = u16(st.nr);
    mm.k = u16(st.kr);
    mm.cmatrixInitVal = st.first_k;
    if (p0_.opt.bias && st.first_k) {  // C = bias + A x B: from the table, L0C not read
      mm.cmatrixInitVal = false;
      mm.cmatrixSource = true;
      mm.biasAddr = 0;
      bias_.back().mmad = out_.size();
    }
    // unitFlag 2 on the accumulating steps, 3 on the last: it hands the block to Fixpipe.
    if (uf) mm.unitFlag = st.last_k ? isa::kUnitFlagFlip : isa::kUnitFlagKeep;
    op(isa::Mmad{mm, s_.dtype});
    set(Pipe::M, Pipe::MTE1, st.l0);
    if (st.last_k && !uf) set(Pipe::M, Pipe::FIX, st.c);
  }

  // FIX: the block's L0C slot -> C rows m0.., columns n0.., converted to C's type on the way.
  void write_out(const Step& st) {
    const bool uf = p0_.opt.unit_flag;
    if (!uf) wait(Pipe::M, Pipe::FIX, st.c);
    isa::Fixpipe fx;
    fx.dst = gm(kC, (uint64_t{st.m0} * s_.N + st.n0) * isa::byte_size(s_.c_dtype));
    fx.src = on(Space::L0C, st.c * p0_.l0c_slot);
    fx.dtype = isa::DType::Float;
    if (s_.c_dtype == isa::DType::Half) fx.quantPre = isa::QuantMode::F322F16;
    if (s_.c_dtype == isa::DType::BF16) fx.quantPre = isa::QuantMode::F322BF16;
    fx.nSize = u16(st.nr);
    fx.mSize = u16(st.mr);
    fx.srcStride = u16(isa::ceil_div(st.mr, 16) * 16);
    fx.dstStride = s_.N;
    if (uf) fx.unitFlag = isa::kUnitFlagFlip;
    op(fx);
    if (!uf) set(Pipe::FIX, Pipe::M, st.c);
  }

  const std::vector<MatmulPlan>& rounds_;
  const MatmulPlan& p0_;           // the options and buffers, the same in every round
  const MatmulPlan* p_ = nullptr;  // the round being emitted
  const MatmulShape& s_;
  std::vector<Step> steps_;
  std::vector<Release> presets_;
  std::vector<std::vector<uint64_t>> release_at_;  // the L1 releases set after each step's loads
  std::vector<Emitted> out_;
  struct BiasOps {
    size_t copy, to_bt, mmad;  // each block's bias copy, L1 -> BT copy and first Mmad in out_
  };
  std::vector<BiasOps> bias_;
  uint64_t free_set_ = 0;  // the MTE1_MTE2 ids set and not yet waited (the drain waits these)
  std::string note_;
};

}  // namespace

std::vector<Emitted> emit_matmul(const std::vector<MatmulPlan>& rounds) {
  return Builder(rounds).run();
}

std::vector<Emitted> emit_matmul(const MatmulPlan& p) {
  return emit_matmul(std::vector<MatmulPlan>{p});
}

}  // namespace aicore::gen
