#include "kernel/transforms/instruction_fusion.hpp"

#include "kernel/analysis/dataflow.hpp"
#include "kernel/transforms/statement_building.hpp"
#include "semantics/amd_ops.hpp"

#include <algorithm>
#include <array>
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
  ptx::RegisterName reg; // (with its id: the fused statement's operands keep theirs)
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

// The operand a leaf stands for.
ptx::Operand operandOf(const Leaf &l) {
  ptx::Operand o;
  o.kind = l.imm ? ptx::Operand::Kind::Immediate : ptx::Operand::Kind::Register;
  o.reg = l.reg;
  o.imm = l.value;
  return o;
}

// An immediate whose low 32 bits are v.
bool isImmValue(const ptx::Operand &o, uint64_t v) { return o.isImm() && (o.imm & 0xffffffffu) == v; }

// A literal that is not an inline constant costs a v_mov in a VOP3 operand
// on gfx9/CDNA: fusions into VOP3 instructions avoid them there.
bool literalCostsMove(const ptx::Operand &o, const targets::TargetInfo &t) {
  return o.isImm() && !amd::isInlineConstant(static_cast<int32_t>(static_cast<uint32_t>(o.imm))) &&
         !t.has_literal_in_vop3;
}

} // namespace

Kernel fuseLogicTrees(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  const size_t n = k.body.size();
  const Dataflow df(k);
  std::vector<bool> fused(n, false);
  auto unchanged = [&](const Leaf &leaf, size_t from, size_t to) {
    return unchangedBetween(k, operandOf(leaf), from, to);
  };
  // The tree at `root`, expanded down to `depth` levels; a tree cut short
  // must pay strictly (where a lop3 is as many instructions as the xors it
  // replaces, it would only take them from other fusions, xad's).
  enum class Outcome { Fused, TooManyLeaves, Kept };
  auto fuseAt = [&](size_t root, unsigned depth) -> Outcome {
    const Stmt &rs = k.body[root];
    const bool cutShort = depth != ~0u;
    // Expand sources into single-use logic results of the same block.
    std::vector<size_t> inner{root}; // statements of the tree
    std::vector<Leaf> leaves;
    std::function<bool(const ptx::Operand &, size_t)> expandable = [&](const ptx::Operand &o, size_t user) {
      if (!o.isReg())
        return false;
      const std::optional<size_t> j = df.singleUseDef(o.reg, user);
      return j && df.block[*j] == df.block[root] && !fused[*j] && isLogic32(k.body[*j]);
    };
    // Leaves of the tree rooted at statement s, expanding greedily while at
    // most three stay distinct, down to `depth` levels below the root.
    std::function<void(size_t, unsigned)> collect = [&](size_t s, unsigned depth) {
      const ptx::Instruction &in = k.body[s].inst;
      const size_t nsrc = in.form.opcode == ptx::Opcode::Lop3 ? 3 : in.srcs.size();
      for (size_t i = 0; i < nsrc; ++i) {
        const ptx::Operand &o = in.srcs[i];
        if (depth > 0 && expandable(o, s)) {
          // Try it: the candidate's own leaves must fit with those so far.
          std::vector<Leaf> saved = leaves;
          std::vector<size_t> savedInner = inner;
          inner.push_back(df.def(o.reg));
          collect(df.def(o.reg), depth - 1);
          bool ok = leaves.size() <= 3;
          for (const Leaf &l : leaves)
            ok = ok && unchanged(l, df.def(o.reg), root);
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
    collect(root, depth);
    if (leaves.size() > 3)
      return Outcome::TooManyLeaves;
    if (inner.size() < 2 ||
        std::any_of(leaves.begin(), leaves.end(), [](const Leaf &l) { return l.imm && l.value == ~0ull; }))
      return Outcome::Kept;
    // The truth table: every statement of the tree evaluated on a, b, c.
    static const uint32_t masks[3] = {0xF0, 0xCC, 0xAA};
    std::function<uint32_t(const ptx::Operand &, size_t)> value;
    std::function<uint32_t(size_t)> eval = [&](size_t s) {
      const ptx::Instruction &in = k.body[s].inst;
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
      if (o.isReg() && std::find(inner.begin(), inner.end(), df.writes(o.reg) ? df.def(o.reg) : n) != inner.end() &&
          expandable(o, user))
        return eval(df.def(o.reg));
      const auto it = std::find(leaves.begin(), leaves.end(), leafOf(o));
      return masks[it - leaves.begin()];
    };
    const uint32_t lut = eval(root) & 0xFFu;
    std::vector<ptx::Operand> srcs;
    for (size_t i = 0; i < 3; ++i) // unused slots repeat a leaf (the LUT ignores them)
      srcs.push_back(operandOf(leaves[std::min(i, leaves.size() - 1)]));
    srcs.push_back(immediate(lut));
    const ptx::Instruction fusedInst =
        replacing(rs.inst, ptx::Form{ptx::Opcode::Lop3, ptx::TypeClass::B, 32}, rs.inst.dsts, std::move(srcs));
    double before = 0;
    for (size_t s : inner)
      before += bestCost(k.body[s].inst, t, cost);
    if (const double after = bestCost(fusedInst, t, cost); after > before || (cutShort && after >= before))
      return Outcome::Kept;
    std::vector<size_t> folded(inner.begin(), inner.end());
    std::sort(folded.begin(), folded.end());
    std::string lines;
    for (size_t s : folded)
      if (s != root)
        lines += (lines.empty() ? "" : ", ") + std::to_string(k.body[s].loc.line);
    char lutText[8];
    std::snprintf(lutText, sizeof lutText, "0x%02X", lut);
    k.body[root].note = (rs.note.empty() ? "" : rs.note + "; then ") + "fused with line(s) " + lines +
                          " into one lop3 (LUT " + lutText + ")";
    k.body[root].inst = fusedInst;
    for (size_t s : inner)
      if (s != root) {
        fused[s] = true;
        foldAway(k.body[s], "folded into the lop3 at line " + std::to_string(rs.loc.line));
      }
    fused[root] = true;
    return Outcome::Fused;
  };
  // Whole trees, from the last statement up. A tree with more than three
  // leaves (a chain of xors) is cut shorter, where the constant bus takes
  // two scalar values (gfx10+: on gfx9 the leaves of a tree cut short are
  // often uniform results that the SALU computed, and a VOP3 reading two of
  // them needs a v_mov). Measured on 99 real modules for gfx1100: -5,482
  // VALU; fusing such chains from their bottom instead, to leave the top
  // xor to xad, gave -374.
  for (size_t root = n; root-- > 0;)
    if (isLogic32(k.body[root]) && !fused[root] && fuseAt(root, ~0u) == Outcome::TooManyLeaves &&
        t.constant_bus_limit >= 2)
      for (unsigned depth : {2u, 1u})
        if (fuseAt(root, depth) != Outcome::TooManyLeaves)
          break;
  return k;
}

Kernel fuseAdds(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  const Dataflow df(k);
  std::vector<bool> fused(k.body.size(), false);
  for (size_t root = k.body.size(); root-- > 0;) {
    const Stmt &rs = k.body[root];
    if (fused[root] || !isPlain(rs, ptx::Opcode::Add, 32))
      continue;
    // Either source may be the intermediate; prefer an add (add3), then a xor (xad).
    for (ptx::Opcode inner : {ptx::Opcode::Add, ptx::Opcode::Xor}) {
      bool done = false;
      for (size_t side = 0; side < 2 && !done; ++side) {
        const ptx::Operand &o = rs.inst.srcs[side];
        const std::optional<size_t> j = o.isReg() ? df.singleUseDef(o.reg, root) : std::nullopt;
        if (!j || fused[*j] || !isPlain(k.body[*j], inner, 32))
          continue;
        const ptx::Instruction &in = k.body[*j].inst;
        const ptx::Operand &other = rs.inst.srcs[1 - side];
        if (!unchangedBetween(k, in.srcs[0], *j, root) || !unchangedBetween(k, in.srcs[1], *j, root) ||
            literalCostsMove(in.srcs[0], t) || literalCostsMove(in.srcs[1], t) || literalCostsMove(other, t))
          continue;
        const ptx::Instruction f = replacing(
            rs.inst, ptx::Form{inner == ptx::Opcode::Add ? ptx::Opcode::Add3 : ptx::Opcode::Xad, ptx::TypeClass::U, 32},
            rs.inst.dsts, {in.srcs[0], in.srcs[1], other});
        if (bestCost(f, t, cost) > bestCost(rs.inst, t, cost) + bestCost(in, t, cost))
          continue;
        k.body[root].inst = f;
        k.body[root].note = "fused with line " + std::to_string(k.body[*j].loc.line) + " into one " +
                              f.form.name();
        foldAway(k.body[*j], "folded into the " + f.form.name() + " at line " + std::to_string(rs.loc.line));
        fused[*j] = fused[root] = true;
        done = true;
      }
      if (done)
        break;
    }
  }
  return k;
}

namespace {

// Whether any statement computes with opcode `op` (the transforms below
// build no dataflow for a kernel without the statements they start from).
bool anyCompute(const Kernel &k, ptx::Opcode op) {
  return std::any_of(k.body.begin(), k.body.end(),
                     [op](const Stmt &s) { return s.kind == Stmt::Kind::Compute && s.inst.form.opcode == op; });
}

} // namespace

Kernel fuseNegatedBits(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  if (!anyCompute(k, ptx::Opcode::Neg) && !anyCompute(k, ptx::Opcode::Sub)) // (the roots)
    return k;
  const Dataflow df(k);
  auto plain32 = [](const Stmt &s, ptx::Opcode op) { return isPlain(s, op, 32) && s.inst.dsts.size() == 1; };
  for (size_t root = 0; root < k.body.size(); ++root) {
    const Stmt &rs = k.body[root];
    // neg.s32 d, b  or  sub d, 0, b
    const ptx::Operand *b = nullptr;
    if (plain32(rs, ptx::Opcode::Neg) && rs.inst.srcs.size() == 1)
      b = &rs.inst.srcs[0];
    else if (plain32(rs, ptx::Opcode::Sub) && rs.inst.srcs.size() == 2 && isImmValue(rs.inst.srcs[0], 0))
      b = &rs.inst.srcs[1];
    const std::optional<size_t> j = b && b->isReg() ? df.singleUseDef(b->reg, root) : std::nullopt;
    if (!j || !plain32(k.body[*j], ptx::Opcode::And))
      continue;
    const ptx::Instruction &mask = k.body[*j].inst;
    const int side = isImmValue(mask.srcs[1], 1) ? 0 : isImmValue(mask.srcs[0], 1) ? 1 : -1;
    if (side < 0 || !mask.srcs[side].isReg() || !unchangedBetween(k, mask.srcs[side], *j, root))
      continue;
    const ptx::Instruction f = replacing(rs.inst, ptx::Form{ptx::Opcode::Bfe, ptx::TypeClass::S, 32}, rs.inst.dsts,
                                         {mask.srcs[side], immediate(0), immediate(1)});
    if (bestCost(f, t, cost) > bestCost(rs.inst, t, cost) + bestCost(mask, t, cost))
      continue;
    k.body[root].inst = f;
    k.body[root].note = "fused with line " + std::to_string(k.body[*j].loc.line) +
                          " into one bfe.s32 (bit 0, sign-extended: the same all-ones or zero mask)";
    foldAway(k.body[*j], "folded into the bfe.s32 at line " + std::to_string(rs.loc.line));
  }
  return k;
}

Kernel fuseHalves(Kernel k) {
  if (!anyCompute(k, ptx::Opcode::Cvt)) // (both the split and the join start from cvt)
    return k;
  const size_t n = k.body.size();
  const Dataflow df(k);
  auto unguarded = [](const Stmt &s, ptx::Opcode op) { return isPlain(s, op) && writesOneRegister(s); };
  auto isCvt = [&](const Stmt &s, unsigned to, unsigned from) {
    return unguarded(s, ptx::Opcode::Cvt) && s.inst.form.width == to && s.inst.form.fromWidth == from &&
           s.inst.form.type == ptx::TypeClass::U && s.inst.form.fromType == ptx::TypeClass::U &&
           !s.inst.form.saturate &&
           s.inst.srcs[0].isReg();
  };
  auto writtenOnce = [&](const std::string &r) {
    return df.writes(r) == 1;
  };
  // Is `reg` neither read nor written in (from, to)?
  auto untouched = [&](const std::string &reg, size_t from, size_t to) {
    for (size_t j = from + 1; j < to; ++j) {
      bool touched = false;
      auto visit = [&](const std::string &r) { touched = touched || r == reg; };
      forEachReadRegister(k.body[j], visit);
      forEachWrittenRegister(k.body[j], visit);
      if (touched)
        return false;
    }
    return true;
  };
  // The high halves: x -> `shr.{b,u}64 t, x, 32` read only by `cvt.u32.u64 hi, t`
  // (each narrowing cvt asks for the single-use definition of its source).
  std::unordered_map<std::string, std::vector<std::pair<size_t, size_t>>> highOf; // x -> (shr, cvt), by shr
  for (size_t c = 0; c < n; ++c) {
    if (!isCvt(k.body[c], 32, 64))
      continue;
    const std::optional<size_t> j = df.singleUseDef(k.body[c].inst.srcs[0].reg, c);
    if (!j)
      continue;
    const Stmt &s = k.body[*j];
    if (unguarded(s, ptx::Opcode::Shr) && s.inst.form.width == 64 && s.inst.form.type != ptx::TypeClass::S &&
        s.inst.srcs[0].isReg() && isImmValue(s.inst.srcs[1], 32))
      highOf[s.inst.srcs[0].reg].push_back({*j, c});
  }
  for (auto &[x, pairs] : highOf)
    std::sort(pairs.begin(), pairs.end());
  std::vector<bool> done(n, false);
  for (size_t i = 0; i < n; ++i) {
    // Split: `cvt.u32.u64 lo, x` beside the high half's pair, in one block:
    // one `mov.b64 {lo, hi}, x` at the first of them.
    const Stmt &s = k.body[i];
    if (done[i] || !isCvt(s, 32, 64))
      continue;
    const std::string &x = s.inst.srcs[0].reg, &lo = s.inst.dsts[0].reg;
    auto it = highOf.find(x);
    if (it == highOf.end())
      continue;
    for (const auto &[j, c] : it->second) {
      if (done[j] || done[c] || df.block[j] != df.block[i])
        continue;
      const std::string &hi = k.body[c].inst.dsts[0].reg;
      const size_t at = std::min(i, j), last = std::max(i, c);
      if (lo == hi || lo == x || hi == x || !writtenOnce(lo) || !writtenOnce(hi) ||
          !unchangedBetween(k, s.inst.srcs[0], at, last) || !untouched(lo, at, i) || !untouched(hi, at, c))
        continue;
      const ptx::Instruction u = replacing(k.body[at].inst, ptx::Form{ptx::Opcode::MovUnpack, ptx::TypeClass::B, 64},
                                           {registerOperand(lo), registerOperand(hi)}, {s.inst.srcs[0]});
      const unsigned line = k.body[at].loc.line;
      const std::string others = std::to_string(k.body[i].loc.line) + ", " + std::to_string(k.body[j].loc.line) +
                                 ", " + std::to_string(k.body[c].loc.line);
      for (size_t f : {i, j, c})
        if (f != at)
          foldAway(k.body[f], "folded into the mov.b64 {lo, hi} at line " + std::to_string(line));
      k.body[at].inst = u;
      k.body[at].note = "lines " + others + " (a 64-bit value's low half, and its high half by shr 32) as one "
                          "mov.b64 {lo, hi}: the halves are the value's own registers";
      done[i] = done[j] = done[c] = true;
      break;
    }
  }
  for (size_t b = 0; b < n; ++b) {
    // Join: `bfi.b64 d, a, b, 32, 32` of two zero-extended 32-bit values
    // (`cvt.u64.u32`, each read only there) is `mov.b64 d, {b32, a32}`.
    const Stmt &s = k.body[b];
    if (done[b] || !unguarded(s, ptx::Opcode::Bfi) || s.inst.form.width != 64 || !isImmValue(s.inst.srcs[2], 32) ||
        !isImmValue(s.inst.srcs[3], 32) || !s.inst.srcs[0].isReg() || !s.inst.srcs[1].isReg())
      continue;
    // Each half's cvt: in the block before the bfi, its source unchanged up
    // to there; or anywhere, its source written once in the kernel (nvcc
    // widens a value in one block and joins it in a later one). A cvt read
    // elsewhere too stays for its other readers.
    auto half = [&](const std::string &reg) -> std::optional<size_t> {
      if (!writtenOnce(reg))
        return std::nullopt;
      const size_t j = df.def(reg);
      if (j == b || done[j] || !isCvt(k.body[j], 64, 32))
        return std::nullopt;
      const ptx::Operand &src = k.body[j].inst.srcs[0];
      if (writtenOnce(src.reg) || (df.block[j] == df.block[b] && j < b && unchangedBetween(k, src, j, b)))
        return j;
      return std::nullopt;
    };
    const std::optional<size_t> ja = half(s.inst.srcs[0].reg), jb = half(s.inst.srcs[1].reg);
    if (!ja || !jb || *ja == *jb)
      continue;
    const ptx::Operand hi = k.body[*ja].inst.srcs[0], lo = k.body[*jb].inst.srcs[0];
    const ptx::Instruction p = replacing(s.inst, ptx::Form{ptx::Opcode::MovPack, ptx::TypeClass::B, 64}, s.inst.dsts, {lo, hi});
    const unsigned line = s.loc.line;
    k.body[b].note = "with lines " + std::to_string(k.body[std::min(*ja, *jb)].loc.line) + ", " +
                       std::to_string(k.body[std::max(*ja, *jb)].loc.line) +
                       " (two zero-extended halves joined by bfi 32, 32) one mov.b64 d, {lo, hi}";
    k.body[b].inst = p;
    for (size_t f : {*ja, *jb})
      if (df.reads(k.body[f].inst.dsts[0].reg) == 1) {
        foldAway(k.body[f], "folded into the mov.b64 d, {lo, hi} at line " + std::to_string(line));
        done[f] = true;
      }
    done[b] = true;
  }
  return k;
}

Kernel fuseRotates(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  const Dataflow df(k);
  auto plain64 = [](const Stmt &s, ptx::Opcode op) { return isPlain(s, op, 64) && writesOneRegister(s); };
  // shl.b64 / shr.{b,u}64 of a register by a constant: the register and the amount.
  auto shiftOf = [&](size_t j, ptx::Opcode op) -> std::optional<std::pair<ptx::Operand, uint64_t>> {
    const Stmt &s = k.body[j];
    if (!plain64(s, op) || s.inst.form.type == ptx::TypeClass::S || !s.inst.srcs[0].isReg() || !s.inst.srcs[1].isImm())
      return std::nullopt;
    return std::pair{s.inst.srcs[0], s.inst.srcs[1].imm & 0xffffffffu};
  };
  for (size_t root = 0; root < k.body.size(); ++root) {
    const Stmt &rs = k.body[root];
    if (!plain64(rs, ptx::Opcode::Add) && !plain64(rs, ptx::Opcode::Or) && !plain64(rs, ptx::Opcode::Xor))
      continue;
    for (size_t side = 0; side < 2; ++side) {
      const ptx::Operand &l = rs.inst.srcs[side], &r = rs.inst.srcs[1 - side];
      const std::optional<size_t> jl = l.isReg() ? df.singleUseDef(l.reg, root) : std::nullopt;
      const std::optional<size_t> jr = r.isReg() ? df.singleUseDef(r.reg, root) : std::nullopt;
      if (!jl || !jr)
        continue;
      const auto left = shiftOf(*jl, ptx::Opcode::Shl), right = shiftOf(*jr, ptx::Opcode::Shr);
      // (a << k) and (a >> (64 - k)) have disjoint bits: add, or and xor all join them.
      if (!left || !right || left->first.reg != right->first.reg || left->second == 0 || left->second >= 64 ||
          left->second + right->second != 64 || rs.inst.dsts[0].reg == left->first.reg ||
          !unchangedBetween(k, left->first, *jl, root) || !unchangedBetween(k, right->first, *jr, root))
        continue;
      const ptx::Instruction f = replacing(rs.inst, ptx::Form{ptx::Opcode::Rotl, ptx::TypeClass::B, 64}, rs.inst.dsts,
                                           {left->first, immediate(left->second)});
      if (bestCost(f, t, cost) >
          bestCost(rs.inst, t, cost) + bestCost(k.body[*jl].inst, t, cost) + bestCost(k.body[*jr].inst, t, cost))
        break;
      k.body[root].note = "fused with lines " + std::to_string(k.body[std::min(*jl, *jr)].loc.line) + ", " +
                            std::to_string(k.body[std::max(*jl, *jr)].loc.line) + " into one rotl.b64 (by " +
                            std::to_string(left->second) + ")";
      k.body[root].inst = f;
      for (size_t j : {*jl, *jr})
        foldAway(k.body[j], "folded into the rotl.b64 at line " + std::to_string(rs.loc.line));
      break;
    }
  }
  return k;
}

} // namespace p2a::kernel

namespace p2a::kernel {

namespace {

// A value of up to 64 bits as its bits' sources: each bit is zero
// (kZeroBit), a bit of one of the loaded bytes (leaf * 8 + bit), or
// something else (kOtherBit). Bits at and above the register's width are zero.
constexpr int kZeroBit = -1, kOtherBit = -2;
using BitSources = std::array<int, 64>;

// An unsigned byte load a wider load may replace: ld.global[.nc].u8 into one
// register, weak (PTX ISA 8.5: a weak load may be combined with its neighbours).
bool isByteLoad(const Stmt &s) {
  return s.kind == Stmt::Kind::Load && s.guard.empty() && s.space == Space::Global && s.elemBits == 8 &&
         s.elemType != ptx::TypeClass::S && s.extra().values.size() == 1 && s.extra().values[0].isReg() && !s.strong && !s.ordered &&
         !s.baseIsSymbol;
}

std::optional<unsigned> powerOfTwo(const ptx::Operand &o) {
  if (!o.isImm() || o.imm == 0 || (o.imm & (o.imm - 1)) || o.imm > 0x80000000ull)
    return std::nullopt;
  unsigned k = 0;
  while ((uint64_t(1) << k) != o.imm)
    ++k;
  return k;
}

BitSources truncated(BitSources v, unsigned width) {
  for (unsigned i = width; i < 64; ++i)
    v[i] = kZeroBit;
  return v;
}

BitSources shifted(const BitSources &v, int by) {
  BitSources r;
  for (int i = 0; i < 64; ++i)
    r[size_t(i)] = i - by >= 0 && i - by < 64 ? v[size_t(i - by)] : kZeroBit;
  return r;
}

// The bit sources of statement `s`'s result from those of its register
// operands (`of`), for the operations a byte assembly uses; nullopt for
// anything else, or where or/xor/add would combine overlapping bits.
std::optional<BitSources> assemble(const Stmt &s, const std::function<const BitSources *(const std::string &)> &of) {
  if (s.kind != Stmt::Kind::Compute || !s.guard.empty() || s.inst.form.carryIn || s.inst.form.carryOut ||
      s.inst.dsts.size() != 1 || !s.inst.dsts[0].isReg())
    return std::nullopt;
  const ptx::Form &f = s.inst.form;
  const std::vector<ptx::Operand> &src = s.inst.srcs;
  auto operand = [&](size_t i) -> std::optional<BitSources> {
    if (i >= src.size())
      return std::nullopt;
    if (src[i].isImm()) {
      BitSources b;
      for (unsigned bit = 0; bit < 64; ++bit)
        b[bit] = (src[i].imm >> bit) & 1 ? kOtherBit : kZeroBit;
      return b;
    }
    const BitSources *b = src[i].isReg() ? of(src[i].reg) : nullptr;
    return b ? std::optional(*b) : std::nullopt;
  };
  const bool wordSized = f.width == 32 || f.width == 64;
  switch (f.opcode) {
  case ptx::Opcode::Mov:
    if (f.width < 16 || !src[0].isReg())
      return std::nullopt;
    return operand(0);
  case ptx::Opcode::Cvt: { // zero extension (an unsigned source) and truncation (PTX ISA 9.7.9.21)
    if (f.fromType == ptx::TypeClass::S || f.saturate || (f.width < 16 && f.type == ptx::TypeClass::S) ||
        !src[0].isReg())
      return std::nullopt;
    std::optional<BitSources> v = operand(0);
    return v ? std::optional(truncated(*v, std::min(f.fromWidth, f.width))) : std::nullopt;
  }
  case ptx::Opcode::Shl:
  case ptx::Opcode::Shr: {
    if (!wordSized || !src[1].isImm() || src[1].imm >= f.width ||
        (f.opcode == ptx::Opcode::Shr && f.type == ptx::TypeClass::S))
      return std::nullopt;
    std::optional<BitSources> v = operand(0);
    const int by = static_cast<int>(src[1].imm);
    return v ? std::optional(truncated(shifted(*v, f.opcode == ptx::Opcode::Shl ? by : -by), f.width))
             : std::nullopt;
  }
  case ptx::Opcode::MulWide: // by a power of two: a shift of the zero-extended source, twice as wide
  case ptx::Opcode::MulLo: {
    const std::optional<unsigned> k2 = powerOfTwo(src[1]);
    const bool wide = f.opcode == ptx::Opcode::MulWide;
    if (!k2 || f.type == ptx::TypeClass::S || (wide ? f.width != 16 && f.width != 32 : !wordSized))
      return std::nullopt;
    std::optional<BitSources> v = operand(0);
    return v ? std::optional(truncated(shifted(truncated(*v, f.width), int(*k2)), wide ? 2 * f.width : f.width))
             : std::nullopt;
  }
  case ptx::Opcode::And: { // with a constant mask
    if (!wordSized || !src[1].isImm())
      return std::nullopt;
    std::optional<BitSources> v = operand(0);
    if (v)
      for (unsigned i = 0; i < 64; ++i)
        if (!((src[1].imm >> i) & 1))
          (*v)[i] = kZeroBit;
    return v;
  }
  case ptx::Opcode::Or:
  case ptx::Opcode::Xor:
  case ptx::Opcode::Add: { // of disjoint bits: each bit from one side, no carries
    if (!wordSized)
      return std::nullopt;
    std::optional<BitSources> x = operand(0), y = x ? operand(1) : std::nullopt;
    if (!x || !y)
      return std::nullopt;
    for (unsigned i = 0; i < 64; ++i) {
      if ((*x)[i] != kZeroBit && (*y)[i] != kZeroBit)
        return std::nullopt;
      if ((*x)[i] == kZeroBit)
        (*x)[i] = (*y)[i];
    }
    return truncated(*x, f.width);
  }
  case ptx::Opcode::Bfi: { // bfi d, a, b, pos, len with constant pos and len (PTX ISA 9.7.1.10)
    if (!wordSized || src.size() != 4 || !src[2].isImm() || !src[3].isImm())
      return std::nullopt;
    std::optional<BitSources> a = operand(0), b = a ? operand(1) : std::nullopt;
    if (!a || !b)
      return std::nullopt;
    // (.b32 reads pos and len from their low bytes; .b64 from the whole .u32)
    const uint64_t pos = f.width == 32 ? src[2].imm & 0xff : src[2].imm & 0xffffffff,
                   len = f.width == 32 ? src[3].imm & 0xff : src[3].imm & 0xffffffff;
    for (uint64_t i = pos; i < f.width && i < pos + len; ++i)
      (*b)[i] = (*a)[i - pos];
    return truncated(*b, f.width);
  }
  default: return std::nullopt;
  }
}

// How one 32-bit half of a value is made from the loaded dwords: a prmt
// (PTX ISA 9.7.9.7, default mode) of dword `a` with dword `b` (-1: the
// immediate 0, whose byte 4 gives zeros), or a copy of dword `a`.
struct HalfFromDwords {
  int a = 0, b = -1;
  uint32_t selector = 0x3210;
  bool copy() const { return b < 0 && selector == 0x3210; }
  bool zero() const { return b < 0 && selector == 0x4444; }
};

// Byte `byte` of `v`: -1 where it is zero, the loaded byte (leaf) it is in
// place, or nullopt where it is anything else.
std::optional<int> loadedByte(const BitSources &v, unsigned byte) {
  const size_t at = 8 * byte;
  const int b0 = v[at];
  if (b0 != kZeroBit && (b0 < 0 || b0 % 8 != 0))
    return std::nullopt;
  for (unsigned i = 0; i < 8; ++i)
    if (v[at + i] != (b0 == kZeroBit ? kZeroBit : b0 + int(i)))
      return std::nullopt;
  return b0 == kZeroBit ? -1 : b0 / 8;
}

// The half `half` of `v` from the loaded dwords (bytes lo+4d .. lo+4d+3 in
// dword d), if each of its bytes is zero or one loaded byte in place, and
// all its bytes fit one prmt: from one dword, with zeros; or from both,
// without. (A half of zeros only is the zero() prmt of dword 0.)
std::optional<HalfFromDwords> halfFromDwords(const BitSources &v, unsigned half) {
  std::array<int, 4> leafOf{}; // per byte: the loaded byte, or -1 for zero
  bool dword[2] = {false, false}, zeros = false;
  for (unsigned byte = 0; byte < 4; ++byte) {
    const std::optional<int> leaf = loadedByte(v, 4 * half + byte);
    if (!leaf)
      return std::nullopt;
    leafOf[byte] = *leaf;
    if (*leaf < 0)
      zeros = true;
    else
      dword[*leaf / 4] = true;
  }
  HalfFromDwords h;
  h.selector = 0;
  if (dword[0] && dword[1]) {
    if (zeros)
      return std::nullopt;
    h.a = 0;
    h.b = 1;
    for (unsigned byte = 0; byte < 4; ++byte)
      h.selector |= uint32_t(leafOf[byte]) << (4 * byte);
    return h;
  }
  h.a = dword[1] ? 1 : 0;
  for (unsigned byte = 0; byte < 4; ++byte)
    h.selector |= uint32_t(leafOf[byte] < 0 ? 4 : leafOf[byte] % 4) << (4 * byte);
  return h;
}

// A value made of the loaded bytes: each of its bytes is zero or one loaded
// byte in place.
bool fromLoadedBytes(const BitSources &v) {
  for (unsigned byte = 0; byte < 8; ++byte)
    if (!loadedByte(v, byte))
      return false;
  return true;
}

// The width of the register statement `s` writes.
unsigned resultWidth(const Stmt &s, const Kernel &k) { return k.registerWidth(s.inst.dsts[0].reg); }

std::string hexSelector(uint32_t selector) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04X", unsigned(selector));
  return text;
}

} // namespace

Kernel fuseByteLoads(Kernel k) {
  // (A run is 4 or 8 byte loads: without as many, no register counts to take.)
  if (std::count_if(k.body.begin(), k.body.end(), isByteLoad) < 4)
    return k;
  const size_t n = k.body.size();
  const Dataflow df(k);
  unsigned fresh = 0;
  // Per block, its byte loads grouped by base register value (the register
  // and the statement that last wrote it) and read-only-ness, by offset.
  size_t blockBegin = 0;
  while (blockBegin < n) {
    size_t blockEnd = blockBegin;
    while (blockEnd < n && df.block[blockEnd] == df.block[blockBegin])
      ++blockEnd;
    std::map<std::tuple<std::string, long, bool>, std::map<int64_t, size_t>> groups;
    std::map<std::string, long> lastWrite;
    for (size_t i = blockBegin; i < blockEnd; ++i) {
      const Stmt &s = k.body[i];
      if (isByteLoad(s)) {
        auto w = lastWrite.find(s.extra().base);
        groups[{s.extra().base, w == lastWrite.end() ? -1 : w->second, s.nonCoherent}].emplace(s.offset, i);
      }
      forEachWrittenRegister(s, [&](const std::string &r) { lastWrite[r] = long(i); });
    }
    // Fuses the run of `count` (8 or 4) byte loads at consecutive offsets
    // from `start`, if its bytes are assembled into values as described in
    // the header; false where it does not apply.
    auto fuseRun = [&](const std::map<int64_t, size_t> &byOffset, std::map<int64_t, size_t>::const_iterator start,
                       unsigned count, bool readOnly) {
      std::array<size_t, 8> leaf{};
      auto at = start;
      unsigned got = 0;
      for (; got < count && at != byOffset.end() && at->first == start->first + int64_t(got); ++got, ++at)
        leaf[got] = at->second;
      if (got < count)
        return false;
      const int64_t lo = start->first;
      const size_t first = *std::min_element(leaf.begin(), leaf.begin() + count),
                   last = *std::max_element(leaf.begin(), leaf.begin() + count);
      for (size_t j = first + 1; !readOnly && j < last; ++j) {
        const Stmt &s = k.body[j];
        if (s.kind == Stmt::Kind::Store || s.kind == Stmt::Kind::Atomic || s.kind == Stmt::Kind::Barrier ||
            s.kind == Stmt::Kind::Fence || (s.kind == Stmt::Kind::Load && (s.strong || s.ordered)))
          return false;
      }
      // What the loaded bytes become, forward through the block: every
      // statement whose result is made of them alone. A byte is known from
      // its load on (before it, in a loop, its register holds the last
      // iteration's byte: a statement reading it there is no member, and its
      // read rejects the run below).
      std::map<size_t, unsigned> leafAt; // statement -> leaf
      for (unsigned b = 0; b < count; ++b) {
        if (df.writes(k.body[leaf[b]].extra().values[0].reg) != 1)
          return false;
        leafAt[leaf[b]] = b;
      }
      std::map<std::string, BitSources> known;
      std::vector<size_t> members; // the statements computing from the bytes alone
      std::map<std::string, unsigned> readsInside;
      for (size_t j = first; j < blockEnd; ++j) {
        const Stmt &s = k.body[j];
        if (auto l = leafAt.find(j); l != leafAt.end()) {
          BitSources v;
          for (unsigned i = 0; i < 64; ++i)
            v[i] = i < 8 ? int(l->second) * 8 + int(i) : kZeroBit;
          known[s.extra().values[0].reg] = v; // leaf b reads byte lo + b
          continue;
        }
        if (s.kind != Stmt::Kind::Compute)
          continue;
        std::optional<BitSources> v = assemble(s, [&](const std::string &r) -> const BitSources * {
          auto f = known.find(r);
          return f == known.end() ? nullptr : &f->second;
        });
        if (!v || !fromLoadedBytes(*v) || df.writes(s.inst.dsts[0].reg) != 1 ||
            std::none_of(s.inst.srcs.begin(), s.inst.srcs.end(),
                         [&](const ptx::Operand &o) { return o.isReg() && known.count(o.reg); }))
          continue;
        members.push_back(j);
        known[s.inst.dsts[0].reg] = *v;
        for (const ptx::Operand &o : s.inst.srcs)
          if (o.isReg())
            ++readsInside[o.reg];
      }
      // Values read outside the members are made from the dwords; the
      // bytes themselves must not be (a 16-bit register stays a byte load).
      for (unsigned b = 0; b < count; ++b) {
        const std::string &r = k.body[leaf[b]].extra().values[0].reg;
        if (df.reads(r) == 0 || df.reads(r) != readsInside[r])
          return false;
      }
      std::vector<size_t> escaping;
      unsigned extra = 0; // statements the escaping values take
      for (size_t j : members) {
        const std::string &r = k.body[j].inst.dsts[0].reg;
        if (df.reads(r) != 0 && df.reads(r) <= readsInside[r])
          continue;
        const unsigned width = resultWidth(k.body[j], k);
        if (width != 32 && width != 64)
          return false;
        escaping.push_back(j);
        extra += 1;
        for (unsigned half = 0; half * 32 < width; ++half) {
          const std::optional<HalfFromDwords> h = halfFromDwords(known.at(r), half);
          if (!h)
            return false;
          if (width == 64 && !h->copy() && !h->zero())
            ++extra;
        }
      }
      // Fewer statements saved than a load and what the values take: left alone.
      if (escaping.empty() || count - 1 + members.size() < extra + 6)
        return false;
      // The value alone, whole and in order (a 64-bit one from eight bytes,
      // a 32-bit one from four) and neither read nor written between the
      // first load and itself, is loaded directly.
      std::optional<size_t> direct;
      std::string directRegister;
      if (escaping.size() == 1) {
        const size_t j = escaping[0];
        const std::string &r = k.body[j].inst.dsts[0].reg;
        const unsigned width = resultWidth(k.body[j], k);
        bool whole = width == 8 * count;
        for (unsigned half = 0; whole && half * 32 < width; ++half) {
          const HalfFromDwords h = *halfFromDwords(known.at(r), half);
          whole = h.copy() && h.a == int(half);
        }
        for (size_t i = first + 1; whole && i < j; ++i) {
          const std::vector<std::string> reads = readRegisters(k.body[i]), writes = writtenRegisters(k.body[i]);
          whole = std::find(reads.begin(), reads.end(), r) == reads.end() &&
                  std::find(writes.begin(), writes.end(), r) == writes.end();
        }
        if (whole) {
          direct = j;
          directRegister = r;
        }
      }
      // Slots for the prmts of 64-bit values' halves: statements folded
      // away, after the load and before the value's own, taken in order.
      std::vector<size_t> slots;
      for (unsigned b = 0; b < count; ++b)
        if (leaf[b] != first)
          slots.push_back(leaf[b]);
      for (size_t j : members)
        if (std::find(escaping.begin(), escaping.end(), j) == escaping.end())
          slots.push_back(j);
      std::sort(slots.begin(), slots.end());
      struct HalfPrmt {
        size_t slot, value;
        unsigned half;
      };
      std::vector<HalfPrmt> halfPrmts;
      size_t nextSlot = 0;
      // Eight bytes not loaded directly are one 64-bit load, and its dwords
      // one mov.b64 {lo, hi} (copies register assignment may make free), at
      // the first slot, before any of their readers.
      std::optional<size_t> unpackAt;
      if (count == 8 && !direct) {
        if (slots.empty() || slots[0] >= escaping[0])
          return false;
        unpackAt = slots[nextSlot++];
      }
      for (size_t j : escaping) {
        if (direct == j || resultWidth(k.body[j], k) != 64)
          continue;
        for (unsigned half = 0; half < 2; ++half) {
          const HalfFromDwords h = *halfFromDwords(known.at(k.body[j].inst.dsts[0].reg), half);
          if (h.copy() || h.zero())
            continue;
          if (nextSlot == slots.size() || slots[nextSlot] >= j)
            return false;
          halfPrmts.push_back({slots[nextSlot++], j, half});
        }
      }
      // Rewriting.
      std::array<std::string, 2> dword;
      for (unsigned d = 0; d < count / 4; ++d) {
        dword[d] = "%__dword" + std::to_string(fresh++);
        k.registers.set(dword[d], ptx::RegisterType{ptx::TypeClass::B, 32});
      }
      std::string lines;
      for (size_t j : std::set<size_t>(leaf.begin(), leaf.begin() + count))
        lines += (lines.empty() ? "" : ", ") + std::to_string(k.body[j].loc.line);
      const unsigned loadLine = k.body[first].loc.line;
      const std::string wide = count == 8 ? "64-bit" : "32-bit", from = " load at line " + std::to_string(loadLine);
      auto prmtOf = [&](const HalfFromDwords &h, const ptx::Instruction &at, const ptx::Operand &dst) {
        return replacing(at, ptx::Form{ptx::Opcode::Prmt, ptx::TypeClass::B, 32}, {dst},
                         {registerOperand(dword[size_t(h.a)]),
                          h.b < 0 ? immediate(0) : registerOperand(dword[size_t(h.b)]), immediate(h.selector)});
      };
      std::map<std::pair<size_t, unsigned>, ptx::Operand> halfRegister; // (value, half) -> its prmt's result
      std::vector<std::pair<size_t, Stmt>> placed;
      for (const HalfPrmt &p : halfPrmts) {
        const std::string tmp = "%__dword" + std::to_string(fresh++);
        k.registers.set(tmp, ptx::RegisterType{ptx::TypeClass::B, 32});
        const HalfFromDwords h = *halfFromDwords(known.at(k.body[p.value].inst.dsts[0].reg), p.half);
        Stmt s = k.body[p.value];
        s.loc = k.body[p.slot].loc;
        s.inst = prmtOf(h, k.body[p.value].inst, registerOperand(tmp));
        s.inst.loc = s.loc;
        s.note = std::string(p.half ? "the high" : "the low") + " half of line " +
                 std::to_string(k.body[p.value].loc.line) + "'s value: the bytes of lines " + lines +
                 " placed by one prmt (selector " + hexSelector(h.selector) + ") of their " + wide + from;
        placed.emplace_back(p.slot, std::move(s));
        halfRegister[{p.value, p.half}] = registerOperand(tmp);
      }
      for (size_t j : escaping) {
        if (direct == j)
          continue;
        Stmt &s = k.body[j];
        const BitSources &v = known.at(s.inst.dsts[0].reg);
        if (resultWidth(s, k) == 32) {
          const HalfFromDwords h = *halfFromDwords(v, 0);
          s.inst = prmtOf(h, s.inst, s.inst.dsts[0]);
          s.note = "the bytes of lines " + lines + " placed by one prmt (selector " + hexSelector(h.selector) +
                   ") of their " + wide + from;
          continue;
        }
        std::array<ptx::Operand, 2> halves;
        for (unsigned half = 0; half < 2; ++half) {
          const HalfFromDwords h = *halfFromDwords(v, half);
          halves[half] = h.copy()   ? registerOperand(dword[size_t(h.a)])
                         : h.zero() ? immediate(0)
                                    : halfRegister.at({j, half});
        }
        s.inst = replacing(s.inst, ptx::Form{ptx::Opcode::MovPack, ptx::TypeClass::B, 64}, s.inst.dsts,
                           {halves[0], halves[1]});
        s.note = "the bytes of lines " + lines + " as the halves of their " + wide + from;
      }
      for (size_t j : members)
        if (std::find(escaping.begin(), escaping.end(), j) == escaping.end() || direct == j)
          foldAway(k.body[j], "folded into the " + wide + from);
      for (unsigned b = 0; b < count; ++b)
        if (leaf[b] != first)
          foldAway(k.body[leaf[b]], "folded into the " + wide + from);
      for (auto &[slot, s] : placed)
        k.body[slot] = std::move(s);
      Stmt &load = k.body[first];
      load.elemType = ptx::TypeClass::B;
      load.offset = lo;
      load.elemBits = 8 * count;
      if (direct) {
        load.extraToWrite().values = {registerOperand(directRegister)};
      } else if (unpackAt) {
        const std::string qword = "%__qword" + std::to_string(fresh++);
        k.registers.set(qword, ptx::RegisterType{ptx::TypeClass::B, 64});
        load.extraToWrite().values = {registerOperand(qword)};
        Stmt u = computation(k.body[*unpackAt],
                             replacing(load.inst, ptx::Form{ptx::Opcode::MovUnpack, ptx::TypeClass::B, 64},
                                       {registerOperand(dword[0]), registerOperand(dword[1])},
                                       {registerOperand(qword)}),
                             "the dwords of the 64-bit load at line " + std::to_string(loadLine));
        k.body[*unpackAt] = std::move(u);
      } else {
        load.extraToWrite().values = {registerOperand(dword[0])};
      }
      load.note = "the byte loads of lines " + lines + " as one " + wide +
                  " load (AMDHSA runs global memory in unaligned mode)";
      return true;
    };
    for (const auto &[key, byOffset] : groups) {
      for (auto it = byOffset.begin(); it != byOffset.end();) {
        unsigned fused = 0;
        for (unsigned count : {8u, 4u})
          if (fuseRun(byOffset, it, count, std::get<2>(key))) {
            fused = count;
            break;
          }
        std::advance(it, fused ? fused : 1);
      }
    }
    blockBegin = blockEnd;
  }
  return k;
}

} // namespace p2a::kernel
