// One PTX module (a .ptx file as nvcc writes it) through the whole pipeline:
// parse, translate every function body, collect located diagnostics (syntax
// errors, unsupported instructions, warnings) and, when everything
// translated, the module's assembly. Shared by the single-file driver, batch
// mode and the HTML report, so all three see the same results.
#pragma once

#include "grammar/ast.hpp"
#include "ptx/diagnostic.hpp"
#include "lowering/kernel_lowering.hpp"
#include "driver/translate.hpp"

#include <map>
#include <string>
#include <vector>

namespace llvm {
class ThreadPoolInterface;
}
namespace p2a::cost {
class CostModel;
}
namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::module {

struct WarningOptions {
  bool asErrors = false; // -Werror
  bool ignore = false;   // -w
};

struct FunctionResult {
  std::string name;
  bool isEntry = false; // .entry (a kernel) or .func
  ::ptx::ast::SourceLoc loc;
  bool ok = false;
  // What lowered, with registers assigned; partial when !ok (the report shows
  // it beside the errors). For a kernel, the per-statement view of `kernel`.
  translate::Translation translation;
  // A `.entry` translated as a whole kernel (ABI, waits, descriptor).
  std::optional<klower::KernelTranslation> kernel;
  // Where kernel->assembly sits in the module's assembly (1-based first
  // line, line count), to place MC's diagnostics; the row of the kernel's
  // first statement in translation.instructions (after the ABI prologue's
  // row; the kernel's own statement rows are moved there).
  size_t firstStatementRow = 0;
  unsigned firstAsmLine = 0, asmLineCount = 0;
};

struct ModuleResult {
  bool ok = false;      // every function body translated and no error
  bool skipped = false; // nothing to translate: no function has a body
  Diagnostics diagnostics; // syntax, translation and warnings, in source order
  std::vector<FunctionResult> functions;
  unsigned ptxInstructions = 0;                   // instructions in function bodies
  std::map<std::string, unsigned> unsupported;    // opcode ("ld") -> occurrences
  std::string assembly;                           // the module's assembly when ok
  std::string object;                             // ... assembled by LLVM MC (ELF), the check that made it ok
  // .func bodies of a module with kernels: inlined where called (calls are
  // inlined; see kernel_ir), not emitted on their own.
  std::vector<std::string> inlinedFunctions;

  unsigned errorCount() const;
  unsigned kernelCount() const;
};

// The module is assembled once, as an object (ModuleResult::object): LLVM
// MC's check of the translation and the bytes batch::emit writes. With a
// pool, its functions are translated on the pool's threads (the result is
// the same without one).
ModuleResult translateModule(const std::string &text, const targets::TargetInfo &t, cost::CostModel &costs,
                             const WarningOptions &warnings = {}, const klower::Options &lowering = {},
                             llvm::ThreadPoolInterface *pool = nullptr);

// MC's rejection of the module's assembly (its lines numbered as in
// res.assembly): internal errors at the PTX statements whose code MC
// rejected (klower::reportMcRejection), the kernels failed, and the module
// not ok.
void reportMcRejection(ModuleResult &res, const mc::AssembleResult &rejected, const targets::TargetInfo &t);

} // namespace p2a::module
