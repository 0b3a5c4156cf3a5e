// Constant specialisation: when every source is an immediate the PTX result is
// a constant, computed by the PTX semantics itself, and the rule is a move.
#include "semantics/ptx_semantics.hpp"
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;

namespace {

// The folds of the video forms (`video`) or of all others, in allForms()
// order. allForms() lists the video forms last, so the two families, one
// after the other, keep the table's order.
void addFoldRules(std::vector<Rule> &out, bool video) {
  for (const ptx::Form &form : ptx::allForms()) {
    if (form.isVideo() != video)
      continue;
    if (form.type == ptx::TypeClass::Pred || form.boolop != ptx::BoolOp::None || form.opcode == ptx::Opcode::Setp ||
        form.opcode == ptx::Opcode::Selp || form.carryIn || form.numDsts() > 1)
      continue; // predicates have no immediate sources (and setp's result, like a carry, is a lane mask)
    Rule r;
    r.form = form;
    r.name = form.name() + "/const";
    r.srcReqs.assign(form.numSrcs(), OperandReq::Imm);
    r.target = allTargets();
    r.priority = 2;
    r.restriction = "all sources are constants: the result is folded at translation time";
    // The folded value is the form's whole PTX semantics, which no short
    // formula shows: an opaque() immediate (rule_expr.hpp) named fold.
    const ptx::Form f = form;
    auto part = [f](unsigned lo) {
      return [f, lo](const std::vector<BV> &s) {
        BV v = sem::evalPtx(f, s)[0];
        if (v.width() < 32)
          return v.zext(32);
        return v.extract(lo + 31, lo);
      };
    };
    if (form.dstWidth(0) == 64) { // popc/clz/bfind.64 have a 64-bit source but a 32-bit result
      r.immFns = {opaque("fold(lo)", part(0)), opaque("fold(hi)", part(32))};
      r.seq = {inst(Op::V_MOV_B32, D(0, Part::Lo), {F(0)}), inst(Op::V_MOV_B32, D(0, Part::Hi), {F(1)})};
    } else {
      r.immFns = {opaque("fold", part(0))};
      r.seq = {inst(Op::V_MOV_B32, D(), {F(0)})};
    }
    out.push_back(std::move(r));
  }
}

} // namespace

void addConstantFoldRules(std::vector<Rule> &out) { addFoldRules(out, false); }

void addVideoConstantFoldRules(std::vector<Rule> &out) { addFoldRules(out, true); }

} // namespace p2a::rules
