// lop3_search: offline exhaustive search for minimal AMD GPU instruction
// sequences implementing each of the 256 PTX lop3.b32 truth tables.
//
// PTX semantics (ISA section 9.7.8.6): d_i = immLut[(a_i<<2)|(b_i<<1)|c_i],
// so every function of (a,b,c) is an 8-bit truth table, with the inputs
// a = 0xF0, b = 0xCC, c = 0xAA and the free inline constants 0 = 0x00 and
// -1 = 0xFF.  All AMD logic instructions used here are bitwise, so evaluating
// them on 8-bit truth tables is exact.
//
// Instructions (cost 1 each):
//   v_and_b32, v_or_b32, v_xor_b32, v_not_b32            all targets
//   v_xnor_b32                                           class 1 and 2
//   v_bfi_b32, v_and_or_b32, v_or3_b32 (VOP3)            all targets
//   v_xor3_b32 (VOP3)                                    class 2 only
// Target classes: 0 = gfx900, 1 = gfx90a/gfx942, 2 = gfx1030/gfx1100/gfx1200.
//
// Minimality: a breadth-first search over straight-line programs (DAGs).  A
// search state is the *set* of values computed so far; level d holds every
// set reachable with exactly d instructions (a program's behaviour for the
// purpose of extending it depends only on that set).  From each level-d state
// every instruction over {A,B,C,ZERO,ONES} U state is tried (commutative
// operand orders canonicalised, results already available skipped -- such an
// instruction can never be part of a minimal program).  A truth table first
// produced by an instruction applied to a level-d state needs exactly d+1
// instructions: every program of length <= d was enumerated (up to the
// harmless pruning above) when levels 0..d-1 were expanded.  Levels are
// expanded until all 256 tables are found, so whatever the maximum length is,
// it is proven minimal.
//
// Tie-break among equally short programs: fewer VOP3 instructions (v_bfi,
// v_and_or, v_or3, v_xor3) first; each state keeps the fewest-VOP3 program
// reaching it, which is exact because a prefix's VOP3 count is independent of
// how it is extended.  Remaining ties: first found in a deterministic order.
//
// Usage: lop3_search [output.inc]   (default: stdout); statistics on stderr.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

enum Op : uint8_t { And, Or, Xor, Xnor, Not, Bfi, AndOr, Or3, Xor3, NumOps };
const char *const kOpName[NumOps] = {"And", "Or",    "Xor", "Xnor", "Not",
                                     "Bfi", "AndOr", "Or3", "Xor3"};
const bool kVop3[NumOps] = {false, false, false, false, false,
                            true,  true,  true,  true};

// Operand indices: 0..4 are the fixed sources, 5+i is the result of step i.
constexpr int kA = 0, kB = 1, kC = 2, kZero = 3, kOnes = 4, kNumFixed = 5;
constexpr int kNone = 255;
constexpr uint8_t kFixedVal[kNumFixed] = {0xF0, 0xCC, 0xAA, 0x00, 0xFF};
constexpr int kMaxSteps = 8; // far more than ever needed; checked at runtime
static_assert(kMaxSteps * 8 <= 64, "state key packs kMaxSteps 8-bit values into 64 bits");

bool isConst(int idx) { return idx == kZero || idx == kOnes; }

bool opAvailable(int cls, Op op) {
  if (op == Xnor) return cls >= 1;
  if (op == Xor3) return cls >= 2;
  return true;
}

uint8_t evalOp(Op op, uint8_t x, uint8_t y, uint8_t z) {
  switch (op) {
  case And: return x & y;
  case Or: return x | y;
  case Xor: return x ^ y;
  case Xnor: return static_cast<uint8_t>(~(x ^ y));
  case Not: return static_cast<uint8_t>(~x);
  case Bfi: return static_cast<uint8_t>((x & y) | (~x & z));
  case AndOr: return static_cast<uint8_t>((x & y) | z);
  case Or3: return x | y | z;
  case Xor3: return x ^ y ^ z;
  default: std::abort();
  }
}

