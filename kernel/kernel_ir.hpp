// A decoded PTX kernel (`.entry`): its parameters laid out as CUDA lays them
// out, its variables, and its body as statements the PTX interpreter runs and
// the kernel lowering translates. Arithmetic and the Logic & Shift family are
// `ptx::Instruction`s (rule forms); memory, special registers, comparisons
// and control flow are kernel statements (PTX ISA 9.7.9 data movement,
// 9.7.12 control flow, 9.7.13 parallel synchronisation).
#pragma once

#include "grammar/ast.hpp"
#include "targets/fence_scope.hpp"
#include "ptx/diagnostic.hpp"
#include "ptx/ptx_decoder.hpp"
#include "ptx/ptx_ir.hpp"
#include "ptx/sparse.hpp"
#include "kernel/register_names.hpp"

#include <llvm/ADT/StringMap.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace p2a::kernel {

// State spaces (PTX ISA 5.1). A generic address is a global one unless
// cvta made it from a shared or local address: then it lies in that space's
// window (the apertures on AMD, the interpreter's own layout), and accesses
// through it go to that space (kernel/analysis/address_spaces.hpp).
enum class Space : unsigned char { Param, Global, Generic, Shared, Local, Const };
const char *spaceName(Space s);

// Special registers (PTX ISA 10): %tid, %ntid, %ctaid, %nctaid (with .x/.y/.z),
// %laneid, %warpid, %nwarpid, %lanemask_{eq,le,lt,ge,gt}, WARP_SZ. A warp is
// 32 consecutive threads of the block in linear order (x fastest).
enum class Special : unsigned char {
  Tid, Ntid, Ctaid, Nctaid, Laneid, Warpid, Nwarpid, WarpSize,
  LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt,
};

struct Param {
  std::string name;
  unsigned size = 0;   // bytes
  unsigned align = 0;  // bytes
  unsigned offset = 0; // in the parameter block / kernarg segment
  bool pointerSized = false; // .u64/.b64/.s64: usually a pointer
  ::ptx::ast::SourceLoc loc;
};

// A module- or kernel-scope variable in shared, local, const or global space.
struct Variable {
  std::string name;
  Space space = Space::Global;
  unsigned size = 0;
  unsigned align = 1;
  std::vector<uint8_t> init; // initial bytes (const/global); empty = zero
  // 64-bit elements of the initializer that hold another variable's
  // address (`generic(name)+4`, or `name`: PTX ISA 5.4.4, "Initializers"):
  // zero in `init`, filled in by the loader (a relocation) or the
  // interpreter. Only .global and .const variables may be named.
  struct Address {
    unsigned offset = 0;
    std::string symbol;
    int64_t addend = 0;
  };
  std::vector<Address> addresses;
  ::ptx::ast::SourceLoc loc;
  // An unsized `.extern .shared` array (CUDA's `extern __shared__`): dynamic
  // shared memory, sized by the launch; every such array starts at the same
  // address, after the static shared variables (layoutSegment).
  bool dynamic = false;
  // Why its initializer could not be read (function addresses, say), or
  // empty. The error belongs to the kernels that address it: the module's
  // other kernels translate (decodeKernel reports it at the declaration).
  std::string initError;
};


// The LDS word bar.red reduces through (a hidden .shared variable).
inline constexpr const char *kBarrierReduceSlot = "%__bar_red";

