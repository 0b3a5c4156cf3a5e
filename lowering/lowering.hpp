// The kernel lowering's shared state and its steps (private to lowering/).
//
// One `Lowering` object carries a kernel through the steps that
// Lowering::run (kernel_lowering.cpp) calls in order; each step lives in the
// file named for its job:
//   statement_lowering.cpp  statements -> machine instructions over vregs
//   memory_lowering.cpp     ld/st in every space (global, FLAT, LDS, scratch)
//   atomic_lowering.cpp     atom/red
//   warp_lowering.cpp       shfl.sync/vote.sync across lanes
//   control_flow.cpp        per-block EXEC masks, branches, guards
//   uniform_operands.cpp    uniform values read in place from SGPRs (bank choice)
//   register_assignment.cpp liveness, physical registers, the register table
//   code_layout.cpp         the kernel as one instruction list over physical registers
//   abi.cpp                 prologue, kernel descriptor, code-object metadata
//   ir_dump.cpp             the IR between steps as text (--print-ir-after)
// Then the passes over the laid-out list (passes.hpp), each a function of
// the mir::Function alone: wait_insertion.cpp, hazards.cpp, alu_delays.cpp.
#pragma once

#include "lowering/around_code.hpp"
#include "lowering/kernel_lowering.hpp"

#include "targets/mc_backend.hpp"
#include "targets/fence_scope.hpp"
#include "targets/target_info.hpp"
#include "kernel/analysis/address_spaces.hpp"
#include "kernel/analysis/control_flow_graph.hpp"
#include "kernel/analysis/register_numbering.hpp"
#include "kernel/analysis/uniform_values.hpp"
#include "kernel/transforms/constant_operands.hpp"
#include "isel/cost_model.hpp"
#include "isel/mc_rejection.hpp"
#include "kernel/transforms/instruction_fusion.hpp"
#include "isel/printer.hpp"
#include "isel/regalloc.hpp"
#include "isel/selector.hpp"

#include <functional>
#include <llvm/ADT/StringSet.h>

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>
#include <set>

namespace p2a::klower {

using kernel::Space;
using kernel::Special;
using kernel::Stmt;
using mir::MInst;
using mir::MOperand;
using rules::Part;

// The fixed SGPR layout (see the header): kernarg pointer, workgroup IDs,
// the hidden-argument block, then the explicit arguments.
inline constexpr unsigned kKernargPtr = 0;
inline constexpr unsigned kWorkgroupId = 2;
inline constexpr unsigned kHiddenSgprs = 8;  // s[8:15]: block counts, group sizes
inline constexpr unsigned kParamSgprs = 16;  // s16...: the explicit arguments, dword by dword
// The first 64 bytes of the explicit arguments are loaded into SGPRs by the
// prologue (LLVM preloads none, but short argument lists are the common
// case: eight pointers); the rest are read from the kernarg segment where
// a statement needs them, so a 256-byte CUB argument block does not hold 64
// SGPRs for the whole kernel. CUDA allows 32,764 bytes of parameters.
inline constexpr unsigned kPreloadedParamDwords = 16;
inline constexpr unsigned kMaxParamBytes = 32764;

inline unsigned alignUp(unsigned v, unsigned a) { return (v + a - 1) / a * a; }

using mir::noOperand;
using mir::vregOperand;

// The registers a kernel may use: the target's, the command line's
// (--max-vgprs/--max-sgprs) and its launch bounds' (spilling.cpp).
struct RegisterBudget {
  unsigned vgprs, sgprs;
};
RegisterBudget registerBudgetFor(const kernel::Kernel &k, const targets::TargetInfo &t, const Options &opts);

// Per statement of a kernel's body as written, whether a scalar rule matches
// it on the target (-1: not asked yet). Every try of every arrangement of
// the body asks it of nearly every statement (uniformValuesFor), and the
// answer is the statement's own: translateKernel keeps one set of answers
// per kernel (KeyHunt's 80k-statement kernels asked four times each).
struct ScalarRuleAnswers {
  std::vector<signed char> known;
  // Where an arrangement's statement i stands in the body as written
  // (null: the arrangement is that order).
  const std::vector<unsigned> *writtenIndex = nullptr;
};

// Which registers are uniform, with the scalar rules that apply on `t`
// (statement_lowering.cpp): the lowering's homes, and the registers the
// statement scheduler counts as SGPRs.
// `analyses`: k's control flow and liveness. `answers`, where given, holds
// the scalar rules' answers for k's statements (filled as they are asked).
kernel::UniformValues uniformValuesFor(const kernel::Kernel &k, const targets::TargetInfo &t, const Options &opts,
                                       const kernel::KernelAnalyses &analyses, ScalarRuleAnswers *answers = nullptr);

class Lowering {
public:
  // `analyses`: k's control flow and liveness, which translateKernel makes
  // once for every use of the same arrangement of the body.
  Lowering(const kernel::Kernel &k, const targets::TargetInfo &t, cost::CostModel &costs, KernelTranslation &out,
           Diagnostics &diags, const Options &opts, const kernel::KernelAnalyses &analyses,
           const std::map<std::string, Space> &pointerSpaces)
      : k_(k), t_(t), costs_(costs), out_(out), diags_(diags), opts_(opts), fn_(out.function),
        pointerSpaces_(pointerSpaces), analyses_(analyses) {
    fn_.keepsPtx = false; // (rows come from the kernel's statements: abi.cpp)
    fn_.tuples = opts.tuples;
  }

