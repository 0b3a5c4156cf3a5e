// port-asm: the inline asm scanner, the C++ spellings of AMD instructions
// (proved per target, builtins compiled by clang-19), per-statement proofs,
// the rewrite, and the command line.
#include "cli_support.hpp"

#include "driver/translate.hpp"
#include "grammar/parser.hpp"
#include "port/amd_op_cxx.hpp"
#include "port/asm_snippet.hpp"
#include "port/inline_asm_scanner.hpp"
#include "port/port_report.hpp"
#include "port/site_proof.hpp"
#include "port/source_rewrite.hpp"
#include "proof/solver_context.hpp"
#include "targets/target_info.hpp"
#include "validation/amdgpu_emulator.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <regex>

using namespace p2a;
using namespace p2a::testing;

namespace {

const std::string kPortDir = std::string(P2A_SOURCE_DIR) + "/tests/port";

// clang-19 in HIP mode for one target, with the shim for the HIP headers;
// returns the assembly, or fails the test with clang's messages.
std::string compileHip(const std::string &source, const std::string &target) {
  const std::string in = tempFile("port.hip", source), out = tempPath("port.s");
  Run r = runProgram("clang-19", {"-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-O3", "-Wall",
                                  "-Werror", "--offload-arch=" + target, "-include", kPortDir + "/hip_shim.h", "-S",
                                  "-o", out, in});
  REQUIRE_MESSAGE(r.exited(0), "clang-19 for " << target << ":\n" << r.err);
  return slurp(out);
}

} // namespace

TEST_CASE("port: the scanner finds asm statements and nothing that only looks like one") {
  const std::string src = R"SRC(// asm("not.b32 %0, %1;" : "=r"(x) : "r"(y));
/* asm("in a block comment") */
const char *s = "asm(\"in a string\")";
const char *raw = R"x(asm("in a raw string"))x";
int n = 1'000'000; char q = '"';
void f() {
  __asm__ __volatile__("not.b32 %0, %1;" : "=r"(x) : "r"(y) : "memory");
  { asm("add.u32 %[d], %[a], 1;" : [d] "=r"(x) : [a] "r"(f(1, (2)))); }
  asm volatile("membar.gl;" ::: "memory");
}
#define M(d, a) asm("not.b32 %0, " \
  "%1;" : "=r"(d) : "r"(a))
)SRC";
  const std::vector<port::AsmStatement> sts = port::scanInlineAsm(src);
  REQUIRE(sts.size() == 4);
  CHECK(sts[0].isVolatile);
  CHECK(sts[0].templateText == "not.b32 %0, %1;");
  CHECK(sts[0].clobbers == std::vector<std::string>{"memory"});
  CHECK(sts[0].hasSemicolon);
  CHECK(sts[1].outputs.at(0).name == "d");
  CHECK(sts[1].inputs.at(0).expr == "f(1, (2))");
  CHECK(sts[1].scope != sts[0].scope);
  CHECK(sts[2].outputs.empty());
  CHECK(sts[2].inputs.empty());
  CHECK(sts[3].inMacro);
  CHECK(sts[3].templateText == "not.b32 %0, %1;");
  CHECK_FALSE(sts[3].hasSemicolon);
  CHECK(src.substr(sts[3].macroBegin, 9) == "#define M");
  // Offsets point into the source: the template's first character.
  CHECK(src[sts[0].templateOffsets[0]] == 'n');
  const port::LineTable lines(src);
  CHECK(lines.at(sts[0].begin).line == 7);
  CHECK(lines.at(sts[0].begin).column == 3);
}

TEST_CASE("port: templates that are not string literals are reported where they are") {
  const std::string src = "#define ROT \"shf.l.wrap.b32 %0, %1, %1, 8;\"\n"
                          "void f() { asm(ROT : \"=r\"(x) : \"r\"(y)); asm(\"not.b32 %0, \" S \";\" : \"=r\"(x)); }\n";
  const std::vector<port::AsmStatement> sts = port::scanInlineAsm(src);
  REQUIRE(sts.size() == 2);
  CHECK(contains(sts[0].error, "not a string literal"));
  CHECK(contains(sts[1].error, "not only string literals"));
  CHECK(src.substr(sts[1].errorOffset, 1) == "S");
}