struct Step {
  Op op;
  uint8_t s[3]; // operand indices, kNone when unused
};

struct State {
  uint8_t n = 0;     // number of steps
  uint8_t vop3 = 0;  // number of VOP3 steps
  uint8_t vals[kMaxSteps];
  Step steps[kMaxSteps];
};

struct Mask256 {
  uint64_t w[4] = {0, 0, 0, 0};
  void set(unsigned v) { w[v >> 6] |= uint64_t(1) << (v & 63); }
  bool test(unsigned v) const { return (w[v >> 6] >> (v & 63)) & 1; }
};

// Enumerate every non-redundant instruction over the values vals[0..n)
// (vals[0..4] are the fixed sources).  Commutative operand orders are
// canonicalised (constants go to S0, as VOP2 requires src1 to be a VGPR);
// instructions whose operands are all constants, or whose result is already
// in `avail`, are skipped.  cb(op, s0, s1, s2, result).
template <class F>
void enumerate(int cls, const uint8_t *vals, int n, const Mask256 &avail, F &&cb) {
  auto emit = [&](Op op, int i, int j, int k, uint8_t r) {
    if (!avail.test(r)) cb(op, i, j, k, r);
  };
  // VOP1 not and VOP2 first (not before xor/xnor with ONES).
  for (int i = 0; i < n; ++i) {
    if (isConst(i)) continue;
    emit(Not, i, kNone, kNone, evalOp(Not, vals[i], 0, 0));
  }
  for (int opi = And; opi <= Xnor; ++opi) {
    Op op = static_cast<Op>(opi);
    if (!opAvailable(cls, op)) continue;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        if (isConst(i) && isConst(j)) continue;
        int s0 = i, s1 = j;
        if (isConst(j)) std::swap(s0, s1); // constant into S0
        emit(op, s0, s1, kNone, evalOp(op, vals[i], vals[j], 0));
      }
  }
  // VOP3.
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        if (isConst(i) && isConst(j) && isConst(k)) continue;
        emit(Bfi, i, j, k, evalOp(Bfi, vals[i], vals[j], vals[k]));
      }
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        if (isConst(i) && isConst(j) && isConst(k)) continue;
        int s0 = i, s1 = j;
        if (isConst(j)) std::swap(s0, s1);
        emit(AndOr, s0, s1, k, evalOp(AndOr, vals[i], vals[j], vals[k]));
      }
  for (int opi = Or3; opi <= Xor3; ++opi) {
    Op op = static_cast<Op>(opi);
    if (!opAvailable(cls, op)) continue;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j)
        for (int k = j + 1; k < n; ++k) {
          if (isConst(i) && isConst(j) && isConst(k)) continue;
          // i<j<k and constants (3,4) sort after inputs (0..2): move constants first.
          int s[3] = {i, j, k};
          std::stable_partition(s, s + 3, [](int x) { return isConst(x); });
          emit(op, s[0], s[1], s[2], evalOp(op, vals[i], vals[j], vals[k]));
        }
  }
}

void stateVals(const State &st, uint8_t *vals, Mask256 &avail) {
  for (int i = 0; i < kNumFixed; ++i) {
    vals[i] = kFixedVal[i];
    avail.set(kFixedVal[i]);
  }
  for (int i = 0; i < st.n; ++i) {
    vals[kNumFixed + i] = st.vals[i];
    avail.set(st.vals[i]);
  }
}

uint64_t stateKey(const State &st, uint8_t extra) {
  uint8_t v[kMaxSteps + 1];
  int n = st.n;
  std::copy(st.vals, st.vals + n, v);
  v[n++] = extra;
  for (int i = 1; i < n; ++i) // insertion sort (n <= kMaxSteps)
    for (int j = i; j > 0 && v[j - 1] > v[j]; --j) std::swap(v[j - 1], v[j]);
  uint64_t key = 0;
  for (int i = 0; i < n; ++i) key = (key << 8) | v[i];
  return key;
}

struct Best {
  int len = -1; // -1: not found yet
  State prog;   // prog.vals[len-1] == lut
};

