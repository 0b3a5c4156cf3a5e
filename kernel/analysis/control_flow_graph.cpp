#include "kernel/analysis/control_flow_graph.hpp"
#include "kernel/analysis/work_counter.hpp"

#include <algorithm>

namespace p2a::kernel {

ControlFlowGraph controlFlowGraph(const Kernel &k) {
  ControlFlowGraph g;
  const size_t n = k.body.size();
  std::vector<bool> starts(n + 1, false);
  starts[0] = true;
  for (const auto &[label, index] : k.labels)
    if (index < n)
      starts[index] = true;
  for (size_t i = 0; i < n; ++i) {
    const Stmt &st = k.body[i];
    if (st.kind == Stmt::Kind::Branch || st.kind == Stmt::Kind::Return)
      starts[i + 1] = true;
  }
  g.blockOf.assign(n + 1, 0);
  unsigned b = 0;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && starts[i])
      ++b;
    g.blockOf[i] = b;
  }
  g.numBlocks = n ? b + 1 : 1;
  g.blockOf[n] = g.numBlocks;
  g.blockStart.assign(g.numBlocks + 1, static_cast<unsigned>(n));
  for (size_t i = n; i-- > 0;)
    g.blockStart[g.blockOf[i]] = static_cast<unsigned>(i);
  g.succ.assign(g.numBlocks, {});
  for (unsigned blk = 0; blk < g.numBlocks && n; ++blk) {
    const Stmt &st = k.body[g.blockEnd(blk) - 1];
    const bool next = blk + 1 < g.numBlocks;
    if (st.kind == Stmt::Kind::Branch) {
      if (g.blockOf[st.target] < g.numBlocks)
        g.succ[blk].push_back(g.blockOf[st.target]);
      if (!st.guard.empty() && next)
        g.succ[blk].push_back(blk + 1);
    } else if (st.kind == Stmt::Kind::Return) {
      if (!st.guard.empty() && next)
        g.succ[blk].push_back(blk + 1);
    } else if (next) {
      g.succ[blk].push_back(blk + 1);
    }
  }
  return g;
}

bool blockHasBarrier(const Kernel &k, const ControlFlowGraph &g, unsigned b) {
  for (size_t j = g.blockStart[b]; j < g.blockEnd(b); ++j)
    if (k.body[j].kind == Stmt::Kind::Barrier)
      return true;
  return false;
}

namespace {
constexpr unsigned kNone = ~0u;
}