TEST_CASE("port: integer constant expressions of \"n\" operands") {
  CHECK(port::evaluateConstant("0x1F") == 31u);
  CHECK(port::evaluateConstant("(8 * 3) + 1u") == 25u);
  CHECK(port::evaluateConstant("1 << 4 | 2") == 18u);
  CHECK(port::evaluateConstant("~0u & 0xff") == 255u);
  CHECK(port::evaluateConstant("-1") == ~uint64_t(0));
  CHECK(port::evaluateConstant("0b101") == 5u);
  CHECK(port::evaluateConstant("017") == 15u);
  CHECK(port::evaluateConstant("1'000") == 1000u);
  CHECK_FALSE(port::evaluateConstant("N"));
  CHECK_FALSE(port::evaluateConstant("sizeof(int)"));
  CHECK_FALSE(port::evaluateConstant("1 / 0"));
  CHECK_FALSE(port::evaluateConstant("1 << 64"));
}

TEST_CASE("port: every C++ spelling equals its AMD instruction on every target") {
  z3::context &ctx = verify::threadContext();
  unsigned spelled = 0;
  for (const amd::OpDef &def : amd::allOps()) {
    std::vector<port::Expr> srcs;
    std::map<std::string, sem::BV> vars;
    std::vector<sem::BV> args;
    for (size_t i = 0; i < def.srcs.size(); ++i) {
      const port::CxxType t = port::cxxTypeOf(def.srcs[i]);
      const std::string name = "s" + std::to_string(i);
      srcs.push_back(port::var(name, t));
      vars.emplace(name, sem::BV::symbol(ctx, name, t.width));
      args.push_back(vars.at(name));
    }
    std::optional<port::OpCxx> c;
    try {
      c = port::cxxForOp(def.op, srcs);
    } catch (const std::exception &ex) {
      FAIL(std::string(def.name) << ": " << ex.what());
    }
    if (!c)
      continue;
    ++spelled;
    for (const targets::TargetInfo &t : targets::allTargets()) {
      if (!amd::available(def.op, t))
        continue;
      amd::EvalContext ec;
      ec.high16_zeroed = t.generation <= targets::Generation::GFX9;
      unsigned unspecified = 0;
      ec.unspecified = [&](unsigned w) { return sem::BV::symbol(ctx, "u" + std::to_string(unspecified++), w); };
      const amd::Effect e = amd::execute(def.op, args, ec);
      std::vector<sem::BV> defined;
      const port::EvalEnv env{&vars, &ec, &defined};
      const sem::BV mine = port::eval(c->dst, env);
      const unsigned bits = c->definedBits;
      z3::expr goal = mine.trunc(bits).toExpr(ctx) == e.dst.trunc(bits).toExpr(ctx);
      if (c->carry) {
        REQUIRE(e.vcc);
        goal = goal && port::eval(c->carry, env).toExpr(ctx) == e.vcc->toExpr(ctx);
      }
      for (const sem::BV &d : defined)
        goal = goal && d.toExpr(ctx) == ctx.bv_val(1, 1);
      verify::ScopedSolver s;
      s.s.add(!goal);
      const std::string what = std::string(def.name) + " on " + t.name + ": " + port::print(c->dst);
      const bool ok = s.s.check() == z3::unsat;
      if (!ok)
        MESSAGE("not equal: " << what);
      CHECK(ok);
    }
  }
  CHECK(spelled >= 70);
}

TEST_CASE("port: the AMDGPU builtins become their instruction on every target") {
  std::string src = "__global__ void k(uint32_t *p) {\n  const uint32_t a = p[0], b = p[1], c = p[2];\n";
  for (size_t i = 0; i < port::amdBuiltins().size(); ++i) {
    const port::BuiltinUse &b = port::amdBuiltins()[i];
    const bool isSigned = b.op == amd::Op::V_BFE_I32;
    src += "  p[" + std::to_string(i + 3) + "] = " + (isSigned ? "(uint32_t)" : "") + b.builtin + "(" +
           (isSigned ? "(int32_t)a" : "a") + ", b, c);\n";
  }
  src += "}\n";
  for (const targets::TargetInfo &t : targets::allTargets()) {
    const std::string s = compileHip(src, t.name);
    for (const port::BuiltinUse &b : port::amdBuiltins()) {
      INFO(b.builtin << " on " << t.name);
      CHECK(contains(s, amd::mnemonic(b.op, t) + " "));
    }
  }
}