  // The kernel's answers of which statements a scalar rule matches, read
  // and filled by this lowering (see ScalarRuleAnswers).
  void shareScalarRuleAnswers(ScalarRuleAnswers *answers) { scalarRuleAnswers_ = answers; }

  // The pipeline: the steps below, in order (kernel_lowering.cpp).
  // `worthFinishing`, where given, is asked once registers are assigned
  // (out's register counts set): false stops the lowering there, and run
  // returns false (translateKernel: an order that cannot beat the one it
  // already has).
  bool run(const std::function<bool()> &worthFinishing = {});

  // Did the kernel run out of SGPRs while uniform values had homes of their own?
  bool outOfSgprsWithHomes() const { return outOfSgprsWithHomes_; }
  // A far branch found no free SGPR pair for its long jump (relaxBranches):
  // the caller translates again with a budget two SGPRs smaller.
  bool needsBranchPair() const { return needsBranchPair_; }

private:
  // ---- the pipeline's steps ----
  bool layOutSegments();   // kernel arguments, LDS and scratch (abi.cpp)
  void findUniformValues(); // uniform_values.hpp, with the scalar rules that apply
  void lowerStatements();   // every statement, then its control flow
  // liveness + regalloc, spilling to meet the budget; false if even that
  // cannot. A kernel that already failed (`lowered` false) is assigned
  // registers once, for the report, without spilling or a budget.
  bool assignRegisters(bool lowered);
  void layOutCode();        // prologue, statements, control flow -> fn_.code (code_layout.cpp)
  void emitPrologue();      // (abi.cpp)
  void clearLaneMasks();    // every block lane mask 0, in SGPRs or spilled (code_layout.cpp)
  void relaxBranches();     // long jumps for far branches (branch_relaxation.cpp)
  // A module variable into out_.variables, once, with the variables its
  // initializer holds addresses of (statement_lowering.cpp).
  void emitVariable(const std::string &name);
  // k_.variable(name) from an index made at the first question: a table of
  // thousands of variables' addresses looks each one up (the scan made that
  // quadratic).
  const kernel::Variable *variableNamed(const std::string &name);
  void assemble();          // fn_.code as text, the descriptor and metadata (abi.cpp)
  // The IR after `step` into out_.irDump, if Options::printAfter names it (ir_dump.cpp).
  void dumpAfter(const char *step);

  // ---- lowering of statements into machine instructions over vregs ----

  // The vreg of a PTX register, created at first use with its declared width
  // (declared but unused registers -- nvcc declares %r<N> generously -- get none).
  // (Kept per register id too: a statement's registers are looked up by
  // name once, in the numbering, not in the declarations and the vregs.)
  unsigned reg(const std::string &name, unsigned width);
  // reg() for a register whose id in registerIds() is known.
  unsigned numberedReg(unsigned id, const std::string &name, unsigned width);
  unsigned vregOfDeclared(const std::string &name, unsigned width);