struct Stmt {
  enum class Kind : unsigned char {
    Compute,     // inst: a rule form (family, arithmetic, moves)
    ReadSpecial, // dst <- special register
    AddressOf,   // dst <- address of `symbol` (mov.u64 %rd, var / a param in a generic address)
    Load,        // values <- [base + offset] in space
    Store,       // [base + offset] <- values
    Atomic,      // [base + offset] <- op(old, values...); dst <- old (atom; red has no dst)
    Cvta,        // dst <- src converted between generic and `space`
    Branch,      // to label
    Barrier,     // bar.sync / barrier.sync
    Fence,       // membar.{cta,gl,sys} / fence.{sc,acq_rel}.scope
    Return,      // ret / exit
    WarpShuffle, // dst (and predDst) <- srcs[0] of the lane that srcs[1..2] pick in the warp (shfl.sync)
    WarpVote,    // dst <- srcs[0] (negated by srcNegated) combined over the warp (vote.sync); activemask
    WarpSync,    // the lanes of membermask srcs[0] meet, no data (bar.warp.sync)
    WarpCombine, // dst (and predDst) <- srcs[0] of every lane of membermask srcs[1] combined (redux.sync,
                 // match.sync; combineMode)
    Trap,        // trap, or a call to CUDA's __assertfail: the kernel aborts (srcs: the assertion's
                 // message, file, line and function arguments, for the interpreter's report)
    Nop,         // nothing left to do (a mov folded into its readers; see constant_operands)
    // A .local access to an array kept in registers (transforms/
    // local_array_promotion.hpp; never decoded): values <- / -> the dwords
    // `elements`, at byte (offset + base register's value, when base is
    // set) from the first. A base register makes the index dynamic: one
    // 32-bit value, whichever element it picks.
    ArrayLoad,
    ArrayStore,
  };
  // atom/red operations (PTX ISA 9.7.13.5): Min/Max by elemType (U or S).
  enum class AtomicOp : unsigned char { Add, Inc, Dec, Min, Max, And, Or, Xor, Exch, Cas };
  // shfl.sync modes (PTX ISA 9.7.9.6) and vote.sync modes (PTX ISA 9.7.13.9).
  enum class ShuffleMode : unsigned char { Up, Down, Bfly, Idx };
  // Active: activemask.b32 (PTX ISA 9.7.13.10), the warp's lanes that execute it
  // together; srcs holds only the membermask (all lanes: it waits for nobody).
  enum class VoteMode : unsigned char { All, Any, Uni, Ballot, Active };
  // redux.sync (PTX ISA 9.7.13.11: atomicOp Add/Min/Max/And/Or/Xor over
  // elemType .u32/.s32/.b32) and match.{any,all}.sync (9.7.13.8: .b32/.b64).
  enum class CombineMode : unsigned char { Redux, MatchAny, MatchAll };
  // bar.red (PTX ISA 9.7.13.1): the barrier, and over the CTA's threads the
  // count of a true predicate (.popc.u32, CUDA's __syncthreads_count) or
  // whether all / any is (.and/.or.pred, __syncthreads_and/_or). srcs[0] is
  // the predicate (srcNegated for `!c`), dst the result.
  enum class BarrierReduce : unsigned char { None, Popc, And, Or };

