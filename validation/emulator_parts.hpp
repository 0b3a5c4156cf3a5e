// The AMDGPU emulator's pieces, private to validation/: the operands of
// LLVM's printed instructions, the memory instruction table, a wave's state,
// and the Emulator class. amdgpu_emulator.cpp runs workgroups, waves and ALU
// instructions; emulated_memory.cpp runs memory instructions and waits;
// emulated_operands.cpp parses operands and holds the memory table.
#pragma once

#include "validation/amdgpu_emulator.hpp"

#include "semantics/amd_ops.hpp"
#include "semantics/bitvec.hpp"
#include "targets/wait_states.hpp"

#include <deque>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

namespace p2a::emu::detail {

using sem::BV;
using targets::Counter;
using targets::InstClass;

// SGPR numbers of the special registers (the same numbering the hardware
// uses in scalar operand fields): VCC 106/107, M0 124, EXEC 126/127.
constexpr unsigned kFlatScratch = 102, kVcc = 106, kTtmp0 = 108, kM0 = 124, kExec = 126;
// The read-only 64-bit aperture registers (src_shared_base, src_private_base)
// sit after the SGPR file here, so operands can name them like SGPR pairs.
constexpr unsigned kSrcSharedBase = 128, kSrcPrivateBase = 130, kNumSgprs = 132;

// ---- decoded text -> operands ----

struct Operand {
  enum class Kind { V, S, Imm, Off, Null, Other };
  Kind kind = Kind::Other;
  unsigned index = 0, count = 1;
  uint64_t imm = 0;    // sign-extended to 64 bits
  bool inlineConst = false;
  std::string text;
};

struct Parsed {
  std::string mnemonic;
  std::vector<Operand> ops;
  std::vector<std::string> modifiers; // "offset:4", "clamp", "src1_sel:WORD_0", ...
  std::string rest;                   // the raw operand text (s_waitcnt fields)
};

// ---- memory instruction table (gfx9 names; t.mnemonic gives the target's) ----

// Atomic operations as AMD's ISA guides define them (Vega ISA 9.5 FLAT and
// 11 LDS opcode tables; tmp = the old value, DATA the data operand).
enum class AmdAtomic { None, Add, Inc, Dec, Umin, Smin, Umax, Smax, And, Or, Xor, Swap, Cmpswap };

struct MemOp {
  const char *gfx9Name;
  enum Kind {
    GlobalLoad, GlobalStore, ScalarLoad, LdsLoad, LdsStore, ScratchLoad, ScratchStore, FlatLoad, FlatStore,
    GlobalAtomic, LdsAtomic, LdsPermute, FlatAtomic
  } kind;
  unsigned bytes;
  bool sign;
  AmdAtomic atomic = AmdAtomic::None;
};

// Where the emulated runtime puts scratch: the flat-scratch base it passes
// in flat_scratch_init, and each wave's offset from it.
constexpr uint64_t kScratchInitBase = 0x0000100000000000ull;
// The private segment buffer's base (gfx9/gfx10 without flat scratch
// instructions: buffer_* through the V# the runtime gives in s[0:3]; the
// kernel adds its wave's offset).
constexpr uint64_t kPrivateBufferBase = 0x0000200000000000ull;
constexpr uint64_t kScratchWaveStride = 0x100000;

// ---- waves ----

struct PendingLoad {
  Counter counter;
  bool lds = false;                 // counts in lgkmcnt (gfx9-11) / dscnt (gfx12)
  // FLAT: counts in its VMEM counter and in lgkmcnt/dscnt; its values are
  // written once waits on both have retired it.
  bool flat = false, vmDone = false, lgkmDone = false;
  std::vector<unsigned> keys;       // registers it will write (VGPR n / 1000 + SGPR n)
  std::vector<std::pair<unsigned, uint32_t>> writes; // (key * 64 + lane) for VGPRs, key for SGPRs -> value
  long instruction = 0;
  std::string text;
  uint64_t readyAt = 0; // cycle estimate: when its values arrive
};

struct Wave {
  unsigned firstThread = 0; // linear thread id within the block of lane 0
  std::vector<uint32_t> v;  // v[reg * W + lane]
  uint32_t s[kNumSgprs] = {};
  bool scc = false;
  size_t pc = 0;
  bool done = false, atBarrier = false;
  uint64_t steps = 0;
  std::deque<PendingLoad> pending;
  targets::IssueHistory history;
  std::vector<std::vector<uint8_t>> scratch; // per lane: the private segment
  uint64_t flatScratchExpected = 0;          // what FLAT_SCRATCH must hold (kernel-initialised scratch)
  uint64_t scratchWaveOffset = 0;            // this wave's offset into the private segment (either route)
  uint64_t flatScratchSet = 0;               // gfx10: written through s_setreg (lo | hi << 32)
  // gfx9 VGPR indexing (s_set_gpr_idx_on): on, the index (M0[7:0]) and
  // which operands it offsets (bit 0 SRC0, 1 SRC1, 2 SRC2, 3 DST).
  bool gprIdxOn = false;
  unsigned gprIdx = 0, gprIdxMode = 0;
  // Cycle estimate (Options::stats): the next issue cycle, and when each
  // register's value is ready (VGPR n, 1000 + SGPR n).
  uint64_t cycle = 0, lastIssue = 0;
  std::map<unsigned, uint64_t> ready;
};

// ---- decoded text -> operands, and the memory instruction table (emulated_operands.cpp) ----

std::string hex(uint64_t v);
// A decimal, hex or octal integer, possibly negative (two's complement).
std::optional<uint64_t> parseInt(const std::string &s);
// One operand of LLVM's printed assembly: v5, v[2:3], s[4:5], vcc, exec, off, null, an integer.
Operand parseOperand(const std::string &tok, unsigned wave);
// A printed instruction: mnemonic, operands, modifiers.
Parsed parseText(const std::string &text, unsigned wave);
// The mnemonic without its _e32/_e64 encoding suffix.
std::string stripEncoding(const std::string &m);
// What an atomic leaves in memory. CMPSWAP: DATA = {src, cmp}: tmp == cmp ? src : tmp.
uint64_t amdAtomicResult(AmdAtomic a, unsigned bytes, uint64_t tmp, uint64_t data, uint64_t cmp);
// Every memory instruction the emulator runs (gfx9 names).
std::span<const MemOp> memOps();

class Emulator {
public:
  Emulator(const LoadedKernel &k, const targets::TargetInfo &t, const Launch &l, GlobalMemory &mem, const Options &o);