  unsigned newTemp(mir::RegClass cls);

  void unsupported(const Stmt &s, const std::string &what);

  // A new row of the machine IR for the statement being lowered (current_).
  mir::LoweredInst &begin();

  void lower(const Stmt &s);

  // A uniform value computed once by the scalar ALU (uniform_values.hpp)
  // into its SGPR home, then copied into its VGPR; readUniformsInPlace()
  // later points readers at the home and drops the copy where none is left.
  void lowerScalar(const Stmt &s);

  // A uniform register's home, then its VGPR copy of it (for readers that
  // cannot take the SGPR; readUniformsInPlace() drops what none reads).
  void copyHomeToVgpr(std::vector<MInst> &insts, const std::string &name, unsigned width);

  // A uniform load (uniform_values.hpp): s_load into the register's home,
  // from a module variable's SGPR pair or the base register's home. The
  // waits treat it as any SMEM load (lgkmcnt / kmcnt, out of order).
  void lowerScalarLoad(const Stmt &s);

  // The address of a module variable into a changing uniform register's home.
  void lowerScalarAddress(const Stmt &s);

  // mad.lo.u32 d, a, b, c with a and b uniform and c not -- nvcc's
  // %ctaid * %ntid + %tid in nearly every kernel -- is the uniform product on
  // the scalar ALU (mul.lo.u32/salu) and one VALU add reading it in place,
  // instead of a quarter-rate v_mul_lo_u32 and an add.
  bool splitsUniformProduct(const Stmt &s) const;
  void lowerSplitProduct(const Stmt &s);

  // How many statements read predicate `p` (guards included), counted once
  // for the kernel.
  size_t predicateReaders(const std::string &p);

  // The SGPR vreg (S32/S64) holding a uniform register's value.
  unsigned scalarHome(const std::string &name, unsigned width);

  void lowerSpecial(const Stmt &s);

  // cvta (PTX ISA 9.7.9.17). Global and const addresses are generic
  // addresses on AMDGPU: a copy. A generic address of shared or local
  // memory is the segment offset under that segment's aperture (the high
  // half src_shared_base / src_private_base give, read once in the
  // prologue), so cvta.shared sets the high half and cvta.to.shared keeps
  // the low one, as LLVM lowers addrspacecast.
  void lowerCvta(const Stmt &s);

  // The SGPR pair holding an aperture base (src_shared_base or
  // src_private_base), read once in the prologue. It shares the module
  // variables' SGPR range; its key cannot be a PTX identifier.
  unsigned apertureAddress(Space space);

  // The SGPR pair that holds a module variable's address (set up once in
  // the prologue, PC-relative: see emitPrologue).
  unsigned variableAddress(const std::string &name);

  // One VGPR holding 0 for the whole kernel, the offset of every SGPR-based
  // access that needs none (sha256 reads its 64 round constants so), set
  // before the first statement. Being no PTX register it has no liveness
  // interval: the allocator gives it a register of its own from its first
  // use on, which nothing before that use held either.
  unsigned zeroVgpr();
  // Its setting, the first instruction of the kernel's statements (ahead of
  // statement 0's own control flow).
  void setZeroVgprFirst(unsigned z);

  // Stores take their data from VGPRs: a constant is moved into a temporary.
  MOperand materialise(mir::LoweredInst &li, uint64_t imm, bool wide);

  // A PTX warp is 32 consecutive threads of the block, whatever the wave
  // size (on wave64 a wave holds two): %laneid, %warpid and the lane masks
  // come from the linear thread id (x fastest), so code indexing by them
  // computes what it did on NVIDIA hardware.
  void lowerWarpSpecial(const Stmt &s, mir::LoweredInst &li, const MOperand &d);

  void lowerMemory(const Stmt &s);

