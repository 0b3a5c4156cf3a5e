// AMDGPU machine IR: selected instructions over virtual registers, then
// physical registers after allocation (regalloc.cpp). Printing produces text
// that LLVM MC assembles for the target.
#pragma once

#include "semantics/amd_ops.hpp"
#include "targets/wait_states.hpp"
#include "ptx/ptx_ir.hpp"
#include "ptx/sparse.hpp"
#include "rules/rule.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace p2a::mir {

// V32/V64: per-lane values in VGPRs (V64 an aligned pair). Mask: a lane
// mask in SGPRs (a predicate). S32/S64: one value for the whole wave in SGPRs
// (S64 an aligned pair), computed by the scalar ALU.
enum class RegClass { V32, V64, Mask, S32, S64 };
inline bool isSgprClass(RegClass c) { return c == RegClass::Mask || c == RegClass::S32 || c == RegClass::S64; }
// The 32-bit registers a value of class `c` takes (a lane mask: 2 SGPRs in wave64).
inline unsigned registerCount(RegClass c, unsigned waveSize) {
  return c == RegClass::Mask ? (waveSize == 64 ? 2u : 1u) : c == RegClass::V64 || c == RegClass::S64 ? 2u : 1u;
}
inline amd::Slot slotOf(RegClass c) {
  return c == RegClass::Mask ? amd::Slot::Mask : c == RegClass::V64 || c == RegClass::S64 ? amd::Slot::V64 : amd::Slot::V32;
}

// What a vreg holds, which decides how long it lives without a liveness
// interval: a PTX register or one of the lowering's own values lives for the
// whole function, a temporary within the PTX instruction that made it.
enum class VRegRole : unsigned char {
  PtxRegister, // a PTX register (ptxName)
  ScalarHome,  // the SGPRs holding a uniform PTX register's value (ptxName: that register)
  Temporary,   // a rule temporary or a legalised constant
  Lowering,    // the kernel lowering's own state: block lane masks, saved EXEC, the zero VGPR (ptxName: what it is)
};

// (8 bytes: a big kernel's lowering makes a vreg per temporary, millions of
// them; the few names live in Function::vregNames.)
struct VReg {
  RegClass cls = RegClass::V32;
  VRegRole role = VRegRole::Temporary; // (second: a brace list {cls, "%name"} does not compile)
  bool readInPlace = false; // a uniform value every reader takes from its SGPRs: no VGPR needed
  bool spilled = false;     // kept in memory (scratch or VGPR lanes): each use goes through a temporary
  static constexpr unsigned kNoName = ~0u;
  unsigned name = kNoName; // index into Function::vregNames (see VRegRole); none for temporaries
};

// The register files a fixed (physical) operand may name.
enum class RegFile : unsigned char { Vgpr, Sgpr, Ttmp };

// How assembly spells a tuple of consecutive registers: `v[6:7]`, as LLVM
// prints it, or the list `[v6,v7]`, which LLVM's AMDGPU parser reads as the
// same register without an expression per bound (its MCContext keeps every
// one until the module is assembled: 150 MiB of nvcomp's RunLengthEncode's
// object; llvm-mc on 32k lines of kernels, 91 -> 77 MiB and 0.47 -> 0.37 s).
enum class TupleSpelling : unsigned char { Range, List };

// Registers the prologue names rather than numbers.
enum class SpecialReg : unsigned char { FlatScratchLo, FlatScratchHi, SrcSharedBase, SrcPrivateBase };

// Hardware registers s_setreg writes (RDNA2 ISA "Hardware registers").
enum class HwReg : unsigned char { FlatScrLo, FlatScrHi };

// The scope a cache write-back or invalidation acts at: none (gfx9/gfx10/11
// forms take no modifier), gfx942's sc bits, gfx12's scope field; and the
// bits a strong (relaxed or volatile) load or store carries: glc (dlc) on
// gfx9-gfx11, sc0/sc1 on gfx942, scope on gfx12.
enum class CachePolicy : unsigned char { None, Sc1, Sc0Sc1, ScopeSe, ScopeDev, ScopeSys, Glc, GlcDlc, Sc0 };

