#include "kernel/transforms/instruction_fusion.hpp"

#include "semantics/amd_ops.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <functional>
#include <map>
#include <set>

namespace p2a::kernel {

namespace {

bool isLogic32(const Stmt &s) {
  if (s.kind != Stmt::Kind::Compute || !s.guard.empty())
    return false;
  const ptx::Form &f = s.inst.form;
  if (f.width != 32 || f.type == ptx::TypeClass::Pred)
    return false;
  switch (f.opcode) {
  case ptx::Opcode::And:
  case ptx::Opcode::Or:
  case ptx::Opcode::Xor:
  case ptx::Opcode::Not: return true;
  case ptx::Opcode::Lop3: return f.boolop == ptx::BoolOp::None && s.inst.srcs[3].isImm();
  default: return false;
  }
}

// A leaf of a tree: a register or an immediate, compared by value.
struct Leaf {
  bool imm = false;
  std::string reg;
  uint64_t value = 0;
  bool operator==(const Leaf &o) const { return imm == o.imm && (imm ? value == o.value : reg == o.reg); }
};

Leaf leafOf(const ptx::Operand &o) {
  Leaf l;
  l.imm = o.isImm();
  l.reg = o.reg;
  l.value = o.imm & 0xffffffffu;
  return l;
}

double bestCost(const ptx::Instruction &inst, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  std::vector<const rules::Rule *> c = select::candidates(inst, t, cost);
  return c.empty() ? 1e30 : cost(*c.front(), t);
}

// What both fusions need to know about a kernel: its basic blocks, and
// for each register how often it is written and read and (if written
// once) where.
struct Dataflow {
  std::vector<unsigned> block;
  std::map<std::string, unsigned> writes, reads;
  std::map<std::string, size_t> def;

  explicit Dataflow(const Kernel &k) : block(k.body.size(), 0) {
    std::set<unsigned> starts;
    for (const auto &[name, index] : k.labels)
      starts.insert(index);
    unsigned b = 0;
    for (size_t i = 0; i < k.body.size(); ++i) {
      if (i > 0 && (starts.count(static_cast<unsigned>(i)) || k.body[i - 1].kind == Stmt::Kind::Branch ||
                    k.body[i - 1].kind == Stmt::Kind::Return))
        ++b;
      block[i] = b;
      for (const std::string &r : writtenRegisters(k.body[i])) {
        ++writes[r];
        def[r] = i;
      }
      for (const std::string &r : readRegisters(k.body[i]))
        ++reads[r];
    }
  }