  // The load and store instructions of one memory kind, by element size.
  struct MemoryOps {
    amd::Op loadU8, loadI8, loadU16, loadI16, load32, load64, store8, store16, store32, store64;
  };
  static constexpr MemoryOps kGlobalOps{amd::Op::GLOBAL_LOAD_U8,    amd::Op::GLOBAL_LOAD_I8,   amd::Op::GLOBAL_LOAD_U16,
                                        amd::Op::GLOBAL_LOAD_I16,   amd::Op::GLOBAL_LOAD_B32,  amd::Op::GLOBAL_LOAD_B64,
                                        amd::Op::GLOBAL_STORE_B8,   amd::Op::GLOBAL_STORE_B16, amd::Op::GLOBAL_STORE_B32,
                                        amd::Op::GLOBAL_STORE_B64};
  static constexpr MemoryOps kGlobalSaddrOps{
      amd::Op::GLOBAL_LOAD_U8_SADDR,   amd::Op::GLOBAL_LOAD_I8_SADDR,   amd::Op::GLOBAL_LOAD_U16_SADDR,
      amd::Op::GLOBAL_LOAD_I16_SADDR,  amd::Op::GLOBAL_LOAD_B32_SADDR,  amd::Op::GLOBAL_LOAD_B64_SADDR,
      amd::Op::GLOBAL_STORE_B8_SADDR,  amd::Op::GLOBAL_STORE_B16_SADDR, amd::Op::GLOBAL_STORE_B32_SADDR,
      amd::Op::GLOBAL_STORE_B64_SADDR};
  static constexpr MemoryOps kFlatOps{amd::Op::FLAT_LOAD_U8,    amd::Op::FLAT_LOAD_I8,    amd::Op::FLAT_LOAD_U16,
                                      amd::Op::FLAT_LOAD_I16,   amd::Op::FLAT_LOAD_B32,   amd::Op::FLAT_LOAD_B64,
                                      amd::Op::FLAT_STORE_B8,   amd::Op::FLAT_STORE_B16,  amd::Op::FLAT_STORE_B32,
                                      amd::Op::FLAT_STORE_B64};
  static constexpr MemoryOps kLdsOps{amd::Op::DS_READ_U8,   amd::Op::DS_READ_I8,   amd::Op::DS_READ_U16,  amd::Op::DS_READ_I16,
                                     amd::Op::DS_READ_B32,  amd::Op::DS_READ_B64,  amd::Op::DS_WRITE_B8,  amd::Op::DS_WRITE_B16,
                                     amd::Op::DS_WRITE_B32, amd::Op::DS_WRITE_B64};
  static constexpr MemoryOps kScratchOps{
      amd::Op::SCRATCH_LOAD_U8,  amd::Op::SCRATCH_LOAD_I8,  amd::Op::SCRATCH_LOAD_U16,  amd::Op::SCRATCH_LOAD_I16,
      amd::Op::SCRATCH_LOAD_B32, amd::Op::SCRATCH_LOAD_B64, amd::Op::SCRATCH_STORE_B8,  amd::Op::SCRATCH_STORE_B16,
      amd::Op::SCRATCH_STORE_B32, amd::Op::SCRATCH_STORE_B64};

  // The 64-bit VGPR address a global or FLAT access starts from: the base
  // register, or a module variable's address moved out of its SGPRs.
  unsigned addressPair(const Stmt &s, mir::LoweredInst &li);
  // The address operand and offset field for `base` + `off`: the field
  // takes the offset when the encoding can (signed, global_offset_bits;
  // FLAT 0..2047), else it is added to a copy of the address first.
  std::pair<MOperand, int64_t> vectorAddress(mir::LoweredInst &li, unsigned base, int64_t off, bool flat);

  // atom / red: one read-modify-write, global_atomic_* or ds_* (atomic_lowering.cpp).
  void lowerAtomic(const Stmt &s);

  // An access to a local array kept in registers: moves, or compares and
  // v_cndmask over its elements (register_arrays.cpp).
  void lowerArrayAccess(const Stmt &s);