  // (The one-byte and four-byte fields sit together: a large kernel holds
  // 100k statements, and padding between them was 49 bytes of each.)
  Kind kind = Kind::Compute;
  bool guardNegated = false;     // the guard is @!p
  Special special = Special::Tid; // ReadSpecial
  Space space = Space::Global;   // Load/Store/Cvta/Atomic
  bool toGeneric = false;        // Cvta: cvta.space (to generic) vs cvta.to.space
  ptx::TypeClass elemType = ptx::TypeClass::B; // Load: .s8/.s16 sign-extend into the register
  bool baseIsSymbol = false;     // Load/Store/Atomic: `base` is a symbol, not a register
  bool nonCoherent = false;      // ld.global.nc
  // ld/st .relaxed.scope or .volatile (PTX ISA 8.5 "Memory Consistency
  // Model": volatile is relaxed at .sys): a strong access, coherent at `scope`.
  bool strong = false;
  targets::FenceScope scope = targets::FenceScope::Gpu; // Fence, Atomic, a strong Load/Store
  AtomicOp atomicOp = AtomicOp::Add; // Atomic: values are b (and c for Cas)
  bool ordered = false;              // Atomic: .acquire/.release/.acq_rel (a fence on each side), not .relaxed;
                                     // Load: ld.acquire; Store: st.release (strong, with the fence's half)
  ShuffleMode shuffleMode = ShuffleMode::Idx; // WarpShuffle
  VoteMode voteMode = VoteMode::Any;          // WarpVote: dst is a predicate, or .b32 for Ballot
  bool srcNegated = false;                    // WarpVote: `!a`
  CombineMode combineMode = CombineMode::Redux; // WarpCombine (Redux: atomicOp, elemType; match: elemBits)
  BarrierReduce barrierReduce = BarrierReduce::None; // Barrier
  // Added by a rewrite beside the statement it came from (kernel/transforms,
  // withInsertedStatements): its code and cycles count in that statement's
  // row, which keeps its own text, rule and note.
  bool inserted = false;
  unsigned dim = 0;              // ReadSpecial: 0 x, 1 y, 2 z
  unsigned elemBits = 32;        // Load/Store/Atomic element width
  unsigned target = 0;           // Branch: statement index of the label
  unsigned regWidth = 32;        // width of dst (ReadSpecial 32, AddressOf/Cvta 64)
  ::ptx::ast::SourceLoc loc;
  int64_t offset = 0;            // Load/Store/Atomic: bytes from base

  // (Out of place: ptx/sparse_string.hpp.)
  ptx::SparseString text;
  ptx::SparseString guard; // guard predicate (@p / @!p)
  ptx::SparseString note;  // what became of the statement (see constant_operands, instruction_fusion)

  ptx::Instruction inst; // Compute

  // What only some kinds of statement have, apart (most statements compute,
  // and have none of it: 232 bytes a statement, 18 MB of each of KeyHunt's
  // 80k-statement kernels, moved at every reorder and rewrite): read
  // through extra(), written through extraToWrite(), which makes it. (A
  // note stays in place: the rewrites leave one on many statements.)
  struct Extra {
    // Registers and immediates by role.
    std::string dst;                  // ReadSpecial, AddressOf, Cvta, Atomic (empty for red)
    std::vector<ptx::Operand> values; // Load: destination registers; Store: sources (register or immediate)
    std::string base;                 // Load/Store/Atomic: register or symbol
    std::vector<ptx::Operand> srcs;   // Cvta: src; WarpShuffle: a, b, c, membermask; WarpVote: a, membermask; WarpSync: membermask; Trap
    std::string symbol;                // AddressOf, and the base of Load/Store when `baseIsSymbol`
    std::string label;                 // Branch
    std::string predDst;               // WarpShuffle: the `|p` destination (empty when absent)
    std::vector<std::string> elements; // ArrayLoad/ArrayStore: the array's dwords, as 32-bit registers
  };
  const Extra &extra() const { return extra_.get(); }
  Extra &extraToWrite() { return extra_.toWrite(); }

private:
  ptx::Sparse<Extra> extra_; // (copied with the statement: rewrites copy statements whole)
};

// A kernel's variables by name, for a loop that looks many up (a table of
// thousands of variables' addresses; Kernel::variable scans): the same
// answer, the first variable of a name. Made from the vector as it is, and
// valid while no variable is added or removed.
class VariableIndex {
public:
  explicit VariableIndex(const std::vector<Variable> &variables);
  const Variable *find(llvm::StringRef name) const;

private:
  llvm::StringMap<const Variable *> byName_;
};

