// -fsyntax-only beyond the grammar: the errors ptxas would also give without
// generating code -- a module without `.version`/`.target`, and wrong
// instruction forms (`shf.l.b32` without a mode) -- found by the same
// decoders a translation uses, so both report the same form errors.
// Constructs this translator does not support are not errors here.
#pragma once

#include "grammar/ast.hpp"
#include "ptx/diagnostic.hpp"

namespace p2a::syntax {

// `parsedCleanly`: the module had no syntax errors (only then is a missing
// .version reported: after syntax errors it is noise).
Diagnostics moduleErrors(const ::ptx::ast::Module &m, bool parsedCleanly);

} // namespace p2a::syntax
