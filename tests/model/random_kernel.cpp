#include "random_kernel.hpp"

#include <algorithm>
#include <utility>

namespace randk {

namespace {

struct Gen {
  std::mt19937_64& rng;
  std::string out;

  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng); }
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng); }
  template <class T>
  const T& one_of(const std::vector<T>& v) {
    return v[pick(0, v.size() - 1)];
  }
  void line(const std::string& s) { out += s + "\n"; }
  static std::string n(uint64_t v) { return std::to_string(v); }

  void data_copy() {
    const uint64_t len = pick(1, 64), count = pick(1, 4), sgap = pick(0, 2), dgap = pick(0, 2);
    const uint64_t span = (len + dgap) * 32 * count;
    const uint64_t dst = pick(0, (524288 - span) / 32) * 32;
    line("DataCopy dst=L1:" + n(dst) + " src=a+" + n(pick(0, 1000) * 32) + " blockLen=" + n(len) +
         " blockCount=" + n(count) + " srcGap=" + n(sgap) + " dstGap=" + n(dgap));
  }
  void nd2nz() {
    const uint64_t rows = pick(1, 64), d = pick(1, 128);
    line("DataCopyNd2Nz dst=L1:" + n(pick(0, 256) * 512) + " src=a+" + n(pick(0, 100) * 64) +
         " nValue=" + n(rows) + " dValue=" + n(d) + " srcDValue=" + n(d + pick(0, 8)) +
         " dstNzC0Stride=" + n((rows + 15) / 16 * 16));
  }
  void load_data() {
    const bool a = coin();
    const uint64_t rep = pick(1, 16), gap = pick(0, 1), stride = pick(0, 2);
    const uint64_t dst = pick(0, (65536 - rep * (gap + 1) * 512) / 512) * 512;
    line(std::string("LoadData dst=") + (a ? "L0A:" : "L0B:") + n(dst) + " src=L1:" + n(pick(0, 200) * 512) +
         " repeatTimes=" + n(rep) + " srcStride=" + n(stride) + " dstGap=" + n(gap));
  }
  // LoadData3DV2 as a matmul A/B load: a block of a half NZ matrix read as a 1-row map.
  void load3d() {
    const bool a = coin();
    const uint64_t m1 = pick(1, 4), k1 = pick(1, 8), kext = pick(1, k1), kstart = pick(0, k1 - kext);
    line(std::string("LoadData3DV2 dst=") + (a ? "L0A:" : "L0B:") +
         n(pick(0, (65536 - m1 * kext * 512) / 512) * 512) + " src=L1:" + n(pick(0, 200) * 512) +
         " l1H=1 l1W=" + n(16 * m1) + " channelSize=" + n(16 * k1) + " kExtension=" + n(16 * kext) +
         " mExtension=" + n(16 * m1) + " kStartPt=" + n(16 * kstart));
  }
  // LoadDataWithTranspose of any element size, strides and gaps inside L1 and L0A/L0B.
  void load_transpose() {
    const bool a = coin();
    static const char* types[] = {"int8", "half", "bf16", "float", "int32"};
    const uint64_t t = pick(0, 4), fr = t == 1 || t == 2 ? 1 : 2, rep = pick(1, 6), gap = pick(0, 2),
                   fgap = pick(0, 2);
    const uint64_t span = ((rep - 1) * (gap + 1) + (fr - 1) * (fgap + 1) + 1) * 512;
    line(std::string("LoadDataWithTranspose dst=") + (a ? "L0A:" : "L0B:") +
         n(pick(0, (65536 - span) / 512) * 512) + " src=L1:" + n(pick(0, 200) * 512) + " dtype=" + types[t] +
         " startIndex=" + n(pick(0, 3)) + " repeatTimes=" + n(rep) + " srcStride=" + n(pick(0, 3)) +
         " dstGap=" + n(gap) + " dstFracGap=" + n(fgap));
  }
  void load_sparse() {
    const uint64_t rep = pick(1, 8);
    line("LoadDataWithSparse dst=L0B:" + n(pick(0, (65536 - rep * 512) / 512) * 512) + " src=L1:" +
         n(pick(0, 200) * 512) + " idx=L1:" + n(pick(0, 200) * 128 + 262144) + " repeatTimes=" + n(rep));
  }
  void mmad() {
    const bool sparse = coin(0.3);
    const uint64_t m = pick(1, 128), nn = pick(1, 128), k = sparse ? pick(1, 64) * 4 : pick(1, 256);
    const bool half = !sparse && coin(0.3);
    const bool f32 = !sparse && !half && coin(0.15);
    const bool i4 = !sparse && !half && !f32 && coin(0.15);
    // M owns the first half of L0C, Fixpipe reads the second (see random_kernel.hpp).
    std::string s = std::string(sparse ? "MmadWithSparse" : "Mmad") + " dst=L0C:0" +
                    " fm=L0A:0 filter=L0B:0 m=" + n(m) + " n=" + n(nn) + " k=" +
                    n(f32    ? std::min<uint64_t>(k, 64)
                      : half ? std::min<uint64_t>(k, 128)
                             : k);
    if (half) s += " dtype=half";
    if (f32) s += " dtype=float";
    if (i4) s += " dtype=int4";
    if (coin(0.4)) s += " cmatrixInitVal=0";
    line(s);
  }
  // A Mmad that hands the second half of L0C to Fixpipe by unitFlag (never accumulating there,
  // so that it books only L0C's write port and Fixpipe only its read port: see random_kernel.hpp).
  void mmad_unit_flag() {
    const uint64_t m = pick(1, 128), nn = pick(1, 64), k = pick(1, 128);
    line("Mmad dst=L0C:65536 fm=L0A:0 filter=L0B:0 m=" + n(m) + " n=" + n(nn) + " k=" + n(k) +
         " unitFlag=" + n(coin(0.6) ? 3 : 2));
  }
  void fixpipe(bool atomics = false) {
    const uint64_t ns = pick(1, 8) * 16, ms = pick(1, 128);
    // The output type sets the bytes (and the conversion); rows start 64-byte aligned, so some
    // are off gm.write.align_bytes; rows contiguous in GM (dstStride = nSize) or not.
    const std::string mode = one_of<std::string>(
        {"", "", " dtype=float quantPre=F322F16", " quantPre=REQ8 deqScalar=0x40003f800000"});
    // Under the atomic mode: the type the Fixpipe writes (int32 cells as they are, F322F16 half).
    const bool atomic = atomics && mode.find("REQ8") == std::string::npos && coin();
    if (atomic) line(std::string("SetAtomicAdd dtype=") + (mode.empty() ? "int32" : "half"));
    line("Fixpipe dst=c+" + n(pick(0, 1000) * 64) + " src=L0C:65536 nSize=" + n(ns) + " mSize=" + n(ms) +
         " srcStride=" + n((ms + 15) / 16 * 16) + " dstStride=" + n(ns + (coin() ? 0 : 16)) + mode +
         one_of<std::string>({"", "", " unitFlag=3", " unitFlag=2"}));
    if (atomic) line("SetAtomicNone");
  }
};