Dominators::Dominators(const ControlFlowGraph &g) {
  // Lengauer and Tarjan's algorithm ("A Fast Algorithm for Finding
  // Dominators in a Flowgraph", 1979), the simple version: semidominators
  // from a depth-first numbering, then immediate dominators. O(m log n):
  // Cooper, Harvey and Kennedy's iteration walked the dominator tree up
  // from every predecessor, and a kernel with many early exits to one block
  // made that quadratic (a 140k-line kernel: 0.46 s of 5.9).
  const unsigned nb = g.numBlocks;
  std::vector<std::vector<unsigned>> pred(nb);
  for (unsigned b = 0; b < nb; ++b)
    for (unsigned s : g.succ[b])
      pred[s].push_back(b);
  // Preorder numbers of the blocks the entry reaches (iterative DFS), and
  // each one's DFS-tree parent.
  std::vector<unsigned> dfnum(nb, kNone), vertex, parent(nb, kNone);
  reachable_.assign(nb, false);
  {
    std::vector<std::pair<unsigned, size_t>> stack{{0u, 0}};
    reachable_[0] = true;
    dfnum[0] = 0;
    vertex.push_back(0);
    while (!stack.empty()) {
      auto &[b, next] = stack.back();
      if (next < g.succ[b].size()) {
        const unsigned s = g.succ[b][next++];
        countWork(1);
        if (!reachable_[s]) {
          reachable_[s] = true;
          dfnum[s] = static_cast<unsigned>(vertex.size());
          vertex.push_back(s);
          parent[s] = b;
          stack.push_back({s, 0});
        }
        continue;
      }
      stack.pop_back();
    }
  }
  const unsigned nr = static_cast<unsigned>(vertex.size());
  // semi: a block's semidominator's preorder number. The forest of blocks
  // processed so far (ancestor, with path compression) and, per block, the
  // block of least semi on its compressed path (label).
  std::vector<unsigned> semi(nb, kNone), ancestor(nb, kNone), label(nb), samedom(nb, kNone);
  std::vector<std::vector<unsigned>> bucket(nb);
  idom_.assign(nb, kNone);
  for (unsigned v : vertex) {
    semi[v] = dfnum[v];
    label[v] = v;
  }
  std::vector<unsigned> path;
  auto eval = [&](unsigned v) {
    if (ancestor[v] == kNone)
      return v;
    // Compress the path from v to its forest root (iteratively: it may be
    // as long as the kernel), keeping on each block the least-semi label.
    path.clear();
    for (unsigned u = v; ancestor[ancestor[u]] != kNone; u = ancestor[u])
      path.push_back(u);
    for (size_t i = path.size(); i-- > 0;) {
      const unsigned u = path[i], a = ancestor[u];
      countWork(1);
      if (semi[label[a]] < semi[label[u]])
        label[u] = label[a];
      ancestor[u] = ancestor[a];
    }
    return label[v];
  };
  for (unsigned i = nr; i-- > 1;) {
    const unsigned w = vertex[i], p = parent[w];
    for (unsigned v : pred[w]) {
      countWork(1);
      if (!reachable_[v])
        continue;
      const unsigned u = eval(v);
      if (semi[u] < semi[w])
        semi[w] = semi[u];
    }
    bucket[vertex[semi[w]]].push_back(w);
    ancestor[w] = p; // link
    for (unsigned v : bucket[p]) {
      const unsigned u = eval(v);
      // (Deferred where v's semidominator is not its dominator: see below.)
      idom_[v] = semi[u] < semi[v] ? kNone : p;
      samedom[v] = semi[u] < semi[v] ? u : kNone;
    }
    bucket[p].clear();
  }
  for (unsigned i = 1; i < nr; ++i) {
    const unsigned w = vertex[i];
    if (samedom[w] != kNone)
      idom_[w] = idom_[samedom[w]];
  }
  idom_[0] = kNone;
  // DFS intervals of the dominator tree: a dominates b iff b's interval
  // lies in a's.
  std::vector<std::vector<unsigned>> children(nb);
  for (unsigned b = 1; b < nb; ++b)
    if (reachable_[b] && idom_[b] != kNone)
      children[idom_[b]].push_back(b);
  enter_.assign(nb, 0);
  leave_.assign(nb, 0);
  unsigned clock = 0;
  std::vector<std::pair<unsigned, size_t>> stack{{0u, 0}};
  enter_[0] = clock++;
  while (!stack.empty()) {
    auto &[b, next] = stack.back();
    if (next < children[b].size()) {
      const unsigned c = children[b][next++];
      enter_[c] = clock++;
      stack.push_back({c, 0});
      continue;
    }
    leave_[b] = clock++;
    stack.pop_back();
  }
}

bool Dominators::dominates(unsigned a, unsigned b) const {
  if (!reachable_[b])
    return true;
  if (!reachable_[a])
    return false;
  return enter_[a] <= enter_[b] && leave_[b] <= leave_[a];
}