struct ClassResult {
  std::array<Best, 256> best;
  size_t statesPerLevel[kMaxSteps + 1] = {};
};

ClassResult searchClass(int cls) {
  ClassResult res;
  auto &best = res.best;
  int found = 0;
  for (int i = 0; i < kNumFixed; ++i) {
    best[kFixedVal[i]].len = 0;
    ++found;
  }
  std::vector<State> level(1); // level 0: the empty program
  res.statesPerLevel[0] = 1;
  for (int d = 0; found < 256; ++d) {
    if (d + 1 > kMaxSteps) {
      std::fprintf(stderr, "lop3_search: class %d needs more than %d steps\n", cls, kMaxSteps);
      std::exit(1);
    }
    // 1) Every truth table first produced by one more instruction on a
    //    level-d state needs exactly d+1 instructions.
    for (const State &st : level) {
      uint8_t vals[kNumFixed + kMaxSteps];
      Mask256 avail;
      stateVals(st, vals, avail);
      int n = kNumFixed + st.n;
      enumerate(cls, vals, n, avail, [&](Op op, int s0, int s1, int s2, uint8_t r) {
        Best &b = best[r];
        if (b.len >= 0 && b.len <= d) return; // already shorter
        int vop3 = st.vop3 + (kVop3[op] ? 1 : 0);
        if (b.len == d + 1 && b.prog.vop3 <= vop3) return;
        if (b.len < 0) ++found;
        b.len = d + 1;
        b.prog = st;
        b.prog.steps[st.n] = Step{op, {uint8_t(s0), uint8_t(s1), uint8_t(s2)}};
        b.prog.vals[st.n] = r;
        b.prog.n = st.n + 1;
        b.prog.vop3 = uint8_t(vop3);
      });
    }
    if (found == 256) break;
    // 2) Otherwise build level d+1: all distinct value sets reachable with
    //    d+1 instructions, each with its fewest-VOP3 program.
    std::vector<State> next;
    std::unordered_map<uint64_t, uint32_t> index;
    index.reserve(level.size() * 64);
    for (const State &st : level) {
      uint8_t vals[kNumFixed + kMaxSteps];
      Mask256 avail;
      stateVals(st, vals, avail);
      int n = kNumFixed + st.n;
      enumerate(cls, vals, n, avail, [&](Op op, int s0, int s1, int s2, uint8_t r) {
        int vop3 = st.vop3 + (kVop3[op] ? 1 : 0);
        uint64_t key = stateKey(st, r);
        auto it = index.find(key);
        if (it != index.end() && next[it->second].vop3 <= vop3) return;
        State ns = st;
        ns.steps[st.n] = Step{op, {uint8_t(s0), uint8_t(s1), uint8_t(s2)}};
        ns.vals[st.n] = r;
        ns.n = st.n + 1;
        ns.vop3 = uint8_t(vop3);
        if (it == index.end()) {
          index.emplace(key, uint32_t(next.size()));
          next.push_back(ns);
        } else {
          next[it->second] = ns;
        }
      });
    }
    level.swap(next);
    res.statesPerLevel[d + 1] = level.size();
  }
  return res;
}

// Independent re-evaluation of an emitted program on the 8-bit tables.
uint8_t evalProgram(const State &p) {
  std::vector<uint8_t> v(kFixedVal, kFixedVal + kNumFixed);
  for (int i = 0; i < p.n; ++i) {
    const Step &s = p.steps[i];
    auto get = [&](uint8_t idx) -> uint8_t {
      if (idx == kNone) return 0;
      if (idx >= v.size()) { std::fprintf(stderr, "bad operand\n"); std::exit(1); }
      return v[idx];
    };
    v.push_back(evalOp(s.op, get(s.s[0]), get(s.s[1]), get(s.s[2])));
  }
  return v.back();
}