const std::vector<std::pair<std::string, std::string>>& legal_pairs() {
  static const std::vector<std::pair<std::string, std::string>> pairs = {
      {"M", "MTE1"},    {"M", "MTE2"},    {"M", "FIX"},  {"MTE1", "M"},    {"MTE1", "MTE2"},
      {"MTE1", "MTE3"}, {"MTE1", "FIX"},  {"MTE2", "M"}, {"MTE2", "MTE1"}, {"MTE2", "MTE3"},
      {"MTE3", "MTE1"}, {"MTE3", "MTE2"}, {"FIX", "M"},  {"FIX", "MTE1"},  {"S", "MTE2"},
      {"MTE2", "S"},    {"S", "MTE3"},    {"MTE3", "S"}, {"M", "S"},       {"FIX", "S"},
      {"FIX", "MTE3"},  {"FIX", "FIX"}};
  return pairs;
}

}  // namespace

std::string kernel(std::mt19937_64& rng, int count, const Extras& extras) {
  Gen g{rng, ""};
  std::vector<int> sync_at;  // instruction positions a SyncAll comes before
  for (int s = 0; s < extras.sync_alls; ++s) sync_at.push_back(static_cast<int>(g.pick(0, count)));
  std::sort(sync_at.begin(), sync_at.end());
  g.line(".gm a size=1048576");
  g.line(".gm c size=1048576");
  // Waits to place later: instructions from now, the WaitFlag line, its (pair, id).
  struct Wait {
    int in;
    std::string line;
    std::pair<size_t, int> flag;
  };
  std::vector<Wait> waits;
  // (pair, id) free to set: never set, or set and waited in program order. One set again soon
  // after its WaitFlag may land before that WaitFlag has run: held (docs/decisions.md).
  std::vector<std::pair<size_t, int>> unused;
  for (size_t p = 0; p < legal_pairs().size(); ++p)
    for (int id = 0; id < 8; ++id) unused.emplace_back(p, id);
  std::shuffle(unused.begin(), unused.end(), rng);
  for (int i = 0; i < count; ++i) {
    for (auto it = waits.begin(); it != waits.end();) {
      if (--it->in <= 0) {
        g.line(it->line);
        unused.push_back(it->flag);
        it = waits.erase(it);
      } else {
        ++it;
      }
    }
    for (; !sync_at.empty() && sync_at.front() <= i; sync_at.erase(sync_at.begin())) g.line("SyncAll");
    const uint64_t kind = g.pick(0, 99);
    if (kind < 14) {
      g.data_copy();
    } else if (kind < 20) {
      g.nd2nz();
    } else if (kind < 34) {
      if (g.coin(0.25))
        g.load3d();
      else if (g.coin(0.2))
        g.load_transpose();
      else
        g.load_data();
    } else if (kind < 40) {
      g.load_sparse();
    } else if (kind < 50) {
      g.mmad();
    } else if (kind < 56) {
      g.mmad_unit_flag();
    } else if (kind < 66) {
      g.fixpipe(extras.atomics);
    } else if (kind < 90 && !unused.empty()) {
      const auto [p, id] = unused.back();
      unused.pop_back();
      const std::string event = legal_pairs()[p].first + "_" + legal_pairs()[p].second;
      g.line("SetFlag event=" + event + " id=" + std::to_string(id));
      waits.push_back(Wait{
          static_cast<int>(g.pick(0, 12)), "WaitFlag event=" + event + " id=" + std::to_string(id), {p, id}});
    } else if (kind < 97) {
      g.line("PipeBarrier pipe=" + g.one_of<std::string>({"PIPE_MTE2", "PIPE_MTE1", "PIPE_M", "PIPE_FIX"}));
    } else {
      g.line("PipeBarrier pipe=PIPE_ALL");
    }
  }
  for (const auto& w : waits) g.line(w.line);
  for (size_t s = 0; s < sync_at.size(); ++s) g.line("SyncAll");
  return g.out;
}

