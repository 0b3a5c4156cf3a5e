#include "driver/translate.hpp"

#include "grammar/ast_blocks.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "isel/cost_model.hpp"
#include "isel/mc_rejection.hpp"
#include "isel/printer.hpp"
#include "ptx/ptx_decoder.hpp"
#include "isel/regalloc.hpp"
#include "isel/selector.hpp"

#include <functional>

namespace p2a::translate {

namespace ast = ::ptx::ast;

using targets::kMaxSgprs;
using targets::kMaxVgprs;

bool translateBody(const ast::Block &body, const targets::TargetInfo &t, cost::CostModel &costs, Translation &out,
                   Diagnostics &diags) {
  out.target = t.name;
  out.waveSize = t.wave_size;
  std::optional<ast::Block> renamed;
  const ast::Block &scoped = ast::scopeBlockRegisters(body, renamed);
  const std::vector<const ast::Statement *> stmts = ast::flatten(scoped);

  ptx::RegisterTypes types;
  const size_t errorsBefore = diags.size();
  // Declarations first: PTX scopes `.reg` to the block, and a snippet's
  // registers are typed by their declarations wherever they appear.
  for (const ast::Statement *s : stmts)
    if (const ast::Declaration *d = std::get_if<ast::Declaration>(s))
      ptx::collectRegisterDeclaration(*d, types, diags);

  select::RuleCostFn costFn = cost::ruleCostFn(costs);
  mir::Function &fn = out.function;
  unsigned selectors = 0; // (video operand selectors' %__sel<N> registers)
  for (const ast::Statement *s : stmts) {
    const ast::Instruction *in = std::get_if<ast::Instruction>(s);
    if (!in)
      continue; // labels and directives carry no computation here
    std::vector<ast::Instruction> parts = ptx::expandOperandSelectors(*in, selectors);
    if (parts.empty()) // (nothing to expand)
      parts.push_back(*in);
    for (const ast::Instruction &part : parts) {
    std::optional<ptx::Instruction> inst = ptx::decodeInstruction(part, diags);
    if (!inst || !ptx::typeRegisters(*inst, types, diags))
      continue;
    // Registers take their declared width; the form fixes it for the rest
    // (typeRegisters gave every operand one).
    auto width = [&](const std::string &reg) {
      if (const ptx::RegisterType *known = types.find(reg))
        return known->width;
      types.set(reg, ptx::RegisterType{});
      return ptx::RegisterType{}.width;
    };
    for (size_t i = 0; i < inst->dsts.size(); ++i)
      if (inst->dsts[i].isReg())
        select::vregFor(fn, inst->dsts[i].reg, width(inst->dsts[i].reg));
    for (size_t i = 0; i < inst->srcs.size(); ++i)
      if (inst->srcs[i].isReg())
        select::vregFor(fn, inst->srcs[i].reg, width(inst->srcs[i].reg));
    select::selectAndLower(*inst, t, costFn, fn, diags);
    }
  }
  // On a lowering error the instructions that did lower are still assigned
  // registers and printed (the HTML report shows them beside the error), but
  // nothing goes to MC and the caller gets false.
  const bool lowered = !errorsSince(diags, errorsBefore);
  out.allocation = regalloc::allocate(fn, t);
  out.numVgprs = out.allocation.numVgprs;
  out.numSgprs = out.allocation.numSgprs;
  // Registers in first-use order (vreg numbering follows first use).
  for (unsigned v = 0; v < fn.vregs.size(); ++v)
    if (!fn.ptxName(v).empty())
      out.registers.push_back({fn.ptxName(v), printer::physName(v, fn, out.allocation, t)});

  for (const mir::LoweredInst &li : fn.body) {
    TranslatedInstruction ti;
    ti.textToWrite().ptxText = li.ptx->text;
    ti.loc = li.ptx->loc;
    ti.rule = li.rule;
    ti.textToWrite().cycles = costs.cost(*li.rule, t).cycles;
    for (const mir::MInst &mi : li.insts) {
      ti.textToWrite().gcn.push_back(printer::printInst(mi, fn, out.allocation, t));
      ++ti.amdLines;
    }
    out.instructions.push_back(std::move(ti));
  }
  if (!lowered)
    return false;
  // Every PTX register keeps its own register (regalloc.hpp): say so plainly
  // rather than let MC reject every instruction past the register file.
  if (out.numVgprs > kMaxVgprs || out.numSgprs > kMaxSgprs) {
    error(diags, body.loc.line ? body.loc : ::ptx::ast::SourceLoc{1, 1},
          "the code needs " + std::to_string(out.numVgprs) + " VGPRs and " + std::to_string(out.numSgprs) +
              " SGPRs, more than " + t.name + " has (" + std::to_string(kMaxVgprs) + "/" + std::to_string(kMaxSgprs) +
              "); each PTX register keeps its own register, so split the code");
    return false;
  }

  // LLVM MC is the authority: everything emitted must assemble for the target.
  mc::AssembleResult r = costs.assembler(t).assemble(assemblyText(out), mc::OutputKind::Asm);
  if (!r.ok) {
    std::vector<long> statementOfLine{-1}; // (lines are 1-based)
    for (size_t i = 0; i < out.instructions.size(); ++i)
      statementOfLine.insert(statementOfLine.end(), out.instructions[i].text().gcn.size(), static_cast<long>(i));
    mir::reportMcRejection(r, out.instructions, statementOfLine, {}, "the snippet", t.name, diags);
    return false;
  }
  return true;
}

unsigned amdInstructionCount(const Translation &tr) {
  unsigned n = 0;
  for (const TranslatedInstruction &ti : tr.instructions)
    n += ti.amdLines;
  return n;
}

std::string assemblyText(const Translation &tr) {
  std::string s;
  for (const TranslatedInstruction &ti : tr.instructions)
    for (const std::string &g : ti.text().gcn)
      s += g + "\n";
  return s;
}

} // namespace p2a::translate
