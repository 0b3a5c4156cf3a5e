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

void countDeclarations(const Block &b, std::map<std::string, unsigned> &declared) {
  for (const Statement &s : b.statements) {
    if (const Block *inner = std::get_if<Block>(&s))
      countDeclarations(*inner, declared);
    else if (const Declaration *d = std::get_if<Declaration>(&s); d && d->space == "reg")
      for (const Declarator &dr : d->declarators)
        if (!dr.range)
          ++declared[dr.name];
  }
}

void renameOperand(Operand &o, const Names &scope) {
  auto rename = [&](std::string &n) {
    if (auto it = scope.find(n); it != scope.end())
      n = it->second;
  };
  if (o.kind == Operand::Kind::Register || o.kind == Operand::Kind::Address || o.kind == Operand::Kind::Pair) {
    rename(o.name);
    rename(o.name2);
  }
  for (Operand &e : o.elems)
    renameOperand(e, scope);
}

void scopeBlock(Block &b, Names scope, bool nested, const std::map<std::string, unsigned> &declared,
                unsigned &blocks) {
  const unsigned id = nested ? ++blocks : 0;
  // Declarations first: a block's registers are visible in all of it.
  for (Statement &s : b.statements)
    if (Declaration *d = std::get_if<Declaration>(&s); d && d->space == "reg" && nested)
      for (Declarator &dr : d->declarators)
        if (!dr.range && declared.at(dr.name) > 1) {
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

} // namespace

Block scopeBlockRegisters(const Block &body) {
  std::map<std::string, unsigned> declared;
  countDeclarations(body, declared);
  Block out = body;
  if (std::none_of(declared.begin(), declared.end(), [](const auto &d) { return d.second > 1; }))
    return out;
  unsigned blocks = 0;
  scopeBlock(out, {}, false, declared, blocks);
  return out;
}

} // namespace ptx::ast