void blockLiveness(const ControlFlowGraph &g, size_t n, const StatementValues &values,
                   std::vector<llvm::SparseBitVector<>> &liveIn, std::vector<llvm::SparseBitVector<>> &liveOut) {
  using LiveSet = llvm::SparseBitVector<>;
  const unsigned nb = g.numBlocks;
  std::vector<LiveSet> gen(nb), kill(nb);
  liveIn.assign(nb, LiveSet());
  liveOut.assign(nb, LiveSet());
  std::vector<std::vector<unsigned>> pred(nb);
  std::vector<unsigned> worklist;
  std::vector<bool> queued(nb, true);
  for (unsigned b = 0; b < nb && n; ++b) {
    for (unsigned s : g.succ[b])
      pred[s].push_back(b);
    for (size_t i = g.blockEnd(b); i-- > g.blockStart[b];) {
      const llvm::ArrayRef<unsigned> def = values.def(i);
      for (unsigned v : def) {
        gen[b].reset(v);
        kill[b].set(v);
      }
      for (unsigned v : values.use(i))
        gen[b].set(v);
      if (values.defIsUse(i))
        for (unsigned v : def)
          gen[b].set(v);
    }
    liveIn[b] = gen[b];
    worklist.push_back(b); // (popped from the back: the last block first)
  }
  while (!worklist.empty()) {
    const unsigned b = worklist.back();
    worklist.pop_back();
    queued[b] = false;
    countWork(1 + g.succ[b].size());
    LiveSet out;
    for (unsigned s : g.succ[b])
      out |= liveIn[s];
    LiveSet in = out;
    in.intersectWithComplement(kill[b]);
    in |= gen[b];
    liveOut[b] = std::move(out);
    if (in != liveIn[b]) {
      liveIn[b] = std::move(in);
      for (unsigned p : pred[b])
        if (!queued[p]) {
          queued[p] = true;
          worklist.push_back(p);
        }
    }
  }
}

RegisterLiveness registerLiveness(const Kernel &k, const ControlFlowGraph &g) {
  RegisterLiveness L{RegisterNumbering(k), {}, {}};
  const RegisterNumbering &ids = L.numbering;
  blockLiveness(g, k.body.size(),
                StatementValues{[&](size_t i) { return ids.writes(i); }, [&](size_t i) { return ids.reads(i); },
                                [&](size_t i) { return !k.body[i].guard.empty(); }},
                L.liveIn, L.liveOut);
  return L;
}

WaitingLanes::WaitingLanes(const ControlFlowGraph &g, const std::vector<bool> &uniformEnd) {
  const unsigned nb = g.numBlocks;
  span_.assign(nb, {1u, 0u});
  if (nb > kMaxWaitingAnalysisBlocks) {
    std::vector<unsigned> firstForwardPred(nb, ~0u), minBackTarget(nb, ~0u);
    for (unsigned p = 0; p < nb; ++p)
      for (unsigned s : g.succ[p]) {
        if (s > p)
          firstForwardPred[s] = std::min(firstForwardPred[s], p);
        else
          minBackTarget[p] = std::min(minBackTarget[p], s);
      }
    for (unsigned z = 0; z < nb; ++z) {
      unsigned lo = firstForwardPred[z];
      if (lo == ~0u)
        continue;
      for (unsigned x = z; x-- > lo;) // (lo only falls, so this visits [lo, z) as it grows)
        lo = std::min(lo, minBackTarget[x]);
      span_[z] = {lo, z - 1};
    }
    return;
  }
  exact_.assign(nb, std::vector<bool>(nb, false));
  std::vector<std::vector<bool>> &waiting = exact_;
  std::vector<bool> runs(nb, false);
  runs[0] = true;
  for (bool changed = true; changed;) {
    changed = false;
    countWork(static_cast<uint64_t>(nb) * nb); // (exact only below a size limit, see above)
    for (unsigned x = 0; x < nb; ++x) {
      if (!runs[x])
        continue;
      // The sets of successors the lanes leaving x may reach together.
      std::vector<std::vector<unsigned>> outcomes;
      if (uniformEnd[x])
        for (unsigned s : g.succ[x])
          outcomes.push_back({s});
      else
        outcomes.push_back(g.succ[x]); // (covers every subset of it)
      for (const std::vector<unsigned> &received : outcomes) {
        std::vector<bool> after = waiting[x];
        for (unsigned s : received)
          after[s] = true;
        // Any of these may be the first with waiting lanes, and runs next
        // while the later ones wait.
        for (unsigned y = 0; y < nb; ++y) {
          if (!after[y])
            continue;
          if (!runs[y])
            runs[y] = changed = true;
          for (unsigned z = y + 1; z < nb; ++z)
            if (after[z] && !waiting[y][z])
              waiting[y][z] = changed = true;
        }
      }
    }
  }
  for (unsigned x = 0; x < nb; ++x)
    for (unsigned z = 0; z < nb; ++z)
      if (waiting[x][z]) {
        auto &[first, last] = span_[z];
        if (first > last)
          first = last = x;
        else
          last = x; // (x ascends)
      }
}

} // namespace p2a::kernel
