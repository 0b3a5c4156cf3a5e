// Definitions of the PTX grammar rules (the role rexpr_def.hpp plays in
// Boost.Spirit X3's `rexpr` example). Include ONLY from grammar.cpp: this is
// the expensive part to compile.
//
// Conventions
//  * Every rule that can appear right of an expectation `>` is a named rule or
//    a literal character, so x3::expectation_failure::which() reads as
//    "operand", "';'", "declarator", ... and the driver reports "expected X".
//  * Nodes with many optional parts are built by semantic actions writing
//    `_val`; each X3 action synthesises a fresh attribute per attempt, so a
//    failed alternative never leaves half-filled state behind.
//  * Locations come from `raw[...]` ranges (begin = first byte after trivia),
//    mapped to line/col through the ParseState in the context.
//  * No rule is recursive: vector and parenthesised operand lists hold only
//    non-vector operands, and `{ }` statement blocks are handled by parser.cpp.
#pragma once

#include "ast.hpp"
#include "ast_adapted.hpp"
#include "error_handler.hpp"
#include "grammar.hpp"
#include "scanner.hpp"

#include <boost/spirit/home/x3.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <utility>

// what() of `p[action]` is what(p): lets `> rule[action]` report the rule's
// name instead of a mangled type name (X3 has no get_info for actions).
namespace boost::spirit::x3 {
template <typename Subject, typename Action> struct get_info<action<Subject, Action>> {
  using result_type = std::string;
  std::string operator()(action<Subject, Action> const& p) const { return what(p.subject); }
};
} // namespace boost::spirit::x3

namespace ptx::parser {
namespace x3 = boost::spirit::x3;

using x3::_attr;
using x3::_val;
using x3::char_;
using x3::lexeme;
using x3::lit;
using x3::raw;

using SourceRange = boost::iterator_range<const char*>;

inline std::string rangeText(SourceRange const& r) { return std::string(r.begin(), r.end()); }

// Internal attribute types for tokens that carry a location of their own.
struct NameToken {
  ast::SourceLoc loc;
  std::string name;
};

struct OpcodeToken {
  ast::SourceLoc loc;
  std::string opcode;
  std::vector<std::string> modifiers;
};

///////////////////////////////////////////////////////////////////////////////
// Primitive parsers around the hand-written scanners (scanner.hpp)
///////////////////////////////////////////////////////////////////////////////

template <typename Attribute> void assignText(Attribute& attr, const char* begin, const char* end) {
  if constexpr (std::is_same_v<Attribute, std::string>) attr.assign(begin, end);
}

// Raw initializer text after '=' (PTX ISA 9.x §5.4.4 Initializers), kept
// verbatim: `{1, 2, 3}`, `5`, `generic(sym)+4`, `{{1,2},{3,4}}`.
struct initializer_text_parser : x3::parser<initializer_text_parser> {
  using attribute_type = std::string;
  static bool const has_attribute = true;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute& attr) const {
    x3::skip_over(first, last, context);
    const char* stop = scan::scanInitializer(first, last);
    if (!stop) return false;
    const char* text_end = scan::trimRight(first, stop);
    if (text_end == first) return false;
    assignText(attr, first, text_end);
    first = text_end;
    return true;
  }
};

// Arguments of a directive the grammar does not model, through its ';' or its
// balanced `{ }` block. The attribute is the text without the final ';'.
struct directive_tail_parser : x3::parser<directive_tail_parser> {
  using attribute_type = std::string;
  static bool const has_attribute = true;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute& attr) const {
    x3::skip_over(first, last, context);
    const char* stop = scan::scanDirectiveTail(first, last);
    if (!stop) return false;
    const char* text_end = stop;
    if (text_end[-1] == ';') --text_end;
    assignText(attr, first, scan::trimRight(first, text_end));
    first = stop;
    return true;
  }
};

// A balanced `{ ... }` block, e.g. the body of `.section .debug_info { ... }`
// (PTX ISA 9.x §11.5 Debugging Directives, .section), DWARF data carried verbatim.
struct braced_block_parser : x3::parser<braced_block_parser> {
  using attribute_type = std::string;
  static bool const has_attribute = true;

  template <typename Iterator, typename Context, typename RContext, typename Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute& attr) const {
    x3::skip_over(first, last, context);
    if (first == last || *first != '{') return false;
    const char* stop = scan::matchBraces(first, last);
    if (!stop) return false;
    assignText(attr, first, stop);
    first = stop;
    return true;
  }
};