  // shfl.sync / vote.sync: cross-lane code (warp_lowering.cpp).
  void lowerWarpShuffle(const Stmt &s);
  void lowerWarpVote(const Stmt &s);
  void lowerWarpCombine(const Stmt &s); // redux.sync, match.sync (warp_lowering.cpp)
  void lowerBarrierReduce(const Stmt &s); // bar.red (statement_lowering.cpp)
  // The lane's position in its wave (v_mbcnt), in a fresh VGPR.
  MOperand laneInWave(mir::LoweredInst &li);

  // Element e of a load or store at `addr` + `offset`. A register wider than
  // the element type is allowed (PTX ISA 5.4.x): a load fills its low half
  // and extends by the type, a store takes its low bits. False (with an
  // error) for a 64-bit store from a narrower register.
  bool emitElement(const Stmt &s, size_t e, mir::LoweredInst &li, const MemoryOps &ops, const MOperand &addr,
                   const MOperand &offset, const MOperand *sbase = nullptr);

  // The address of element e in the group or private segment: a 32-bit
  // offset (a variable's, or the low half of a 64-bit register) and the
  // constant part for the instruction's offset field when it is within
  // 0..maxField, else added first.
  std::optional<std::pair<MOperand, int64_t>> segmentAddress(const Stmt &s, size_t e, mir::LoweredInst &li,
                                                             const std::map<std::string, unsigned> &offsets,
                                                             int64_t maxField, const char *space);

  // ---- uniform values read in place (uniform_values.hpp) ----
  //
  // A uniform register's value lives in SGPRs: the arguments and IDs the
  // prologue put there, or the home a scalar rule computed it into. A VALU
  // instruction reads it from there where its encoding takes an SGPR and the
  // constant bus has room (one scalar value per instruction on gfx9/CDNA,
  // two from gfx10 on; literals, VCC and masks count); the register's VGPR
  // copy is made only if some reader still needs it (a memory address, a
  // store's data, a full constant bus).

  // The SGPRs holding a uniform register's value: fixed ones, or the
  // S32/S64 home vreg of the register that computes it.
  MOperand homeOf(const kernel::UniformSource &u);
  unsigned homeWords(const MOperand &h) const;
  static MOperand homeHalf(const MOperand &h, Part p);

  // Scalar rules name their register sources by home vreg ("s:%r1"); those
  // of registers whose home is elsewhere (fixed SGPRs, or the register a
  // copy was made from) are pointed there, and need no SGPRs of their own.
  void bindScalarSources();

  // Does `mi` take an SGPR in source `index` (VALU encodings; not SDWA or
  // VOPD, whose operand rules differ), and what scalar values does it read?
  static bool valuTakesSgpr(const MInst &mi);
  std::set<std::string> scalarReads(const MInst &mi) const;
  // How many of those `mi` may read (TargetInfo: 1 on gfx9, 2 on gfx10+,
  // 1 everywhere for the 64-bit shifts).
  size_t constantBusLimit(const MInst &mi) const;

  void readUniformsInPlace();

  // gfx9/CDNA (no literal in VOP3): a literal VALU operands need in a VGPR
  // is set once, in the prologue, into an SGPR of its own (the most used,
  // at most kLiteralSgprs), and read from there where the constant bus has
  // room, instead of a v_mov_b32 before each use (uniform_operands.cpp).
  static constexpr unsigned kLiteralSgprs = 8;
  void readLiteralsFromSgprs();

  // Before register assignment a computed home has no number yet.
  std::string homeText(const MOperand &h) const;
  static std::string sgprText(const MOperand &sg);

  // ---- liveness (see regalloc.hpp) ----
  //
  // Per-lane CFG liveness over PTX registers held in VGPRs and predicates, by
  // statement. A register's interval is the span of statements (in layout
  // order) from the first to the last where it is live, so one spanning a
  // loop covers the loop. Reusing a VGPR after an interval ends is safe under
  // EXEC masking too: a block run for some lanes writes only their VGPR
  // lanes, so lanes waiting elsewhere keep theirs. SGPRs are written for
  // every lane (a predicate's lane mask by SALU and VOPC results, a uniform
  // value's home by the scalar unit), so the interval of a predicate or a
  // home also covers every block that may run while lanes needing it wait
  // elsewhere (it is live on entry to a block where lanes may wait meanwhile:
  // kernel::WaitingLanes): nothing else shares its SGPRs then.
  regalloc::LiveIntervals liveIntervals();
  const kernel::RegisterNumbering &registerIds(); // analyses_'s numbering of k_

