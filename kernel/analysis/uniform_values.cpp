#include "kernel/analysis/uniform_values.hpp"
#include "kernel/analysis/work_counter.hpp"

#include "kernel/analysis/control_flow_graph.hpp"
#include "kernel/analysis/register_numbering.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

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
// live into or the end of one it is live out of. Per register id.
std::vector<std::pair<size_t, size_t>> registerExtents(const Kernel &k, const ControlFlowGraph &g,
                                                       const RegisterLiveness &live) {
  const RegisterNumbering &ids = live.numbering;
  std::vector<std::pair<size_t, size_t>> extent(ids.size(), {SIZE_MAX, 0});
  auto mark = [&](unsigned r, size_t i) {
    extent[r].first = std::min(extent[r].first, i);
    extent[r].second = std::max(extent[r].second, i);
  };
  for (size_t i = 0; i < k.body.size(); ++i) {
    for (unsigned r : ids.writes(i))
      mark(r, i);
    for (unsigned r : ids.reads(i))
      mark(r, i);
  }
  for (unsigned b = 0; b < g.numBlocks && !k.body.empty(); ++b) {
    for (unsigned r : live.liveIn[b])
      mark(r, g.blockStart[b]);
    for (unsigned r : live.liveOut[b])
      mark(r, g.blockEnd(b) > g.blockStart[b] ? g.blockEnd(b) - 1 : g.blockStart[b]);
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
         st.extra().values.size() == 1 && st.extra().values[0].isReg() && (st.elemBits == 32 || st.elemBits == 64) &&
         bits == st.elemBits && st.offset >= 0 && st.offset % 4 == 0 && st.offset < (int64_t(1) << 20) &&
         (st.baseIsSymbol ? isModuleVariable(k, st.extra().base)
                          : k.registers.count(st.extra().base) && k.registers.at(st.extra().base).width == 64);
}

// The registers a scalar statement reads (a load: its base address), by id:
// an unguarded Compute's register sources or a Load's base register, as the
// numbering lists them.
llvm::ArrayRef<unsigned> scalarSources(const Kernel &k, const RegisterNumbering &ids, size_t i) {
  const Stmt &st = k.body[i];
  if (!st.guard.empty() || (st.kind != Stmt::Kind::Compute && st.kind != Stmt::Kind::Load))
    return {};
  return ids.reads(i);
}

// Per register id, the statements writing (or reading) it, in order: one
// flat list (a register's statements are a slice of it).
class StatementsByRegister {
public:
  StatementsByRegister(const RegisterNumbering &ids, size_t n,
                       llvm::function_ref<llvm::ArrayRef<unsigned>(size_t)> accessed)
      : start_(ids.size() + 1, 0) {
    for (size_t i = 0; i < n; ++i)
      for (unsigned r : accessed(i))
        ++start_[r + 1];
    for (size_t r = 0; r < ids.size(); ++r)
      start_[r + 1] += start_[r];
    list_.resize(start_.back());
    std::vector<size_t> next(start_.begin(), start_.end() - 1);
    for (size_t i = 0; i < n; ++i)
      for (unsigned r : accessed(i))
        list_[next[r]++] = i;
  }
  llvm::ArrayRef<size_t> operator[](unsigned r) const {
    return llvm::ArrayRef<size_t>(list_).slice(start_[r], start_[r + 1] - start_[r]);
  }

private:
  std::vector<size_t> start_, list_;
};

// What both fixed points know of every register, by id.
struct RegisterFacts {
  const RegisterNumbering &ids;
  std::vector<unsigned> width;                 // 0: undeclared
  StatementsByRegister writers;                // (a register's write count: its writers' number)
  std::vector<std::pair<size_t, size_t>> extent;
  std::vector<char> found;                     // uniform, written once (the first fixed point)
};

// Values that change while the kernel runs (see the header): a greatest
// fixed point over the candidates, whose writes are all scalar-rule
// statements; each round drops those reading a non-uniform source, those
// past the SGPR budget, and those a write could change under waiting lanes.
void varyingValues(const Kernel &k, const ControlFlowGraph &g, const std::vector<bool> &barrierBlock,
                   const std::function<bool(const Stmt &)> &scalarRule, unsigned budgetWords,
                   const RegisterLiveness &live, const RegisterFacts &facts, const RangePressure &homes,
                   UniformValues &u) {
  const RegisterNumbering &ids = facts.ids;
  auto eligible = [&](size_t i) {
    const Stmt &st = k.body[i];
    const llvm::ArrayRef<unsigned> written = ids.writes(i);
    if (!st.guard.empty() || written.size() != 1 || barrierBlock[g.blockOf[i]])
      return false;
    const unsigned bits = facts.width[written[0]];
    if (st.kind == Stmt::Kind::AddressOf)
      return bits == 64 && isModuleVariable(k, st.extra().symbol);
    if (st.kind == Stmt::Kind::Load)
      return scalarLoadShape(k, st, bits);
    return st.kind == Stmt::Kind::Compute && st.inst.dsts.size() == 1 &&
           (bits == 32 || bits == 64 || (bits == 1 && st.inst.form.opcode == ptx::Opcode::Setp)) && scalarRule(st);
  };
  // (A register only ever set to constants or addresses is not worth an
  // SGPR: an immediate or a v_mov serves, as for the values written once.)
  auto readsRegister = [&](size_t i) {
    return k.body[i].kind == Stmt::Kind::Load || !scalarSources(k, ids, i).empty();
  };
  std::vector<char> isVarying(ids.size(), 0);
  std::vector<unsigned> varying; // (its result does not depend on the order it is walked in)
  for (unsigned r = 0; r < ids.size(); ++r) {
    const llvm::ArrayRef<size_t> ws = facts.writers[r];
    if (!ws.empty() && !facts.found[r] && std::all_of(ws.begin(), ws.end(), eligible) &&
        std::any_of(ws.begin(), ws.end(), readsRegister)) {
      isVarying[r] = 1;
      varying.push_back(r);
    }
  }
  // Keeps the candidates `keep` accepts; says whether any was dropped.
  auto keepOnly = [&](auto keep) {
    const size_t before = varying.size();
    size_t kept = 0;
    for (unsigned r : varying) {
      if (keep(r))
        varying[kept++] = r;
      else
        isVarying[r] = 0;
    }
    varying.resize(kept);
    return kept != before;
  };
  // Per candidate, the blocks it is live into, for the waiting-lanes test
  // below (which visited every block for every writer: quadratic on a
  // kernel of many blocks, a 140k-line kernel's largest cost).
  std::vector<std::vector<unsigned>> liveInBlocks(ids.size());
  for (unsigned z = 0; z < g.numBlocks; ++z)
    for (unsigned r : live.liveIn[z])
      if (r < ids.size() && isVarying[r])
        liveInBlocks[r].push_back(z);
  std::vector<bool> uniformEnd(g.numBlocks, false);
  for (bool changed = true; changed && !varying.empty();) {
    changed = false;
    countWork(k.body.size());
    while (keepOnly([&](unsigned r) {
      for (size_t w : facts.writers[r])
        for (unsigned src : scalarSources(k, ids, w))
          if (!facts.found[src] && !isVarying[src])
            return false;
      return true;
    }))
      changed = true;
    // (Each candidate's first write is its own: every write is a statement writing it alone.)
    std::vector<std::pair<size_t, unsigned>> byFirstWrite;
    for (unsigned r : varying)
      byFirstWrite.push_back({facts.writers[r].front(), r});
    std::sort(byFirstWrite.begin(), byFirstWrite.end());
    RangePressure pressure = homes;
    std::vector<char> overBudget(ids.size(), 0);
    for (const auto &[first, r] : byFirstWrite) {
      const unsigned words = facts.width[r] / 32;
      const auto [from, to] = facts.extent[r];
      if (pressure.max(from, to) + words > budgetWords)
        overBudget[r] = 1;
      else
        pressure.add(from, to, words);
    }
    changed = keepOnly([&](unsigned r) { return !overBudget[r]; }) || changed;
    const std::optional<unsigned> none;
    for (unsigned b = 0; b < g.numBlocks; ++b) {
      const size_t end = g.blockEnd(b);
      const Stmt *last = end > g.blockStart[b] ? &k.body[end - 1] : nullptr;
      std::optional<unsigned> guard = last && last->kind == Stmt::Kind::Branch ? ids.find(last->guard.str()) : none;
      uniformEnd[b] = guard && isVarying[*guard] && !barrierBlock[b];
    }
    const WaitingLanes waiting(g, uniformEnd);
    changed = keepOnly([&](unsigned r) {
      for (size_t w : facts.writers[r])
        for (unsigned z : liveInBlocks[r])
          if (waiting.mayWait(g.blockOf[w], z))
            return false;
      return true;
    }) || changed;
  }
  for (unsigned r : varying) {
    u.registers.emplace(ids.name(r), UniformSource{UniformSource::Kind::Computed, 0, 0, facts.width[r], ids.name(r).str()});
    u.scalarStatements.insert(facts.writers[r].begin(), facts.writers[r].end());
  }
  for (unsigned b = 0; b < g.numBlocks; ++b) {
    if (!uniformEnd[b])
      continue;
    const std::optional<unsigned> guard = ids.find(k.body[g.blockEnd(b) - 1].guard.str());
    if (guard && isVarying[*guard])
      u.uniformBranches.insert(g.blockEnd(b) - 1);
  }
}

} // namespace