// Launch bounds a kernel declares (PTX ISA 11.4 "Performance-Tuning
// Directives"): 0 where absent.
struct LaunchBounds {
  unsigned maxThreads = 0;          // .maxntid x, y, z: the product
  unsigned required[3] = {0, 0, 0}; // .reqntid x, y, z (0: none)
  unsigned minBlocksPerSm = 0;      // .minnctapersm
  unsigned maxRegisters = 0;        // .maxnreg
  ::ptx::ast::SourceLoc maxThreadsLoc, requiredLoc, minBlocksLoc, maxRegistersLoc;
  unsigned requiredThreads() const { return required[0] * required[1] * required[2]; }
  // The largest block a launch may use: .reqntid's, else .maxntid, else CUDA's 1024.
  unsigned blockLimit() const {
    return required[0] ? requiredThreads() : maxThreads ? maxThreads : 1024;
  }
};

struct Kernel {
  std::string name;
  ::ptx::ast::SourceLoc loc;
  LaunchBounds bounds;
  std::vector<Param> params;
  unsigned paramBytes = 0; // kernarg size
  std::vector<Variable> variables; // module globals/consts and kernel shared/local
  ptx::RegisterTypes registers;
  std::vector<Stmt> body;
  std::map<std::string, unsigned> labels; // label -> index of the next statement
  // Where a transform reordered the body (transforms/statement_scheduling.hpp):
  // per statement its index in the decoded body; empty when none did.
  std::vector<unsigned> sourceIndex;
  size_t sourceOf(size_t i) const { return sourceIndex.empty() ? i : sourceIndex[i]; }
  // The ids of its register operands (register_names.hpp): given by the
  // decoder (nameRegisterOperands). Out of place, so that a numbering made
  // from it stays valid where the kernel is moved.
  const RegisterNames &registerNames() const { return registerNames_.get(); }
  RegisterNames &registerNamesToWrite() { return registerNames_.toWrite(); }

  const Param *param(const std::string &n) const;
  // The first variable of that name, or null: a scan (see VariableIndex).
  const Variable *variable(const std::string &n) const;
  // The declared width of register `r` (0 where it has none).
  unsigned registerWidth(llvm::StringRef r) const {
    const ptx::RegisterType *t = registers.find(r);
    return t ? t->width : 0;
  }

private:
  ptx::Sparse<RegisterNames> registerNames_;
};

// Gives each register operand of k's statements its id in k's register
// table, and enters the names statements hold outside operands (guards,
// bases, destinations) in the table too.
void nameRegisterOperands(Kernel &k);

// Decode one `.entry`. Returns nullopt with located errors (unsupported
// instructions are reported with their opcode for the file summary).
// With `partial`, a kernel with errors is still returned, holding the
// statements that did decode (the report shows their translation beside the
// errors); the caller tells success by the diagnostics.
std::optional<Kernel> decodeKernel(const ::ptx::ast::Module &m, const ::ptx::ast::Function &f, Diagnostics &diags,
                                   bool partial = false);
// About how many statements decodeKernel makes of `f` (a kernel with a
// body), its calls inlined: what its vector of statements reserves.
size_t decodedStatementEstimate(const ::ptx::ast::Module &m, const ::ptx::ast::Function &f);

// The kernel's .shared (or .local) variables laid out as one segment, in
// declaration order at their alignment: each variable's offset and the
// segment's size. The interpreter and the lowering share it, so a
// variable's address means the same on both sides.
struct SegmentLayout {
  std::map<std::string, unsigned> offset;
  // The fixed size: the static variables, plus the padding that aligns the
  // dynamic part when there is one (which starts at `bytes`, AMD's
  // group_segment_fixed_size, where the runtime places dynamic LDS).
  unsigned bytes = 0;
  bool dynamic = false; // dynamic shared memory follows
};
SegmentLayout layoutSegment(const Kernel &k, Space space);

// What became of a statement folded into others (constant_operands,
// instruction_fusion): a Nop saying so.
void foldAway(Stmt &s, std::string note);