  // ---- spilling (spilling.cpp) ----
  //
  // When the values live at some statement need more registers than the
  // budget (the target's, or fewer for .maxnreg / .minnctapersm), some live
  // in memory instead: a VGPR value in the lane's scratch, a uniform value
  // or predicate (SGPRs) in lanes of VGPRs reserved for that. Every
  // statement that names a spilled value gets a temporary for it instead:
  // loaded before the first instruction that needs it, stored after the
  // last one that writes it (under the EXEC of that write, so lanes that did
  // not run keep theirs). Which values: see spillToFit.
  RegisterBudget registerBudget() const { return registerBudgetFor(k_, t_, opts_); }
  // Chooses values to spill where the allocation `a` exceeds `budget` and
  // rewrites every statement naming them; false if none can be chosen.
  bool spillToFit(const mir::Allocation &a, const regalloc::LiveIntervals &live, RegisterBudget budget,
                  unsigned round);
  void rewriteSpilled(size_t pos, const std::vector<unsigned> &spilled);
  // The instructions that load a spilled value into `value`, its temporary
  // (a VReg operand, or a Pair for a spilled pair), or store it from there.
  std::vector<MInst> spillCopy(unsigned vreg, const MOperand &value, bool store, size_t pos);
  // An SGPR value's words to (toLanes) or from its lanes of the reserved
  // VGPRs, from or into the temporary `from` (a VReg); toLanes also from a
  // constant written to every word.
  std::vector<MInst> laneCopies(unsigned vreg, const MOperand &from, bool toLanes) const;
  // The zero VGPR as a scratch slot's address (set up if nothing used it yet).
  unsigned spillAddressZero();
  // Where a spilled value lives, for the register table ("scratch+16", "v4 lanes 2-3").
  std::string spillLocation(unsigned vreg) const;
  // Loop nesting depth of each statement (back edges in layout order).
  std::vector<unsigned> loopDepths() const;

  // ---- control flow (see docs/architecture.md, "Control flow") ----
  //
  // Every basic block B > 0 owns a lane mask M_B: the lanes waiting to run
  // it. Blocks run in source order; a block starts with EXEC = M_B, M_B = 0
  // and is skipped when that is empty; its end adds the lanes leaving it to
  // its successors' masks (a conditional branch splits EXEC by the
  // predicate). A successor earlier in the order (a loop's back edge) that
  // received lanes is jumped to; the blocks in between then run again for
  // whatever lanes wait there. So the next block run is always the first one
  // with waiting lanes, which is correct for any CFG, reducible or not, and
  // for `ret` in the middle (returning lanes join no mask). One block (no
  // control flow) emits none of this.

  void buildBlocks();
  // One SGPR (pair) per set of blocks whose masks are never in use at once.
  void shareLaneMasks();

  // Can no block strictly between b and target hold waiting lanes when b
  // ends? True if each of them is entered only from blocks after b (and
  // before itself), none leaves back to b or earlier, and none has a barrier
  // (skipping it would skip the barrier). Then lanes put in one of them were
  // run before control could return to b: blocks run in order, and only a
  // back edge from the target or beyond leads back, after they have run.
  // O(1) per query from facts about the blocks prepared in buildBlocks
  // (a scan of the blocks in between per branch made early exits to a
  // kernel's end quadratic).
  bool forwardJumpSafe(unsigned b, unsigned target) const;
  void prepareForwardJumps();

  bool blockHasBarrier(unsigned b) const { return kernel::blockHasBarrier(k_, cfg_, b); }
  std::string bodyLabel(unsigned block) const { return label(block) + "_body"; }

  unsigned persistentMask(const std::string &name) {
    return select::vregFor(fn_, name, 1, false, mir::VRegRole::Lowering);
  }
  unsigned mask(unsigned block) const { return maskVreg_.at(block - 1); }
  std::string label(unsigned block, bool end = false) const;