UniformValues uniformValues(const Kernel &k, const std::function<bool(const Stmt &)> &scalarRuleOf,
                            unsigned maxHomeWords, unsigned preloadedArgumentBytes, const KernelAnalyses &analyses) {
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

  // Does the write at statement `def` reach every read of `r` on every path?
  const ControlFlowGraph &g = analyses.cfg;
  const Dominators dom(g);
  std::vector<bool> barrierBlock(g.numBlocks);
  for (unsigned b = 0; b < g.numBlocks; ++b)
    barrierBlock[b] = blockHasBarrier(k, g, b);

  // Homes are SGPRs assigned by liveness: at most maxHomeWords held at once.
  const RegisterLiveness &live = analyses.live;
  const RegisterNumbering &ids = live.numbering;
  RegisterFacts facts{ids, analyses.widths,
                      StatementsByRegister(ids, n, [&](size_t i) { return ids.writes(i); }),
                      registerExtents(k, g, live), std::vector<char>(ids.size(), 0)};
  const StatementsByRegister readers(ids, n, [&](size_t i) { return ids.reads(i); });
  auto dominatesReads = [&](unsigned r, size_t def) {
    const unsigned bd = g.blockOf[def];
    for (size_t j : readers[r]) {
      const unsigned bj = g.blockOf[j];
      if (bj == bd ? j <= def : !dom.dominates(bd, bj))
        return false;
    }
    return true;
  };
  RangePressure homes(n);

  UniformValues u;
  std::vector<std::optional<UniformSource>> found(ids.size()); // u.registers by id
  for (bool changed = true; changed;) {
    changed = false;
    countWork(n);
    for (size_t i = 0; i < n; ++i) {
      const Stmt &st = k.body[i];
      const llvm::ArrayRef<unsigned> written = ids.writes(i);
      if (!st.guard.empty() || written.size() != 1 || facts.writers[written[0]].size() != 1 || found[written[0]])
        continue;
      const unsigned r = written[0];
      const unsigned bits = facts.width[r];
      std::optional<UniformSource> src;
      bool computed = false;
      if (st.kind == Stmt::Kind::Load && st.space == Space::Param && st.extra().values.size() == 1) {
        const Param *p = k.param(st.extra().base);
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
      } else if (st.kind == Stmt::Kind::AddressOf && bits == 64 && isModuleVariable(k, st.extra().symbol)) {
        src = UniformSource{UniformSource::Kind::VariableAddress, 0, 0, 64, "", st.extra().symbol};
      } else if (st.kind == Stmt::Kind::Load) {
        // (Read-only memory at an unchanging address: the same value every time.)
        computed = scalarLoadShape(k, st, bits) && (st.baseIsSymbol || found[ids.reads(i)[0]]);
      } else {
        // (A copy: cvta to a global or const address, or mov.b, of one register.)
        const bool copy =
            (st.kind == Stmt::Kind::Cvta && st.extra().symbol.empty() && (st.space == Space::Global || st.space == Space::Const) &&
             st.extra().srcs.size() == 1 && st.extra().srcs[0].isReg()) ||
            (st.kind == Stmt::Kind::Compute && st.inst.form.opcode == ptx::Opcode::Mov &&
             st.inst.form.type == ptx::TypeClass::B && st.inst.srcs.size() == 1 && st.inst.srcs[0].isReg());
        if (copy) {
          const unsigned from = ids.reads(i)[0];
          if (found[from] && facts.width[from] == bits)
            src = found[from];
        } else if (st.kind == Stmt::Kind::Compute && st.inst.dsts.size() == 1 && (bits == 32 || bits == 64)) {
          // (A constant is not worth an SGPR: an immediate or one v_mov serves.)
          const llvm::ArrayRef<unsigned> sources = ids.reads(i);
          const bool sourcesUniform =
              std::all_of(sources.begin(), sources.end(), [&](unsigned s) { return found[s].has_value(); });
          // (The rule is looked up last: a value wider than the whole
          // budget gets no home whatever it is, as in a retry without homes.)
          computed = sourcesUniform && !sources.empty() && bits / 32 <= maxHomeWords && scalarRule(st);
        }
      }
      const auto [from, to] = facts.extent[r];
      if (computed && dominatesReads(r, i) && !barrierBlock[g.blockOf[i]] &&
          homes.max(from, to) + bits / 32 <= maxHomeWords) {
        src = UniformSource{UniformSource::Kind::Computed, 0, 0, bits, ids.name(r).str()};
        u.scalarStatements.insert(i);
        homes.add(from, to, bits / 32);
      }
      if (src) {
        u.registers.emplace(ids.name(r), *src);
        found[r] = *src;
        facts.found[r] = 1;
        changed = true;
      }
    }
  }
  varyingValues(k, g, barrierBlock, scalarRule, maxHomeWords, live, facts, homes, u);
  return u;
}

} // namespace p2a::kernel