TEST_CASE("port: the helpers file ports completely, proves, and compiles for every target") {
  const std::string src = slurp(kPortDir + "/helpers.cu");
  port::PortedFile f = port::portSource(src, port::PortMode::Guard, costModel());
  for (const Diagnostic &d : f.diags)
    INFO(d.loc.line << ":" << d.loc.col << ": " << d.message);
  CHECK(f.diags.empty());
  CHECK(f.sites.size() == 17);
  CHECK(f.ported == 17);
  for (const port::PortedSite &s : f.sites)
    CHECK(s.proof.proved);
  // The guard keeps every original statement for NVIDIA.
  // Adjacent statements share one guard; one more guards the carry's declaration.
  CHECK(countOf(f.text, "#if defined(__HIP_PLATFORM_AMD__)") == 15);
  for (const port::AsmStatement &st : f.statements)
    CHECK(contains(f.text, src.substr(st.begin, st.end - st.begin)));
  // The carry flag is declared once, in the function of the chain.
  CHECK(countOf(f.text, "bool p2a_cc = false;") == 1);
  CHECK(f.carryDeclarations == 1);
  CHECK(countOf(f.text, "p2a_cc = ") == 3); // the declaration and two carries handed on
  for (const targets::TargetInfo &t : targets::allTargets()) {
    const std::string s = compileHip(f.text, t.name);
    INFO(t.name);
    CHECK(contains(s, amd::mnemonic(amd::Op::V_ALIGNBIT_B32, t)));
    CHECK(contains(s, amd::mnemonic(amd::Op::V_PERM_B32, t)));
    CHECK(contains(s, ".amdhsa_private_segment_fixed_size 0")); // no scratch
  }
}

TEST_CASE("port: a C++ spelling that differs from the PTX does not prove") {
  // shf.l.wrap with a constant amount: alignbit(x, x, 25). Replacing the
  // amount by 24 must be caught, with a counterexample.
  const std::string src = "void f() { asm(\"shf.l.wrap.b32 %0, %1, %1, 7;\" : \"=r\"(r) : \"r\"(x)); }\n";
  port::PortedFile f = port::portSource(src, port::PortMode::Replace, costModel());
  REQUIRE(f.ported == 1);
  const port::AsmStatement &st = f.statements[0];
  const port::AsmSnippet sn = port::buildSnippet(st);
  ::ptx::ParseResult pr = ::ptx::parseSnippet(sn.text);
  translate::Translation tr;
  Diagnostics diags;
  REQUIRE(translate::translateBody(*pr.module.functions.front().body, *targets::findTarget(port::kBaselineTarget),
                                   costModel(), tr, diags));
  port::CxxSite site = port::cxxFromMir(tr, sn);
  REQUIRE(port::proveSite(tr, sn, site).proved);
  const port::Expr x = site.inputs.at(0).value;
  site.outputs.at(0).value = port::amdBuiltin("__builtin_amdgcn_alignbit", amd::Op::V_ALIGNBIT_B32, port::kU32,
                                              {x, x, port::lit(port::kU32, 24)});
  const port::SiteProof wrong = port::proveSite(tr, sn, site);
  CHECK_FALSE(wrong.proved);
  CHECK(contains(wrong.counterexample, "%0 PTX"));
  // An undefined C++ shift is caught too: x << 32.
  site.outputs.at(0).value = port::binary(port::CxxOp::Shl, x, port::lit(port::kU32, 32));
  CHECK(contains(port::proveSite(tr, sn, site).counterexample, "undefined"));
}

