#include "kernel/analysis/uniform_values.hpp"
#include "kernel/analysis/work_counter.hpp"

#include "kernel/analysis/control_flow_graph.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace p2a::kernel {

namespace {

// Words held per statement position, added over ranges, with the maximum
// over a range (a segment tree with lazy additions: O(log n) each).
class RangePressure {
public:
  explicit RangePressure(size_t n) : n_(std::max<size_t>(n, 1)), max_(4 * n_, 0), add_(4 * n_, 0) {}
  unsigned max(size_t a, size_t b) const { return max(1, 0, n_ - 1, a, b); }
  void add(size_t a, size_t b, unsigned w) { add(1, 0, n_ - 1, a, b, w); }

private:
  size_t n_;
  std::vector<unsigned> max_, add_;
  unsigned max(size_t node, size_t lo, size_t hi, size_t a, size_t b) const {
    if (b < lo || hi < a)
      return 0;
    if (a <= lo && hi <= b)
      return max_[node];
    const size_t mid = (lo + hi) / 2;
    return add_[node] + std::max(max(2 * node, lo, mid, a, b), max(2 * node + 1, mid + 1, hi, a, b));
  }
  void add(size_t node, size_t lo, size_t hi, size_t a, size_t b, unsigned w) {
    if (b < lo || hi < a)
      return;
    if (a <= lo && hi <= b) {
      max_[node] += w;
      add_[node] += w;
      return;
    }
    const size_t mid = (lo + hi) / 2;
    add(2 * node, lo, mid, a, b, w);
    add(2 * node + 1, mid + 1, hi, a, b, w);
    max_[node] = add_[node] + std::max(max_[2 * node], max_[2 * node + 1]);
  }
};

// Where each register is held, as register assignment sees it (no holes):
// from its first to its last mark, an access or the start of a block it is
// live into or the end of one it is live out of.
std::unordered_map<std::string, std::pair<size_t, size_t>> registerExtents(const Kernel &k, const ControlFlowGraph &g,
                                                                 const RegisterLiveness &live) {
  std::unordered_map<std::string, std::pair<size_t, size_t>> extent;
  auto mark = [&](const std::string &r, size_t i) {
    auto [it, fresh] = extent.try_emplace(r, i, i);
    if (!fresh) {
      it->second.first = std::min(it->second.first, i);
      it->second.second = std::max(it->second.second, i);
    }
  };
  for (size_t i = 0; i < k.body.size(); ++i) {
    for (const std::string &r : writtenRegisters(k.body[i]))
      mark(r, i);
    for (const std::string &r : readRegisters(k.body[i]))
      mark(r, i);
  }
  std::vector<const std::string *> name(live.index.size());
  for (const auto &[r, bit] : live.index)
    name[bit] = &r;
  for (unsigned b = 0; b < g.numBlocks && !k.body.empty(); ++b) {
    for (unsigned bit : live.liveIn[b])
      mark(*name[bit], g.blockStart[b]);
    for (unsigned bit : live.liveOut[b])
      mark(*name[bit], g.blockEnd(b) > g.blockStart[b] ? g.blockEnd(b) - 1 : g.blockStart[b]);
  }
  return extent;
}

bool isModuleVariable(const Kernel &k, const std::string &name) {
  const Variable *v = k.variable(name);
  return v && (v->space == Space::Const || v->space == Space::Global);
}

// A load the scalar unit can make for the whole wave (Vega ISA 5 "Scalar
// memory"): one 32- or 64-bit element of memory the kernel never writes
// (.const, or .global through .nc), at a non-negative dword-aligned offset
// within s_load's 20-bit immediate, from a module variable or a register
// (whose uniformity the caller decides). The scalar cache is not coherent
// with vector stores, which read-only memory never sees.
bool scalarLoadShape(const Kernel &k, const Stmt &st, unsigned bits) {
  return st.kind == Stmt::Kind::Load && (st.space == Space::Const || (st.space == Space::Global && st.nonCoherent)) &&
         st.values.size() == 1 && st.values[0].isReg() && (st.elemBits == 32 || st.elemBits == 64) &&
         bits == st.elemBits && st.offset >= 0 && st.offset % 4 == 0 && st.offset < (int64_t(1) << 20) &&
         (st.baseIsSymbol ? isModuleVariable(k, st.base)
                          : k.registers.count(st.base) && k.registers.at(st.base).width == 64);
}

// The registers a scalar statement reads (a load: its base address).
std::vector<std::string> scalarSources(const Stmt &st) {
  std::vector<std::string> out;
  if (st.kind == Stmt::Kind::Compute) {
    for (const ptx::Operand &o : st.inst.srcs)
      if (o.isReg())
        out.push_back(o.reg);
  } else if (st.kind == Stmt::Kind::Load && !st.baseIsSymbol) {
    out.push_back(st.base);
  }
  return out;
}

// Values that change while the kernel runs (see the header): a greatest
// fixed point over the candidates, whose writes are all scalar-rule
// statements; each round drops those reading a non-uniform source, those
// past the SGPR budget, and those a write could change under waiting lanes.
void varyingValues(const Kernel &k, const ControlFlowGraph &g, const std::vector<bool> &barrierBlock,
                   const std::function<bool(const Stmt &)> &scalarRule, unsigned budgetWords,
                   const RegisterLiveness &live, const std::unordered_map<std::string, std::pair<size_t, size_t>> &extent,
                   const RangePressure &homes, const std::vector<std::vector<std::string>> &writtenBy,
                   const std::unordered_set<std::string> &found, UniformValues &u) {
  std::unordered_map<std::string, std::vector<size_t>> writers;
  for (size_t i = 0; i < k.body.size(); ++i)
    for (const std::string &r : writtenBy[i])
      writers[r].push_back(i);
  // (Each statement's scalar sources, made once: the rounds below ask again.)
  std::vector<std::vector<std::string>> sourcesOf(k.body.size());
  for (const auto &[r, ws] : writers)
    for (size_t w : ws)
      if (sourcesOf[w].empty())
        sourcesOf[w] = scalarSources(k.body[w]);
  auto width = [&](const std::string &r) {
    auto it = k.registers.find(r);
    return it == k.registers.end() ? 0u : it->second.width;
  };
  auto eligible = [&](size_t i) {
    const Stmt &st = k.body[i];
    const std::vector<std::string> &written = writtenBy[i];
    if (!st.guard.empty() || written.size() != 1 || barrierBlock[g.blockOf[i]])
      return false;
    const unsigned bits = width(written[0]);
    if (st.kind == Stmt::Kind::AddressOf)
      return bits == 64 && isModuleVariable(k, st.symbol);
    if (st.kind == Stmt::Kind::Load)
      return scalarLoadShape(k, st, bits);
    return st.kind == Stmt::Kind::Compute && st.inst.dsts.size() == 1 &&
           (bits == 32 || bits == 64 || (bits == 1 && st.inst.form.opcode == ptx::Opcode::Setp)) && scalarRule(st);
  };
  // (A register only ever set to constants or addresses is not worth an
  // SGPR: an immediate or a v_mov serves, as for the values written once.)
  auto readsRegister = [&](size_t i) {
    return k.body[i].kind == Stmt::Kind::Load || !scalarSources(k.body[i]).empty();
  };
  std::unordered_set<std::string> varying; // (its result does not depend on the order it is walked in)
  for (const auto &[r, ws] : writers)
    if (!found.count(r) && std::all_of(ws.begin(), ws.end(), eligible) &&
        std::any_of(ws.begin(), ws.end(), readsRegister))
      varying.insert(r);
  std::vector<bool> uniformEnd(g.numBlocks, false);
  for (bool changed = true; changed && !varying.empty();) {
    changed = false;
    countWork(k.body.size());
    auto drop = [&](const std::string &r) {
      varying.erase(r);
      changed = true;
    };
    for (bool dropped = true; dropped;) {
      dropped = false;
      for (auto it = varying.begin(); it != varying.end();) {
        bool sourcesUniform = true;
        for (size_t w : writers[*it])
          for (const std::string &src : sourcesOf[w])
            sourcesUniform = sourcesUniform && (found.count(src) || varying.count(src));
        if (sourcesUniform) {
          ++it;
        } else {
          it = varying.erase(it);
          dropped = changed = true;
        }
      }
    }
    std::vector<std::pair<size_t, std::string>> byFirstWrite;
    for (const std::string &r : varying)
      byFirstWrite.push_back({writers[r].front(), r});
    std::sort(byFirstWrite.begin(), byFirstWrite.end());
    RangePressure pressure = homes;
    for (const auto &[first, r] : byFirstWrite) {
      const unsigned words = width(r) / 32;
      const auto [from, to] = extent.at(r);
      if (pressure.max(from, to) + words > budgetWords)
        drop(r);
      else
        pressure.add(from, to, words);
    }
    for (unsigned b = 0; b < g.numBlocks; ++b) {
      const size_t end = g.blockEnd(b);
      const Stmt *last = end > g.blockStart[b] ? &k.body[end - 1] : nullptr;
      uniformEnd[b] = last && last->kind == Stmt::Kind::Branch && varying.count(last->guard) &&
                      !barrierBlock[b];
    }
    const WaitingLanes waiting(g, uniformEnd);
    for (auto it = varying.begin(); it != varying.end();) {
      bool safe = true;
      for (size_t w : writers[*it])
        for (unsigned z = 0; z < g.numBlocks && safe; ++z)
          safe = !(waiting.mayWait(g.blockOf[w], z) && live.liveInAt(*it, z));
      if (safe) {
        ++it;
      } else {
        it = varying.erase(it);
        changed = true;
      }
    }
  }
  for (const std::string &r : varying) {
    u.registers.emplace(r, UniformSource{UniformSource::Kind::Computed, 0, 0, width(r), r});
    u.scalarStatements.insert(writers[r].begin(), writers[r].end());
  }
  for (unsigned b = 0; b < g.numBlocks; ++b)
    if (uniformEnd[b] && varying.count(k.body[g.blockEnd(b) - 1].guard))
      u.uniformBranches.insert(g.blockEnd(b) - 1);
}

} // namespace

