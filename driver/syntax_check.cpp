#include "driver/syntax_check.hpp"

#include "grammar/ast_blocks.hpp"
#include "kernel/kernel_ir.hpp"
#include "ptx/ptx_decoder.hpp"

#include <set>
#include <tuple>

namespace p2a::syntax {

namespace ast = ::ptx::ast;

Diagnostics moduleErrors(const ast::Module &m, bool parsedCleanly) {
  Diagnostics out;
  std::set<std::tuple<uint32_t, uint32_t, std::string>> reported;
  if (parsedCleanly)
    ptx::checkModuleStructure(m, out);
  for (const ast::Function &f : m.functions) {
    if (!f.body)
      continue;
    Diagnostics all;
    if (f.is_entry) {
      kernel::decodeKernel(m, f, all, /*partial=*/true);
    } else {
      std::optional<ast::Block> renamed;
      const ast::Block &scoped = ast::scopeBlockRegisters(*f.body, renamed);
      for (const ast::Statement *s : ast::flatten(scoped))
        if (const ast::Instruction *in = std::get_if<ast::Instruction>(s)) {
          ast::Instruction plain = *in;
          plain.guard.reset(); // (guards are checked by the kernel decoder)
          ptx::decodeInstruction(plain, all);
        }
    }
    // (a .func's errors also come from each kernel that inlines it: once each)
    for (const Diagnostic &d : all)
      if (ptx::isFormError(d) && reported.insert({d.loc.line, d.loc.col, d.message}).second)
        out.push_back(d);
  }
  return out;
}

} // namespace p2a::syntax