// Decimal floating-point literal (PTX ISA 9.x §4.5.2): needs a '.', no sign
// (handled by the immediate rule), and never "nan"/"inf" (identifiers).
struct decimal_real_policies : x3::strict_ureal_policies<double> {
  template <typename Iterator, typename Attribute>
  static bool parse_nan(Iterator&, Iterator const&, Attribute&) {
    return false;
  }
  template <typename Iterator, typename Attribute>
  static bool parse_inf(Iterator&, Iterator const&, Attribute&) {
    return false;
  }
};

///////////////////////////////////////////////////////////////////////////////
// Tokens (PTX ISA 9.x §4.4 Identifiers, §4.5 Constants)
///////////////////////////////////////////////////////////////////////////////

// followsym: [a-zA-Z0-9_$]
auto const follow_sym = char_("a-zA-Z0-9_$");

// identifier: [a-zA-Z]{followsym}* | {[_$%]}{followsym}+
// `%` names are registers (special registers like %tid, inline-asm %0, ...).
auto const identifier_token = (char_("a-zA-Z") >> *follow_sym) | (char_("_$") >> +follow_sym);
auto const name_token = (lit('%') >> +follow_sym) | identifier_token;

// A directive or modifier keyword matched as a whole word: `.func` but not `.funcx`.
inline auto keyword(char const* word) { return lexeme[lit(word) >> !follow_sym]; }

// Instruction modifiers and declaration words: `.b32`, `.m16n8k16`, `.2d`,
// `.L2::cache_hint`, `.shared::cluster`, `.mbarrier::complete_tx::bytes`.
auto const dot_word = +follow_sym >> *(lit("::") >> +follow_sym);

// State spaces and linkage words that start a declaration (PTX ISA 9.x §5.1,
// §11.6 Linking Directives).
auto const declaration_start =
    lexeme[lit('.') >>
           (lit("reg") | lit("sreg") | lit("shared") | lit("local") | lit("const") | lit("global") |
            lit("param") | lit("tex") | lit("extern") | lit("visible") | lit("weak") | lit("common")) >>
           !follow_sym];

auto const linkage_word =
    raw[lexeme[lit('.') >> (lit("extern") | lit("visible") | lit("weak") | lit("common")) >> !follow_sym]];

x3::uint_parser<uint64_t, 16> const hex64{};
x3::uint_parser<uint64_t, 8> const oct64{};
x3::uint_parser<uint64_t, 2> const bin64{};
x3::uint_parser<uint64_t, 10> const dec64{};
x3::uint_parser<uint32_t, 16, 8, 8> const f32_hex_bits{};
x3::uint_parser<uint64_t, 16, 16, 16> const f64_hex_bits{};
x3::real_parser<double, decimal_real_policies> const decimal_real{};

///////////////////////////////////////////////////////////////////////////////
// Semantic actions
///////////////////////////////////////////////////////////////////////////////

