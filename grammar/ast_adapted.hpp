// Fusion adaptations for the AST nodes the grammar builds by plain X3
// attribute propagation (no semantic actions). Nodes with many optional parts
// (operands, declarations, instructions) are filled by semantic actions in
// grammar_def.hpp instead, where a positional fusion sequence would be fragile.
#pragma once

#include "ast.hpp"

#include <boost/fusion/include/adapt_struct.hpp>

// `@p` / `@!p` (PTX ISA 9.x §9.3 Predicated Execution): guard_def is
// `'@' >> matches['!'] >> predicate_name`. `loc` is set by on_success.
BOOST_FUSION_ADAPT_STRUCT(ptx::ast::Guard, negated, pred)
