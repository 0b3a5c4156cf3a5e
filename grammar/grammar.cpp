// The one translation unit that instantiates the PTX grammar (the role
// rexpr.cpp plays in Boost.Spirit X3's `rexpr` example). Everything expensive
// to compile is here; parser.cpp only calls the instantiated parse_rule().
#include "grammar_def.hpp"

namespace ptx::parser {
BOOST_SPIRIT_INSTANTIATE(module_item_type, iterator_type, context_type)
BOOST_SPIRIT_INSTANTIATE(statement_type, iterator_type, context_type)
} // namespace ptx::parser