  // The statement that alone writes `reg`, read only once, in `user`'s
  // block before it -- an intermediate result a fusion may absorb.
  std::optional<size_t> singleUseDef(const std::string &reg, size_t user) const {
    auto w = writes.find(reg), r = reads.find(reg);
    auto d = def.find(reg);
    if (w == writes.end() || w->second != 1 || r == reads.end() || r->second != 1 || d == def.end())
      return std::nullopt;
    if (d->second >= user || block[d->second] != block[user])
      return std::nullopt;
    return d->second;
  }
};

// Is register `reg` (or an immediate) unchanged between statements `from` and `to`?
bool unchangedBetween(const Kernel &k, const ptx::Operand &o, size_t from, size_t to) {
  if (!o.isReg())
    return true;
  for (size_t j = from + 1; j < to; ++j)
    for (const std::string &w : writtenRegisters(k.body[j]))
      if (w == o.reg)
        return false;
  return true;
}

// A literal that is not an inline constant costs a v_mov in a VOP3 operand
// on gfx9/CDNA: fusions into VOP3 instructions avoid them there.
bool literalCostsMove(const ptx::Operand &o, const targets::TargetInfo &t) {
  return o.isImm() && !amd::isInlineConstant(static_cast<int32_t>(static_cast<uint32_t>(o.imm))) &&
         !t.has_literal_in_vop3;
}

} // namespace

Kernel fuseLogicTrees(const Kernel &k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  Kernel out = k;
  const size_t n = k.body.size();
  const Dataflow df(k);
  std::vector<bool> fused(n, false);
  auto unchanged = [&](const Leaf &leaf, size_t from, size_t to) {
    ptx::Operand o;
    o.kind = leaf.imm ? ptx::Operand::Kind::Immediate : ptx::Operand::Kind::Register;
    o.reg = leaf.reg;
    return unchangedBetween(out, o, from, to);
  };
  for (size_t root = n; root-- > 0;) {
    const Stmt &rs = out.body[root];
    if (!isLogic32(rs) || fused[root])
      continue;
    // Expand sources into single-use logic results of the same block.
    std::vector<size_t> inner{root}; // statements of the tree
    std::vector<Leaf> leaves;
    std::function<bool(const ptx::Operand &, size_t)> expandable = [&](const ptx::Operand &o, size_t user) {
      if (!o.isReg())
        return false;
      const std::optional<size_t> j = df.singleUseDef(o.reg, user);
      return j && df.block[*j] == df.block[root] && !fused[*j] && isLogic32(out.body[*j]);
    };
    // Leaves of the tree rooted at statement s, expanding greedily while at most three stay distinct.
    std::function<void(size_t)> collect = [&](size_t s) {
      const ptx::Instruction &in = out.body[s].inst;
      const size_t nsrc = in.form.opcode == ptx::Opcode::Lop3 ? 3 : in.srcs.size();
      for (size_t i = 0; i < nsrc; ++i) {
        const ptx::Operand &o = in.srcs[i];
        if (expandable(o, s)) {
          // Try it: the candidate's own leaves must fit with those so far.
          std::vector<Leaf> saved = leaves;
          std::vector<size_t> savedInner = inner;
          inner.push_back(df.def.at(o.reg));
          collect(df.def.at(o.reg));
          bool ok = leaves.size() <= 3;
          for (const Leaf &l : leaves)
            ok = ok && unchanged(l, df.def.at(o.reg), root);
          if (ok)
            continue;
          leaves = saved;
          inner = savedInner;
        }
        Leaf l = leafOf(o);
        if (literalCostsMove(o, t))
          l.value = ~0ull; // marks the tree unfusable below
        if (std::find(leaves.begin(), leaves.end(), l) == leaves.end())
          leaves.push_back(l);
      }
    };
    collect(root);
    if (inner.size() < 2 || leaves.size() > 3 ||
        std::any_of(leaves.begin(), leaves.end(), [](const Leaf &l) { return l.imm && l.value == ~0ull; }))
      continue;
    // The truth table: every statement of the tree evaluated on a, b, c.
    static const uint32_t masks[3] = {0xF0, 0xCC, 0xAA};
    std::function<uint32_t(const ptx::Operand &, size_t)> value;
    std::function<uint32_t(size_t)> eval = [&](size_t s) {
      const ptx::Instruction &in = out.body[s].inst;
      auto src = [&](size_t i) { return value(in.srcs[i], s); };
      switch (in.form.opcode) {
      case ptx::Opcode::And: return src(0) & src(1);
      case ptx::Opcode::Or: return src(0) | src(1);
      case ptx::Opcode::Xor: return src(0) ^ src(1);
      case ptx::Opcode::Not: return ~src(0) & 0xFFu;
      default: { // lop3: bit i of the result is LUT[(a_i << 2) | (b_i << 1) | c_i]
        const uint32_t a = src(0), b = src(1), c = src(2), lut = static_cast<uint32_t>(in.srcs[3].imm);
        uint32_t r = 0;
        for (unsigned bit = 0; bit < 8; ++bit) {
          const unsigned idx = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1);
          r |= ((lut >> idx) & 1) << bit;
        }
        return r;
      }
      }
    };
    value = [&](const ptx::Operand &o, size_t user) -> uint32_t {
      if (o.isReg() && std::find(inner.begin(), inner.end(), df.def.count(o.reg) ? df.def.at(o.reg) : n) != inner.end() &&
          expandable(o, user))
        return eval(df.def.at(o.reg));
      const auto it = std::find(leaves.begin(), leaves.end(), leafOf(o));
      return masks[it - leaves.begin()];
    };
    const uint32_t lut = eval(root) & 0xFFu;
    ptx::Instruction fusedInst;
    fusedInst.form = ptx::Form{ptx::Opcode::Lop3, ptx::TypeClass::B, 32};
    fusedInst.dsts = rs.inst.dsts;
    fusedInst.loc = rs.inst.loc;
    fusedInst.text = rs.inst.text;
    for (size_t i = 0; i < 3; ++i) {
      const Leaf &l = leaves[std::min(i, leaves.size() - 1)]; // unused slots repeat a leaf (the LUT ignores them)
      ptx::Operand o;
      o.kind = l.imm ? ptx::Operand::Kind::Immediate : ptx::Operand::Kind::Register;
      o.reg = l.reg;
      o.imm = l.value;
      fusedInst.srcs.push_back(o);
    }
    ptx::Operand lutOp;
    lutOp.kind = ptx::Operand::Kind::Immediate;
    lutOp.imm = lut;
    fusedInst.srcs.push_back(lutOp);
    double before = 0;
    for (size_t s : inner)
      before += bestCost(out.body[s].inst, t, cost);
    if (bestCost(fusedInst, t, cost) > before)
      continue;
    std::vector<size_t> folded(inner.begin(), inner.end());
    std::sort(folded.begin(), folded.end());
    std::string lines;
    for (size_t s : folded)
      if (s != root)
        lines += (lines.empty() ? "" : ", ") + std::to_string(out.body[s].loc.line);
    char lutText[8];
    std::snprintf(lutText, sizeof lutText, "0x%02X", lut);
    out.body[root].note = "fused with line(s) " + lines + " into one lop3 (LUT " + lutText + ")";
    out.body[root].inst = fusedInst;
    for (size_t s : inner)
      if (s != root) {
        fused[s] = true;
        foldAway(out.body[s], "folded into the lop3 at line " + std::to_string(rs.loc.line));
      }
    fused[root] = true;
  }
  return out;
}

