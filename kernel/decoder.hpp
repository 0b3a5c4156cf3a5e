// The kernel decoder (decodeKernel, kernel_ir.hpp), private to kernel/: a
// function's AST -> Kernel. kernel_decoder.cpp decodes parameters,
// declarations and statements; call_inlining.cpp inlines each call in place.
#pragma once

#include "kernel/kernel_ir.hpp"

#include "kernel/decoder_support.hpp"

#include <llvm/ADT/DenseMap.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace p2a::kernel::detail {

namespace ast = ::ptx::ast;

// The most statements a kernel may have once its calls are inlined: real
// kernels have tens of thousands; this many keep the decoder under 1 GiB.
inline constexpr size_t kMaxInlinedStatements = 400000;
// The deepest call inlined (a kernel calling f calling g: 2).
inline constexpr size_t kMaxCallDepth = 16;

class Decoder {
public:
  Decoder(const ast::Module &m, const ast::Function &f, Diagnostics &diags, bool partial)
      : m_(m), f_(f), outside_(m), diags_(diags), partial_(partial) {}

  std::optional<Kernel> run();

private:
  // Register, variable and call-parameter declarations of a body.
  void declare(const std::vector<const ast::Statement *> &stmts);

  // A variable whose initializer could not be read fails the kernel only if
  // a statement addresses it (inlined callees' statements included).
  void reportUnreadableVariables();

  // ---- calls: inlined (PTX ISA 9.7.12.4 call; 7 "Abstracting the ABI") ----
  //
  // `call (ret), f, (a, b)` with `.param` variables the caller stored into
  // and loads back from: the callee's body is decoded in place, its
  // registers, labels and .param names renamed apart per call site, its
  // formal parameters and results standing for the caller's variables, and
  // `ret` a branch to the end of the copy. A .param variable holds values
  // in registers of its own, one per offset and width ("%__param_NAME_OFF_bW"), so
  // st.param / ld.param become moves.
  void decodeCall(const ast::Instruction &in, Stmt &s, const std::string &full);

  struct Rename {
    std::string regPrefix, symPrefix;
    std::map<std::string, std::string> symbols; // labels, .param variables
    std::set<std::string> plainRegs;            // the callee's registers declared without '%'
    // %x -> %__cN_x; a register declared without '%', x -> %__cN_#x ('#' is
    // in no PTX identifier, so the two kinds of name cannot meet).
    std::string reg(const std::string &n) const {
      if (n.size() > 1 && n[0] == '%')
        return regPrefix + n.substr(1);
      return plainRegs.count(n) ? regPrefix + "#" + n : n;
    }
    std::string sym(const std::string &n) const {
      auto it = symbols.find(n);
      return it == symbols.end() ? n : it->second;
    }
    void apply(ast::Operand &o) const {
      switch (o.kind) {
      case ast::Operand::Kind::Register:
      case ast::Operand::Kind::Pair:
        if (specialOf(o))
          break; // %tid.x and the other special registers are the thread's own, not the callee's
        o.name = symbols.count(o.name) ? sym(o.name) : reg(o.name);
        if (!o.name2.empty())
          o.name2 = reg(o.name2);
        break;
      case ast::Operand::Kind::Symbol: o.name = sym(o.name); break;
      case ast::Operand::Kind::Address: o.name = symbols.count(o.name) ? sym(o.name) : reg(o.name); break;
      case ast::Operand::Kind::Vector:
        for (ast::Operand &e : o.elems)
          apply(e);
        break;
      default: break;
      }
    }
  };

  // st.param / ld.param on a call's .param variable: moves to and from the
  // variable's registers, element by element.
  void decodeCallParam(const ast::Instruction &in, const std::string &full, Stmt &s, bool store, unsigned vec,
                       const ptx::ScalarType &ty, const ast::Operand &addr, const ast::Operand &val);

  // The most call sites inlined into one kernel (a chain of functions each
  // calling the next twice doubles them at every level).
  static constexpr unsigned kMaxInlinedCalls = 10000;

  // A label at the next statement. The kernel is decoded flat, so one name
  // in two { } blocks (valid PTX: labels are block-local) would leave the
  // branches of one block jumping into the other: an error instead.
  void defineLabel(const std::string &name, ::ptx::ast::SourceLoc loc);

  // The most parameter bytes a CUDA kernel may take (CUDA Programming Guide,
  // "Function Parameters": 32,764 since CUDA 12.1 on Volta and later).
  static constexpr uint64_t kMaxParamBlock = 32764;

  void decodeParams();