namespace action {

auto const move_to_val = [](auto& ctx) { _val(ctx) = std::move(_attr(ctx)); };

// ---- operands
auto const set_operand_loc_text = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  ast::Operand& op = _val(ctx);
  op.loc = locate(ctx, r.begin());
  op.text.assign(r.begin(), r.end());
};
auto const make_sink = [](auto& ctx) {
  _val(ctx).kind = ast::Operand::Kind::Sink;
  _val(ctx).name = "_";
};
auto const set_operand_name = [](auto& ctx) {
  ast::Operand& op = _val(ctx);
  op.name = rangeText(_attr(ctx));
  op.kind = op.name[0] == '%' ? ast::Operand::Kind::Register : ast::Operand::Kind::Symbol;
};
// PTX ISA 9.x §6.4.3 Vectors as Operands: .r .g .b .a are synonyms of .x .y .z .w.
auto const set_element = [](auto& ctx) {
  char c = _attr(ctx);
  switch (c) {
  case 'r': c = 'x'; break;
  case 'g': c = 'y'; break;
  case 'b': c = 'z'; break;
  case 'a': c = 'w'; break;
  default: break;
  }
  _val(ctx).element = c;
};
auto const set_selector = [](auto& ctx) { _val(ctx).selector = rangeText(_attr(ctx)); };
auto const set_pair_second = [](auto& ctx) {
  _val(ctx).name2 = std::move(_attr(ctx));
  _val(ctx).kind = ast::Operand::Kind::Pair;
};
auto const set_negated = [](auto& ctx) {
  _val(ctx) = std::move(_attr(ctx));
  _val(ctx).negated = true;
};
auto const set_minus = [](auto& ctx) {
  _val(ctx) = std::move(_attr(ctx));
  _val(ctx).minus = true;
};
auto const mark_negative = [](auto& ctx) { _val(ctx).imm_negative = true; };
auto const mark_unsigned = [](auto& ctx) { _val(ctx).imm_unsigned = true; };
auto const set_int_bits = [](auto& ctx) {
  _val(ctx).imm_kind = ast::Operand::ImmKind::Int;
  _val(ctx).imm_bits = static_cast<uint64_t>(_attr(ctx));
};
auto const set_zero = [](auto& ctx) {
  _val(ctx).imm_kind = ast::Operand::ImmKind::Int;
  _val(ctx).imm_bits = 0;
};
auto const set_f32_bits = [](auto& ctx) {
  _val(ctx).imm_kind = ast::Operand::ImmKind::F32Bits;
  _val(ctx).imm_bits = static_cast<uint64_t>(_attr(ctx));
};
auto const set_f64_bits = [](auto& ctx) {
  _val(ctx).imm_kind = ast::Operand::ImmKind::F64Bits;
  _val(ctx).imm_bits = static_cast<uint64_t>(_attr(ctx));
};
// A decimal float is a double constant (PTX ISA 9.x §4.5.2: floating-point
// constants are 64-bit), stored as its F64 bit pattern.
auto const set_decimal_real = [](auto& ctx) {
  double value = _attr(ctx);
  uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  _val(ctx).imm_kind = ast::Operand::ImmKind::F64Bits;
  _val(ctx).imm_bits = bits;
};
// A leading '-' negates in two's complement (integers, PTX ISA 9.x §4.5.1) or
// flips the sign bit (float bit patterns).
auto const finish_immediate = [](auto& ctx) {
  ast::Operand& op = _val(ctx);
  op.kind = ast::Operand::Kind::Immediate;
  if (!op.imm_negative) return;
  switch (op.imm_kind) {
  case ast::Operand::ImmKind::Int: op.imm_bits = uint64_t{0} - op.imm_bits; break;
  case ast::Operand::ImmKind::F32Bits: op.imm_bits ^= uint64_t{1} << 31; break;
  case ast::Operand::ImmKind::F64Bits: op.imm_bits ^= uint64_t{1} << 63; break;
  }
};
auto const push_element = [](auto& ctx) {
  _val(ctx).kind = ast::Operand::Kind::Vector;
  _val(ctx).elems.push_back(std::move(_attr(ctx)));
};
auto const make_vector = [](auto& ctx) { _val(ctx).kind = ast::Operand::Kind::Vector; };
auto const set_address_base = [](auto& ctx) {
  _val(ctx).kind = ast::Operand::Kind::Address;
  _val(ctx).name = std::move(_attr(ctx));
};
auto const set_absolute_address = [](auto& ctx) {
  _val(ctx).kind = ast::Operand::Kind::Address;
  _val(ctx).offset = static_cast<int64_t>(_attr(ctx).imm_bits);
};
auto const add_offset = [](auto& ctx) { _val(ctx).offset = static_cast<int64_t>(_attr(ctx).imm_bits); };
auto const subtract_offset = [](auto& ctx) {
  _val(ctx).offset = static_cast<int64_t>(uint64_t{0} - _attr(ctx).imm_bits);
};
// `[tensorMap, {%r1, %r2}]`, `[tex, {%f1, %f2}]`: the coordinates go to elems.
auto const set_address_coordinates = [](auto& ctx) { _val(ctx).elems = std::move(_attr(ctx).elems); };
auto const push_to_val = [](auto& ctx) { _val(ctx).push_back(std::move(_attr(ctx))); };

// ---- instructions
auto const set_opcode_name = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).loc = locate(ctx, r.begin());
  _val(ctx).opcode = rangeText(r);
};
auto const push_modifier = [](auto& ctx) { _val(ctx).modifiers.push_back(rangeText(_attr(ctx))); };
auto const set_guard = [](auto& ctx) { _val(ctx).guard = std::move(_attr(ctx)); };
auto const set_opcode = [](auto& ctx) {
  OpcodeToken& token = _attr(ctx);
  ast::Instruction& inst = _val(ctx);
  inst.opcode_loc = token.loc;
  inst.opcode = std::move(token.opcode);
  inst.modifiers = std::move(token.modifiers);
};
auto const set_operands = [](auto& ctx) { _val(ctx).operands = std::move(_attr(ctx)); };
auto const set_instruction_text = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).loc = locate(ctx, r.begin());
  _val(ctx).text = rangeText(r);
};
auto const set_label = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).loc = locate(ctx, r.begin());
  _val(ctx).name = rangeText(r);
};

