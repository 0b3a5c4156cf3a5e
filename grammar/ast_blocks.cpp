#include "grammar/ast_blocks.hpp"

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

} // namespace ptx::ast