std::string operandName(uint8_t idx) {
  static const char *const fixed[kNumFixed] = {"A", "B", "C", "ZERO", "ONES"};
  if (idx == kNone) return "NONE";
  if (idx < kNumFixed) return fixed[idx];
  return "T" + std::to_string(idx - kNumFixed);
}

} // namespace

int main(int argc, char **argv) {
  auto t0 = std::chrono::steady_clock::now();
  ClassResult results[3];
  int maxLen = 0;
  bool ok = true;
  for (int cls = 0; cls < 3; ++cls) {
    auto tc = std::chrono::steady_clock::now();
    results[cls] = searchClass(cls);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - tc).count();
    int hist[kMaxSteps + 1] = {};
    int vop3Total = 0;
    for (int lut = 0; lut < 256; ++lut) {
      const Best &b = results[cls].best[lut];
      ++hist[b.len];
      maxLen = std::max(maxLen, b.len);
      vop3Total += b.prog.vop3;
      // Self-check.
      if (b.len > 0) {
        if (b.prog.n != b.len || evalProgram(b.prog) != lut) {
          std::fprintf(stderr, "SELF-CHECK FAILED: class %d lut 0x%02X\n", cls, lut);
          ok = false;
        }
        for (int i = 0; i < b.prog.n; ++i) {
          const Step &s = b.prog.steps[i];
          if (!opAvailable(cls, s.op)) ok = false;
          int nconst = 0, nused = 0;
          for (uint8_t x : s.s)
            if (x != kNone) { ++nused; nconst += isConst(x); }
          if (nconst == nused) ok = false;
        }
      } else {
        bool isFixed = false;
        for (uint8_t v : kFixedVal) isFixed |= (v == lut);
        if (!isFixed) ok = false;
      }
    }
    std::fprintf(stderr, "class %d: ", cls);
    for (int l = 0; l <= kMaxSteps; ++l)
      if (hist[l]) std::fprintf(stderr, "len%d=%d ", l, hist[l]);
    std::fprintf(stderr, "| total VOP3 steps %d | states per level:", vop3Total);
    for (int l = 0; l <= kMaxSteps && results[cls].statesPerLevel[l]; ++l)
      std::fprintf(stderr, " %zu", results[cls].statesPerLevel[l]);
    std::fprintf(stderr, " | %.3f s\n", secs);
  }
  if (!ok) {
    std::fprintf(stderr, "lop3_search: self-check FAILED\n");
    return 1;
  }
  if (maxLen > 4) {
    // The .inc operand vocabulary only names T0..T3.
    std::fprintf(stderr, "lop3_search: max length %d exceeds the T0..T3 operand vocabulary\n", maxLen);
    return 1;
  }

  FILE *out = stdout;
  if (argc > 1) {
    out = std::fopen(argv[1], "w");
    if (!out) { std::perror(argv[1]); return 1; }
  }
  std::fprintf(out,
               "// Generated by rules/lop3_search.cpp -- do not edit. Minimal sequences "
               "(exhaustive search, lengths <= %d proven minimal).\n",
               maxLen);
  std::fprintf(out, "// {class, lut, steps, {{op, s0, s1, s2}, ...}}; operands: A B C ZERO ONES "
                    "T0 T1 T2 T3 (Ti = result of step i); unused = NONE\n");
  for (int cls = 0; cls < 3; ++cls)
    for (int lut = 0; lut < 256; ++lut) {
      const Best &b = results[cls].best[lut];
      std::string body;
      for (int i = 0; i < b.len; ++i) {
        const Step &s = b.prog.steps[i];
        if (i) body += ", ";
        body += "{Lop3Op::" + std::string(kOpName[s.op]) + ", " + operandName(s.s[0]) + ", " +
                operandName(s.s[1]) + ", " + operandName(s.s[2]) + "}";
      }
      std::fprintf(out, "{%d, 0x%02X, %d, {%s}},\n", cls, lut, b.len, body.c_str());
    }
  if (out != stdout) std::fclose(out);
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::fprintf(stderr, "max length %d (all lengths proven minimal by exhaustive BFS); run time %.3f s\n",
               maxLen, total);
  return 0;
}
