// ptx::parseModule / ptx::parseSnippet: the statement driver around the X3
// grammar. The grammar (grammar.cpp) parses one module item or one statement
// at a time; this file walks the input, keeps the `{ }` block structure on an
// explicit stack (no recursion, bounded depth), reports syntax errors and
// resynchronises after each one so that a file with several mistakes yields
// several diagnostics.
#include "parser.hpp"

#include "grammar.hpp"
#include "scanner.hpp"

#include <algorithm>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ptx {
namespace {

namespace x3 = boost::spirit::x3;
namespace scan = parser::scan;

// After this many diagnostics the rest of the input is not worth reading.
constexpr std::size_t kMaxErrors = 50;
// `{ }` nesting limit, counting the function body as depth 1. Later stages walk
// blocks recursively, so the AST must stay shallow whatever the input is.
constexpr std::size_t kMaxBlockDepth = 256;

class Driver {
public:
  explicit Driver(std::string_view text, ast::SourceLoc origin = {1, 1})
      : begin_(text.data()), end_(text.data() + text.size()), state_(text, origin), state_ref_(state_),
        phrase_context_(skipper_), context_(state_ref_, phrase_context_) {}

  ParseResult parseModule(ParseOptions options) {
    options_ = options;
    ParseResult result;
    ast::Module& module = result.module;
    const char* p = begin_;
    while (!stopped()) {
      p = scan::skipTrivia(p, end_);
      if (p == end_) break;
      const char* start = p;
      parser::ModuleItem item;
      if (!runRule(parser::module_item(), p, item)) {
        p = recover(start, "directive or function", [this](const char* from) { return skipModuleItemTail(from); });
        continue;
      }
      switch (item.kind) {
      case parser::ModuleItem::Kind::Version: module.version = std::move(item.version); break;
      case parser::ModuleItem::Kind::Target: module.target = std::move(item.target); break;
      case parser::ModuleItem::Kind::AddressSize: module.address_size = item.address_size; break;
      case parser::ModuleItem::Kind::Directive: module.directives.push_back(std::move(item.directive)); break;
      case parser::ModuleItem::Kind::Declaration: module.globals.push_back(std::move(item.declaration)); break;
      case parser::ModuleItem::Kind::Function: finishFunction(p, std::move(item.function), result); break;
      }
    }
    result.errors = finish(p);
    return result;
  }

  // The text is one deferred body, from its '{' to its '}'.
  BodyParseResult parseBody() {
    BodyParseResult result;
    result.body.loc = state_.map.locate(begin_);
    const char* p = begin_ + 1;
    parseBlocks(p, result.body, /*snippet=*/false);
    result.errors = finish(p);
    return result;
  }

  ParseResult parseSnippet() {
    ParseResult result;
    ast::Function function;
    function.loc = {1, 1};
    function.name_loc = {1, 1};
    function.body.emplace();
    function.body->loc = {1, 1};
    const char* p = begin_;
    parseBlocks(p, *function.body, /*snippet=*/true);
    result.module.functions.push_back(std::move(function));
    result.errors = finish(p);
    return result;
  }

private:
  bool stopped() const { return errors_.size() >= kMaxErrors; }

  void report(const char* where, std::string message) {
    if (stopped()) return;
    errors_.push_back(SyntaxError{state_.map.locate(where), std::move(message)});
  }

  std::vector<SyntaxError> finish(const char* p) {
    if (stopped()) errors_.push_back(SyntaxError{state_.map.locate(p), "too many errors; parsing stopped"});
    // Recovery only moves forward, so this is a no-op safeguard for the
    // "in source order" promise of parser.hpp.
    std::stable_sort(errors_.begin(), errors_.end(), [](SyntaxError const& a, SyntaxError const& b) {
      return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
    });
    return std::move(errors_);
  }

  // Runs an entry rule at p; advances p on success. On failure the rule's
  // error handler may have left an expectation failure in state_.pending.
  template <typename Rule, typename Attribute> bool runRule(Rule const& rule, const char*& p, Attribute& attr) {
    state_.has_pending = false;
    const char* it = p;
    bool ok = false;
    try {
      ok = rule.parse(it, end_, context_, x3::unused, attr);
    } catch (x3::expectation_failure<const char*> const& failure) {
      // Entry rules handle their own expectation failures; kept for safety.
      state_.pending.where = failure.where();
      state_.pending.expected = failure.which();
      state_.has_pending = true;
      ok = false;
    }
    if (ok) p = it;
    return ok;
  }

  // Reports why the item starting at `start` did not parse and returns where
  // parsing resumes: past the rest of the broken item as found by skip_tail
  // (to its ';' or past its braces), always beyond `start`.
  template <typename SkipTail> const char* recover(const char* start, char const* generic, SkipTail skip_tail) {
    const char* where = start;
    std::string expected = generic;
    if (state_.has_pending && state_.pending.where) {
      where = std::max(state_.pending.where, start);
      expected = state_.pending.expected;
    }
    const char* next_token = scan::skipTrivia(where, end_);
    const char* caret = next_token;
    bool punctuation = expected.size() == 3 && expected.front() == '\'' && expected.back() == '\'';
    if (punctuation) {
      // A missing ';' / ')' / '}' is reported just after the token it should
      // follow, as compilers do, not at the start of the next line.
      while (caret > start && scan::isSpace(caret[-1])) --caret;
    }
    report(caret, "expected " + expected);

    const char* resume = nullptr;
    if (expected == "';'") {
      // A forgotten terminator at the end of a line: the next line is most
      // likely a fresh statement, so resume there instead of discarding it.
      bool line_break = std::find(caret, next_token, '\n') != next_token;
      if (line_break || (next_token != end_ && *next_token == '}')) resume = next_token;
    }
    if (!resume) resume = skip_tail(where);
    return resume > start ? resume : start + 1;
  }