// ---- directives
// The range covers ".name"; the stored name drops the dot.
auto const set_directive_name = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).loc = locate(ctx, r.begin());
  _val(ctx).name.assign(r.begin() + 1, r.end());
};
auto const set_directive_text = [](auto& ctx) { _val(ctx).text = std::move(_attr(ctx)); };
auto const set_line_text = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).text.assign(r.begin(), scan::trimRight(r.begin(), r.end()));
};

// ---- declarations
auto const set_declaration_loc = [](auto& ctx) { _val(ctx).loc = locate(ctx, _attr(ctx).begin()); };
auto const set_align = [](auto& ctx) { _val(ctx).align = _attr(ctx); };
auto const push_attribute_clause = [](auto& ctx) { _val(ctx).attributes.push_back(".attribute" + _attr(ctx)); };

inline bool isOneOf(std::string const& word, std::initializer_list<char const*> words) {
  for (char const* w : words)
    if (word == w) return true;
  return false;
}

// Sorts one `.word` of a declaration into its field. The first state space
// wins (PTX ISA 9.x §5.1 State Spaces); a later one, as in
// `.param .u64 .ptr .global .align 8 p` (§5.1.6 Parameter State Space,
// kernel parameter attributes), describes the pointee and goes to attributes.
inline void classifyDeclarationWord(ast::Declaration& decl, std::string word) {
  if (isOneOf(word, {"reg", "sreg", "const", "global", "local", "param", "shared", "tex"})) {
    if (decl.space.empty())
      decl.space = std::move(word);
    else
      decl.attributes.push_back(std::move(word));
  } else if (isOneOf(word, {"extern", "visible", "weak", "common"})) {
    decl.linkage.push_back(std::move(word));
  } else if (isOneOf(word, {"v2", "v4", "v8", "v16"})) {
    decl.vector = static_cast<uint32_t>(std::stoul(word.substr(1)));
  } else if (word == "ptr") {
    decl.ptr = true;
  } else if (decl.type.empty() &&
             // PTX ISA 9.x §5.2 Types (fundamental, packed, opaque).
             isOneOf(word, {"b8",     "b16",   "b32",   "b64",    "b128",   "u8",         "u16",     "u32",
                            "u64",    "s8",    "s16",   "s32",    "s64",    "f16",        "f16x2",   "bf16",
                            "bf16x2", "f32",   "f64",   "pred",   "tf32",   "e4m3",       "e5m2",    "e4m3x2",
                            "e5m2x2", "e2m1x2", "e2m3x2", "e3m2x2", "texref", "samplerref", "surfref", "u16x2",
                            "s16x2"})) {
    decl.type = std::move(word);
  } else {
    decl.attributes.push_back(std::move(word));
  }
}
auto const classify_word = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  classifyDeclarationWord(_val(ctx), std::string(r.begin() + 1, r.end()));
};
auto const set_declarator_name = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).loc = locate(ctx, r.begin());
  _val(ctx).name = rangeText(r);
};
auto const set_range = [](auto& ctx) { _val(ctx).range = _attr(ctx); };
auto const push_dimension = [](auto& ctx) {
  auto const& size = _attr(ctx);
  _val(ctx).dims.push_back(size ? std::optional<uint64_t>(*size) : std::nullopt);
};
auto const set_initializer = [](auto& ctx) { _val(ctx).initializer = std::move(_attr(ctx)); };
auto const push_declarator = [](auto& ctx) { _val(ctx).declarators.push_back(std::move(_attr(ctx))); };

// ---- functions
auto const set_name_token = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).loc = locate(ctx, r.begin());
  _val(ctx).name = rangeText(r);
};
auto const set_function_loc = [](auto& ctx) { _val(ctx).loc = locate(ctx, _attr(ctx).begin()); };
auto const push_linkage = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).linkage.emplace_back(r.begin() + 1, r.end());
};
auto const set_entry = [](auto& ctx) { _val(ctx).is_entry = true; };
auto const set_returns = [](auto& ctx) { _val(ctx).returns = std::move(_attr(ctx)); };
auto const set_params = [](auto& ctx) { _val(ctx).params = std::move(_attr(ctx)); };
auto const set_function_name = [](auto& ctx) {
  _val(ctx).name = std::move(_attr(ctx).name);
  _val(ctx).name_loc = _attr(ctx).loc;
};
auto const push_performance = [](auto& ctx) { _val(ctx).performance.push_back(std::move(_attr(ctx))); };
auto const set_directive_args = [](auto& ctx) {
  SourceRange const& r = _attr(ctx);
  _val(ctx).text.assign(r.begin(), scan::trimRight(r.begin(), r.end()));
};

