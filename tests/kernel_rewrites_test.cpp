// The rewrites before lowering (kernel/transforms/) take the kernel by value
// and edit it in place: what they decide by, a Dataflow made before the
// first edit, must not depend on the strings the edits replace.
#include "grammar/parser.hpp"
#include "kernel/analysis/dataflow.hpp"
#include "kernel/analysis/register_numbering.hpp"
#include "kernel/kernel_ir.hpp"

#include <doctest/doctest.h>

using namespace p2a;

namespace {

// The one kernel of a module's text, decoded (nullopt: it does not parse or decode).
std::optional<kernel::Kernel> decodedKernel(const std::string &src) {
  ::ptx::ParseResult pr = ::ptx::parseModule(src);
  if (!pr.ok() || pr.module.functions.empty())
    return std::nullopt;
  Diagnostics d;
  return kernel::decodeKernel(pr.module, pr.module.functions.front(), d);
}

} // namespace

TEST_SUITE("kernel rewrites") {

TEST_CASE("a Dataflow made before a rewrite's edits answers the same after them") {
  const std::string src = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<3>;\n"
                          "ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 7;\n"
                          "xor.b32 %r3, %r2, %r1;\nadd.u32 %r3, %r3, %r2;\nst.global.u32 [%rd1], %r3;\nret;\n}\n";
  std::optional<kernel::Kernel> k = decodedKernel(src);
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

// Register operands carry the ids their kernel's table gave them
// (kernel/register_names.hpp): numbering by them must give what numbering
// by name gives, whatever a rewrite did to the operands since.
TEST_CASE("registers numbered by their operands' ids as by their names") {
  const std::string src = ".version 8.0\n.target sm_80\n.address_size 64\n"
                          ".visible .entry k(.param .u64 out)\n{\n.reg .pred %p<2>;\n.reg .b32 %r<8>;\n"
                          ".reg .b64 %rd<3>;\nld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
                          "setp.lt.u32 %p1, %r1, 5;\n@%p1 add.u32 %r2, %r1, 7;\nxor.b32 %r3, %r2, %r1;\n"
                          "add.u32 %r3, %r3, %r2;\nst.global.u32 [%rd1], %r3;\nret;\n}\n";
  std::optional<kernel::Kernel> k = decodedKernel(src);
  REQUIRE(k);
  auto numbering = [](const kernel::Kernel &kernel) {
    const kernel::RegisterNumbering ids(kernel);
    std::vector<std::string> seen; // per statement: the names read, then written
    for (size_t i = 0; i < kernel.body.size(); ++i) {
      std::string line;
      for (unsigned r : ids.reads(i))
        line += ids.name(r).str() + "=" + std::to_string(r) + " ";
      line += "<- ";
      for (unsigned w : ids.writes(i))
        line += ids.name(w).str() + "=" + std::to_string(w) + " ";
      seen.push_back(line);
    }
    for (const char *r : {"%r1", "%r3", "%p1", "%rd1", "%nothing"}) {
      const std::optional<unsigned> id = ids.find(r);
      seen.push_back(std::string(r) + (id ? "=" + std::to_string(*id) : " absent"));
    }
    return seen;
  };
  // Every register operand has its id from the decoder.
  for (const kernel::Stmt &s : k->body)
    for (const p2a::ptx::Operand &o : s.inst.srcs)
      if (o.isReg())
        CHECK(o.reg.id() != p2a::ptx::RegisterName::kNoId);
  const std::vector<std::string> byIds = numbering(*k);
  CHECK(byIds[3].find("%p1=") != std::string::npos); // (the guard, a name outside the operands)
  // The same kernel, every operand's id dropped (each name assigned to itself).
  kernel::Kernel byName = *k;
  for (kernel::Stmt &s : byName.body)
    for (std::vector<p2a::ptx::Operand> *ops :
         {&s.inst.srcs, &s.inst.dsts, &s.extraToWrite().values, &s.extraToWrite().srcs})
      for (p2a::ptx::Operand &o : *ops) {
        o.reg = std::string(o.reg.str());
        CHECK(o.reg.id() == p2a::ptx::RegisterName::kNoId);
      }
  CHECK(numbering(byName) == byIds);
  // A rewrite's renaming: the operand numbers as its new name, not its old id.
  kernel::Kernel renamed = *k;
  for (kernel::Stmt &s : renamed.body)
    for (p2a::ptx::Operand &o : s.inst.srcs)
      if (o.isReg() && o.reg == "%r2")
        o.reg = "%r1";
  const kernel::RegisterNumbering ids(renamed);
  for (size_t i = 0; i < renamed.body.size(); ++i)
    for (unsigned r : ids.reads(i))
      CHECK(ids.name(r) != "%r2");
  // Names entered after the numbering was made are not in it.
  kernel::Kernel grown = *k;
  const kernel::RegisterNumbering before(grown);
  grown.registerNamesToWrite().intern("%fresh");
  CHECK(!before.find("%fresh"));
  CHECK(before.find("%r1"));
}

} // TEST_SUITE
