#include "translator/logic_fusion.hpp"

#include "translator/amd_ops.hpp"

#include <algorithm>
#include <cstdio>
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

} // namespace

Kernel fuseLogicTrees(const Kernel &k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  Kernel out = k;
  const size_t n = k.body.size();
  // Basic blocks: a label or the statement after a branch or return starts one.
  std::vector<unsigned> block(n, 0);
  {
    std::set<unsigned> starts;
    for (const auto &[name, index] : k.labels)
      starts.insert(index);
    unsigned b = 0;
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && (starts.count(static_cast<unsigned>(i)) || k.body[i - 1].kind == Stmt::Kind::Branch ||
                    k.body[i - 1].kind == Stmt::Kind::Return))
        ++b;
      block[i] = b;
    }
  }
  std::map<std::string, unsigned> writes, reads;
  std::map<std::string, size_t> def; // single-written registers -> the statement writing them
  for (size_t i = 0; i < n; ++i) {
    for (const std::string &r : writtenRegisters(k.body[i])) {
      ++writes[r];
      def[r] = i;
    }
    for (const std::string &r : readRegisters(k.body[i]))
      ++reads[r];
  }
  std::vector<bool> fused(n, false);
  // Is the value of `leaf` at statement `from` still the same at `to`?
  auto unchanged = [&](const Leaf &leaf, size_t from, size_t to) {
    if (leaf.imm)
      return true;
    for (size_t j = from + 1; j < to; ++j)
      for (const std::string &w : writtenRegisters(out.body[j]))
        if (w == leaf.reg)
          return false;
    return true;
  };
  for (size_t root = n; root-- > 0;) {
    const Stmt &rs = out.body[root];
    if (!isLogic32(rs) || fused[root])
      continue;
    // Expand sources into single-use logic results of the same block.
    struct Node {
      size_t stmt;
    };
    std::vector<size_t> inner{root}; // statements of the tree
    std::vector<Leaf> leaves;
    std::function<bool(const ptx::Operand &, size_t)> expandable = [&](const ptx::Operand &o, size_t user) {
      if (!o.isReg() || writes[o.reg] != 1 || reads[o.reg] != 1 || !def.count(o.reg))
        return false;
      const size_t j = def[o.reg];
      return j < user && block[j] == block[root] && !fused[j] && isLogic32(out.body[j]);
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
          inner.push_back(def[o.reg]);
          collect(def[o.reg]);
          bool ok = leaves.size() <= 3;
          for (const Leaf &l : leaves)
            ok = ok && unchanged(l, def[o.reg], root);
          if (ok)
            continue;
          leaves = saved;
          inner = savedInner;
        }
        Leaf l = leafOf(o);
        // A literal that is not an inline constant costs a v_mov in a
        // VOP3 operand on gfx9/CDNA: such a tree stays as it is.
        if (l.imm && !amd::isInlineConstant(static_cast<int32_t>(static_cast<uint32_t>(l.value))) &&
            !t.has_literal_in_vop3)
          l.value = ~0ull; // more than three leaves' worth: marks the tree unfusable below
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
      if (o.isReg() && std::find(inner.begin(), inner.end(), def.count(o.reg) ? def[o.reg] : n) != inner.end() &&
          expandable(o, user))
        return eval(def[o.reg]);
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
        out.body[s].kind = Stmt::Kind::Nop;
        out.body[s].inst = ptx::Instruction{};
        out.body[s].note = "folded into the lop3 at line " + std::to_string(rs.loc.line);
      }
    fused[root] = true;
  }
  return out;
}

} // namespace p2a::kernel