TEST_CASE("port: guard lines start lines; replace mode writes the port alone") {
  const std::string src = "void f() {\n  x = 1; asm(\"not.b32 %0, %1;\" : \"=r\"(r) : \"r\"(y)); y = 2; // done\n}\n";
  port::PortedFile g = port::portSource(src, port::PortMode::Guard, costModel());
  REQUIRE(g.ported == 1);
  CHECK(contains(g.text, "  x = 1;\n#if defined(__HIP_PLATFORM_AMD__)\n  {\n"));
  CHECK(contains(g.text, "#else\n  asm(\"not.b32 %0, %1;\" : \"=r\"(r) : \"r\"(y));\n#endif\n  y = 2; // done\n}"));
  CHECK(contains(g.text, "const uint32_t p2a_t0 = ~p2a_1;\n    r = p2a_t0;"));
  port::PortedFile r = port::portSource(src, port::PortMode::Replace, costModel());
  CHECK_FALSE(contains(r.text, "#if"));
  CHECK_FALSE(contains(r.text, "asm("));
  CHECK(contains(r.text, "  x = 1; {\n"));
  CHECK(contains(r.text, "  } y = 2; // done\n"));
}

TEST_CASE("port: what has no faithful translation is left as it is, with a located warning") {
  const std::string src = "void f() {\n"
                          "  asm(\"mov.b32 %0, %1;\" : \"=f\"(y) : \"f\"(x));\n"
                          "  asm(\"addc.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"r\"(b));\n"
                          "  asm(\"bogus.b32 %0, %1;\" : \"=r\"(r) : \"r\"(a));\n"
                          "  asm(\"not.b32 %0, %3;\" : \"=r\"(r) : \"r\"(a));\n"
                          "  asm(\"lop3.b32 %0, %1, %1, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"n\"(LUT));\n"
                          "}\n";
  port::PortedFile f = port::portSource(src, port::PortMode::Guard, costModel());
  CHECK(f.ported == 0);
  CHECK(f.text == src);
  REQUIRE(f.diags.size() >= 5);
  auto at = [&](unsigned line) {
    std::string all;
    for (const Diagnostic &d : f.diags)
      if (d.loc.line == line) {
        CHECK(d.severity == Diagnostic::Severity::Warning);
        all += d.message + "\n";
      }
    return all;
  };
  CHECK(contains(at(2), "floating-point operand"));
  CHECK(contains(at(3), "carry flag CC.CF, which no earlier ported asm statement of its function sets"));
  CHECK(contains(at(4), "PTX: "));
  CHECK(contains(at(5), "%3 names no operand"));
  CHECK(contains(at(6), "PTX: "));
  // The column of a PTX error is the template's character.
  for (const Diagnostic &d : f.diags)
    if (d.loc.line == 4)
      CHECK(d.loc.col == 8); // "bogus" starts at column 8
}

TEST_CASE("port-asm: files in place, to a directory, and the report") {
  const std::string a = tempFile("a.cu", "__device__ unsigned f(unsigned x) { unsigned r;\n"
                                         "  asm(\"brev.b32 %0, %1;\" : \"=r\"(r) : \"r\"(x)); return r; }\n");
  const std::string b = tempFile("b.cu", "__device__ unsigned g(unsigned x) { unsigned r;\n"
                                         "  asm(\"popc.b32 %0, %1;\" : \"=r\"(r) : \"f\"(x)); return r; }\n");
  const std::string dir = tempPath("ported"), report = tempPath("report.html");
  Run r = run({"port-asm", a, b, "-o", dir, "--report=" + report});
  CHECK(r.exited(0));
  CHECK(contains(r.err, "port-asm: 2 asm statements, 1 ported and proved, 1 left as it is"));
  CHECK(contains(r.err, ":2:38: warning: a floating-point operand"));
  const std::string pa = slurp(dir + "/" + fs::path(a).filename().string());
  CHECK(contains(pa, "__builtin_bitreverse32(p2a_1)"));
  CHECK(slurp(dir + "/" + fs::path(b).filename().string()) == slurp(b));
  const std::string html = slurp(report);
  CHECK(contains(html, "ported, proved"));
  CHECK(contains(html, "left as it is"));
  CHECK(contains(html, "brev.b32"));

  const std::string before = slurp(a);
  r = run({"port-asm", "-i", "--replace", a});
  CHECK(r.exited(0));
  CHECK(slurp(a) != before);
  CHECK_FALSE(contains(slurp(a), "asm("));
  // Several inputs need a place to go; -i and -o exclude each other.
  CHECK(run({"port-asm", a, b}).exited(2));
  CHECK(run({"port-asm", "-i", "-o", dir, a}).exited(2));
  CHECK(run({"port-asm", "/nonexistent/x.cu"}).exited(1));
}