struct MOperand {
  // Phys: a fixed physical register range: what the ABI dictates (kernarg
  // pointer, workgroup IDs, loaded kernel arguments), and after register
  // assignment every register (rewritePhysical). None: no operand (a
  // store's destination). Scc: the scalar condition code, an implicit
  // operand (never printed). Label: a branch target or a label's name
  // (imm: Function::labels index). Symbol: a relocated symbol address part
  // (imm: Function::symbols index). Special: imm is a SpecialReg. HwReg:
  // imm is a HwReg. Wait: s_waitcnt's counter and count (imm). CachePolicy:
  // imm is a CachePolicy.
  // (Packed to 24 bytes, ordered by size: a kernel's code list holds half a
  // million of them at its peak.)
  enum class Kind : unsigned char { VReg, Pair, Imm, Vcc, Exec, Phys, None, Scc, Label, Symbol, Special, HwReg, Wait, CachePolicy };
  Kind kind = Kind::Imm;
  rules::Part part = rules::Part::Whole;
  RegFile file = RegFile::Vgpr; // Phys
  targets::Counter counter = targets::Counter::VmLoad; // Wait
  uint16_t physIndex = 0, physCount = 1; // Phys
  unsigned vreg = 0;    // VReg / Pair lo
  unsigned vregHi = 0;  // Pair hi
  uint64_t imm = 0;     // Imm: 32-bit pattern, or 64-bit for a V64 slot
};

static_assert(sizeof(MOperand) == 24);

inline MOperand physReg(RegFile file, unsigned index, unsigned count = 1) {
  MOperand o;
  o.kind = MOperand::Kind::Phys;
  o.file = file;
  o.physIndex = static_cast<uint16_t>(index);
  o.physCount = static_cast<uint16_t>(count);
  return o;
}
// Virtual register `v`, or its low or high half.
inline MOperand vregOperand(unsigned v, rules::Part part = rules::Part::Whole) {
  MOperand o;
  o.kind = MOperand::Kind::VReg;
  o.vreg = v;
  o.part = part;
  return o;
}
inline MOperand sgprs(unsigned index, unsigned count = 1) { return physReg(RegFile::Sgpr, index, count); }
inline MOperand vgprs(unsigned index, unsigned count = 1) { return physReg(RegFile::Vgpr, index, count); }
inline MOperand immOperand(uint64_t v) {
  MOperand o;
  o.kind = MOperand::Kind::Imm;
  o.imm = v;
  return o;
}
inline MOperand noOperand() {
  MOperand o;
  o.kind = MOperand::Kind::None;
  return o;
}
inline MOperand tagged(MOperand::Kind k, uint64_t v) {
  MOperand o;
  o.kind = k;
  o.imm = v;
  return o;
}
inline MOperand special(SpecialReg r) { return tagged(MOperand::Kind::Special, static_cast<uint64_t>(r)); }
inline MOperand hwReg(HwReg r) { return tagged(MOperand::Kind::HwReg, static_cast<uint64_t>(r)); }
inline MOperand cachePolicy(CachePolicy p) { return tagged(MOperand::Kind::CachePolicy, static_cast<uint64_t>(p)); }
inline MOperand waitOperand(targets::Counter c, unsigned n) {
  MOperand o = tagged(MOperand::Kind::Wait, n);
  o.counter = c;
  return o;
}

struct MInst {
  amd::Op op;
  MOperand dst;
  std::vector<MOperand> srcs;
  // A global/flat load or store's cache-coherence bits (a strong access);
  // atomics and cache operations carry theirs as an operand.
  CachePolicy policy = CachePolicy::None;
};

// One PTX instruction and what it became. (`ptx` only where the Function
// keeps it: see Function::keepsPtx. Behind a pointer: 160 bytes held empty
// per statement of a kernel, 12 MiB of KeyHunt's 80,000-statement kernels
// at their peak, and moved at each growth of the body.)
struct LoweredInst {
  std::shared_ptr<const ptx::Instruction> ptx;
  const rules::Rule *rule = nullptr;
  std::vector<MInst> insts;
  // The rule's destination and the register sources its proof lets that
  // destination be (same class; proof/verifier.cpp proves each aliasing,
  // and the rule is not dstDistinct on this target): register assignment
  // may give the destination the register of such a source whose value
  // ends here (select::lowerWith fills them; nothing else does).
  unsigned aliasDst = ~0u;
  llvm::SmallVector<unsigned, 2> aliasSrcs; // (in place: one per statement, most with one or two)
};

// A symbol's address half as a relocated 32-bit constant
// ("name@rel32@lo+4"): the PC-relative address of a module variable. With
// `from`, a half of the distance between two labels of the kernel, which
// MC resolves itself ("(name-from)&4294967295", "(name-from)>>32", as
// LLVM prints a long branch's offset).
struct SymbolRef {
  std::string name;
  bool high = false;
  int64_t addend = 0;
  std::string from;
};