  // Body recovery: through the next ';' at this nesting level, or up to (not
  // past) a '}' that closes the enclosing block.
  const char* skipStatementTail(const char* p) const {
    const char* q = scan::scanBalanced(p, end_, {.stray = scan::BalancedScan::Stray::Before});
    return q ? q : end_;
  }

  // Module recovery: through the next ';' outside braces, or past the block
  // (e.g. the body of a function whose header was broken), or past a stray '}'.
  const char* skipModuleItemTail(const char* p) const {
    const char* q =
        scan::scanBalanced(p, end_, {.endAfterBlock = true, .stray = scan::BalancedScan::Stray::After});
    return q ? q : end_;
  }

  // After a function header: `;` (prototype) or the body.
  void finishFunction(const char*& p, ast::Function function, ParseResult& result) {
    ast::Module& module = result.module;
    p = scan::skipTrivia(p, end_);
    const char* deferredEnd = options_.deferEntryBodies && function.is_entry && p != end_ && *p == '{'
                                  ? scan::matchBraces(p, end_)
                                  : nullptr; // (an unclosed body is parsed now: its error is reported here)
    if (p != end_ && *p == ';') {
      ++p;
    } else if (deferredEnd) {
      result.deferredBodies.push_back({module.functions.size(), static_cast<std::size_t>(p - begin_),
                                       static_cast<std::size_t>(deferredEnd - begin_), state_.map.locate(p)});
      p = deferredEnd;
    } else if (p != end_ && *p == '{') {
      function.body.emplace();
      function.body->loc = state_.map.locate(p);
      ++p;
      parseBlocks(p, *function.body, /*snippet=*/false);
    } else {
      report(p, "expected function body or ';'");
      if (p != end_) p = skipModuleItemTail(p);
    }
    module.functions.push_back(std::move(function));
  }

  // Statements and nested `{ }` blocks. For a function body p starts after the
  // opening '{' and parsing ends at its matching '}'; a snippet runs to the end
  // of input. Blocks are kept on an explicit stack: a child Block lives in its
  // parent's statement vector, which is not appended to while the child is open,
  // so the pointers stay valid.
  void parseBlocks(const char*& p, ast::Block& root, bool snippet) {
    std::vector<ast::Block*> open{&root};
    // `.reg` names declared in each open block (PTX ISA 9.x §5.1.1: a
    // register is visible in its block and the blocks nested in it).
    std::vector<std::unordered_set<std::string>> register_scopes(1);
    while (!stopped()) {
      p = scan::skipTrivia(p, end_);
      if (p == end_) {
        if (!snippet || open.size() > 1) report(p, "expected '}'");
        return;
      }
      if (*p == '}') {
        if (snippet && open.size() == 1) {
          report(p, "unexpected '}'");
          ++p;
          continue;
        }
        ++p;
        open.pop_back();
        register_scopes.pop_back();
        if (open.empty()) return;
        continue;
      }
      if (*p == '{') {
        if (open.size() >= kMaxBlockDepth) {
          report(p, "block nesting too deep");
          const char* after = scan::matchBraces(p, end_);
          p = after ? after : end_;
          continue;
        }
        ast::Block block;
        block.loc = state_.map.locate(p);
        ++p;
        auto& statements = open.back()->statements;
        statements.emplace_back(std::move(block));
        open.push_back(&std::get<ast::Block>(statements.back()));
        register_scopes.emplace_back();
        continue;
      }
      const char* start = p;
      ast::Statement statement;
      if (runRule(parser::statement(), p, statement)) {
        if (auto* decl = std::get_if<ast::Declaration>(&statement); decl && decl->space == "reg") {
          for (ast::Declarator const& d : decl->declarators)
            if (!d.range) register_scopes.back().insert(d.name);
        } else if (auto* inst = std::get_if<ast::Instruction>(&statement)) {
          markDeclaredRegisters(inst->operands, register_scopes);
        }
        open.back()->statements.push_back(std::move(statement));
        continue;
      }
      p = recover(start, "instruction or directive", [this](const char* from) { return skipStatementTail(from); });
    }
  }

  // Syntax alone cannot tell a plain-identifier register (`.reg .pred p;` in
  // inline asm) from a label or variable name, so identifiers parse as
  // Symbols; those naming a `.reg` declared in an enclosing block become
  // Registers, as ast::Operand::Kind documents.
  static void markDeclaredRegisters(std::vector<ast::Operand>& operands,
                                    std::vector<std::unordered_set<std::string>> const& scopes) {
    for (ast::Operand& op : operands) {
      if (op.kind == ast::Operand::Kind::Vector) {
        markDeclaredRegisters(op.elems, scopes); // members are never vectors: depth 1
      } else if (op.kind == ast::Operand::Kind::Symbol) {
        for (auto const& scope : scopes)
          if (scope.count(op.name)) {
            op.kind = ast::Operand::Kind::Register;
            break;
          }
      }
    }
  }

  const char* begin_;
  const char* end_;
  parser::ParseState state_;
  std::reference_wrapper<parser::ParseState> state_ref_;
  parser::skipper_type const skipper_{};
  parser::phrase_context_type phrase_context_;
  parser::context_type context_;
  std::vector<SyntaxError> errors_;
  ParseOptions options_;
};

} // namespace

ParseResult parseModule(std::string_view text, ParseOptions options) { return Driver(text).parseModule(options); }

BodyParseResult parseDeferredBody(std::string_view text, const DeferredBody& deferred) {
  return Driver(text.substr(deferred.begin, deferred.end - deferred.begin), deferred.loc).parseBody();
}

ParseResult parseSnippet(std::string_view text) { return Driver(text).parseSnippet(); }

} // namespace ptx
