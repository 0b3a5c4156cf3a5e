// The op table's instructions without value semantics that the lowering
// emits around the rules' code (amd_ops.hpp): program control, waits and
// hints, prologue setup, cache maintenance, atomics and pseudo
// instructions. defineOp lists each of them and sends it here.
#include "semantics/amd_ops.hpp"

#include <stdexcept>

namespace p2a::amd {

namespace {

// An instruction with no value semantics and no destination (control,
// waits, hints, cache maintenance, pseudos).
OpDef control(Op op, const char *name, Encoding e, std::vector<Slot> srcs) {
  const char *cite = e == Encoding::CacheMaintenance ? "AMDGPUUsage, Memory Model"
                     : e == Encoding::Pseudo         ? "(pseudo)"
                                                     : "Vega ISA 12.5 SOPP, RDNA3/RDNA4 ISA";
  return OpDef{op, name, e, Slot::None, std::move(srcs), false, cite, nullptr};
}

// A global atomic: dst the old value (`width`), srcs {address pair, data,
// offset, cache policy}.
OpDef globalAtomic(Op op, const char *name, Slot width, std::optional<Slot> data = std::nullopt) {
  return OpDef{op, name, Encoding::VMEM, width, {Slot::V64, data.value_or(width), Slot::V32, Slot::Other}, false,
               "Vega ISA 9 FLAT/global atomics", nullptr};
}

// An LDS atomic: dst the old value, srcs {address, data, offset}.
OpDef ldsAtomic(Op op, const char *name, Slot width = Slot::V32) {
  return OpDef{op, name, Encoding::DS, width, {Slot::V32, width, Slot::V32}, false, "Vega ISA 11 LDS", nullptr};
}

} // namespace

OpDef defineControlOrAtomicOp(Op op) {
  using E = Encoding;
  using SL = Slot;
  switch (op) {
  case Op::S_BRANCH: return control(op, "s_branch", E::SOPP, {SL::Other});
  case Op::S_CBRANCH_SCC0: return control(op, "s_cbranch_scc0", E::SOPP, {SL::Other});
  case Op::S_CBRANCH_SCC1: return control(op, "s_cbranch_scc1", E::SOPP, {SL::Other});
  case Op::S_CBRANCH_EXECZ: return control(op, "s_cbranch_execz", E::SOPP, {SL::Other});
  case Op::S_CBRANCH_EXECNZ: return control(op, "s_cbranch_execnz", E::SOPP, {SL::Other});
  case Op::S_ENDPGM: return control(op, "s_endpgm", E::SOPP, {});
  case Op::S_BARRIER: return control(op, "s_barrier", E::SOPP, {});
  case Op::S_BARRIER_SIGNAL: return control(op, "s_barrier_signal", E::SOPP, {SL::V32});
  case Op::S_BARRIER_WAIT: return control(op, "s_barrier_wait", E::SOPP, {SL::V32});
  case Op::S_NOP: return control(op, "s_nop", E::SOPP, {SL::V32});
  case Op::S_TRAP: return control(op, "s_trap", E::SOPP, {SL::V32});
  case Op::S_WAITCNT: return control(op, "s_waitcnt", E::SOPP, {SL::Other});
  case Op::S_DELAY_ALU: return control(op, "s_delay_alu", E::SOPP, {SL::V32});
  case Op::V_NOP: return control(op, "v_nop", E::VOP1, {});
  case Op::S_GETPC_B64:
    return OpDef{op, "s_getpc_b64", E::SOP1, SL::Sgprs, {}, false, "Vega ISA 12.3", nullptr};
  case Op::S_SETPC_B64:
    return OpDef{op, "s_setpc_b64", E::SOP1, SL::None, {SL::Sgprs}, false, "Vega ISA 12.3", nullptr};
  case Op::S_SETREG_B32:
    return OpDef{op, "s_setreg_b32", E::SOPK, SL::Other, {SL::V32}, false, "Vega ISA 12.6", nullptr};
  case Op::S_MOV_B64:
    return OpDef{op, "s_mov_b64", E::SOP1, SL::Sgprs, {SL::Sgprs}, false, "Vega ISA 12.3", nullptr};
  case Op::S_PC_REL_ADDRESS:
    return OpDef{op, "(pc-relative address)", E::SOP1, SL::Sgprs, {SL::Other, SL::Other}, false,
                 "AMDGPUUsage, code model", nullptr};
  case Op::BUFFER_WBINVL1_VOL: return control(op, "buffer_wbinvl1_vol", E::CacheMaintenance, {SL::Other});
  case Op::BUFFER_WBL2: return control(op, "buffer_wbl2", E::CacheMaintenance, {SL::Other});
  case Op::BUFFER_INV: return control(op, "buffer_inv", E::CacheMaintenance, {SL::Other});
  case Op::BUFFER_INVL2: return control(op, "buffer_invl2", E::CacheMaintenance, {SL::Other});
  case Op::BUFFER_GL0_INV: return control(op, "buffer_gl0_inv", E::CacheMaintenance, {SL::Other});
  case Op::BUFFER_GL1_INV: return control(op, "buffer_gl1_inv", E::CacheMaintenance, {SL::Other});
  case Op::GLOBAL_WB: return control(op, "global_wb", E::CacheMaintenance, {SL::Other});
  case Op::GLOBAL_INV: return control(op, "global_inv", E::CacheMaintenance, {SL::Other});
  case Op::GLOBAL_ATOMIC_ADD: return globalAtomic(op, "global_atomic_add", SL::V32);
  case Op::GLOBAL_ATOMIC_INC: return globalAtomic(op, "global_atomic_inc", SL::V32);
  case Op::GLOBAL_ATOMIC_DEC: return globalAtomic(op, "global_atomic_dec", SL::V32);
  case Op::GLOBAL_ATOMIC_UMIN: return globalAtomic(op, "global_atomic_umin", SL::V32);
  case Op::GLOBAL_ATOMIC_SMIN: return globalAtomic(op, "global_atomic_smin", SL::V32);
  case Op::GLOBAL_ATOMIC_UMAX: return globalAtomic(op, "global_atomic_umax", SL::V32);
  case Op::GLOBAL_ATOMIC_SMAX: return globalAtomic(op, "global_atomic_smax", SL::V32);
  case Op::GLOBAL_ATOMIC_AND: return globalAtomic(op, "global_atomic_and", SL::V32);
  case Op::GLOBAL_ATOMIC_OR: return globalAtomic(op, "global_atomic_or", SL::V32);
  case Op::GLOBAL_ATOMIC_XOR: return globalAtomic(op, "global_atomic_xor", SL::V32);
  case Op::GLOBAL_ATOMIC_SWAP: return globalAtomic(op, "global_atomic_swap", SL::V32);
  case Op::GLOBAL_ATOMIC_CMPSWAP: return globalAtomic(op, "global_atomic_cmpswap", SL::V32, SL::V64);
  case Op::GLOBAL_ATOMIC_ADD_X2: return globalAtomic(op, "global_atomic_add_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_UMIN_X2: return globalAtomic(op, "global_atomic_umin_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_SMIN_X2: return globalAtomic(op, "global_atomic_smin_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_UMAX_X2: return globalAtomic(op, "global_atomic_umax_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_SMAX_X2: return globalAtomic(op, "global_atomic_smax_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_AND_X2: return globalAtomic(op, "global_atomic_and_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_OR_X2: return globalAtomic(op, "global_atomic_or_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_XOR_X2: return globalAtomic(op, "global_atomic_xor_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_SWAP_X2: return globalAtomic(op, "global_atomic_swap_x2", SL::V64);
  case Op::FLAT_ATOMIC_ADD: return globalAtomic(op, "flat_atomic_add", SL::V32);
  case Op::FLAT_ATOMIC_INC: return globalAtomic(op, "flat_atomic_inc", SL::V32);
  case Op::FLAT_ATOMIC_DEC: return globalAtomic(op, "flat_atomic_dec", SL::V32);
  case Op::FLAT_ATOMIC_UMIN: return globalAtomic(op, "flat_atomic_umin", SL::V32);
  case Op::FLAT_ATOMIC_SMIN: return globalAtomic(op, "flat_atomic_smin", SL::V32);
  case Op::FLAT_ATOMIC_UMAX: return globalAtomic(op, "flat_atomic_umax", SL::V32);
  case Op::FLAT_ATOMIC_SMAX: return globalAtomic(op, "flat_atomic_smax", SL::V32);
  case Op::FLAT_ATOMIC_AND: return globalAtomic(op, "flat_atomic_and", SL::V32);
  case Op::FLAT_ATOMIC_OR: return globalAtomic(op, "flat_atomic_or", SL::V32);
  case Op::FLAT_ATOMIC_XOR: return globalAtomic(op, "flat_atomic_xor", SL::V32);
  case Op::FLAT_ATOMIC_SWAP: return globalAtomic(op, "flat_atomic_swap", SL::V32);
  case Op::FLAT_ATOMIC_CMPSWAP: return globalAtomic(op, "flat_atomic_cmpswap", SL::V32, SL::V64);
  case Op::FLAT_ATOMIC_ADD_X2: return globalAtomic(op, "flat_atomic_add_x2", SL::V64);
  case Op::FLAT_ATOMIC_UMIN_X2: return globalAtomic(op, "flat_atomic_umin_x2", SL::V64);
  case Op::FLAT_ATOMIC_SMIN_X2: return globalAtomic(op, "flat_atomic_smin_x2", SL::V64);
  case Op::FLAT_ATOMIC_UMAX_X2: return globalAtomic(op, "flat_atomic_umax_x2", SL::V64);
  case Op::FLAT_ATOMIC_SMAX_X2: return globalAtomic(op, "flat_atomic_smax_x2", SL::V64);
  case Op::FLAT_ATOMIC_AND_X2: return globalAtomic(op, "flat_atomic_and_x2", SL::V64);
  case Op::FLAT_ATOMIC_OR_X2: return globalAtomic(op, "flat_atomic_or_x2", SL::V64);
  case Op::FLAT_ATOMIC_XOR_X2: return globalAtomic(op, "flat_atomic_xor_x2", SL::V64);
  case Op::FLAT_ATOMIC_SWAP_X2: return globalAtomic(op, "flat_atomic_swap_x2", SL::V64);
  case Op::GLOBAL_ATOMIC_CMPSWAP_X2: return globalAtomic(op, "global_atomic_cmpswap_x2", SL::V64, SL::Other);
  case Op::FLAT_ATOMIC_CMPSWAP_X2: return globalAtomic(op, "flat_atomic_cmpswap_x2", SL::V64, SL::Other);
  case Op::DS_ADD_RTN_U32: return ldsAtomic(op, "ds_add_rtn_u32");
  case Op::DS_INC_RTN_U32: return ldsAtomic(op, "ds_inc_rtn_u32");
  case Op::DS_DEC_RTN_U32: return ldsAtomic(op, "ds_dec_rtn_u32");
  case Op::DS_MIN_RTN_U32: return ldsAtomic(op, "ds_min_rtn_u32");
  case Op::DS_MIN_RTN_I32: return ldsAtomic(op, "ds_min_rtn_i32");
  case Op::DS_MAX_RTN_U32: return ldsAtomic(op, "ds_max_rtn_u32");
  case Op::DS_MAX_RTN_I32: return ldsAtomic(op, "ds_max_rtn_i32");
  case Op::DS_AND_RTN_B32: return ldsAtomic(op, "ds_and_rtn_b32");
  case Op::DS_OR_RTN_B32: return ldsAtomic(op, "ds_or_rtn_b32");
  case Op::DS_XOR_RTN_B32: return ldsAtomic(op, "ds_xor_rtn_b32");
  case Op::DS_WRXCHG_RTN_B32: return ldsAtomic(op, "ds_wrxchg_rtn_b32");
  case Op::DS_CMPST_RTN_B32:
    return OpDef{op, "ds_cmpst_rtn_b32", Encoding::DS, Slot::V32, {Slot::V32, Slot::V32, Slot::V32, Slot::V32}, false,
                 "Vega ISA 11 LDS", nullptr};
  case Op::DS_ADD_RTN_U64: return ldsAtomic(op, "ds_add_rtn_u64", SL::V64);
  case Op::DS_MIN_RTN_U64: return ldsAtomic(op, "ds_min_rtn_u64", SL::V64);
  case Op::DS_MIN_RTN_I64: return ldsAtomic(op, "ds_min_rtn_i64", SL::V64);
  case Op::DS_MAX_RTN_U64: return ldsAtomic(op, "ds_max_rtn_u64", SL::V64);
  case Op::DS_MAX_RTN_I64: return ldsAtomic(op, "ds_max_rtn_i64", SL::V64);
  case Op::DS_AND_RTN_B64: return ldsAtomic(op, "ds_and_rtn_b64", SL::V64);
  case Op::DS_OR_RTN_B64: return ldsAtomic(op, "ds_or_rtn_b64", SL::V64);
  case Op::DS_XOR_RTN_B64: return ldsAtomic(op, "ds_xor_rtn_b64", SL::V64);
  case Op::DS_WRXCHG_RTN_B64: return ldsAtomic(op, "ds_wrxchg_rtn_b64", SL::V64);
  case Op::DS_CMPST_RTN_B64:
    return OpDef{op, "ds_cmpst_rtn_b64", Encoding::DS, Slot::V64, {Slot::V32, Slot::V64, Slot::V64, Slot::V32}, false,
                 "Vega ISA 11 LDS", nullptr};
  // Vega ISA, DS_BPERMUTE_B32: dst = data of lane ((address + offset) / 4)
  // mod the wave size; the emulator models it (no per-lane semantics).
  case Op::DS_BPERMUTE_B32: return ldsAtomic(op, "ds_bpermute_b32");
  // Vega ISA, V_MBCNT_LO/HI_U32_B32: ThreadMask = (1 << lane) - 1; lo: D = popcount(S0 &
  // ThreadMask[31:0]) + S1, hi: D = popcount(S0 & ThreadMask[63:32]) + S1.
  case Op::V_MBCNT_LO_U32_B32:
  case Op::V_MBCNT_HI_U32_B32: {
    const bool hi = op == Op::V_MBCNT_HI_U32_B32;
    return OpDef{op, hi ? "v_mbcnt_hi_u32_b32" : "v_mbcnt_lo_u32_b32", E::VOP3, SL::V32, {SL::V32, SL::V32}, false,
                 "Vega ISA V_MBCNT_LO_U32_B32", [hi](const std::vector<sem::BV> &s, const EvalContext &c) {
                   const uint64_t below = c.lane >= 64 ? ~uint64_t(0) : (uint64_t(1) << c.lane) - 1;
                   const uint64_t half = hi ? below >> 32 : below & 0xffffffffu;
                   return sem::popcount(s[0] & sem::BV::constant(32, half)) + s[1];
                 }};
  }
  // Vega ISA V_READLANE_B32: SGPR = S0 of lane S1; V_WRITELANE_B32: lane
  // S1 of the VGPR = S0, for any EXEC (the kernel lowering's SGPR spills).
  case Op::V_READLANE_B32:
    return OpDef{op, "v_readlane_b32", E::VOP3, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA V_READLANE_B32", nullptr};
  case Op::V_WRITELANE_B32:
    return OpDef{op, "v_writelane_b32", E::VOP3, SL::V32, {SL::V32, SL::V32}, false, "Vega ISA V_WRITELANE_B32", nullptr};
  case Op::LABEL: return control(op, "(label)", E::Pseudo, {SL::Other});
  case Op::WAIT_LOADS: return control(op, "(wait for loads)", E::Pseudo, {});
  case Op::WAIT_ALL: return control(op, "(wait for memory)", E::Pseudo, {});
  case Op::CTA_BARRIER: return control(op, "(workgroup barrier)", E::Pseudo, {});
  default: break;
  }
  throw std::logic_error("amd::defineControlOrAtomicOp: not a control or atomic op");
}

} // namespace p2a::amd
