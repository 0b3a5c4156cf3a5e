// Branch relaxation (LLVM's BranchRelaxation with SIInstrInfo's
// insertIndirectBranch): a branch whose target lies beyond s_branch /
// s_cbranch_*'s reach -- a signed 16-bit count of dwords from the next
// instruction (Vega ISA 4.2 "Branching") -- becomes a long jump:
//
//     s_cbranch_<inverse> .Lskip          (conditional branches only)
//     s_getpc_b64 s[p:p+1]
//   .Lpc:
//     s_sext_i32_i16 s(p+1), s(p+1)       (gfx12: s_getpc_b64 zero-extends)
//     s_add_u32 sp, sp, (target-.Lpc)&4294967295
//     s_addc_u32 s(p+1), s(p+1), (target-.Lpc)>>32
//     s_setpc_b64 s[p:p+1]
//   .Lskip:
//
// MC resolves the label differences itself (no relocation). The pair p is
// two SGPRs above every register the kernel uses, taken only when some
// branch needs it. The adds write SCC, which no block of ours reads before
// writing it (control_flow.cpp ends every block's SCC use at its branch).
//
// Byte offsets are not known before MC encodes the code, so the pass uses an
// upper bound per instruction: a branch is relaxed when even the largest
// encodings between it and its target could exceed the range. It runs after
// the hazard pass and before s_delay_alu hints, whose 4 bytes per
// instruction the bound includes; a relaxed sequence moves other branches
// apart, so it repeats until no branch is out of range.
#include "lowering/passes.hpp"

#include <unordered_map>

namespace p2a::klower::branch_relaxation {

namespace {

using amd::Op;
using mir::CodeInst;
using mir::MInst;

// s_cbranch's reach in bytes: simm16 dwords from the next instruction.
constexpr int64_t kForwardReach = 4 * 32767, kBackwardReach = 4 * 32768;

// The most bytes `mi` can take: 4 for SOPP; 8 for a scalar instruction with
// a literal, LDS and SMEM; 12 for anything with a VOP3 or gfx12 VMEM
// encoding plus a literal (the largest encodings we emit); the PC-relative
// bundle's three or four instructions. Plus 4 on gfx11+ for an s_delay_alu
// hint the next pass may put before it.
unsigned maxBytes(const MInst &mi, const targets::TargetInfo &t) {
  if (mi.op == Op::LABEL || mi.op == Op::WAIT_LOADS || mi.op == Op::WAIT_ALL)
    return 0;
  const unsigned hint = t.generation >= targets::Generation::GFX11 ? 4 : 0;
  if (mi.op == Op::S_PC_REL_ADDRESS)
    return 4 + 8 + 8 + (t.getpc_zero_extends ? 4 : 0) + hint;
  switch (amd::opDef(mi.op).encoding) {
  case amd::Encoding::SOPP: return 4 + hint;
  case amd::Encoding::SOP1:
  case amd::Encoding::SOP2:
  case amd::Encoding::SOPC:
  case amd::Encoding::SOPK:
  case amd::Encoding::SMEM:
  case amd::Encoding::DS: return 8 + hint;
  default: return 12 + hint;
  }
}

Op inverse(Op branch) {
  switch (branch) {
  case Op::S_CBRANCH_SCC0: return Op::S_CBRANCH_SCC1;
  case Op::S_CBRANCH_SCC1: return Op::S_CBRANCH_SCC0;
  case Op::S_CBRANCH_EXECZ: return Op::S_CBRANCH_EXECNZ;
  case Op::S_CBRANCH_EXECNZ: return Op::S_CBRANCH_EXECZ;
  default: throw std::logic_error(std::string("branch_relaxation: no inverse of ") + amd::opDef(branch).name);
  }
}

// The code's branches out of range, by index into fn.code.
std::vector<size_t> farBranches(const mir::Function &fn, const targets::TargetInfo &t) {
  std::vector<int64_t> start(fn.code.size() + 1, 0);
  std::unordered_map<std::string, int64_t> labelAt;
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const MInst &mi = fn.code[i].mi;
    if (mi.op == Op::LABEL)
      labelAt[fn.labels.at(mi.srcs.at(0).imm)] = start[i];
    start[i + 1] = start[i] + maxBytes(mi, t);
  }
  std::vector<size_t> far;
  for (size_t i = 0; i < fn.code.size(); ++i) {
    const MInst &mi = fn.code[i].mi;
    if (!amd::isBranch(mi.op))
      continue;
    auto it = labelAt.find(fn.labels.at(mi.srcs.at(0).imm));
    if (it == labelAt.end())
      throw std::logic_error("branch_relaxation: branch to a label the code does not define");
    const int64_t distance = it->second - start[i + 1];
    if (distance > kForwardReach || distance < -kBackwardReach)
      far.push_back(i);
  }
  return far;
}

} // namespace

Result run(mir::Function &fn, const targets::TargetInfo &t, const std::string &labelPrefix, unsigned &numSgprs) {
  Result r;
  std::optional<unsigned> pair;
  for (std::vector<size_t> far = farBranches(fn, t); !far.empty(); far = farBranches(fn, t)) {
    if (!pair) {
      const unsigned p = (numSgprs + 1) & ~1u;
      if (p + 2 > targets::kMaxSgprs) {
        r.noSgprPairAt = fn.code[far.front()].stmt;
        return r;
      }
      pair = p;
      numSgprs = p + 2;
    }
    std::vector<CodeInst> out;
    out.reserve(fn.code.size() + 8 * far.size());
    size_t next = 0;
    for (size_t i = 0; i < fn.code.size(); ++i) {
      CodeInst &ci = fn.code[i]; // (moves to `out`)
      if (next == far.size() || far[next] != i) {
        out.push_back(std::move(ci));
        continue;
      }
      ++next;
      const std::string name = labelPrefix + "_long" + std::to_string(r.relaxed++);
      const std::string target = fn.labels.at(ci.mi.srcs.at(0).imm);
      auto put = [&](MInst mi) { out.push_back({std::move(mi), ci.stmt}); };
      const bool conditional = ci.mi.op != Op::S_BRANCH;
      if (conditional)
        put(MInst{inverse(ci.mi.op), mir::noOperand(), {fn.label(name + "_skip")}});
      put(MInst{Op::S_GETPC_B64, mir::sgprs(*pair, 2), {}});
      put(MInst{Op::LABEL, mir::noOperand(), {fn.label(name + "_pc")}});
      if (t.getpc_zero_extends)
        put(MInst{Op::S_SEXT_I32_I16, mir::sgprs(*pair + 1), {mir::sgprs(*pair + 1)}});
      put(MInst{Op::S_ADD_U32, mir::sgprs(*pair), {mir::sgprs(*pair), fn.symbol({target, false, 0, name + "_pc"})}});
      put(MInst{Op::S_ADDC_U32, mir::sgprs(*pair + 1),
                {mir::sgprs(*pair + 1), fn.symbol({target, true, 0, name + "_pc"})}});
      put(MInst{Op::S_SETPC_B64, mir::noOperand(), {mir::sgprs(*pair, 2)}});
      if (conditional)
        put(MInst{Op::LABEL, mir::noOperand(), {fn.label(name + "_skip")}});
    }
    fn.code = std::move(out);
  }
  return r;
}

} // namespace p2a::klower::branch_relaxation