std::vector<std::string> config_sets(std::mt19937_64& rng, int cores) {
  Gen g{rng, ""};
  auto set = [](const std::string& k, const std::string& v) { return k + "=" + v; };
  std::vector<std::string> s = {
      set("chip.cores", std::to_string(std::max(cores, 1))),
      set("chip.hbm.bytes_per_cycle", g.one_of<std::string>({"50", "200", "973"})),
      set("chip.hbm.bytes_per_cycle_per_core", g.one_of<std::string>({"20", "32", "1000"})),
      // Small caches, so that lines are evicted (the kernels touch about 40 KiB of each tensor).
      set("chip.l2.bytes", g.one_of<std::string>({"0", "8192", "65536", "201326592"})),
      set("chip.l2.line_bytes", g.one_of<std::string>({"128", "512"})),
      set("chip.l2.sector_bytes", g.one_of<std::string>({"32", "128"})),
      set("chip.l2.ways", g.one_of<std::string>({"1", "2", "16"})),
      set("chip.l2.read_bytes_per_cycle", g.one_of<std::string>({"100", "2703"})),
      set("chip.l2.write_bytes_per_cycle", g.one_of<std::string>({"80", "2703"})),
      set("chip.l2.read_bytes_per_cycle_per_core", g.one_of<std::string>({"60", "110"})),
      set("chip.l2.write_bytes_per_cycle_per_core", g.one_of<std::string>({"50", "86"})),
      set("chip.l2.nd2nz_read_share", g.one_of<std::string>({"0.5", "1"})),
      set("chip.l2.write_read_cost", g.one_of<std::string>({"0", "0.5", "1"})),
      set("chip.l2.same_address_penalty", g.one_of<std::string>({"0", "0.15", "2"})),
      set("chip.l2.unaligned_granule_bytes", g.one_of<std::string>({"32", "512"})),
      set("chip.l2.unaligned_read_cost", g.one_of<std::string>({"1", "1.9", "4"})),
      set("gm.read.bytes_per_cycle", g.one_of<std::string>({"32", "64.5", "150", "300"})),
      set("gm.read.latency_cycles", g.one_of<std::string>({"0", "7", "300"})),
      set("gm.read.overhead_cycles", g.one_of<std::string>({"0", "3"})),
      set("gm.write.bytes_per_cycle", g.one_of<std::string>({"16", "128"})),
      set("gm.write.latency_cycles", g.one_of<std::string>({"0", "50"})),
      set("gm.shared_bytes_per_cycle", g.one_of<std::string>({"24", "100", "256"})),
      set("mte1.to_l0a.latency_cycles", g.one_of<std::string>({"0", "28"})),
      set("mte1.to_l0b.overhead_cycles", g.one_of<std::string>({"0", "5"})),
      set("mte1.sparse.bytes_per_cycle", g.one_of<std::string>({"32", "128"})),
      set("cube.head_cycles", g.one_of<std::string>({"0", "4", "9", "61"})),
      set("cube.fixed_cycles", g.one_of<std::string>({"0", "1.8", "2"})),
      set("cube.float_k_per_cycle", g.one_of<std::string>({"4", "3"})),
      set("cube.int4_k_per_cycle", g.one_of<std::string>({"64", "61"})),
      set("gm.read.window_bytes", g.one_of<std::string>({"0", "2048", "20000"})),
      set("gm.read.row_cycles", g.one_of<std::string>({"0", "1.7"})),
      set("gm.write.window_bytes", g.one_of<std::string>({"0", "4096"})),
      set("gm.write.align_bytes", g.one_of<std::string>({"1", "128", "512"})),
      set("gm.write.unaligned_cost", g.one_of<std::string>({"1", "2", "3.5"})),
      set("issue.min_interval_mte2", g.one_of<std::string>({"0", "7"})),
      set("issue.min_interval_mte1", g.one_of<std::string>({"0", "4", "2.5"})),
      set("issue.min_interval_m", g.one_of<std::string>({"0", "4.62", "9"})),
      set("issue.min_interval_fix", g.one_of<std::string>({"0", "3.3"})),
      set("scalar.data_copy", g.one_of<std::string>({"0", "5"})),
      set("scalar.data_copy_nd2nz", g.one_of<std::string>({"0", "40"})),
      set("scalar.load_data", g.one_of<std::string>({"0", "2"})),
      set("scalar.load_data_with_sparse", g.one_of<std::string>({"0", "3"})),
      set("scalar.load_data_3dv2", g.one_of<std::string>({"0", "4"})),
      set("scalar.load_data_with_transpose", g.one_of<std::string>({"0", "5"})),
      set("scalar.mmad", g.one_of<std::string>({"0", "3"})),
      set("scalar.mmad_with_sparse", g.one_of<std::string>({"0", "1"})),
      set("scalar.fixpipe", g.one_of<std::string>({"0", "11"})),
      set("scalar.set_flag", g.one_of<std::string>({"0", "2"})),
      set("scalar.wait_flag", g.one_of<std::string>({"0", "1"})),
      set("scalar.pipe_barrier", g.one_of<std::string>({"0", "6"})),
      set("cube.latency_cycles", g.one_of<std::string>({"0", "5"})),
      set("fixpipe.elements_per_cycle", g.one_of<std::string>({"16", "64"})),
      set("fixpipe.overhead_cycles", g.one_of<std::string>({"0", "2", "20"})),
      set("issue.instructions_per_cycle", g.one_of<std::string>({"0.5", "1", "2"})),
      set("issue.queue_depth_mte2", g.one_of<std::string>({"1", "2", "32"})),
      set("issue.queue_depth_mte1", g.one_of<std::string>({"1", "4", "32"})),
      set("issue.queue_depth_m", g.one_of<std::string>({"1", "3", "32"})),
      set("issue.queue_depth_fix", g.one_of<std::string>({"1", "32"})),
      set("issue.queue_depth_mte3", g.one_of<std::string>({"1", "32"})),
      set("issue.sync_cycles", g.one_of<std::string>({"0", "1", "3"})),
      set("buffers.l0c_banks", g.one_of<std::string>({"2", "4", "16"})),
      set("buffers.l1_banks", g.one_of<std::string>({"1", "16"})),
      set("issue.sync_all_cycles", g.one_of<std::string>({"0", "7", "512"})),
      set("gm.write.atomic_share", g.one_of<std::string>({"0.3", "0.5", "1"})),
      set("mte1.share_during_l1_write", g.one_of<std::string>({"1", "0.75", "0.4"})),
  };
  return s;
}

}  // namespace randk