  std::optional<Fault> run();

private:
  // ---- initial state (AMDGPUUsage "Initial Kernel Execution State") ----

  std::optional<Fault> runWorkgroup(unsigned bx, unsigned by, unsigned bz);

  // ---- registers ----

  uint64_t mask(const Wave &w, unsigned sgpr) const;
  void setMask(Wave &w, unsigned sgpr, uint64_t m);
  uint64_t exec(const Wave &w) const { return mask(w, kExec); }

  Fault fault(long inst, std::string msg) const { return Fault{std::move(msg), inst}; }

  std::optional<Fault> checkRange(const Operand &o, long inst) const;

  std::vector<unsigned> keys(const Operand &o) const;

  // A lane's value of an operand in a VALU slot.
  BV laneValue(const Wave &w, const Operand &o, amd::Slot slot, unsigned lane) const;

  // ---- hazards and outstanding memory ----

  targets::InstFacts facts(const Parsed &p, const MemOp *mem) const;

  // Does an atomic write its old value to a VGPR? LDS: the _rtn names;
  // global: the return bit (glc, sc0 on MI300, th:TH_ATOMIC_RETURN on gfx12).
  static bool atomicReturns(const Parsed &p, const MemOp &mo);

  bool carryOut(const Parsed &p) const;

  std::optional<Fault> checkHazards(Wave &w, const targets::InstFacts &f, long inst);

  // (mo: the instruction's memory table entry, or null)
  std::optional<Fault> checkPending(const Wave &w, const Parsed &p, const MemOp *mo, long inst) const;

  void retire(Wave &w, const PendingLoad &pl);

  // Waits until at most `n` operations of a counter are outstanding.
  // In-order counters retire the oldest first; SMEM returns out of order,
  // so only a wait for zero guarantees any particular load.
  void waitFor(Wave &w, Counter c, bool lds, unsigned n);

  std::optional<Fault> execWait(Wave &w, const Parsed &p, long inst);

  // ---- execution ----

  std::optional<Fault> execMemory(Wave &w, const Parsed &p, const MemOp &mo, long inst);