  static MOperand execOperand();
  MInst branch(amd::Op op, const std::string &target) { return MInst{op, noOperand(), {fn_.label(target)}}; }
  MInst labelInst(const std::string &name) { return MInst{amd::Op::LABEL, noOperand(), {fn_.label(name)}}; }
  static MInst waitForLoads() { return MInst{amd::Op::WAIT_LOADS, noOperand(), {}}; }

  // dst |= EXEC & (p or ~p), or dst |= EXEC without a predicate.
  void addLanes(std::vector<MInst> &out, unsigned dstMask, const std::string &pred, bool negated);

  void controlFlow(size_t i);

  // A branch on a uniform predicate (uniform_values.hpp): every active lane
  // takes it or none does, so one scalar test decides for the wave, and its
  // lanes all go one way. A back edge jumps into the loop head's body with
  // EXEC as it is (as the run-time fast path above, which this is without
  // the test of the lanes); a forward one joins the target's mask and jumps
  // there when no block in between can hold waiting lanes; not taken, every
  // lane falls through.
  void uniformBranch(std::vector<MInst> &tail, const Stmt &st, size_t i);

  // Is statement i a uniform branch right after the scalar compare of its
  // predicate in the same block? Then SCC still holds that compare when the
  // branch tests it: nothing in between writes SCC (s_cselect, waits and
  // hazard padding do not).
  bool sccFromCompare(size_t i) const;

  // The active lanes a guarded branch does not take, into the control-flow
  // temporary: EXEC & ~p (EXEC & p for @!p); SCC says whether there are any.
  void lanesNotTaking(std::vector<MInst> &out, const Stmt &st);

  // In a divergent region a predicate write must leave the bits of inactive
  // lanes alone (a VOPC or SALU result covers every lane): the rule writes
  // a temporary, then p = p ^ ((p ^ new) & EXEC).
  void mergePredicates(const Stmt &s);

  // bar.sync: the wave's memory accesses complete and are released at the
  // workgroup's scope, the waves meet (gfx12 splits the barrier into signal
  // and wait), then stale cached data is dropped (gfx10+: the workgroup's
  // waves may sit on two CUs with their own L0).
  void barrier(int stmt);

  // membar / fence: every memory access completes, then the release and the
  // acquire at the fence's scope.
  void fence(targets::FenceScope scope, int stmt);

  // Appends to the laid-out code.
  void place(MInst mi, int stmt) { fn_.code.push_back({std::move(mi), stmt}); }
  // ... with physical registers for virtual ones.
  void placePhysical(const MInst &mi, int stmt);

  // ld.shared / st.shared -> ds_read / ds_write: the address is the offset
  // in the group segment (the low 32 bits of a 64-bit register), the 16-bit
  // unsigned offset field takes the constant part when it fits.
  void lowerShared(const Stmt &s, mir::LoweredInst &li);

  // ld.local / st.local -> scratch_load / scratch_store: the address is the
  // offset in the thread's private segment (the hardware interleaves the
  // lanes' segments); the immediate offset field takes the constant part
  // when it is in 0..2047, which every target's field holds.
  void lowerLocal(const Stmt &s, mir::LoweredInst &li);

  // Scratch set up by the kernel itself (gfx900, gfx90a, gfx1030): the
  // descriptor asks for the flat-scratch base in s[2:3] and the wave's
  // offset in the last system SGPR (after the workgroup IDs, s4..s6).
  bool kernelInitialisesScratch() const { return privateBytes_ > 0 && !t_.architected_flat_scratch; }

  // ---- output: prologue, descriptor ----

  // One `amdhsa.kernels` item: the explicit arguments at their offsets
  // (8-byte ones as global buffers: nvcc writes pointers as .u64), then the
  // hidden arguments the code reads, at the offsets it reads them.
  std::string metadataEntry(unsigned nv) const;

