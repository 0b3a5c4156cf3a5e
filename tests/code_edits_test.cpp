// CodeEdits (lowering/code_edits.hpp): instructions added before others and
// instructions dropped, applied to the laid-out code in place, give the list
// a pass that copied the code into a new one would have built.
#include "lowering/code_edits.hpp"

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace p2a;

namespace {

// An instruction told apart by its statement number.
mir::CodeInst inst(int n) { return {mir::MInst{amd::Op::S_NOP, mir::noOperand(), {mir::immOperand(0)}}, n}; }

std::vector<mir::CodeInst> code(std::initializer_list<int> ns) {
  std::vector<mir::CodeInst> c;
  for (int n : ns)
    c.push_back(inst(n));
  return c;
}

std::vector<int> stmts(const std::vector<mir::CodeInst> &c) {
  std::vector<int> r;
  for (const mir::CodeInst &ci : c)
    r.push_back(ci.stmt);
  return r;
}

} // namespace

TEST_SUITE("code edits") {

TEST_CASE("insertions land before their instruction, several in the order added, and at the end") {
  std::vector<mir::CodeInst> c = code({0, 1, 2, 3});
  klower::CodeEdits e;
  e.insertBefore(0, inst(100));
  e.insertBefore(2, inst(102));
  e.insertBefore(2, inst(103));
  e.insertBefore(4, inst(104));
  e.apply(c);
  CHECK(stmts(c) == std::vector<int>{100, 0, 1, 102, 103, 2, 3, 104});
}

TEST_CASE("removed instructions go, and what was inserted before one stays in its place") {
  std::vector<mir::CodeInst> c = code({0, 1, 2, 3, 4});
  klower::CodeEdits e;
  e.insertBefore(1, inst(101));
  e.remove(1);
  e.remove(2);
  e.insertBefore(3, inst(103));
  e.remove(4);
  e.apply(c);
  CHECK(stmts(c) == std::vector<int>{0, 101, 103, 3});
}

TEST_CASE("only removals, only insertions at the front, and nothing at all") {
  std::vector<mir::CodeInst> c = code({0, 1, 2});
  klower::CodeEdits drop;
  drop.remove(0);
  drop.remove(2);
  drop.apply(c);
  CHECK(stmts(c) == std::vector<int>{1});

  std::vector<mir::CodeInst> d = code({0, 1});
  klower::CodeEdits front;
  front.insertBefore(0, inst(100));
  front.insertBefore(0, inst(101));
  front.apply(d);
  CHECK(stmts(d) == std::vector<int>{100, 101, 0, 1});

  std::vector<mir::CodeInst> f = code({0, 1});
  klower::CodeEdits none;
  none.apply(f);
  CHECK(stmts(f) == std::vector<int>{0, 1});

  // (Applied edits are gone: the object starts over.)
  drop.remove(0);
  drop.apply(f);
  CHECK(stmts(f) == std::vector<int>{1});
}

TEST_CASE("an added instruction can be patched before the edits apply") {
  std::vector<mir::CodeInst> c = code({0, 1});
  klower::CodeEdits e;
  const size_t hint = e.insertBefore(1, inst(101));
  e.patch(hint).mi.srcs.at(0).imm = 7;
  e.apply(c);
  REQUIRE(c.size() == 3);
  CHECK(c[1].stmt == 101);
  CHECK(c[1].mi.srcs.at(0).imm == 7);
}

TEST_CASE("edits out of order or past the end are refused") {
  std::vector<mir::CodeInst> c = code({0, 1});
  klower::CodeEdits late;
  late.insertBefore(2, inst(102));
  late.insertBefore(1, inst(101)); // (before the one added first)
  CHECK_THROWS_AS(late.apply(c), std::logic_error);

  std::vector<mir::CodeInst> d = code({0, 1});
  klower::CodeEdits past;
  past.remove(5);
  CHECK_THROWS_AS(past.apply(d), std::logic_error);
}

} // TEST_SUITE