// The elements an ArrayLoad/ArrayStore may touch: those its values cover at
// a constant offset, every one at a run-time index. As [first, end) indices
// into `elements`, and as names.
inline std::pair<size_t, size_t> arrayElementRange(const Stmt &s) {
  if (!s.extra().base.empty()) // any of them (a store's others keep their values: it reads them too)
    return {0, s.extra().elements.size()};
  const size_t first = size_t(s.offset / 4), dwords = s.extra().values.size() * (s.elemBits == 64 ? 2 : 1);
  return {first, first + dwords};
}
std::vector<std::string> arrayElementsAccessed(const Stmt &s);

// The registers a statement writes and reads, in a fixed order, each passed
// to `f` as a reference into the statement (the analyses that number
// registers visit them without copying a name).
template <class F> void forEachWrittenRegister(const Stmt &s, F &&f) {
  switch (s.kind) {
  case Stmt::Kind::Compute:
    for (const ptx::Operand &d : s.inst.dsts)
      if (d.isReg())
        f(d.reg);
    break;
  case Stmt::Kind::Load:
  case Stmt::Kind::ArrayLoad:
    for (const ptx::Operand &v : s.extra().values)
      f(v.reg);
    break;
  case Stmt::Kind::ArrayStore: {
    const auto [first, end] = arrayElementRange(s);
    for (size_t e = first; e < end; ++e)
      f(s.extra().elements[e]);
    break;
  }
  case Stmt::Kind::ReadSpecial:
  case Stmt::Kind::AddressOf:
  case Stmt::Kind::Cvta:
  case Stmt::Kind::WarpVote: f(s.extra().dst); break;
  case Stmt::Kind::Barrier:
    if (s.barrierReduce != Stmt::BarrierReduce::None)
      f(s.extra().dst);
    break;
  case Stmt::Kind::WarpShuffle:
  case Stmt::Kind::WarpCombine:
    f(s.extra().dst);
    if (!s.extra().predDst.empty())
      f(s.extra().predDst);
    break;
  case Stmt::Kind::Atomic:
    if (!s.extra().dst.empty())
      f(s.extra().dst);
    break;
  default: break;
  }
}

template <class F> void forEachReadRegister(const Stmt &s, F &&f) {
  auto add = [&](const ptx::Operand &o) {
    if (o.isReg())
      f(o.reg);
  };
  if (!s.guard.empty())
    f(s.guard);
  switch (s.kind) {
  case Stmt::Kind::Compute:
    for (const ptx::Operand &o : s.inst.srcs)
      add(o);
    break;
  case Stmt::Kind::Store:
  case Stmt::Kind::Atomic:
    for (const ptx::Operand &o : s.extra().values)
      add(o);
    [[fallthrough]];
  case Stmt::Kind::Load:
    if (!s.baseIsSymbol)
      f(s.extra().base);
    break;
  case Stmt::Kind::ArrayStore:
    for (const ptx::Operand &o : s.extra().values)
      add(o);
    if (s.extra().base.empty()) // (a store at a constant offset only writes its elements)
      break;
    [[fallthrough]];
  case Stmt::Kind::ArrayLoad: {
    if (!s.extra().base.empty())
      f(s.extra().base);
    const auto [first, end] = arrayElementRange(s);
    for (size_t e = first; e < end; ++e)
      f(s.extra().elements[e]);
    break;
  }
  case Stmt::Kind::Cvta:
  case Stmt::Kind::WarpShuffle:
  case Stmt::Kind::WarpVote:
  case Stmt::Kind::WarpSync:
  case Stmt::Kind::WarpCombine:
  case Stmt::Kind::Barrier:
  case Stmt::Kind::Trap:
    for (const ptx::Operand &o : s.extra().srcs)
      add(o);
    break;
  default: break;
  }
}

// The same, as lists of names (for tracing and checks).
std::vector<std::string> writtenRegisters(const Stmt &s);
std::vector<std::string> readRegisters(const Stmt &s);

// v rounded up to a multiple of a (a = 0: v itself).
inline unsigned alignTo(unsigned v, unsigned a) { return a ? (v + a - 1) / a * a : v; }

} // namespace p2a::kernel
