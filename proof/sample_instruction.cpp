// A concrete PTX instruction for a rule (verifier.hpp, sampleInstruction):
// what the cost model lowers and assembles to measure the rule.
#include "proof/verifier.hpp"

#include "proof/solver_context.hpp"

#include <map>
#include <mutex>
#include <tuple>

namespace p2a::verify {

using rules::OperandReq;
using rules::Rule;
using sem::BV;

namespace {

std::optional<ptx::Instruction> makeSampleInstruction(const Rule &rule, bool literal, unsigned seed) {
  z3::context &ctx = threadContext();
  ScopedSolver scope;
  z3::solver &solver = scope.s;
  std::vector<BV> srcs;
  for (unsigned i = 0; i < rule.srcReqs.size(); ++i)
    srcs.push_back(BV::symbol(ctx, kSrcNames[i], rule.form.srcWidth(i)));
  for (const rules::ValueConstraint &c : rule.constraints)
    solver.add(c.holds(srcs).toExpr(ctx) == ctx.bv_val(1, 1));
  for (unsigned i = 0; i < srcs.size(); ++i) {
    if (rule.srcReqs[i] != OperandReq::Imm || rule.form.srcWidth(i) < 16)
      continue;
    const unsigned w = rule.form.srcWidth(i);
    z3::expr v = srcs[i].toExpr(ctx);
    // Prefer a literal (outside -16..64) or a small value, softly.
    z3::expr pref = literal ? z3::ugt(v, ctx.bv_val(uint64_t(0x1000 + seed), w)) : z3::ule(v, ctx.bv_val(uint64_t(seed % 60), w));
    solver.push();
    solver.add(pref);
    if (solver.check() == z3::sat)
      continue; // keep it
    solver.pop();
  }
  if (solver.check() != z3::sat)
    return std::nullopt;
  z3::model model = solver.get_model();

  ptx::Instruction inst;
  inst.form = rule.form;
  auto regFor = [&](unsigned width, const std::string &nm) {
    std::string p = width == 1 ? "%p_" : width == 16 ? "%rs_" : width == 64 ? "%rd_" : "%r_";
    return p + nm;
  };
  for (unsigned i = 0; i < rule.form.numDsts(); ++i) {
    ptx::Operand d;
    d.reg = regFor(rule.form.dstWidth(i), i ? "p" : "d");
    inst.dsts.push_back(d);
  }
  for (unsigned i = 0; i < srcs.size(); ++i) {
    ptx::Operand s;
    if (rule.srcReqs[i] == OperandReq::Imm) {
      s.kind = ptx::Operand::Kind::Immediate;
      s.imm = model.eval(srcs[i].toExpr(ctx), true).get_numeral_uint64();
    } else {
      std::string name = kSrcNames[i];
      for (auto [x, y] : rule.sameReg)
        if (y == i)
          name = kSrcNames[x];
      s.reg = regFor(rule.form.srcWidth(i), name);
    }
    inst.srcs.push_back(s);
  }
  return inst;
}

} // namespace

std::optional<ptx::Instruction> sampleInstruction(const Rule &rule, bool literal, unsigned seed) {
  // Target-independent: cached per rule and request.
  static std::mutex mu;
  static std::map<std::tuple<const Rule *, bool, unsigned>, std::optional<ptx::Instruction>> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find({&rule, literal, seed});
    if (it != cache.end())
      return it->second;
  }
  std::optional<ptx::Instruction> inst = makeSampleInstruction(rule, literal, seed);
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace(std::make_tuple(&rule, literal, seed), inst);
  return inst;
}

} // namespace p2a::verify