// One instruction of the laid-out kernel, and the PTX statement it belongs
// to (an index into the kernel's body; kPrologue, kEpilogue outside it).
struct CodeInst {
  MInst mi;
  int stmt = -1;
};
inline constexpr int kPrologue = -1, kEpilogue = -2;

struct Function {
  // Whether each LoweredInst keeps a copy of its PTX instruction: snippets'
  // listings and port-asm read it; a kernel's rows come from its statements,
  // so its lowering keeps none (a copy per statement per lowering try).
  bool keepsPtx = true;
  // How its assembly spells register tuples (Range where people read it).
  TupleSpelling tuples = TupleSpelling::Range;
  std::vector<VReg> vregs;
  std::vector<std::string> vregNames; // VReg::name indexes it
  // A vreg's PTX name (see VRegRole), empty for temporaries.
  const std::string &ptxName(unsigned v) const {
    static const std::string none;
    return vregs[v].name == VReg::kNoName ? none : vregNames[vregs[v].name];
  }
  void setPtxName(unsigned v, std::string name) {
    vregs[v].name = static_cast<unsigned>(vregNames.size());
    vregNames.push_back(std::move(name));
  }
  // PTX register (or the lowering's named value) -> vreg. (Hashed: looked up
  // per operand, never walked in order; see ptx::RegisterTypes for why a
  // StringMap.)
  llvm::StringMap<unsigned> ptxRegs;
  std::map<std::string, unsigned, std::less<>> scalarHomes; // uniform PTX register -> its ScalarHome vreg
  // (lo, hi): hi must follow lo, lo even; for two V64 vregs, hi at lo + 2
  // (a 128-bit operand: global_atomic_cmpswap_x2's {new, compare}).
  std::vector<std::pair<unsigned, unsigned>> pairs;
  // The pairs each vreg is in, by index into `pairs`, for pairs[0,
  // pairsIndexed): select::lowerWith checks a rule's pairs against those
  // (pairs are appended, here and by the lowering; a failed rule's rollback
  // truncates them, and nothing else may shrink or edit them). A scan of
  // every pair per pair operand was quadratic.
  llvm::DenseMap<unsigned, llvm::SmallVector<unsigned, 1>> pairsOf{};
  size_t pairsIndexed = 0;
  std::vector<LoweredInst> body;
  std::vector<std::string> labels; // Label operands' names
  std::vector<SymbolRef> symbols;  // Symbol operands
  // The kernel as one instruction list, once laid out after register
  // assignment: physical registers only; the passes after it (waits,
  // hazards, ALU delays) insert into it, the printer writes it out.
  std::vector<CodeInst> code;

  MOperand label(const std::string &name) {
    labels.push_back(name);
    return tagged(MOperand::Kind::Label, labels.size() - 1);
  }
  MOperand symbol(SymbolRef s) {
    symbols.push_back(std::move(s));
    return tagged(MOperand::Kind::Symbol, symbols.size() - 1);
  }
};

// One PTX statement and the AMD lines it became (snippets and kernels).
struct TranslatedInstruction {
  ::ptx::ast::SourceLoc loc;
  const rules::Rule *rule = nullptr;
  unsigned amdLines = 0; // how many AMD instructions it has (text().gcn.size() when listed)
  // What listings and reports show of it. A batch translation without a
  // report keeps none (klower::Options::keepListing): the rows of its
  // kernels are held to the module's end, and 88 bytes of empty strings a
  // row were 7 MB of each of KeyHunt's 80k-statement kernels (and the
  // cycles, which only listings show, 8 bytes more).
  struct Text {
    std::string ptxText;
    std::vector<std::string> gcn; // complete lines for the target
    std::string note;             // why a statement has no code of its own ("folded into line 12")
    double cycles = 0;            // from LLVM's scheduling model, per rule
  };
  const Text &text() const { return text_.get(); }
  Text &textToWrite() { return text_.toWrite(); }

private:
  ptx::Sparse<Text> text_;
};

// Physical assignment.
struct Allocation {
  std::vector<unsigned> phys; // per vreg: VGPR index (V32/V64 base) or SGPR index (Mask)
  unsigned numVgprs = 0;
  unsigned numSgprs = 0;
  // Per body position (kernels): the registers in use there, reserved ones
  // included -- what spilling measures the pressure by.
  std::vector<unsigned> vgprsInUse, sgprsInUse;
};

} // namespace p2a::mir
