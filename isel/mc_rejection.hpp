// LLVM MC is the authority on what a GPU accepts (targets/mc_backend.hpp):
// when it rejects code we emitted, that is our bug, reported as an internal
// error at the PTX statement whose code MC rejected, naming the rule (or the
// lowering) that produced it.
#pragma once

#include "isel/machine_ir.hpp"
#include "ptx/diagnostic.hpp"
#include "targets/mc_backend.hpp"

#include <string>
#include <vector>

namespace p2a::mir {

// One internal error per MC diagnostic in `rejected`. `statementOfLine[l]` is
// the index in `statements` of the statement that emitted line l of the
// assembled text (1-based; -1 or past the end: code of no statement, reported
// at `fallback` as coming from `fallbackFrom`). Always adds at least one error.
void reportMcRejection(const mc::AssembleResult &rejected, const std::vector<TranslatedInstruction> &statements,
                       const std::vector<long> &statementOfLine, ::ptx::ast::SourceLoc fallback,
                       const std::string &fallbackFrom, const std::string &target, Diagnostics &diags);

} // namespace p2a::mir