TEST_CASE("port: carry chains through macros defined in one file and expanded in another") {
  const std::string header = slurp(kPortDir + "/bignum.h"), source = slurp(kPortDir + "/bignum.cu");
  std::vector<port::PortedFile> f = port::portSources({&header, &source}, port::PortMode::Guard, costModel());
  REQUIRE(f.size() == 2);
  CHECK(f[0].ported == 14);
  CHECK(f[0].diags.empty());
  // Each function that expands a carry macro (directly, or through ADD256)
  // declares the flag; the header's macros declare nothing.
  CHECK(f[0].carryDeclarations == 0);
  CHECK(f[1].carryDeclarations == 4);
  CHECK(countOf(f[1].text, "bool p2a_cc = false;") == 4);
  // 64-bit carries and products are C++'s own operations.
  CHECK(contains(f[0].text, "(uint64_t)(((unsigned __int128)p2a_1 * (unsigned __int128)p2a_2) >> 64)"));
  CHECK(contains(f[0].text, "(uint64_t)(((__int128)(int64_t)p2a_1 * (__int128)(int64_t)p2a_2) >> 64)"));
  CHECK(contains(f[0].text, "p2a_cc = p2a_t"));
  // Ported alone, the source declares nothing: it expands no macro it knows
  // to use the flag.
  CHECK(port::portSource(source, port::PortMode::Guard, costModel()).carryDeclarations == 0);
  const std::string dir = tempPath("bignum");
  fs::create_directories(dir);
  spit(dir + "/bignum.h", f[0].text);
  const std::string unit = "#include \"" + dir + "/bignum.h\"\n" +
                           f[1].text.substr(f[1].text.find("\n", f[1].text.find("#include")) + 1);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    const std::string s = compileHip(unit, t.name);
    INFO(t.name);
    CHECK(contains(s, "bignum_kernel"));
    CHECK(contains(s, ".amdhsa_private_segment_fixed_size 0"));
  }
}

TEST_CASE("port: nvcc's literal '%' registers, and a carry set for the caller") {
  // nvcc passes a '%' before a letter through: CGBN declares `.reg .u16 %al`.
  const std::string block = "__device__ unsigned f(unsigned a, unsigned b) { unsigned r;\n"
                            "  asm(\"{\\n\\t.reg .u32 %t;\\n\\tadd.u32 %t, %1, %2;\\n\\tshl.b32 %0, %t, 3;\\n\\t}\"\n"
                            "      : \"=r\"(r) : \"r\"(a), \"r\"(b));\n  return r; }\n";
  port::PortedFile f = port::portSource(block, port::PortMode::Replace, costModel());
  CHECK(f.ported == 1);
  CHECK(f.diags.empty());
  // A helper whose add.cc exists for its caller's next statement (CGBN's
  // add_cc) cannot hand the flag across the call: it is left, with a word.
  const std::string helper = "__device__ unsigned add_cc(unsigned a, unsigned b) { unsigned r;\n"
                             "  asm volatile(\"add.cc.u32 %0, %1, %2;\" : \"=r\"(r) : \"r\"(a), \"r\"(b));\n"
                             "  return r; }\n";
  port::PortedFile h = port::portSource(helper, port::PortMode::Guard, costModel());
  CHECK(h.ported == 0);
  REQUIRE(h.diags.size() == 1);
  CHECK(contains(h.diags[0].message, "sets PTX's carry flag CC.CF for code after its function"));
  // The same statement followed by its reader in the function is ported.
  const std::string chained = "__device__ unsigned long long add64(unsigned a, unsigned b, unsigned c, unsigned d) {\n"
                              "  unsigned lo, hi;\n"
                              "  asm volatile(\"add.cc.u32 %0, %1, %2;\" : \"=r\"(lo) : \"r\"(a), \"r\"(b));\n"
                              "  asm volatile(\"addc.u32 %0, %1, %2;\" : \"=r\"(hi) : \"r\"(c), \"r\"(d));\n"
                              "  return ((unsigned long long)hi << 32) | lo; }\n";
  CHECK(port::portSource(chained, port::PortMode::Guard, costModel()).ported == 2);
}

