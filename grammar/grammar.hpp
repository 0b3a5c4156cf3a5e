// Declarations of the PTX grammar's entry rules (the role rexpr.hpp + config.hpp
// play in Boost.Spirit X3's `rexpr` example). The definitions live in
// grammar_def.hpp and are instantiated exactly once, in grammar.cpp, for the
// iterator and context types below; everything else (parser.cpp) only calls
// the declared parse_rule functions, so it stays cheap to compile.
//
// The grammar parses one "item" at a time -- a module-scope item or a function
// body statement. Function bodies and `{ }` blocks are driven by parser.cpp with
// an explicit stack, which keeps X3 free of recursion (no stack overflow on
// 10,000 nested braces) and lets the driver resynchronise after an error.
#pragma once

#include "ast.hpp"
#include "error_handler.hpp"
#include "scanner.hpp"

#include <boost/spirit/home/x3.hpp>

#include <functional>
#include <string>
#include <vector>

namespace ptx::parser {
namespace x3 = boost::spirit::x3;

// Skips whitespace and comments (PTX ISA 9.x §4.1, §4.2). Hand-written rather
// than `x3::space | comment` so that bytes >= 0x80 never reach the <cctype>
// classifiers behind x3::space (undefined behaviour for negative chars).
struct trivia_skipper : x3::parser<trivia_skipper> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const&, RContext&, Attribute&) const {
    const char* after = scan::skipTrivia(first, last);
    if (after == first) return false;
    first = after;
    return true;
  }
};

// One module-scope item: a header directive, another directive, a variable
// declaration, or a function header (whose body parser.cpp then drives).
struct ModuleItem {
  enum class Kind { Version, Target, AddressSize, Directive, Declaration, Function };
  Kind kind = Kind::Directive;
  std::string version;             // .version 8.5
  std::vector<std::string> target; // .target sm_90a, debug
  uint32_t address_size = 0;       // .address_size 64
  ast::Directive directive;
  ast::Declaration declaration;
  ast::Function function;          // header only; body == nullopt here
};

using iterator_type = const char*;
using skipper_type = trivia_skipper;
using phrase_context_type = x3::phrase_parse_context<skipper_type>::type;
using context_type = x3::context<parse_state_tag, std::reference_wrapper<ParseState>, phrase_context_type>;

struct module_item_class;
struct statement_class;
using module_item_type = x3::rule<module_item_class, ModuleItem>;
using statement_type = x3::rule<statement_class, ast::Statement>;

BOOST_SPIRIT_DECLARE(module_item_type, statement_type)

// Accessors for the rule objects (defined in grammar.cpp via grammar_def.hpp).
module_item_type const& module_item();
statement_type const& statement();

} // namespace ptx::parser