UniformValues uniformValues(const Kernel &k, const std::function<bool(const Stmt &)> &scalarRuleOf,
                            unsigned maxHomeWords, unsigned preloadedArgumentBytes) {
  const size_t n = k.body.size();
  // The question is asked again in each round of both fixed points: answer
  // it once per statement.
  std::vector<signed char> hasScalarRule(n, -1);
  const std::function<bool(const Stmt &)> scalarRule = [&](const Stmt &st) {
    signed char &known = hasScalarRule[static_cast<size_t>(&st - k.body.data())];
    if (known < 0)
      known = scalarRuleOf(st) ? 1 : 0;
    return known == 1;
  };
  std::unordered_map<std::string, unsigned> writes;
  std::unordered_map<std::string, std::vector<size_t>> readers;
  std::vector<std::vector<std::string>> writtenBy(n); // (asked again in every round)
  for (size_t i = 0; i < n; ++i) {
    writtenBy[i] = writtenRegisters(k.body[i]);
    for (const std::string &r : writtenBy[i])
      ++writes[r];
    for (const std::string &r : readRegisters(k.body[i]))
      readers[r].push_back(i);
  }
  auto width = [&](const std::string &r) {
    auto it = k.registers.find(r);
    return it == k.registers.end() ? 0u : it->second.width;
  };

  // Does the write at statement `def` reach every read of `r` on every path?
  const ControlFlowGraph g = controlFlowGraph(k);
  const Dominators dom(g);
  std::vector<bool> barrierBlock(g.numBlocks);
  for (unsigned b = 0; b < g.numBlocks; ++b)
    barrierBlock[b] = blockHasBarrier(k, g, b);
  auto dominatesReads = [&](const std::string &r, size_t def) {
    const unsigned bd = g.blockOf[def];
    for (size_t j : readers[r]) {
      const unsigned bj = g.blockOf[j];
      if (bj == bd ? j <= def : !dom.dominates(bd, bj))
        return false;
    }
    return true;
  };

  // Homes are SGPRs assigned by liveness: at most maxHomeWords held at once.
  const RegisterLiveness live = registerLiveness(k, g);
  const std::unordered_map<std::string, std::pair<size_t, size_t>> extent = registerExtents(k, g, live);
  RangePressure homes(n);

  UniformValues u;
  std::map<std::string, UniformSource> &found = u.registers;
  std::unordered_set<std::string> isFound; // found's names, hashed for the lookups below
  for (bool changed = true; changed;) {
    changed = false;
    countWork(n);
    for (size_t i = 0; i < n; ++i) {
      const Stmt &st = k.body[i];
      const std::vector<std::string> &written = writtenBy[i];
      if (!st.guard.empty() || written.size() != 1 || writes[written[0]] != 1 || isFound.count(written[0]))
        continue;
      const std::string &r = written[0];
      const unsigned bits = width(r);
      std::optional<UniformSource> src;
      bool computed = false;
      if (st.kind == Stmt::Kind::Load && st.space == Space::Param && st.values.size() == 1) {
        const Param *p = k.param(st.base);
        const int64_t off = p ? int64_t(p->offset) + st.offset : -1;
        const bool whole = p && off >= 0 && off % 4 == 0 && (st.elemBits == 32 || st.elemBits == 64) &&
                           bits == st.elemBits;
        if (whole && (st.elemBits == 32 || off % 8 == 0) && uint64_t(off) + bits / 8 <= preloadedArgumentBytes)
          src = UniformSource{UniformSource::Kind::Argument, static_cast<unsigned>(off), 0, bits, ""};
        else if (whole && uint64_t(off) + bits / 8 > preloadedArgumentBytes)
          computed = true; // past the preloaded ones: one s_load from the kernarg segment
      } else if (st.kind == Stmt::Kind::ReadSpecial && bits == 32 &&
                 (st.special == Special::Ctaid || st.special == Special::Nctaid)) {
        src = UniformSource{st.special == Special::Ctaid ? UniformSource::Kind::WorkgroupId : UniformSource::Kind::GridSize,
                            0, st.dim, 32, ""};
      } else if (st.kind == Stmt::Kind::ReadSpecial && bits == 32 && st.special == Special::Ntid) {
        computed = true;
      } else if (st.kind == Stmt::Kind::AddressOf && bits == 64 && isModuleVariable(k, st.symbol)) {
        src = UniformSource{UniformSource::Kind::VariableAddress, 0, 0, 64, "", st.symbol};
      } else if (st.kind == Stmt::Kind::Load) {
        // (Read-only memory at an unchanging address: the same value every time.)
        computed = scalarLoadShape(k, st, bits) && (st.baseIsSymbol || isFound.count(st.base));
      } else {
        std::string from;
        if (st.kind == Stmt::Kind::Cvta && st.symbol.empty() && (st.space == Space::Global || st.space == Space::Const) &&
            st.srcs.size() == 1 && st.srcs[0].isReg())
          from = st.srcs[0].reg;
        if (st.kind == Stmt::Kind::Compute && st.inst.form.opcode == ptx::Opcode::Mov &&
            st.inst.form.type == ptx::TypeClass::B && st.inst.srcs.size() == 1 && st.inst.srcs[0].isReg())
          from = st.inst.srcs[0].reg;
        if (!from.empty()) {
          if (isFound.count(from) && width(from) == bits)
            src = found.at(from);
        } else if (st.kind == Stmt::Kind::Compute && st.inst.dsts.size() == 1 && (bits == 32 || bits == 64)) {
          // (A constant is not worth an SGPR: an immediate or one v_mov serves.)
          bool sourcesUniform = true, anyRegister = false;
          for (const ptx::Operand &o : st.inst.srcs) {
            sourcesUniform = sourcesUniform && (!o.isReg() || isFound.count(o.reg));
            anyRegister = anyRegister || o.isReg();
          }
          computed = sourcesUniform && anyRegister && scalarRule(st);
        }
      }
      const auto [from, to] = extent.at(r);
      if (computed && dominatesReads(r, i) && !barrierBlock[g.blockOf[i]] &&
          homes.max(from, to) + bits / 32 <= maxHomeWords) {
        src = UniformSource{UniformSource::Kind::Computed, 0, 0, bits, r};
        u.scalarStatements.insert(i);
        homes.add(from, to, bits / 32);
      }
      if (src) {
        found.emplace(r, *src);
        isFound.insert(r);
        changed = true;
      }
    }
  }
  varyingValues(k, g, barrierBlock, scalarRule, maxHomeWords, live, extent, homes, writtenBy, isFound, u);
  return u;
}

} // namespace p2a::kernel