namespace {

// clang-19 in HIP mode, device only, to a linked code object for `target`.
std::string compileHipObject(const std::string &dir, const std::string &file, const std::string &target) {
  const std::string out = dir + "/" + fs::path(file).stem().string() + "." + target + ".hsaco";
  Run r = runProgram("clang-19", {"-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-O3",
                                  "--offload-arch=" + target, "-include", kPortDir + "/hip_shim.h", "-c",
                                  "--no-gpu-bundle-output", "-o", out, dir + "/" + file});
  REQUIRE_MESSAGE(r.exited(0), "clang-19 for " << target << ":\n" << r.err);
  return out;
}

} // namespace

TEST_CASE("port-asm then clang-19: each ported kernel passes check --amd against nvcc's PTX, on every target") {
  // The PTX is nvcc 13's of the CUDA originals (tests/port/*.ptx); the AMD
  // side is what a porting engineer ships: port-asm's output, built by clang.
  const std::string dir = tempPath("ported");
  fs::create_directories(dir);
  const std::string header = slurp(kPortDir + "/bignum.h"), helpers = slurp(kPortDir + "/helpers.cu"),
                    bignum = slurp(kPortDir + "/bignum.cu");
  std::vector<port::PortedFile> ported =
      port::portSources({&helpers, &header, &bignum}, port::PortMode::Guard, costModel());
  REQUIRE(ported[0].ported + ported[1].ported + ported[2].ported == 31);
  spit(dir + "/helpers.cu", ported[0].text);
  spit(dir + "/bignum.h", ported[1].text);
  spit(dir + "/bignum.cu", ported[2].text);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    for (const char *k : {"helpers", "bignum"}) {
      const std::string object = compileHipObject(dir, std::string(k) + ".cu", t.name);
      Run c = run({"check", kPortDir + "/" + k + ".ptx", "--amd", object, "-mcpu=" + t.name, "--trials", "2"});
      INFO(k << " on " << t.name << ":\n" << c.out << c.err);
      CHECK(c.exited(0));
      CHECK(contains(c.out, "AMD code object: kernel '_Z"));
      CHECK(contains(c.out, "result: every output buffer agrees"));
      // The run's measure: a straight-line kernel executes each of its
      // instructions once per wave, and waits at least one global load's
      // latency, so the estimate exceeds that plus one cycle an instruction.
      std::smatch size, run;
      REQUIRE(std::regex_search(c.out, size, std::regex(R"(kernel '[^']+', (\d+) instructions)")));
      REQUIRE(std::regex_search(c.out, run, std::regex(R"(AMD run \(trial 0\): (\d+) instructions executed, about (\d+) cycles)")));
      const unsigned waves = 64 / t.wave_size;
      if (std::string(k) == "helpers")
        CHECK(std::stoul(run[1]) == waves * std::stoul(size[1]));
      CHECK(std::stoul(run[2]) > emu::kVmemLatency + std::stoul(size[1]));
    }
  }
  // A port that computes something else is caught: rotr7's amount off by one.
  std::string wrong = ported[0].text;
  const std::string right = "__builtin_amdgcn_alignbit(p2a_1, p2a_1, 7u)";
  const size_t at = wrong.find(right);
  REQUIRE(at != std::string::npos);
  wrong.replace(at, right.size(), "__builtin_amdgcn_alignbit(p2a_1, p2a_1, 8u)");
  spit(dir + "/wrong.cu", wrong);
  const std::string object = compileHipObject(dir, "wrong.cu", "gfx942");
  Run c = run({"check", kPortDir + "/helpers.ptx", "--amd", object, "-mcpu=gfx942", "--trials", "1"});
  CHECK(c.exited(1));
  CHECK(contains(c.out, "MISMATCH"));
  // The trace: the PTX store and its inputs, the AMD lane's last store and its data.
  CHECK(contains(c.out, "st.global.u32"));
  CHECK(contains(c.out, "its PTX inputs:"));
  CHECK(contains(c.out, "the lane's last store: global_store_dword"));
  CHECK(contains(c.out, "its data v"));
}

