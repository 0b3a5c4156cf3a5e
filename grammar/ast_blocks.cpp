#include "grammar/ast_blocks.hpp"

#include <algorithm>
#include <map>

namespace ptx::ast {

namespace {

void flattenInto(const Block &b, std::vector<const Statement *> &out) {
  for (const Statement &s : b.statements) {
    if (const Block *inner = std::get_if<Block>(&s))
      flattenInto(*inner, out);
    else
      out.push_back(&s);
  }
}

} // namespace

std::vector<const Statement *> flatten(const Block &body) {
  std::vector<const Statement *> out;
  flattenInto(body, out);
  return out;
}

namespace {

using Names = std::map<std::string, std::string>;

// Every name declared in the function: registers (a range %r<N> as its
// prefix and count) and variables of any space, plus the names from outside
// the body (parameters, module variables) a block register may shadow.
struct Declared {
  std::map<std::string, unsigned> plain;
  std::vector<std::pair<std::string, uint32_t>> ranges;
  const std::function<unsigned(const std::string &)> *outside = nullptr;

  // How many declarations name `n`: plain ones, ranges that cover it
  // (%r<5> declares %r0..%r4), and those outside the body.
  unsigned count(const std::string &n) const {
    auto it = plain.find(n);
    unsigned c = it == plain.end() ? 0 : it->second;
    if (outside && *outside)
      c += (*outside)(n);
    for (const auto &[prefix, size] : ranges) {
      if (n.size() <= prefix.size() || n.compare(0, prefix.size(), prefix) != 0)
        continue;
      const std::string digits = n.substr(prefix.size());
      if (digits.size() > 9 || (digits.size() > 1 && digits[0] == '0') ||
          !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
        continue;
      c += std::stoul(digits) < size;
    }
    return c;
  }
};

void collect(const Block &b, Declared &declared) {
  for (const Statement &s : b.statements) {
    if (const Block *inner = std::get_if<Block>(&s))
      collect(*inner, declared);
    else if (const Declaration *d = std::get_if<Declaration>(&s))
      for (const Declarator &dr : d->declarators) {
        if (dr.range && d->space == "reg")
          declared.ranges.push_back({dr.name, *dr.range});
        else
          ++declared.plain[dr.name];
      }
  }
}

void renameOperand(Operand &o, const Names &scope) {
  auto rename = [&](std::string &n) {
    if (auto it = scope.find(n); it != scope.end())
      n = it->second;
  };
  // (A call's argument list names its .param variables as symbols.)
  if (o.kind == Operand::Kind::Register || o.kind == Operand::Kind::Address || o.kind == Operand::Kind::Pair ||
      o.kind == Operand::Kind::Symbol) {
    rename(o.name);
    rename(o.name2);
  }
  for (Operand &e : o.elems)
    renameOperand(e, scope);
}

// Does this declaration in a block (nested: not the body itself) name a
// register or .param that is renamed apart?
bool renamedApart(const Declaration &d, const Declarator &dr, bool nested, const Declared &declared) {
  return nested && (d.space == "reg" || d.space == "param") && !dr.range && declared.count(dr.name) > 1;
}

void scopeBlock(Block &b, Names scope, bool nested, const Declared &declared, unsigned &blocks) {
  const unsigned id = nested ? ++blocks : 0;
  // Declarations first: a block's registers are visible in all of it.
  for (Statement &s : b.statements)
    if (Declaration *d = std::get_if<Declaration>(&s))
      for (Declarator &dr : d->declarators)
        if (renamedApart(*d, dr, nested, declared)) {
          const std::string renamed = dr.name + "#" + std::to_string(id);
          scope[dr.name] = renamed;
          dr.name = renamed;
        }
  for (Statement &s : b.statements) {
    if (Block *inner = std::get_if<Block>(&s)) {
      scopeBlock(*inner, scope, true, declared, blocks);
    } else if (Instruction *in = std::get_if<Instruction>(&s)) {
      if (in->guard)
        if (auto it = scope.find(in->guard->pred); it != scope.end())
          in->guard->pred = it->second;
      for (Operand &o : in->operands)
        renameOperand(o, scope);
    }
  }
}

// Whether scopeBlock would rename anything: a nested block declares a
// register or .param under a name declared more than once.
bool needsRenaming(const Block &b, bool nested, const Declared &declared) {
  for (const Statement &s : b.statements) {
    if (const Block *inner = std::get_if<Block>(&s)) {
      if (needsRenaming(*inner, true, declared))
        return true;
    } else if (const Declaration *d = std::get_if<Declaration>(&s)) {
      for (const Declarator &dr : d->declarators)
        if (renamedApart(*d, dr, nested, declared))
          return true;
    }
  }
  return false;
}

} // namespace

const Block &scopeBlockRegisters(const Block &body, std::optional<Block> &renamed,
                                 const std::function<unsigned(const std::string &)> &declaredOutside) {
  Declared declared;
  collect(body, declared);
  declared.outside = &declaredOutside;
  renamed.reset();
  if (!needsRenaming(body, false, declared))
    return body;
  renamed = body;
  unsigned blocks = 0;
  scopeBlock(*renamed, {}, false, declared, blocks);
  return *renamed;
}

} // namespace ptx::ast