Kernel fuseAdds(const Kernel &k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  Kernel out = k;
  const Dataflow df(k);
  std::vector<bool> fused(k.body.size(), false);
  auto plain32 = [](const Stmt &s, ptx::Opcode op) {
    return s.kind == Stmt::Kind::Compute && s.guard.empty() && s.inst.form.opcode == op && s.inst.form.width == 32 &&
           !s.inst.form.carryIn && !s.inst.form.carryOut && s.inst.form.type != ptx::TypeClass::Pred;
  };
  for (size_t root = k.body.size(); root-- > 0;) {
    const Stmt &rs = out.body[root];
    if (fused[root] || !plain32(rs, ptx::Opcode::Add))
      continue;
    // Either source may be the intermediate; prefer an add (add3), then a xor (xad).
    for (ptx::Opcode inner : {ptx::Opcode::Add, ptx::Opcode::Xor}) {
      bool done = false;
      for (size_t side = 0; side < 2 && !done; ++side) {
        const ptx::Operand &o = rs.inst.srcs[side];
        const std::optional<size_t> j = o.isReg() ? df.singleUseDef(o.reg, root) : std::nullopt;
        if (!j || fused[*j] || !plain32(out.body[*j], inner))
          continue;
        const ptx::Instruction &in = out.body[*j].inst;
        const ptx::Operand &other = rs.inst.srcs[1 - side];
        if (!unchangedBetween(out, in.srcs[0], *j, root) || !unchangedBetween(out, in.srcs[1], *j, root) ||
            literalCostsMove(in.srcs[0], t) || literalCostsMove(in.srcs[1], t) || literalCostsMove(other, t))
          continue;
        ptx::Instruction f;
        f.form = ptx::Form{inner == ptx::Opcode::Add ? ptx::Opcode::Add3 : ptx::Opcode::Xad, ptx::TypeClass::U, 32};
        f.dsts = rs.inst.dsts;
        f.srcs = {in.srcs[0], in.srcs[1], other};
        f.loc = rs.inst.loc;
        f.text = rs.inst.text;
        if (bestCost(f, t, cost) > bestCost(rs.inst, t, cost) + bestCost(in, t, cost))
          continue;
        out.body[root].inst = f;
        out.body[root].note = "fused with line " + std::to_string(out.body[*j].loc.line) + " into one " +
                              f.form.name();
        foldAway(out.body[*j], "folded into the " + f.form.name() + " at line " + std::to_string(rs.loc.line));
        fused[*j] = fused[root] = true;
        done = true;
      }
      if (done)
        break;
    }
  }
  return out;
}

} // namespace p2a::kernel