TEST_CASE("check --amd: its arguments are checked before anything runs") {
  const std::string ptx = kPortDir + "/helpers.ptx";
  Run r = run({"check", ptx, "--kernel", "a=b"});
  CHECK(r.exited(2));
  CHECK(contains(r.err, "--kernel PTX=AMD names a kernel of --amd's code object"));
  r = run({"check", ptx, "--amd", "/nonexistent.hsaco", "-mcpu=gfx942"});
  CHECK(r.exited(2));
  CHECK(contains(r.err, "--amd: "));
  r = run({"check", ptx, "--amd", ptx, "-mcpu=all"});
  CHECK(r.exited(2));
  CHECK(contains(r.err, "a code object is built for one GPU"));
  // Not an ELF file, or no such kernel in it: a located error, exit 2.
  r = run({"check", ptx, "--amd", ptx, "-mcpu=gfx942"});
  CHECK(r.exited(2));
  CHECK(contains(r.err, "--amd: "));
}

TEST_CASE("port-asm --style=asm: AMDGPU inline asm per target, built by clang-19, passes check --amd everywhere") {
  const std::string src = slurp(kPortDir + "/asm_style.cu");
  port::PortedFile f = port::portSource(src, port::PortMode::Guard, costModel(), port::PortStyle::Asm);
  for (const Diagnostic &d : f.diags)
    INFO(d.loc.line << ":" << d.loc.col << ": " << d.message);
  CHECK(f.diags.empty());
  REQUIRE(f.ported == 7);
  CHECK(contains(f.text, "asm(\"v_alignbit_b32 %0, %1, %1, 19\""));
  // prmt's selector constant is a VOP3 literal from gfx10 on, a register before.
  CHECK(contains(f.text, "#if defined(__gfx900__) || defined(__gfx90a__) || defined(__gfx942__)"));
  CHECK(contains(f.text, "#error \"port-asm --style=asm: no AMDGPU assembly for this target"));
  CHECK(contains(f.text, "\"+v\"(acc)"));
  CHECK(contains(f.text, "asm volatile(")); // the memory clobber keeps its statement in place
  // The report shows what was written: the assembly, not the C++ it was proved through.
  const std::string html = port::formatPortReport({{"asm_style.cu", &src, &f}});
  CHECK(contains(html, "v_alignbit_b32 %0, %1, %1, 19"));
  CHECK_FALSE(contains(html, "__builtin_amdgcn_alignbit"));
  const std::string dir = tempPath("asm_style");
  fs::create_directories(dir);
  spit(dir + "/asm_style.cu", f.text);
  for (const targets::TargetInfo &t : targets::allTargets()) {
    const std::string object = compileHipObject(dir, "asm_style.cu", t.name);
    Run c = run({"check", kPortDir + "/asm_style.ptx", "--amd", object, "-mcpu=" + t.name, "--trials", "2"});
    INFO(t.name << ":\n" << c.out << c.err);
    CHECK(c.exited(0));
  }
  // What inline asm cannot name is left, with the reason.
  const std::string helpers = slurp(kPortDir + "/helpers.cu");
  port::PortedFile h = port::portSource(helpers, port::PortMode::Guard, costModel(), port::PortStyle::Asm);
  std::string all;
  for (const Diagnostic &d : h.diags)
    all += d.message + "\n";
  CHECK(contains(all, "one half of a 64-bit value"));
  CHECK(contains(all, "the carry flag CC.CF between statements lives in VCC"));
  CHECK(contains(all, "a #define cannot hold #if"));
  CHECK(h.ported + h.diags.size() == h.sites.size());
}
