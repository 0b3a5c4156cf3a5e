// The rewrites before lowering (kernel/transforms/) take the kernel by value
// and edit it in place: what they decide by, a Dataflow made before the
// first edit, must not depend on the strings the edits replace.
#include "grammar/parser.hpp"
#include "kernel/analysis/dataflow.hpp"
#include "kernel/kernel_ir.hpp"

#include <doctest/doctest.h>

using namespace p2a;

TEST_SUITE("kernel rewrites") {

TEST_CASE("a Dataflow made before a rewrite's edits answers the same after them") {
  const std::string src = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<3>;\n"
                          "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 7;\n"
                          "xor.b32 %r3, %r2, %r1;\nadd.u32 %r3, %r3, %r2;\nst.global.u32 [%rd1], %r3;\nret;\n}\n";
  ::ptx::ParseResult pr = ::ptx::parseModule(src);
  REQUIRE(pr.ok());
  Diagnostics d;
  std::optional<kernel::Kernel> k = kernel::decodeKernel(pr.module, pr.module.functions.at(0), d);
  REQUIRE(k);
  const kernel::Dataflow df(*k);
  auto answers = [&] {
    std::vector<long> a;
    for (const char *r : {"%r1", "%r2", "%r3", "%rd1", "%nothing"}) {
      a.push_back(df.writes(r));
      a.push_back(df.reads(r));
      const std::optional<size_t> u = df.singleUseDef(r, k->body.size() - 1);
      a.push_back(u ? long(*u) : -1);
    }
    a.push_back(long(df.def("%r2")));
    return a;
  };
  const std::vector<long> before = answers();
  CHECK(before[3] == 1); // %r2 written once...
  CHECK(before[6] == 2); // ...%r3 twice
  // Edit every statement in place, as a fusion does: operands renamed (their
  // old strings freed) and instructions replaced.
  for (kernel::Stmt &s : k->body) {
    for (p2a::ptx::Operand &o : s.inst.srcs)
      if (o.isReg())
        o.reg = "%edited_" + o.reg + std::string(40, 'x'); // (longer: a new heap buffer)
    for (p2a::ptx::Operand &o : s.inst.dsts)
      if (o.isReg())
        o.reg.clear();
    s.inst.text = std::string();
    s.text = std::string();
  }
  CHECK(answers() == before);
}

} // TEST_SUITE