// ---- module items
auto const set_item_version = [](auto& ctx) {
  _val(ctx).kind = ModuleItem::Kind::Version;
  _val(ctx).version = std::move(_attr(ctx));
};
auto const push_item_target = [](auto& ctx) {
  _val(ctx).kind = ModuleItem::Kind::Target;
  _val(ctx).target.push_back(std::move(_attr(ctx)));
};
auto const set_item_address_size = [](auto& ctx) {
  _val(ctx).kind = ModuleItem::Kind::AddressSize;
  _val(ctx).address_size = _attr(ctx);
};
auto const set_item_directive = [](auto& ctx) {
  _val(ctx).kind = ModuleItem::Kind::Directive;
  _val(ctx).directive = std::move(_attr(ctx));
};
auto const set_item_declaration = [](auto& ctx) {
  _val(ctx).kind = ModuleItem::Kind::Declaration;
  _val(ctx).declaration = std::move(_attr(ctx));
};
auto const set_item_function = [](auto& ctx) {
  _val(ctx).kind = ModuleItem::Kind::Function;
  _val(ctx).function = std::move(_attr(ctx));
};

} // namespace action

///////////////////////////////////////////////////////////////////////////////
// Rules
///////////////////////////////////////////////////////////////////////////////

// Rule IDs. Only the two entry rules handle errors; inner rules let the
// expectation_failure propagate to them. The guard is attribute-driven and
// stamps its location in on_success.
struct module_item_class : error_handler_base {};
struct statement_class : error_handler_base {};
struct guard_class : location_annotator {};

// ---- tokens
x3::rule<struct register_name_class, std::string> const register_name = "register";
x3::rule<struct predicate_name_class, std::string> const predicate_name = "predicate";
x3::rule<struct integer_class, uint32_t> const integer = "integer";
x3::rule<struct array_size_class, uint64_t> const array_size = "array size";
x3::rule<struct string_literal_class> const string_literal = "string";

// ---- operands (PTX ISA 9.x §6 Instruction Operands)
x3::rule<struct operand_class, ast::Operand> const operand = "operand";
x3::rule<struct vector_element_class, ast::Operand> const vector_element = "vector element";
x3::rule<struct name_operand_class, ast::Operand> const name_operand = "register";
x3::rule<struct negated_operand_class, ast::Operand> const negated_operand = "predicate";
x3::rule<struct minus_operand_class, ast::Operand> const minus_operand = "register";
x3::rule<struct immediate_class, ast::Operand> const immediate = "immediate";
x3::rule<struct vector_operand_class, ast::Operand> const vector_operand = "vector operand";
x3::rule<struct operand_group_class, ast::Operand> const operand_group = "parenthesised operand list";
x3::rule<struct address_class, ast::Operand> const address = "address";
x3::rule<struct address_expression_class, ast::Operand> const address_expression = "address expression";
x3::rule<struct operand_list_class, std::vector<ast::Operand>> const operand_list = "operand";

// ---- statements
x3::rule<guard_class, ast::Guard> const guard = "guard";
x3::rule<struct opcode_class, OpcodeToken> const opcode = "opcode";
x3::rule<struct instruction_class, ast::Instruction> const instruction = "instruction";
x3::rule<struct label_class, ast::Label> const label = "label";

// ---- directives
x3::rule<struct line_directive_class, ast::Directive> const line_directive = "directive";
x3::rule<struct pragma_directive_class, ast::Directive> const pragma_directive = "directive";
x3::rule<struct pragma_arguments_class, std::string> const pragma_arguments = "string";
x3::rule<struct section_directive_class, ast::Directive> const section_directive = "directive";
x3::rule<struct section_name_class, std::string> const section_name = "section name";
x3::rule<struct section_body_class, std::string> const section_body = "section body";
x3::rule<struct other_directive_class, ast::Directive> const other_directive = "directive";
x3::rule<struct directive_tail_class, std::string> const directive_tail = "';'";