  // global_atomic_OP [vdst,] vaddr, vdata, off / ds_OP[_rtn] [vdst,] vaddr,
  // vdata[, vdata1]: each active lane in turn reads the old value, writes
  // the result, and (returning forms) gets the old value once waited for.
  std::optional<Fault> execAtomic(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                  PendingLoad pl);

  // One lane's part of a VMEM access at `ptr`: a store writes the data
  // VGPRs now; a load's values wait in `pl` until a wait retires them.
  void transfer(const Wave &w, PendingLoad &pl, const MemOp &mo, bool store, const Operand &data, unsigned lane,
                uint8_t *ptr) const;

  // Scratch is usable: the descriptor enables it and, where the kernel sets
  // FLAT_SCRATCH up itself, it holds flat_scratch_init + the wave's offset.
  std::optional<Fault> scratchReady(const Wave &w, long inst, const std::string &text) const;

  // flat_load vdst, vaddr / flat_store vaddr, vdata [offset:N] (Vega ISA 9
  // "Flat"): per lane, an address whose high half is the shared aperture's
  // reaches LDS at its low half, the private aperture's the lane's scratch,
  // anything else global memory. The access counts in both counters.
  // A generic address's bytes, routed by aperture (nullptr, with `where`
  // saying why, when out of bounds; `f` set when scratch is not set up).
  uint8_t *flatPointer(Wave &w, unsigned lane, uint64_t addr, unsigned bytes, long inst, const std::string &text,
                       std::string &where, std::optional<Fault> &f);
  std::optional<Fault> execFlat(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                PendingLoad pl);

  // scratch_load vdst, vaddr, off / scratch_store vaddr, vdata, off [offset:N]
  // (Vega ISA 9 "Scratch"): vaddr + offset is a byte offset in the lane's
  // own private segment. Where the kernel sets FLAT_SCRATCH up itself, it
  // must hold flat_scratch_init + the wave's offset by now.
  std::optional<Fault> execScratch(Wave &w, const Parsed &p, const MemOp &mo, long inst, int64_t offset,
                                   PendingLoad pl);

  std::optional<Fault> execAlu(Wave &w, const Parsed &p, long inst);

  // A scalar ALU op on values (SOP1/SOP2): one result into SGPRs, and SCC
  // as Vega ISA 12.2/12.3 define it for the ops the translation emits.
  std::optional<Fault> execScalarValue(Wave &w, const Parsed &p, const amd::OpDef &def, amd::EvalContext &ec,
                                       long inst);

  // VGPR indexing: gfx9's s_set_gpr_idx_on/off and v_mov_b32 under it;
  // gfx10+'s v_movrels/v_movreld/v_movrelsd_b32 through M0.
  std::optional<Fault> execGprIndexing(Wave &w, const Parsed &p, long inst);
  // s_<op>_saveexec: EXEC saved, then combined with the source (SCC: any lane left).
  std::optional<Fault> execSaveExec(Wave &w, const Parsed &p, long inst);
  std::optional<Fault> execScalarCompare(Wave &w, const Parsed &p, long inst);

  std::optional<Fault> execDual(Wave &w, long inst);

  // v_readlane_b32 / v_writelane_b32: one lane of a VGPR from or into an SGPR.
  std::optional<Fault> execLaneAccess(Wave &w, const Parsed &p, long inst);

  void trace(const Wave &w, long inst);

  std::optional<Fault> runWave(Wave &w);

  const LoadedKernel &k_;
  const targets::TargetInfo &t_;
  const std::vector<const targets::HazardRule *> hazardRules_; // t_'s
  const Launch &l_;
  GlobalMemory &mem_;
  const Options &o_;
  const unsigned W_;
  const unsigned nv_;
  std::map<std::string, amd::Op> byMnemonic_;
  std::set<std::string> cacheMaintenance_; // the op table's write-back and invalidation mnemonics
  std::vector<Parsed> parsed_;
  std::vector<const MemOp *> memOpAt_; // per instruction: its memory table entry, or null
  // Per instruction, from the scheduling model (Options::timing): latency
  // and issue cycles.
  std::vector<std::pair<unsigned, unsigned>> timing_;
  void account(Wave &w, const targets::InstFacts &f, const MemOp *mo, long inst);
  std::map<uint64_t, size_t> offsetIndex_;
  std::vector<uint8_t> lds_;
  uint64_t blockLinear_ = 0;
};

} // namespace p2a::emu::detail
