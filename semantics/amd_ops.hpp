// The AMD instructions the rule table may emit, as data: encoding, operand
// slots, availability per target, spelling per target, and a bit-vector
// semantics taken from AMD's ISA guides ("Vega" gfx9 ISA, CDNA3 ISA, RDNA2/3/4
// ISA, section "Vector ALU instructions" / "Scalar ALU instructions"). The
// same semantics serve proofs (symbolic) and tests (concrete).
//
// Lane model: a VALU semantics computes one lane. A lane mask (SGPR pair in
// wave64, SGPR in wave32, VCC, EXEC) is seen as that lane's bit, so mask
// semantics are 1-bit. This is exact for lane-wise SALU logic on masks.
#pragma once

#include "semantics/bitvec.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::amd {

enum class Op {
  V_MOV_B32, V_NOT_B32,
  V_AND_B32, V_OR_B32, V_XOR_B32, V_XNOR_B32,
  V_BFI_B32, V_AND_OR_B32, V_OR3_B32, V_XOR3_B32,
  V_ALIGNBIT_B32, V_BFE_U32, V_LSHL_OR_B32,
  V_LSHLREV_B32, V_LSHRREV_B32, V_ASHRREV_I32,
  V_LSHLREV_B16, V_LSHRREV_B16, V_ASHRREV_I16,
  V_LSHLREV_B64, V_LSHRREV_B64, V_ASHRREV_I64,
  V_MIN_U32, V_SUB_U32, V_SUB_U32_CLAMP,
  V_CMP_EQ_U32, V_CMP_NE_U32, V_CMP_GT_U32, V_CMP_EQ_U16, V_CMP_EQ_U64,
  V_CNDMASK_B32,
  V_DUAL_CNDMASK_PAIR,     // gfx11+ VOPD: two v_cndmask_b32 on the halves of a pair, one issue
  V_LSHRREV_B32_SDWA_W0,   // gfx9/gfx10 SDWA: src1_sel:WORD_0 zero-extends the low half first
  S_AND_MASK, S_OR_MASK, S_XOR_MASK, S_MOV_MASK,
  // S0 & ~S1, S0 | ~S1 on masks: no rule emits them; clang closes divergent regions so (check --amd).
  S_ANDN2_MASK, S_ORN2_MASK,
  // Bit manipulation (neighbours of the Logic and Shift family).
  V_PERM_B32, V_BFE_I32, V_BFM_B32, V_BFREV_B32, V_BCNT_U32_B32,
  V_FFBH_U32, V_FFBL_B32, V_FFBH_I32,
  V_ADD_U32, V_SUBREV_U32, V_MAX_U32, V_MIN_I32, V_MAX_I32, V_MED3_U32, V_MED3_I32, V_MIN3_U32,
  V_ADD3_U32, V_LSHL_ADD_U32, V_ADD_LSHL_U32, V_XAD_U32,
  V_CMP_LT_U32, V_CMP_LE_U32, V_CMP_GE_U32, V_CMP_LT_I32, V_CMP_GT_I32, V_CMP_NE_U64, V_CMP_GT_U64,
  V_CMP_LT_U64,
  // Integer arithmetic for kernels (Vega ISA 12.7 VOP2/VOP3 opcodes).
  V_MUL_LO_U32, V_MUL_HI_U32, V_MUL_HI_I32,
  V_ADD_CO_U32, V_ADDC_CO_U32, V_SUB_CO_U32, V_SUBB_CO_U32,
  V_CMP_LE_I32, V_CMP_GE_I32, V_CMP_LE_U64, V_CMP_GE_U64, V_CMP_LT_I64, V_CMP_LE_I64, V_CMP_GT_I64, V_CMP_GE_I64,
  // Memory (no value semantics here: the kernel lowering emits them and the
  // emulator executes them). Loads: dst, srcs {address pair, offset}.
  // Stores: no dst, srcs {address pair, data, offset}. Scalar loads: dst an
  // SGPR range, srcs {SGPR pair base, byte offset}.
  GLOBAL_LOAD_U8, GLOBAL_LOAD_I8, GLOBAL_LOAD_U16, GLOBAL_LOAD_I16, GLOBAL_LOAD_B32, GLOBAL_LOAD_B64,
  GLOBAL_STORE_B8, GLOBAL_STORE_B16, GLOBAL_STORE_B32, GLOBAL_STORE_B64,
  S_LOAD_B32, S_LOAD_B64, S_LOAD_B128, S_LOAD_B256,
  // LDS: loads dst, srcs {address, offset}; stores no dst, srcs {address, data, offset}.
  DS_READ_U8, DS_READ_I8, DS_READ_U16, DS_READ_I16, DS_READ_B32, DS_READ_B64,
  DS_WRITE_B8, DS_WRITE_B16, DS_WRITE_B32, DS_WRITE_B64,
  // 24-bit multiplies (Vega ISA 12.7 VOP2/VOP3) and the 32x32+64 multiply-add
  // (VOP3B, carry out to an SGPR mask: VCC here).
  V_MUL_U32_U24, V_MUL_HI_U32_U24, V_MUL_I32_I24, V_MUL_HI_I32_I24, V_MAD_U32_U24, V_MAD_I32_I24,
  V_MAD_U64_U32, V_MAD_I64_I32,
  // D = (S0 << S1[2:0]) + S2 on 64-bit values (CDNA3 ISA, gfx942 only): no
  // rule emits it; clang's 64-bit adds and address arithmetic do (check --amd).
  V_LSHL_ADD_U64,
  // D = S0 on 64 bits (CDNA3 ISA V_MOV_B64, gfx942 only): no rule emits it;
  // clang's 64-bit copies do (check --amd).
  V_MOV_B64,
  // D = S1 - S0 - VCC, VCC = the borrow (Vega ISA 12.7; gfx10+
  // v_subrev_co_ci_u32): no rule emits it; clang's borrow chains do.
  V_SUBBREV_CO_U32,
  // Scratch (per-lane private memory; Vega ISA 9 "Scratch"): loads dst,
  // srcs {byte offset in the lane's area, offset}; stores srcs {offset, data, offset}.
  SCRATCH_LOAD_U8, SCRATCH_LOAD_I8, SCRATCH_LOAD_U16, SCRATCH_LOAD_I16, SCRATCH_LOAD_B32, SCRATCH_LOAD_B64,
  SCRATCH_STORE_B8, SCRATCH_STORE_B16, SCRATCH_STORE_B32, SCRATCH_STORE_B64,
  // Global with an SGPR base (Vega ISA 9 "Global": address = SGPR pair +
  // 32-bit VGPR offset + immediate): loads srcs {VGPR offset, SGPR pair,
  // offset}; stores srcs {VGPR offset, data, SGPR pair, offset}.
  GLOBAL_LOAD_U8_SADDR, GLOBAL_LOAD_I8_SADDR, GLOBAL_LOAD_U16_SADDR, GLOBAL_LOAD_I16_SADDR, GLOBAL_LOAD_B32_SADDR,
  GLOBAL_LOAD_B64_SADDR, GLOBAL_STORE_B8_SADDR, GLOBAL_STORE_B16_SADDR, GLOBAL_STORE_B32_SADDR, GLOBAL_STORE_B64_SADDR,
  // Flat (Vega ISA 9 "Flat"): a generic address, which the apertures route
  // to LDS, scratch or global memory; operands as the global forms, printed
  // without the SGPR-base field. They count in vmcnt and lgkmcnt.
  FLAT_LOAD_U8, FLAT_LOAD_I8, FLAT_LOAD_U16, FLAT_LOAD_I16, FLAT_LOAD_B32, FLAT_LOAD_B64,
  FLAT_STORE_B8, FLAT_STORE_B16, FLAT_STORE_B32, FLAT_STORE_B64,
  // Scalar ALU on uniform 32/64-bit values (Vega ISA 12.2 SOP2, 12.3 SOP1):
  // one result for the whole wave, written whatever EXEC holds. The V32/V64
  // slots give operand widths; operands are SGPRs or constants.
  S_ADD_I32, S_SUB_I32, S_MUL_I32, S_MUL_HI_U32, S_MUL_HI_I32,
  S_AND_B32, S_OR_B32, S_XOR_B32, S_NOT_B32, S_LSHL_B32, S_LSHR_B32, S_ASHR_I32,
  S_MIN_U32, S_MIN_I32, S_MAX_U32, S_MAX_I32, S_MOV_B32,
  S_LSHL_B64, S_LSHR_B64, S_ASHR_I64,
  // The lowest set bit's index, -1 for none (Vega ISA 12.3 S_FF1_I32_B64/B32;
  // gfx11+ s_ctz_i32_*): a loop over a wave mask's lanes (redux, match).
  S_FF1_I32_B64, S_FF1_I32_B32,
  // Scalar compares (Vega ISA 12.4 SOPC): SCC = S0 op S1, no other result.
  S_CMP_EQ_U32, S_CMP_LG_U32, S_CMP_GT_U32, S_CMP_GE_U32, S_CMP_LT_U32, S_CMP_LE_U32,
  S_CMP_GT_I32, S_CMP_GE_I32, S_CMP_LT_I32, S_CMP_LE_I32, S_CMP_EQ_U64, S_CMP_LG_U64,
  // D = SCC ? S0 : S1 on a lane mask (Vega ISA 12.2 S_CSELECT_B64; _b32 in wave32).
  S_CSELECT_MASK,
  // D = S0 + S1 (+ SCC), SCC = the carry out (Vega ISA 12.2; gfx12 s_add_co_u32 / s_add_co_ci_u32).
  S_ADD_U32, S_ADDC_U32,
  // 16-bit compares (Vega ISA 12.8 VOPC; RDNA3's 16-bit forms): only the low
  // halves of the sources take part.
  V_CMP_NE_U16, V_CMP_LT_U16, V_CMP_LE_U16, V_CMP_GT_U16, V_CMP_GE_U16,
  V_CMP_LT_I16, V_CMP_LE_I16, V_CMP_GT_I16, V_CMP_GE_I16,
  // Program control, waits and hints (Vega ISA 12.5 SOPP; RDNA3 ISA
  // "s_delay_alu"; RDNA4 ISA s_barrier_signal/s_barrier_wait): no value
  // semantics. Branches: srcs {Label} (the SCC branches read SCC, execz
  // EXEC, implicitly); s_nop, s_delay_alu: srcs {Imm}; s_waitcnt (with its
  // gfx10 vscnt and gfx12 split forms): srcs {Wait}; v_nop: none.
  S_BRANCH, S_CBRANCH_SCC0, S_CBRANCH_SCC1, S_CBRANCH_EXECZ, S_CBRANCH_EXECNZ, S_ENDPGM, S_BARRIER, S_BARRIER_SIGNAL,
  S_BARRIER_WAIT, S_NOP, S_WAITCNT, S_DELAY_ALU, V_NOP,
  // s_trap N (Vega ISA 12.5 SOPP; N = 2 is LLVM's llvm.trap on AMDHSA): the
  // wave enters the trap handler, which aborts the queue. srcs {Imm}.
  S_TRAP,
  // Prologue setup (Vega ISA 12.3 SOP1, 12.6 SOPK): the PC of the next
  // instruction into an SGPR pair; an SGPR into a hardware register
  // (dst HwReg); a 64-bit scalar move (from an aperture register).
  S_GETPC_B64, S_SETREG_B32, S_MOV_B64,
  // A long branch (lowering/branch_relaxation.cpp): jump to the address in
  // an SGPR pair (Vega ISA 12.3 SOP1, srcs {Sgprs}); gfx12's fix-up of
  // s_getpc_b64's zero-extended high word (RDNA4 ISA: the PC is 48 bits,
  // sign-extended by s_sext_i32_i16 as LLVM does; dst/src the high SGPR).
  S_SETPC_B64, S_SEXT_I32_I16,
  // A symbol's address into an SGPR pair, PC-relative as LLVM's
  // SI_PC_ADD_REL_OFFSET: s_getpc_b64, then s_add_u32 / s_addc_u32 of the
  // symbol's rel32 halves (srcs {Symbol lo, Symbol hi}). One instruction
  // until it is printed, so that no pass puts anything between the three:
  // the addends count the bytes from the s_getpc to each literal.
  S_PC_REL_ADDRESS,
  // Cache maintenance for fences and barriers (AMDGPUUsage "Memory Model"):
  // no operands but srcs {CachePolicy}.
  BUFFER_WBINVL1_VOL, BUFFER_WBL2, BUFFER_INV, BUFFER_INVL2, BUFFER_GL0_INV, BUFFER_GL1_INV, GLOBAL_WB, GLOBAL_INV,
  // Atomics (Vega ISA 9 "Global, Scratch and Flat" and 11 "LDS" opcode
  // tables; MI300, RDNA3/4 names by the target's renames). Global: dst the
  // old value or None (no return: printed without the return bit), srcs
  // {address pair, data, offset, CachePolicy}; cmpswap's data is the pair
  // {new, compare}. LDS: dst the old value or None (the name without
  // _rtn), srcs {address, data, offset}; cmpst {address, compare, new,
  // offset} (gfx11+ print new before compare).
  GLOBAL_ATOMIC_ADD, GLOBAL_ATOMIC_INC, GLOBAL_ATOMIC_DEC, GLOBAL_ATOMIC_UMIN, GLOBAL_ATOMIC_SMIN,
  GLOBAL_ATOMIC_UMAX, GLOBAL_ATOMIC_SMAX, GLOBAL_ATOMIC_AND, GLOBAL_ATOMIC_OR, GLOBAL_ATOMIC_XOR,
  GLOBAL_ATOMIC_SWAP, GLOBAL_ATOMIC_CMPSWAP,
  GLOBAL_ATOMIC_ADD_X2, GLOBAL_ATOMIC_UMIN_X2, GLOBAL_ATOMIC_SMIN_X2, GLOBAL_ATOMIC_UMAX_X2,
  GLOBAL_ATOMIC_SMAX_X2, GLOBAL_ATOMIC_AND_X2, GLOBAL_ATOMIC_OR_X2, GLOBAL_ATOMIC_XOR_X2, GLOBAL_ATOMIC_SWAP_X2,
  GLOBAL_ATOMIC_CMPSWAP_X2, // data: {new, compare} as a 128-bit quad (two V64 vregs, Function::pairs)
  // FLAT atomics (Vega ISA 9 "Flat"): the global ones, in the same order,
  // on a generic address the apertures route (LDS, scratch or global); no
  // SGPR-base field, srcs as the global forms (flatAtomicOf).
  FLAT_ATOMIC_ADD, FLAT_ATOMIC_INC, FLAT_ATOMIC_DEC, FLAT_ATOMIC_UMIN, FLAT_ATOMIC_SMIN, FLAT_ATOMIC_UMAX,
  FLAT_ATOMIC_SMAX, FLAT_ATOMIC_AND, FLAT_ATOMIC_OR, FLAT_ATOMIC_XOR, FLAT_ATOMIC_SWAP, FLAT_ATOMIC_CMPSWAP,
  FLAT_ATOMIC_ADD_X2, FLAT_ATOMIC_UMIN_X2, FLAT_ATOMIC_SMIN_X2, FLAT_ATOMIC_UMAX_X2, FLAT_ATOMIC_SMAX_X2,
  FLAT_ATOMIC_AND_X2, FLAT_ATOMIC_OR_X2, FLAT_ATOMIC_XOR_X2, FLAT_ATOMIC_SWAP_X2,
  FLAT_ATOMIC_CMPSWAP_X2,
  DS_ADD_RTN_U32, DS_INC_RTN_U32, DS_DEC_RTN_U32, DS_MIN_RTN_U32, DS_MIN_RTN_I32, DS_MAX_RTN_U32,
  DS_MAX_RTN_I32, DS_AND_RTN_B32, DS_OR_RTN_B32, DS_XOR_RTN_B32, DS_WRXCHG_RTN_B32, DS_CMPST_RTN_B32,
  // 64-bit LDS atomics (Vega ISA 11 "DS_*_RTN_U64/B64"): data and the old
  // value in VGPR pairs; cmpst as the 32-bit one.
  DS_ADD_RTN_U64, DS_MIN_RTN_U64, DS_MIN_RTN_I64, DS_MAX_RTN_U64, DS_MAX_RTN_I64, DS_AND_RTN_B64, DS_OR_RTN_B64,
  DS_XOR_RTN_B64, DS_WRXCHG_RTN_B64, DS_CMPST_RTN_B64,
  // Cross-lane (shfl.sync, vote.sync): ds_bpermute_b32 dst, {address, data,
  // offset} reads `data` of lane (address + offset) / 4 through the LDS
  // crossbar, touching no LDS memory; v_mbcnt_{lo,hi}_u32_b32 count the set
  // bits of S0 below the lane's own position (its lane number for S0 = -1).
  DS_BPERMUTE_B32, V_MBCNT_LO_U32_B32, V_MBCNT_HI_U32_B32,
  // SGPR spills (Vega ISA 12.12 VOP3 V_READLANE_B32 / V_WRITELANE_B32): one
  // lane of a VGPR, whatever EXEC holds. v_writelane_b32 dst VGPR, srcs
  // {SGPR, lane}; v_readlane_b32 dst SGPR, srcs {VGPR, lane}. The emulator
  // models them (no per-lane semantics).
  V_READLANE_B32, V_WRITELANE_B32,
  // Pseudo instructions the lowering's passes consume, never printed: a
  // label (srcs {Label}); wait for every outstanding load (a block
  // boundary); wait for every memory access, loads and stores (before a
  // fence's or barrier's cache maintenance).
  LABEL, WAIT_LOADS, WAIT_ALL,
  // The workgroup barrier with its waits and cache maintenance (bar.sync's
  // sequence), where a statement needs one among its own instructions
  // (bar.red): expanded at layout (code_layout.cpp).
  CTA_BARRIER,
  NumOps // not an op: the count, for tables indexed by Op
};
inline constexpr size_t kNumOps = static_cast<size_t>(Op::NumOps);