// ---- declarations (PTX ISA 9.x §5.4 Variables)
x3::rule<struct declaration_class, ast::Declaration> const declaration = "declaration";
x3::rule<struct parameter_class, ast::Declaration> const parameter = "parameter";
x3::rule<struct declarator_class, ast::Declarator> const declarator = "declarator";
x3::rule<struct attribute_clause_class, std::string> const attribute_clause = "attribute list";
x3::rule<struct initializer_class, std::string> const initializer = "initializer";

// ---- functions and module (PTX ISA 9.x §11 Directives)
x3::rule<struct function_header_class, ast::Function> const function_header = "function header";
x3::rule<struct function_name_class, NameToken> const function_name = "function name";
x3::rule<struct parameter_list_class, std::vector<ast::Declaration>> const parameter_list = "parameter list";
x3::rule<struct performance_directive_class, ast::Directive> const performance_directive = "directive";
x3::rule<struct version_number_class, std::string> const version_number = "version number";
x3::rule<struct target_name_class, std::string> const target_name = "target";

module_item_type const module_item_rule = "directive or function";
statement_type const statement_rule = "instruction or directive";

// ---------------------------------------------------------------------------
// tokens

auto const register_name_def = raw[lexeme[name_token]];
auto const predicate_name_def = raw[lexeme[name_token]];
auto const integer_def = lexeme[x3::uint_parser<uint32_t, 10>{} >> !follow_sym];
auto const array_size_def = lexeme[dec64 >> !follow_sym];
// String literal as in `.file 1 "a.cu"` / `.pragma "nounroll"`; no line breaks.
auto const string_literal_def = lexeme[lit('"') >> *((lit('\\') >> char_) | (char_ - char_("\"\r\n"))) >> lit('"')];

// ---------------------------------------------------------------------------
// operands

// `%r1`, `%tid.x`, `param0`, `_`, `%r1|%p2`, `_|%p2`. Names with '%' are registers
// (§4.4: special registers, inline-asm %0); other identifiers are Symbols, which
// the decoder resolves against `.reg` / variable declarations. `d|p` is the
// dual destination of setp, shfl.sync, lop3, ... (§9.7 instruction syntax);
// `.x`..`.w` / `.r`..`.a` select a vector element (§6.4.3); `.b0`..`.b3`,
// `.h0`, `.h1` a video instruction's byte or half-word (§9.7.18.1).
auto const name_operand_def =
    lexeme[(lit('_') >> !follow_sym)[action::make_sink] |
           (raw[name_token][action::set_operand_name] >>
            -((lit('.') >> char_("xyzwrgba") >> !follow_sym)[action::set_element] |
              (lit('.') >> raw[(char_("b") >> char_("0-3")) | (char_("h") >> char_("01"))] >> !follow_sym)
                  [action::set_selector]))] >>
    -(lit('|') > register_name[action::set_pair_second]);

// `!%p1`: negated predicate source operand (PTX ISA 9.x §9.3).
auto const negated_operand_def = lit('!') > name_operand[action::set_negated];

// `-%r1`: a negated source register (vmad's {-}a, {-}b, {-}c, PTX ISA
// 9.7.18.1.4). Tried after the immediates, which own `-5`.
auto const minus_operand_def = lit('-') >> name_operand[action::set_minus];

// PTX ISA 9.x §4.5.1 Integer Constants: hex 0x, octal 0 prefix, binary 0b,
// decimal, optional U suffix, optional leading '-'; §4.5.2 Floating-Point
// Constants: 0f + 8 hex digits (f32 bits), 0d + 16 hex digits (f64 bits), and
// decimal literals with a '.'.
auto const immediate_def =
    lexeme[-(lit('-')[action::mark_negative]) >>
           (((lit("0f") | lit("0F")) >> f32_hex_bits)[action::set_f32_bits] |
            ((lit("0d") | lit("0D")) >> f64_hex_bits)[action::set_f64_bits] |
            ((lit("0x") | lit("0X")) >> hex64)[action::set_int_bits] |
            ((lit("0b") | lit("0B")) >> bin64)[action::set_int_bits] | decimal_real[action::set_decimal_real] |
            (lit('0') >> oct64)[action::set_int_bits] | (&char_("1-9") >> dec64)[action::set_int_bits] |
            lit('0')[action::set_zero]) >>
           -(lit('U')[action::mark_unsigned]) >> !follow_sym][action::finish_immediate];

// Members of `{a, b}` and `(a, b)` lists: never another list, so the grammar
// cannot recurse on hostile input like `{{{{...`.
auto const vector_element_def =
    raw[name_operand[action::move_to_val] | negated_operand[action::move_to_val] | immediate[action::move_to_val]]
       [action::set_operand_loc_text];