  // .maxntid, .reqntid, .minnctapersm and .maxnreg into k_.bounds; a
  // malformed one is a located error. (Other directives are the driver's.)
  void decodeLaunchBounds();

  void typeReg(const std::string &name, unsigned width, ::ptx::ast::SourceLoc loc);

  bool regOperand(const ast::Operand &o, unsigned width, ptx::Operand &out, bool allowImm);

  void unsupportedForm(const ast::Instruction &in, const std::string &full, const std::string &why);

  void decode(const ast::Instruction &in);

  // The address operand of a memory access, [reg+offset] or [symbol+offset],
  // into s.base, s.offset and s.baseIsSymbol.
  bool decodeAddress(const ast::Operand &addr, Stmt &s);

  // atom / red (PTX ISA 9.7.13.5, 9.7.13.6): an integer read-modify-write of
  // one element in global or shared memory (or through a generic address).
  // atom returns the old value; red does not. Without .sem the access is
  // .relaxed; the scope defaults to .gpu.
  void decodeAtomic(const ast::Instruction &in, const std::string &full, Stmt &s);

  // shfl / vote (warp_forms.cpp reads the form): d[|p], a, b, c or d, {!}a,
  // then the membermask (every lane for the forms without .sync).
  unsigned selectors_ = 0; // %__sel<N> registers of video operand selectors
  // A Compute statement d = f(srcs) for `in`, with `like`'s guard and location.
  void pushCompute(const Stmt &like, const ::ptx::ast::Instruction &in, const ptx::Form &f, const ptx::Operand &d,
                   std::vector<ptx::Operand> srcs);
  void decodeBarrierReduce(const ::ptx::ast::Instruction &in, const std::string &full, Stmt &s,
                           const std::vector<std::string> &modifiers);
  void decodeWarpCombine(const ::ptx::ast::Instruction &in, const std::string &full, Stmt &s);
  void decodeWarp(const ast::Instruction &in, const std::string &full, Stmt &s);

  void decodeMemory(const ast::Instruction &in, const std::string &full, Stmt &s);

  // cp.async (PTX ISA 9.7.9.25): a copy of 4, 8 or 16 bytes from global to
  // shared memory, made here at once (a load into %__cpasync<N> registers
  // and a store), so commit_group and wait_group/wait_all have nothing left
  // to wait for. A zero-filled copy (src-size 0) stores zeros.
  unsigned asyncCopies_ = 0;
  void decodeAsyncCopy(const ast::Instruction &in, const std::string &full, Stmt &s);

  const ast::Module &m_;
  const ast::Function &f_;
  NamesOutsideBody outside_;
  // The bodies of f_ or of a function inlined here, with block-scoped
  // registers renamed apart (scopeBlockRegisters), and flattened: made once
  // per function, however often it is called.
  struct ScopedBody {
    std::optional<ast::Block> renamed; // where any register needed renaming
    std::vector<const ast::Statement *> statements;
  };
  const ScopedBody &scopedBody(const ast::Function &f);
  llvm::DenseMap<const ast::Function *, std::unique_ptr<ScopedBody>> scopedBodies_;
  // The module's functions with a body, by name: listed at the first call.
  std::optional<llvm::StringMap<const ast::Function *>> functions_;
  Diagnostics &diags_;
  bool partial_ = false;
  Kernel k_;
  std::set<std::string> callParams_;    // .param variables of call sequences (after renaming)
  std::vector<std::string> callStack_;  // functions being inlined
  unsigned calls_ = 0;                  // call sites inlined so far
  bool inliningStopped_ = false;        // the inlined size passed its cap
  bool printfWarned_ = false;           // -Wprintf-dropped given for this kernel
};

// About how many statements decoding `body` makes once its calls are
// inlined: its instructions, each direct call adding its callee's count
// (memoised; a recursive call, or one deeper than kMaxCallDepth, adds
// nothing), at most kMaxInlinedStatements. The kernel's statements are
// reserved by it: a vector of 600-byte statements regrown while inlining
// was moved into fresh pages at each growth (KeyHunt's 80,000-statement
// kernels: 718k -> 688k page faults).
size_t inlinedStatementEstimate(const ast::Module &m, const ast::Block &body);

// The register standing for `bits` bits at byte `offset` of a call's .param
// variable (call sequences reuse names like param0 with other types).
std::string callParamSlot(const std::string &param, int64_t offset, unsigned bits);
ptx::Operand registerOperand(const std::string &name, ::ptx::ast::SourceLoc loc);
ptx::Operand immediateOperand(uint64_t v, ::ptx::ast::SourceLoc loc);

} // namespace p2a::kernel::detail