// CacheMaintenance: MUBUF/FLAT write-backs and invalidations (no data);
// Pseudo: not an instruction (see LABEL).
enum class Encoding { VOP1, VOP2, VOP3, VOPC, SOP1, SOP2, SOPC, SOPK, SOPP, VMEM, SMEM, DS, CacheMaintenance, Pseudo };

// What an operand slot holds. Scc is the scalar condition code, one bit for
// the whole wave: an implicit operand, never printed (the SOPC compares write
// it as their result, s_cselect reads it as its last source).
// Other: an operand that is no value (a label, a wait, a cache policy, a
// hardware register).
enum class Slot { V32, V64, Mask, None, Sgprs, Scc, Other };

// Per-evaluation context: the lane's EXEC bit and a source of unspecified
// values (for bits an instruction leaves undefined or preserves from an
// unknown previous value).
struct EvalContext {
  sem::BV exec = sem::BV::constant(1, 1);
  unsigned lane = 0; // the lane's position in the wave (v_mbcnt)
  std::function<sem::BV(unsigned width)> unspecified;
  bool high16_zeroed = true; // gfx9 16-bit VALU ops zero bits 31:16; gfx10+ keep them
};

struct OpDef {
  Op op;
  const char *name;  // canonical (gfx9) mnemonic
  Encoding encoding; // the shortest encoding the op has; VOP2 ops may still be promoted to VOP3 by MC
  Slot dst;
  std::vector<Slot> srcs;
  bool commutative;  // src0/src1 may swap (lets a literal move to src0)
  const char *cite;  // where its semantics come from
  std::function<sem::BV(const std::vector<sem::BV> &, const EvalContext &)> semantics;
  const char *suffix = ""; // printed after the operands (" clamp")
  // Writes a carry (or borrow) bit to VCC besides its destination: the
  // semantics then returns width(dst)+1 bits, the carry on top (see splitCarry).
  bool carryOut = false;
  // VOP3B ops whose SGPR-mask destination (after dst, VCC here) holds a
  // value nothing reads (v_mad_u64_u32's carry): printed, and left
  // unspecified by every model, so a later read of VCC is caught.
  bool clobbersVcc = false;
  bool writesVcc() const { return carryOut || clobbersVcc; }
  // Writes its carry to SCC: the semantics returns width(dst)+1 bits, the
  // carry on top (splitCarry), as for carryOut.
  bool sccCarryOut = false;
};