// PTX ISA 9.x §6.4.3 Vectors as Operands: `{%r1, %r2}`, `{%f1, _, %f3, %f4}`.
auto const vector_operand_def = lit('{') > vector_element[action::push_element] >
                                *(lit(',') > vector_element[action::push_element]) > lit('}');

// `call (retval0), f, (param0, param1);` (PTX ISA 9.x §9.7 Control Flow
// Instructions: call). Stored as Kind::Vector.
auto const operand_group_def = lit('(')[action::make_vector] >
                               -(vector_element[action::push_element] >
                                 *(lit(',') > vector_element[action::push_element])) > lit(')');

// PTX ISA 9.x §6.4.1 Addresses as Operands: [reg], [reg+imm], [reg+-imm],
// [var], [var+imm], [imm]; plus the `[ref, {coords}]` form of tex/suld/cp.async.bulk.tensor.
auto const address_offset =
    (lit('+') > immediate[action::add_offset]) | (lit('-') > immediate[action::subtract_offset]);
auto const address_expression_def =
    ((register_name[action::set_address_base] >> -address_offset) | immediate[action::set_absolute_address]) >>
    -(lit(',') > vector_operand[action::set_address_coordinates]);
auto const address_def = lit('[') > address_expression[action::move_to_val] > lit(']');

auto const operand_def =
    raw[name_operand[action::move_to_val] | address[action::move_to_val] | vector_operand[action::move_to_val] |
        operand_group[action::move_to_val] | negated_operand[action::move_to_val] | immediate[action::move_to_val] |
        minus_operand[action::move_to_val]]
       [action::set_operand_loc_text];

// Zero operands (`ret;`) or a comma-separated list.
auto const operand_list_def =
    &lit(';') | (operand[action::push_to_val] > *(lit(',') > operand[action::push_to_val]));

// ---------------------------------------------------------------------------
// statements (PTX ISA 9.x §4.3 Statements)

auto const guard_def = (lit('@') >> x3::matches[lit('!')]) > predicate_name;

// `shf.l.wrap.b32`, `ld.global.nc.L1::no_allocate.v4.u32`: an identifier and
// any number of `.modifier` words, with no whitespace in between.
auto const opcode_def = lexeme[raw[char_("a-zA-Z") >> *follow_sym][action::set_opcode_name] >>
                               *(lit('.') >> raw[dot_word][action::push_modifier])];

auto const instruction_def =
    raw[((guard[action::set_guard] > opcode[action::set_opcode]) | opcode[action::set_opcode]) >
        operand_list[action::set_operands]][action::set_instruction_text] > lit(';');

auto const label_def = raw[lexeme[identifier_token]][action::set_label] >> lit(':');

// ---------------------------------------------------------------------------
// directives

// `.loc 1 42 7[, function_name ..., inlined_at ...]` and `.file 1 "a.cu"[, t, n]`
// (PTX ISA 9.x §11.5 Debugging Directives) end at the end of the line.
auto const line_directive_def =
    lexeme[raw[lit('.') >> (lit("loc") | lit("file")) >> !follow_sym][action::set_directive_name] >>
           *char_(" \t") >> raw[*(char_ - char_("\r\n") - lit("//") - lit("/*"))][action::set_line_text]];

// `.pragma "nounroll";` (PTX ISA 9.x §11.4 Performance-Tuning Directives).
auto const pragma_arguments_def = raw[string_literal >> *(lit(',') >> string_literal)];
auto const pragma_directive_def =
    raw[keyword(".pragma")][action::set_directive_name] > pragma_arguments[action::set_directive_text] > lit(';');

// `.section .debug_str { ... }` (PTX ISA 9.x §11.5 Debugging Directives):
// text = section name + raw body.
auto const section_name_def = raw[lexeme[+char_("a-zA-Z0-9_$.")]];
auto const section_body_def = braced_block_parser{};
auto const section_directive_def = raw[keyword(".section")][action::set_directive_name] >
                                   raw[section_name > section_body][action::set_directive_args];

// Any other directive: kept verbatim through its ';' or its `{ }` block.
auto const directive_tail_def = directive_tail_parser{};
auto const other_directive_def =
    raw[lexeme[lit('.') >> +follow_sym]][action::set_directive_name] > directive_tail[action::set_directive_text];

