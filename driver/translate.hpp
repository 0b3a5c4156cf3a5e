// The translation pipeline for instruction sequences (inline-asm snippets and
// the straight-line bodies `explain` takes): AST statements -> decoded PTX IR
// -> rule selection -> register assignment -> assembly text, checked by LLVM
// MC for the target.
#pragma once

#include "grammar/ast.hpp"
#include "ptx/diagnostic.hpp"
#include "isel/machine_ir.hpp"
#include "isel/selector.hpp"

#include <string>
#include <utility>
#include <vector>

namespace p2a::cost {
class CostModel;
}
namespace p2a::targets {
struct TargetInfo;
}

namespace p2a::translate {

using mir::TranslatedInstruction;

struct Translation {
  std::string target;
  unsigned waveSize = 64;
  std::vector<std::pair<std::string, std::string>> registers; // PTX register -> physical, first-use order
  std::vector<TranslatedInstruction> instructions;
  unsigned numVgprs = 0, numSgprs = 0;
  mir::Function function;     // for evaluation in tests
  mir::Allocation allocation;
};

// The number of AMD instructions a translation emitted.
unsigned amdInstructionCount(const Translation &tr);

// Translate the statements of `body` (nested blocks flattened). Returns false
// with located errors when an instruction cannot be translated; an MC
// rejection of emitted code is reported as an internal error naming the rule.
bool translateBody(const ::ptx::ast::Block &body, const targets::TargetInfo &t, cost::CostModel &costs,
                   Translation &out, Diagnostics &diags);

// All gcn lines, one per line.
std::string assemblyText(const Translation &tr);

} // namespace p2a::translate