// Does `op` leave SCC with a value the models do not follow? Every SOP1/SOP2
// op but the moves, multiplies and s_cselect writes SCC (Vega ISA 12.2/12.3:
// carry, overflow or "result is not zero"); no rule relies on those values,
// so proofs and the concrete model take SCC as unknown after them. (The
// unsigned adds' carry is modelled: sccCarryOut.)
bool clobbersScc(Op op);

// A carry-out op's result -> (destination value, 1-bit carry for VCC).
std::pair<sem::BV, sem::BV> splitCarry(const sem::BV &result);

// What one instruction does to a lane: its destination value and what it
// leaves in VCC and SCC (nullopt: unchanged). A carry is split off the
// semantics' result (carryOut to VCC, sccCarryOut to SCC); VCC and SCC
// values the models do not follow come from `ec.unspecified`. The proofs,
// the emitted-code evaluator and the emulator all step instructions so.
struct Effect {
  sem::BV dst;
  std::optional<sem::BV> vcc, scc;
};
Effect execute(Op op, const std::vector<sem::BV> &srcs, const EvalContext &ec);

const OpDef &opDef(Op op);
const std::vector<OpDef> &allOps();

// Target questions about an op.
bool available(Op op, const targets::TargetInfo &t);
std::string mnemonic(Op op, const targets::TargetInfo &t);
// May src slot `index` of `op` be a 32-bit literal constant on `t`?
bool literalAllowed(Op op, unsigned index, const targets::TargetInfo &t);
// Inline constants (free in any operand): integers -16..64.
bool isInlineConstant(int64_t v);

// The FLAT (generic-address) memory instructions: routed by aperture, counted
// in both vmcnt and lgkmcnt (dscnt on gfx12), no SGPR-base field.
bool isFlat(Op op);

// Is `op` a branch (s_branch, s_cbranch_*)?
bool isBranch(Op op);

// Is `op` an atomic read-modify-write (global, FLAT or LDS)?
bool isAtomic(Op op);

// The FLAT form of a global atomic.
Op flatAtomicOf(Op globalAtomic);

// A scalar ALU op on values (not a lane-mask op, not s_cselect): its operands are SGPRs.
bool isScalarValueOp(Op op);

// Is `op` a scalar ALU instruction (SOP1, SOP2 or SOPC)?
bool isSalu(Op op);

} // namespace p2a::amd
