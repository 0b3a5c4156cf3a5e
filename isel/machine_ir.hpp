// AMDGPU machine IR: selected instructions over virtual registers, then
// physical registers after allocation (regalloc.cpp). Printing produces text
// that LLVM MC assembles for the target.
#pragma once

#include "semantics/amd_ops.hpp"
#include "ptx/ptx_ir.hpp"
#include "rules/rule.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace p2a::mir {

// V32/V64: per-lane values in VGPRs (V64 an aligned pair). Mask: a lane
// mask in SGPRs (a predicate). S32/S64: one value for the whole wave in SGPRs
// (S64 an aligned pair), computed by the scalar ALU.
enum class RegClass { V32, V64, Mask, S32, S64 };
inline bool isSgprClass(RegClass c) { return c == RegClass::Mask || c == RegClass::S32 || c == RegClass::S64; }
inline amd::Slot slotOf(RegClass c) {
  return c == RegClass::Mask ? amd::Slot::Mask : c == RegClass::V64 || c == RegClass::S64 ? amd::Slot::V64 : amd::Slot::V32;
}

struct VReg {
  RegClass cls = RegClass::V32;
  std::string ptxName; // empty for temporaries
  bool readInPlace = false; // a uniform value every reader takes from its SGPRs: no VGPR needed
};

struct MOperand {
  // Phys: a fixed physical register range the ABI dictates (kernarg pointer,
  // workgroup IDs, work-item IDs, loaded kernel arguments), never allocated.
  // None: no operand (a store's destination). Scc: the scalar condition
  // code, an implicit operand (never printed).
  enum class Kind { VReg, Pair, Imm, Vcc, Exec, Phys, None, Scc };
  Kind kind = Kind::Imm;
  unsigned vreg = 0;    // VReg / Pair lo
  unsigned vregHi = 0;  // Pair hi
  rules::Part part = rules::Part::Whole;
  uint64_t imm = 0;     // Imm: 32-bit pattern, or 64-bit for a V64 slot
  bool physSgpr = false; // Phys: s vs v
  unsigned physIndex = 0, physCount = 1;
};

inline MOperand physReg(bool sgpr, unsigned index, unsigned count = 1) {
  MOperand o;
  o.kind = MOperand::Kind::Phys;
  o.physSgpr = sgpr;
  o.physIndex = index;
  o.physCount = count;
  return o;
}
inline MOperand immOperand(uint64_t v) {
  MOperand o;
  o.kind = MOperand::Kind::Imm;
  o.imm = v;
  return o;
}

struct MInst {
  amd::Op op;
  MOperand dst;
  std::vector<MOperand> srcs;
};

// One PTX instruction and what it became.
struct LoweredInst {
  ptx::Instruction ptx;
  const rules::Rule *rule = nullptr;
  std::vector<MInst> insts;
};

struct Function {
  std::vector<VReg> vregs;
  std::map<std::string, unsigned> ptxRegs;        // PTX register -> vreg
  std::vector<std::pair<unsigned, unsigned>> pairs; // (lo, hi): hi must follow lo, lo even
  std::vector<LoweredInst> body;
};

// One PTX statement and the AMD lines it became (snippets and kernels).
struct TranslatedInstruction {
  std::string ptxText;
  ::ptx::ast::SourceLoc loc;
  const rules::Rule *rule = nullptr;
  std::vector<std::string> gcn; // complete lines for the target
  double cycles = 0;            // from LLVM's scheduling model, per rule
  std::string note;             // why a statement has no code of its own ("folded into line 12")
};

// Physical assignment.
struct Allocation {
  std::vector<unsigned> phys; // per vreg: VGPR index (V32/V64 base) or SGPR index (Mask)
  unsigned numVgprs = 0;
  unsigned numSgprs = 0;
};

} // namespace p2a::mir