// ---------------------------------------------------------------------------
// declarations (PTX ISA 9.x §5.4 Variables, §5.4.5 Alignment, §5.4.6
// Parameterized Variable Names)

auto const attribute_clause_def = raw[lit('(') >> *(char_ - char_("();{}")) >> lit(')')];

auto const declaration_word = (keyword(".align") > integer[action::set_align]) |
                              (keyword(".attribute") > attribute_clause[action::push_attribute_clause]) |
                              raw[lexeme[lit('.') >> dot_word]][action::classify_word];
auto const declaration_head = raw[+declaration_word][action::set_declaration_loc];

auto const initializer_def = initializer_text_parser{};

// `%r<10>`, `buf[256]`, `dyn[]`, `m[4][4]`, `tab[4] = {1, 2, 3, 4}`
auto const declarator_def = raw[lexeme[name_token]][action::set_declarator_name] >>
                            -((lit('<') > integer > lit('>'))[action::set_range]) >>
                            *((lit('[') > -array_size > lit(']'))[action::push_dimension]) >>
                            -(lit('=') > initializer[action::set_initializer]);

auto const declaration_def = declaration_head > declarator[action::push_declarator] >
                             *(lit(',') > declarator[action::push_declarator]) > lit(';');

auto const parameter_def = declaration_head > declarator[action::push_declarator];

// ---------------------------------------------------------------------------
// functions (PTX ISA 9.x §11.2 Specifying Kernel Entry Points and Functions,
// §11.4 Performance-Tuning Directives)

auto const function_name_def = raw[lexeme[identifier_token]][action::set_name_token];

auto const parameter_list_def =
    lit('(') > -(parameter[action::push_to_val] > *(lit(',') > parameter[action::push_to_val])) > lit(')');

// `.maxntid 256, 1, 1`, `.reqntid 64`, `.minnctapersm 2`, `.maxnreg 32`,
// `.noreturn`, `.pragma "nounroll";`
auto const performance_directive_def =
    (raw[keyword(".pragma")][action::set_directive_name] > pragma_arguments[action::set_directive_text] >
     lit(';')) |
    (raw[lexeme[lit('.') >> +follow_sym]][action::set_directive_name] >>
     raw[-(integer % lit(','))][action::set_directive_args]);

auto const function_header_def =
    raw[*(linkage_word[action::push_linkage]) >> (keyword(".entry")[action::set_entry] | keyword(".func"))]
       [action::set_function_loc] >
    -(parameter_list[action::set_returns]) > function_name[action::set_function_name] >
    -(parameter_list[action::set_params]) > *(performance_directive[action::push_performance]);

// ---------------------------------------------------------------------------
// module items (PTX ISA 9.x §11.1 PTX Module Directives: .version .target
// .address_size)

auto const version_number_def = raw[lexeme[+char_("0-9") >> -(lit('.') >> +char_("0-9"))]];
auto const target_name_def = raw[lexeme[+follow_sym]];

auto const module_item_rule_def =
    (keyword(".version") > version_number[action::set_item_version]) |
    (keyword(".target") > target_name[action::push_item_target] >
     *(lit(',') > target_name[action::push_item_target])) |
    (keyword(".address_size") > integer[action::set_item_address_size]) |
    line_directive[action::set_item_directive] | pragma_directive[action::set_item_directive] |
    section_directive[action::set_item_directive] | function_header[action::set_item_function] |
    (&declaration_start >> declaration)[action::set_item_declaration] |
    other_directive[action::set_item_directive];

auto const statement_rule_def =
    label[action::move_to_val] | line_directive[action::move_to_val] | pragma_directive[action::move_to_val] |
    section_directive[action::move_to_val] | (&declaration_start >> declaration)[action::move_to_val] |
    other_directive[action::move_to_val] | instruction[action::move_to_val];

BOOST_SPIRIT_DEFINE(register_name, predicate_name, integer, array_size, string_literal, operand, vector_element,
                    name_operand, negated_operand, minus_operand, immediate, vector_operand, operand_group, address,
                    address_expression, operand_list, guard, opcode, instruction, label, line_directive,
                    pragma_directive, pragma_arguments, section_directive, section_name, section_body,
                    other_directive, directive_tail, declaration, parameter, declarator, attribute_clause,
                    initializer, function_header, function_name, parameter_list, performance_directive,
                    version_number, target_name, module_item_rule, statement_rule)

} // namespace ptx::parser

namespace ptx::parser {
module_item_type const& module_item() { return module_item_rule; }
statement_type const& statement() { return statement_rule; }
} // namespace ptx::parser
