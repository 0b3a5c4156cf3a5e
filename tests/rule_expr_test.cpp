// Rule expressions (rules/rule_expr.hpp): one tree prints the rule table's
// text and evaluates on BVs, concrete and symbolic.
#include "rules/rule.hpp"
#include "rules/rule_expr.hpp"

#include <doctest/doctest.h>

using namespace p2a;
using rules::Expr;
using rules::src;
using sem::BV;

namespace {

uint64_t evalConcrete(const Expr &e, const std::vector<BV> &srcs) { return e.eval(srcs).value(); }

} // namespace

TEST_CASE("rule expressions print with the parentheses their meaning needs") {
  const Expr a = src(0, "a"), b = src(1, "b"), c = src(2, "c");
  CHECK(((c & 31) != 0).text() == "(c & 31) != 0");
  CHECK((32 - (c & 31)).text() == "32 - (c & 31)");
  CHECK((64 - a - b).text() == "64 - a - b");
  CHECK((a - (b - c)).text() == "a - (b - c)");
  CHECK(((1 << c) - 1).text() == "(1 << c) - 1");
  CHECK((a << (b + c)).text() == "a << (b + c)");
  CHECK(((a & b) | c).text() == "(a & b) | c");
  CHECK((a & b & c).text() == "a & b & c");
  CHECK((0 < a && a < 32 && a + b >= 32).text() == "0 < a, a < 32, a + b >= 32");
  CHECK((min(b, 32 - min(a, 32)) == 0).text() == "min(b, 32 - min(a, 32)) == 0");
  CHECK((rules::named("pos", a & 0xff) + 1).text() == "pos + 1");
  CHECK((src(3, "immLut") == Expr::literal(0x6, 2)).text() == "immLut == 0x06");
  CHECK((a == 0xffffffffu).text() == "a == 0xffffffff");
  CHECK(rules::ite(a < 32, (1 << a) - 1, 7).text() == "a < 32 ? (1 << a) - 1 : 7");
  CHECK(rules::bits(rules::zext(a, 64) + b, 63, 32).text() == "(zext64(a) + b)[63:32]");
  CHECK(rules::opaque("perm-sel(c)", [](const std::vector<BV> &s) { return s[2]; }).text() == "perm-sel(c)");
}

TEST_CASE("a literal takes the width of the operation's other operand") {
  const Expr a = src(0, "a"), b = src(1, "b");
  const std::vector<BV> srcs8 = {BV::constant(8, 3), BV::constant(8, 200)};
  CHECK(evalConcrete(a - 4, srcs8) == 0xff);       // 8-bit wrap-around
  CHECK(evalConcrete(32 - a, srcs8) == 29);
  CHECK(evalConcrete(b + 100, srcs8) == 44);        // (200 + 100) mod 256
  CHECK(evalConcrete(a + 0x101, srcs8) == 4);       // 0x101 made as an 8-bit literal: 1
  CHECK(evalConcrete(rules::zext(b, 64) + 100, srcs8) == 300);
  CHECK(evalConcrete(b >= 200 && a < 4, srcs8) == 1);
  CHECK(evalConcrete(b > 200, srcs8) == 0);
  CHECK(evalConcrete(rules::ite(a == 3, b, 1), srcs8) == 200);
  CHECK(evalConcrete(rules::bits(rules::zext(b, 64) << 40, 63, 32), srcs8) == 200u << 8);
  // Neither side of 1 + 2 gives a width; a condition joins conditions only.
  CHECK_THROWS_AS((void)(Expr(1) + 2).eval(srcs8), std::logic_error);
  CHECK_THROWS_AS((void)(a && b < 3).eval(srcs8), std::logic_error);
}

TEST_CASE("symbolic evaluation builds the same terms as the BV operations") {
  z3::context ctx;
  const std::vector<BV> srcs = {BV::symbol(ctx, "a", 32), BV::symbol(ctx, "b", 32)};
  const Expr a = src(0, "a"), b = src(1, "b");
  const BV want = (srcs[0] & srcs[0].lit(31)).ne(srcs[0].lit(0)) & srcs[1].lit(32).ule(srcs[1]);
  const BV got = ((a & 31) != 0 && b >= 32).eval(srcs);
  z3::solver s(ctx);
  s.add(want.toExpr(ctx) != got.toExpr(ctx));
  CHECK(s.check() == z3::unsat);
}

TEST_CASE("every constraint and immediate names a source as the rule table's operand column does") {
  for (const rules::Rule &r : rules::ruleTable()) {
    auto check = [&](const Expr &e) {
      e.forEachSource([&](unsigned i, const std::string &name) {
        INFO(r.name << ": " << e.text());
        CHECK(name == rules::sourceName(i, r.form));
      });
    };
    for (const rules::ValueConstraint &c : r.constraints)
      check(c.condition);
    for (const rules::ImmFn &f : r.immFns)
      check(f.expr());
  }
}