  const kernel::Kernel &k_;
  const targets::TargetInfo &t_;
  cost::CostModel &costs_;
  KernelTranslation &out_;
  Diagnostics &diags_;
  const Options &opts_;
  mir::Function &fn_;
  unsigned paramDwords_ = 0; // explicit kernel arguments, in dwords
  bool usesHidden_ = false;
  std::map<std::string, unsigned> sharedOffset_; // .shared variable -> offset in the group segment
  std::map<std::string, unsigned> localOffset_;  // .local variable -> offset in the private segment
  unsigned privateBytes_ = 0;
  std::map<std::string, unsigned> globalSgpr_;   // .const/.global variable (or " aperture") -> SGPR pair with its address
  // Generic pointers known to point into one space (kernel::pointerSpaces,
  // made once per kernel: it does not depend on the statements' order).
  const std::map<std::string, Space> &pointerSpaces_;
  std::vector<unsigned> vregById_; // reg(): the vreg of each register id of the numbering (~0u: none yet)
  std::set<unsigned> loopHeads_;                 // blocks entered by a back edge's uniform fast path
  std::optional<unsigned> zeroVgpr_;             // see zeroVgpr()
  std::map<unsigned, MOperand> inPlace_;          // vreg read from fixed SGPRs everywhere (no VGPR copy)
  std::map<size_t, std::string> loweringNote_;    // statement -> how it was lowered, where the rule does not say
  // Lane masks `index == position` an unguarded register-array access made,
  // by (index register, position): its statement and the mask (register_arrays.cpp).
  std::map<std::pair<std::string, int64_t>, std::pair<size_t, unsigned>> arrayMasks_;
  std::vector<std::pair<unsigned, uint32_t>> literalSgprs_; // (S32 vreg, literal) set in the prologue
  bool outOfSgprsWithHomes_ = false;
  bool needsBranchPair_ = false;
  bool genericReachesSegments_ = false;          // generic pointers into shared/local exist: generic accesses are FLAT
  unsigned globalBase_ = 0;
  unsigned groupBytes_ = 0;
  // Control flow.
  kernel::ControlFlowGraph cfg_;
  // For forwardJumpSafe, per block x: the earliest successor and predecessor
  // (range minima over blocks by a sparse table, minEdge_[k][x] over blocks
  // x .. x + 2^k - 1; [0] successors, [1] predecessors), and prefix counts of
  // barrier blocks and of blocks entered from themselves or a later block.
  std::vector<std::vector<unsigned>> minEdge_[2];
  std::vector<unsigned> barriersBefore_, backEnteredBefore_;
  kernel::UniformValues uniform_;               // registers with one value per wave (uniform_values.hpp)
  std::optional<kernel::VariableIndex> variablesByName_; // (variableNamed)
  llvm::StringSet<> emittedVariables_;                   // out_.variables' names
  const kernel::KernelAnalyses &analyses_; // k_'s control flow and liveness (registerIds: its numbering)
  ScalarRuleAnswers *scalarRuleAnswers_ = nullptr; // (shareScalarRuleAnswers)
  std::vector<size_t> readCounts_;              // register id -> reads of it (predicateReaders)
  std::vector<unsigned> blockOf_, blockStart_, maskVreg_;
  unsigned numBlocks_ = 1;
  unsigned tmpA_ = 0;
  size_t current_ = 0;
  AroundCode before_, after_; // control flow around each statement (around_code.hpp)
  std::vector<const rules::Rule *> statementRules_; // each statement's rule, kept when layout drops fn_.body
  // Spilling: each spilled vreg's slot (a byte offset in the private
  // segment, or the first 32-bit word of the SGPR lanes: word w is lane
  // w % wave size of VGPR spillLaneBase_ + w / wave size), the temporaries
  // that stand for spilled values (with their statement), and the counts.
  std::map<unsigned, unsigned> spillSlot_;
  std::map<unsigned, unsigned> spillPartner_; // a spilled pair's low half -> its high half (one 8-byte slot)
  std::vector<std::pair<unsigned, size_t>> spillTemps_;
  unsigned declaredPrivateBytes_ = 0, spillScratchBytes_ = 0, spillLaneWords_ = 0, spillLaneBase_ = 0;
};

} // namespace p2a::klower
