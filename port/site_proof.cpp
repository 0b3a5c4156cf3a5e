#include "port/site_proof.hpp"

#include "proof/solver_context.hpp"
#include "semantics/ptx_semantics.hpp"

#include <map>
#include <sstream>

namespace p2a::port {

using sem::BV;

namespace {

BV fit(const BV &v, unsigned width) {
  if (v.width() == width)
    return v;
  return v.width() > width ? v.trunc(width) : v.zext(width);
}

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

} // namespace

SiteProof proveSite(const translate::Translation &tr, const AsmSnippet &sn, const CxxSite &site) {
  SiteProof result;
  z3::context &ctx = verify::threadContext();
  std::vector<std::pair<std::string, BV>> symbols; // for counterexamples

  // Inputs: one symbol per input operand, and the carry flag.
  std::map<std::string, BV> ptxRegs, cxxVars;
  for (const SnippetOperand &o : sn.operands) {
    if (!o.input)
      continue;
    const std::string name = "p2a_" + std::to_string(o.index);
    const BV s = BV::symbol(ctx, name, o.width);
    symbols.push_back({"%" + std::to_string(o.index), s});
    ptxRegs.emplace(o.ptxRegister(), s);
    cxxVars.emplace(name, fit(s, localType(o.width).width));
  }
  if (site.readsCarry) {
    const BV cc = BV::symbol(ctx, kCarryVariable, 1);
    symbols.push_back({"CC.CF", cc});
    ptxRegs.emplace(ptx::kCarryFlagRegister, cc);
    cxxVars.emplace(kCarryVariable, cc);
  }

  // The PTX side.
  std::vector<BV> assumptions;
  unsigned undefinedRegs = 0;
  auto readReg = [&](const std::string &reg, unsigned width) {
    auto it = ptxRegs.find(reg);
    if (it == ptxRegs.end())
      it = ptxRegs.emplace(reg, BV::symbol(ctx, "undef" + std::to_string(undefinedRegs++), width)).first;
    return fit(it->second, width);
  };
  for (const mir::LoweredInst &li : tr.function.body) {
    const ptx::Instruction &in = *li.ptx;
    std::vector<BV> srcs;
    for (unsigned i = 0; i < in.srcs.size(); ++i) {
      const unsigned w = in.form.srcWidth(i);
      srcs.push_back(in.srcs[i].isReg() ? readReg(in.srcs[i].reg, w) : BV::constant(w, in.srcs[i].imm));
    }
    for (const BV &pre : sem::ptxPreconditions(in.form, srcs))
      assumptions.push_back(pre);
    const std::vector<BV> out = sem::evalPtx(in.form, srcs);
    for (size_t i = 0; i < out.size() && i < in.dsts.size(); ++i)
      if (in.dsts[i].isReg())
        ptxRegs.insert_or_assign(in.dsts[i].reg, out[i]);
  }

  // The C++ side.
  amd::EvalContext ec;
  ec.unspecified = [](unsigned) -> BV { throw std::logic_error("port: a builtin left bits unspecified"); };
  std::vector<BV> defined;
  EvalEnv env{&cxxVars, &ec, &defined};
  for (const CxxLocal &l : site.locals)
    cxxVars.insert_or_assign(l.name, eval(l.value, env));

  // Outputs.
  std::vector<std::pair<std::string, std::pair<BV, BV>>> compared;
  for (const CxxOutput &o : site.outputs) {
    const SnippetOperand *op = nullptr;
    for (const SnippetOperand &s : sn.operands)
      if (s.output && s.expr == o.lvalue)
        op = &s;
    const std::string reg = op->ptxRegister();
    compared.push_back({"%" + std::to_string(op->index), {readReg(reg, o.width), fit(eval(o.value, env), o.width)}});
  }
  if (site.carryOut)
    compared.push_back({"CC.CF", {readReg(ptx::kCarryFlagRegister, 1), eval(site.carryOut, env)}});

  verify::ScopedSolver solver;
  // A bound on the solver's work, not on time, so that what is ported does
  // not depend on the machine or its load.
  z3::params limit(ctx);
  limit.set("rlimit", kProofResourceLimit);
  solver.s.set(limit);
  const z3::expr one = ctx.bv_val(1, 1);
  for (const BV &a : assumptions)
    solver.s.add(a.toExpr(ctx) == one);
  z3::expr goal = ctx.bool_val(true);
  for (const auto &[name, sides] : compared)
    goal = goal && sides.first.toExpr(ctx) == sides.second.toExpr(ctx);
  for (const BV &d : defined)
    goal = goal && d.toExpr(ctx) == one;
  solver.s.add(!goal);
  const z3::check_result r = solver.s.check();
  if (r == z3::unsat) {
    result.proved = true;
    return result;
  }
  if (r == z3::unknown) {
    result.undecided = true;
    result.counterexample = "the proof did not finish within its resource limit (" + solver.s.reason_unknown() + ")";
    return result;
  }
  const z3::model m = solver.s.get_model();
  auto valueOf = [&](const BV &v) {
    return hex(m.eval(v.toExpr(ctx), true).get_numeral_uint64());
  };
  std::string cx;
  for (const auto &[name, v] : symbols)
    cx += (cx.empty() ? "" : " ") + name + "=" + valueOf(v);
  for (const auto &[name, sides] : compared)
    cx += ": " + name + " PTX " + valueOf(sides.first) + " C++ " + valueOf(sides.second);
  for (const BV &d : defined)
    if (m.eval(d.toExpr(ctx), true).get_numeral_uint64() == 0) {
      cx += " (a C++ operation is undefined there)";
      break;
    }
  result.counterexample = cx;
  return result;
}

} // namespace p2a::port
