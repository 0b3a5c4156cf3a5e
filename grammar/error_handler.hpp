// Position bookkeeping and X3 error / success handlers for the PTX grammar
// (the role error_handler.hpp plays in Boost.Spirit X3's `rexpr` example).
//
// The X3 rules never print anything: a rule whose ID derives from
// `error_handler_base` catches an x3::expectation_failure, stores what was
// expected and where in the ParseState that travels in the parse context, and
// fails. The statement driver (parser.cpp) turns that into a SyntaxError and
// runs recovery, so one bad statement does not end the parse.
#pragma once

#include "ast.hpp"

#include <boost/spirit/home/x3.hpp>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace ptx::parser {
namespace x3 = boost::spirit::x3;

// Byte offset -> 1-based line/column, via a table of line starts built once
// (O(n)) and binary-searched per lookup (O(log lines)). `text` may be a piece
// of a file (a function body parsed on its own): `origin` is where its first
// byte stands in the file.
class SourceMap {
public:
  explicit SourceMap(std::string_view text, ast::SourceLoc origin = {1, 1})
      : begin_(text.data()), end_(text.data() + text.size()), origin_(origin) {
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') line_starts_.push_back(i + 1);
  }

  ast::SourceLoc locate(const char* p) const {
    if (p < begin_) p = begin_;
    if (p > end_) p = end_;
    std::size_t offset = static_cast<std::size_t>(p - begin_);
    auto next_line = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    std::size_t line_index = static_cast<std::size_t>(next_line - line_starts_.begin()) - 1;
    ast::SourceLoc loc;
    loc.line = static_cast<uint32_t>(origin_.line + line_index);
    loc.col = static_cast<uint32_t>(offset - line_starts_[line_index] + (line_index == 0 ? origin_.col : 1));
    return loc;
  }

  const char* begin() const { return begin_; }
  const char* end() const { return end_; }

private:
  const char* begin_;
  const char* end_;
  ast::SourceLoc origin_;
  std::vector<std::size_t> line_starts_;
};

// The most recent expectation failure inside the rule currently being parsed.
struct PendingError {
  const char* where = nullptr; // x3::expectation_failure::where(): before any whitespace
  std::string expected;        // x3::expectation_failure::which(): a rule name or 'c'
};

// Everything the grammar's handlers and actions need, reachable from the X3
// context under `parse_state_tag`.
struct ParseState {
  explicit ParseState(std::string_view text, ast::SourceLoc origin = {1, 1}) : map(text, origin) {}
  SourceMap map;
  PendingError pending;
  bool has_pending = false;
};

struct parse_state_tag;

template <typename Context> ParseState& parseState(Context const& context) {
  return x3::get<parse_state_tag>(context).get();
}

template <typename Context> ast::SourceLoc locate(Context const& context, const char* p) {
  return parseState(context).map.locate(p);
}

// on_error for the entry rules (module_item, statement): record and fail.
struct error_handler_base {
  template <typename Iterator, typename Exception, typename Context>
  x3::error_handler_result on_error(Iterator& /*first*/, Iterator const& /*last*/, Exception const& x,
                                    Context const& context) {
    ParseState& state = parseState(context);
    state.pending.where = x.where();
    state.pending.expected = x.which();
    state.has_pending = true;
    return x3::error_handler_result::fail;
  }
};

template <typename T, typename = void> struct has_loc_member : std::false_type {};
template <typename T>
struct has_loc_member<T, std::void_t<decltype(std::declval<T&>().loc)>>
    : std::is_same<std::decay_t<decltype(std::declval<T&>().loc)>, ast::SourceLoc> {};

// on_success for attribute-driven rules (no semantic actions, see
// ast_adapted.hpp): stamps the node with the position of its first token.
// Rules built from semantic actions get `unused` here (X3 disables attribute
// propagation for them), so those set `loc` in their actions instead.
struct location_annotator {
  template <typename Iterator, typename Attribute, typename Context>
  void on_success(Iterator const& first, Iterator const& /*last*/, Attribute& attr, Context const& context) {
    if constexpr (has_loc_member<Attribute>::value) attr.loc = locate(context, first);
  }
};

} // namespace ptx::parser
