// End-to-end tests of the ptx2amdgpu driver (tools/ptx2amdgpu.cpp): the built
// binary (P2A_BINARY) is run as a child process with NO_COLOR=1, stdin from a
// file, stdout and stderr to files in a private temporary directory, and its
// exit status, output and clang-style diagnostics are checked exactly.
#include "cli_support.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"

#include <doctest/doctest.h>

#include <llvm/Support/JSON.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

using namespace p2a::testing;

const char *const kTargets[] = {"gfx900", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx1200"};

// The forms of PTX ISA §9.7.8 (Logic and Shift), the scope.
const std::set<std::string> kFamilyForms = {
    "and.pred", "and.b16",  "and.b32",  "and.b64",  "or.pred",  "or.b16",  "or.b32",  "or.b64",
    "xor.pred", "xor.b16",  "xor.b32",  "xor.b64",  "not.pred", "not.b16", "not.b32", "not.b64",
    "cnot.b16", "cnot.b32", "cnot.b64", "lop3.b32", "lop3.and.b32", "lop3.or.b32",
    "shf.l.wrap.b32", "shf.l.clamp.b32", "shf.r.wrap.b32", "shf.r.clamp.b32",
    "shl.b16",  "shl.b32",  "shl.b64",  "shr.b16",  "shr.b32", "shr.b64",
    "shr.u16",  "shr.u32",  "shr.u64",  "shr.s16",  "shr.s32", "shr.s64"};

} // namespace

TEST_SUITE("cli") {

TEST_CASE("--version and --help") {
  Run v = run({"--version"});
  INFO(toString(v));
  CHECK(v.exited(0));
  CHECK(v.out.rfind("ptx2amdgpu ", 0) == 0);
  CHECK(contains(v.out, "LLVM 19"));

  Run h = run({"--help"});
  INFO(toString(h));
  CHECK(h.exited(0));
  CHECK(contains(h.out, "USAGE"));
  CHECK(contains(h.out, "explain"));
  CHECK(contains(h.out, "-fsyntax-only"));

  Run eh = run({"explain", "--help"});
  INFO(toString(eh));
  CHECK(eh.exited(0));
  CHECK(contains(eh.out, "--format"));
}

TEST_CASE("explain: text output on every target") {
  for (const char *t : kTargets) {
    INFO("target " << std::string(t));
    Run r = run({"explain", std::string("-mcpu=") + t, "shf.l.wrap.b32 %0, %1, %1, 7;"});
    INFO(toString(r));
    REQUIRE(r.exited(0));
    CHECK(r.err.empty());
    CHECK(contains(r.out, std::string("; target ") + t));
    CHECK(contains(r.out, "; line 1: shf.l.wrap.b32 %0, %1, %1, 7\n"));
    CHECK(contains(r.out, ";   rule shf.l.wrap.b32/imm ("));
    bool alignbit = false;
    for (const std::string &l : lines(r.out))
      if (l.rfind("v_alignbit_b32 ", 0) == 0)
        alignbit = true;
    CHECK(alignbit);
  }
}

TEST_CASE("explain: default target and wave size") {
  Run r = run({"explain", "shf.l.wrap.b32 %0, %1, %1, 7;"});
  INFO(toString(r));
  REQUIRE(r.exited(0));
  CHECK(contains(r.out, "; target gfx942 (wave64)"));
  Run r32 = run({"explain", "-mcpu=gfx1100", "shf.l.wrap.b32 %0, %1, %1, 7;"});
  CHECK(contains(r32.out, "; target gfx1100 (wave32)"));
}

TEST_CASE("explain --format=json: structure, and the gcn lines re-assemble") {
  const std::string snippet = ".reg .b32 %r<6>;\n"
                              "shf.l.wrap.b32 %r1, %r2, %r2, 7;\n"
                              "lop3.b32 %r3, %r1, %r2, %r4, 0xCA;\n"
                              "shr.s32 %r5, %r3, %r1;\n";
  for (const char *t : kTargets) {
    INFO("target " << std::string(t));
    Run r = run({"explain", "--format=json", std::string("-mcpu=") + t, snippet});
    INFO(toString(r));
    REQUIRE(r.exited(0));
    llvm::json::Value v = parseJson(r.out);
    const llvm::json::Object *root = v.getAsObject();
    REQUIRE(root);
    REQUIRE(root->getString("target"));
    CHECK(root->getString("target")->str() == t);
    REQUIRE(root->getObject("registers"));
    CHECK(root->getObject("registers")->size() == 5);
    const llvm::json::Array *insts = root->getArray("instructions");
    REQUIRE(insts);
    REQUIRE(insts->size() == 3);
    std::string asmText;
    const int64_t wantLines[] = {2, 3, 4};
    const char *wantRulePrefix[] = {"shf.l.wrap.b32/", "lop3.b32/", "shr.s32/"};
    for (size_t i = 0; i < insts->size(); ++i) {
      const llvm::json::Object *inst = (*insts)[i].getAsObject();
      REQUIRE(inst);
      REQUIRE(inst->getString("ptx"));
      REQUIRE(inst->getInteger("line"));
      REQUIRE(inst->getString("rule"));
      CHECK(*inst->getInteger("line") == wantLines[i]);
      CHECK(inst->getString("rule")->starts_with(wantRulePrefix[i]));
      const llvm::json::Array *gcn = inst->getArray("gcn");
      REQUIRE(gcn);
      CHECK(!gcn->empty());
      for (const llvm::json::Value &g : *gcn) {
        REQUIRE(g.getAsString());
        asmText += g.getAsString()->str() + "\n";
      }
    }
    CHECK((*insts)[0].getAsObject()->getString("ptx")->str() == "shf.l.wrap.b32 %r1, %r2, %r2, 7");

    std::string error;
    std::unique_ptr<p2a::mc::Assembler> as = p2a::mc::Assembler::create(t, error);
    REQUIRE_MESSAGE(as, error);
    p2a::mc::AssembleResult ar = as->assemble(asmText, p2a::mc::OutputKind::Asm);
    std::string mcErrors;
    for (const p2a::mc::McDiagnostic &d : ar.diagnostics)
      mcErrors += d.message + " in '" + d.source_line + "'\n";
    INFO("asm:\n" << asmText << "MC: " << mcErrors);
    CHECK(ar.ok);
  }
}

TEST_CASE("explain --show-encoding and -filetype=obj") {
  Run enc = run({"explain", "--show-encoding", "-mcpu=gfx1100", "shf.l.wrap.b32 %0, %1, %1, 7;"});
  INFO(toString(enc));
  REQUIRE(enc.exited(0));
  CHECK(contains(enc.out, "v_alignbit_b32"));
  CHECK(contains(enc.out, "encoding: ["));

  for (const char *t : kTargets) {
    INFO("target " << std::string(t));
    const std::string obj = tempPath(std::string("shf-") + t + ".o");
    Run r = run({"explain", "-filetype=obj", std::string("-mcpu=") + t, "-o", obj, "shf.l.wrap.b32 %0, %1, %1, 7;"});
    INFO(toString(r));
    REQUIRE(r.exited(0));
    CHECK(r.out.empty());
    const std::string bytes = slurp(obj);
    CHECK(isElfForAmdgpu(bytes));
  }

  // -o with text output writes the same text as stdout.
  const std::string txt = tempPath("shf.s");
  Run toFile = run({"explain", "-o", txt, "shf.l.wrap.b32 %0, %1, %1, 7;"});
  Run toStdout = run({"explain", "shf.l.wrap.b32 %0, %1, %1, 7;"});
  REQUIRE(toFile.exited(0));
  CHECK(toFile.out.empty());
  CHECK(slurp(txt) == toStdout.out);
}

TEST_CASE("a failed translation writes no output file") {
  const std::string bad = "and.b32 %r1, %r2, %r3;\natom.global.add.u32 %r4, [%rd1], 1;";
  SUBCASE("explain, object output, new path") {
    const std::string obj = tempPath("fail.o");
    Run r = run({"explain", "-filetype=obj", "-o", obj, bad});
    INFO(toString(r));
    CHECK(r.exited(1));
    CHECK(contains(r.err, "unsupported PTX instruction 'atom.global.add.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist"));
    CHECK_FALSE(fs::exists(obj));
  }
  SUBCASE("explain, text output, new path") {
    const std::string s = tempPath("fail.s");
    Run r = run({"explain", "-o", s, bad});
    CHECK(r.exited(1));
    CHECK_FALSE(fs::exists(s));
  }
  SUBCASE("explain, pre-existing output is left untouched") {
    const std::string obj = tempFile("existing.o", "previous contents\n");
    Run r = run({"explain", "-filetype=obj", "-o", obj, bad});
    CHECK(r.exited(1));
    REQUIRE(fs::exists(obj));
    CHECK(slurp(obj) == "previous contents\n");
  }
  SUBCASE("file translation, object output") {
    const std::string in = tempFile("bad.ptx", ".version 9.0\n.target sm_90\n.address_size 64\n"
                                               ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n"
                                               "  and.b32 %r1, %r2, %r3;\n  suld.b.1d.b32.trap {%r1}, [surf, {%r2}];\n}\n");
    const std::string obj = tempPath("bad.o");
    Run r = run({in, "-filetype=obj", "-o", obj});
    INFO(toString(r));
    CHECK(r.exited(1));
    CHECK(contains(r.err, in + ":8:3: error: unsupported PTX instruction 'suld.b.1d.b32.trap'\n"
                                  "  suld.b.1d.b32.trap {%r1}, [surf, {%r2}];\n  ^\n"));
    CHECK_FALSE(fs::exists(obj));
  }
  SUBCASE("an output path that cannot be opened is an error") {
    const std::string obj = tempDir() + "/no/such/dir/out.o";
    Run r = run({"explain", "-filetype=obj", "-o", obj, "and.b32 %0, %1, %2;"});
    INFO(toString(r));
    CHECK(r.exited(1));
    CHECK(r.err == "ptx2amdgpu: error: cannot write '" + obj + "': No such file or directory\n");
    CHECK_FALSE(fs::exists(obj));
  }
}

TEST_CASE("explain: input from stdin and from a file") {
  Run in = run({"explain", "-"}, ".reg .b32 %r<3>;\nxor.b32 %r1, %r2, %r0;\n");
  INFO(toString(in));
  REQUIRE(in.exited(0));
  CHECK(contains(in.out, "; line 2: xor.b32 %r1, %r2, %r0"));
  CHECK(contains(in.out, "v_xor_b32"));

  Run bad = run({"explain", "-"}, "xor.b32 %r1, %r2 %r0;\n");
  CHECK(bad.exited(1));
  CHECK(bad.err == diagnostic("<stdin>", 1, 17, "expected ';'", "xor.b32 %r1, %r2 %r0;"));

  const std::string file = tempFile("decl.ptx", "// a comment\n.reg .b64 %rd<4>;\n.reg .b32 %r<2>;\n"
                                                "shl.b64 %rd1, %rd2, %r1;\n{ .reg .b64 t; or.b64 t, %rd1, %rd3; }\n");
  Run f = run({"explain", "-mcpu=gfx90a", file});
  INFO(toString(f));
  REQUIRE(f.exited(0));
  CHECK(contains(f.out, "; target gfx90a"));
  CHECK(contains(f.out, "; line 4: shl.b64 %rd1, %rd2, %r1"));
  CHECK(contains(f.out, "; line 5: or.b64 t, %rd1, %rd3"));
  CHECK(contains(f.out, "v_lshlrev_b64"));

  // Errors in a file name the file.
  const std::string badFile = tempFile("bad.ptx", ".reg .b64 %rd<4>;\nand.b32 %rd1, %rd2, 1;\n");
  Run bf = run({"explain", badFile});
  CHECK(bf.exited(1));
  CHECK(bf.err == diagnostic(badFile, 2, 9, "register %rd1 is .b64 but 'and.b32' needs 32-bit here",
                             "and.b32 %rd1, %rd2, 1;") +
                      diagnostic(badFile, 2, 15, "register %rd2 is .b64 but 'and.b32' needs 32-bit here",
                                 "and.b32 %rd1, %rd2, 1;"));
}

TEST_CASE("explain: every samples/snippets file on every target") {
  const std::vector<std::string> files = samplePtxFiles("samples/snippets");
  CHECK(files.size() >= 5);
  for (const std::string &f : files)
    for (const char *t : kTargets) {
      INFO(f << " on " << std::string(t));
      Run r = run({"explain", std::string("-mcpu=") + t, f});
      INFO(toString(r));
      CHECK(r.exited(0));
      CHECK(r.err.empty());
      CHECK(contains(r.out, std::string("; target ") + t));
      CHECK(contains(r.out, ";   rule "));
    }
}

TEST_CASE("explain: clang-style errors with exact caret positions") {
  struct Case {
    std::string snippet;
    unsigned line, col;
    std::string message, sourceLine;
  };
  const Case cases[] = {
      // syntax errors
      {"and.b32 %0 %1, 3;", 1, 11, "expected ';'", "and.b32 %0 %1, 3;"},
      {"and.b32 %0, %1, 3", 1, 18, "expected ';'", "and.b32 %0, %1, 3"},
      // decoder errors: at the opcode, or at the operand at fault
      {"atom.add.u32 %0, [%1], 3;", 1, 1, "unsupported PTX instruction 'atom.add.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist", "atom.add.u32 %0, [%1], 3;"},
      {"and.u32 %0, %1, 3;", 1, 1, "invalid form 'and.u32': type must be one of .pred, .b16, .b32, .b64",
       "and.u32 %0, %1, 3;"},
      {"shf.l.b32 %0, %1, %2, 3;", 1, 1, "invalid form 'shf.l.b32': shf needs a mode, .wrap or .clamp",
       "shf.l.b32 %0, %1, %2, 3;"},
      {"  shf.r.clamp.b64 %0, %1, %2, 3;", 1, 3, "invalid form 'shf.r.clamp.b64': shf is .b32 only",
       "  shf.r.clamp.b64 %0, %1, %2, 3;"},
      {"and.b32 %0, %1;", 1, 1, "'and.b32' expects 3 operands, got 2", "and.b32 %0, %1;"},
      {"lop3.b32 %0, %1, %2, %3, 256;", 1, 26, "immLut must be in 0..255, got 256", "lop3.b32 %0, %1, %2, %3, 256;"},
      {"xor.b32 %0, %1, 1.5;", 1, 17, "floating-point immediate '1.5' is not valid for 'xor.b32'",
       "xor.b32 %0, %1, 1.5;"},
      {"\n  and.pred %p1, %p2, 0;", 2, 22, "predicate operand must be a register", "  and.pred %p1, %p2, 0;"},
      {"@%p1 and.b32 %0, %1, 2;", 1, 1, "guard predicates are not supported on 'and.b32' in this translation mode",
       "@%p1 and.b32 %0, %1, 2;"},
      {"and.b32 %0, %1, 2;\nand.b64 %0, %1, 2;", 2, 9, "register %0 is .b32 but 'and.b64' needs 64-bit here",
       "and.b64 %0, %1, 2;"},
  };
  for (const Case &c : cases) {
    INFO("snippet: " << c.snippet);
    Run r = run({"explain", c.snippet});
    INFO(toString(r));
    CHECK(r.exited(1));
    CHECK(r.out.empty());
    const std::string first = diagnostic("<snippet>", c.line, c.col, c.message, c.sourceLine);
    CHECK(r.err.substr(0, first.size()) == first);
  }

  // A tab counts as one column in the location; the printed line expands it
  // to the next tab stop and the caret follows.
  Run tab = run({"explain", "\n\tand.pred %p1, %p2, 0;"});
  CHECK(tab.exited(1));
  CHECK(tab.err == "<snippet>:2:21: error: predicate operand must be a register\n"
                   "        and.pred %p1, %p2, 0;\n" +
                       std::string(8 + 19, ' ') + "^\n");

  // The last case reports both operands; exactly these two errors.
  Run two = run({"explain", "and.b32 %0, %1, 2;\nand.b64 %0, %1, 2;"});
  CHECK(two.err == diagnostic("<snippet>", 2, 9, "register %0 is .b32 but 'and.b64' needs 64-bit here",
                              "and.b64 %0, %1, 2;") +
                       diagnostic("<snippet>", 2, 13, "register %1 is .b32 but 'and.b64' needs 64-bit here",
                                  "and.b64 %0, %1, 2;"));

  // Several statements with errors: all reported, in source order.
  Run many = run({"explain", "atom.add.u32 %0, [%1], 1;\nand.b32 %0, %1, %2;\nshl.u32 %0, %1, 2;"});
  CHECK(many.exited(1));
  CHECK(many.err == diagnostic("<snippet>", 1, 1, "unsupported PTX instruction 'atom.add.u32' outside a kernel: it is translated inside an .entry, where memory, lanes and control flow exist", "atom.add.u32 %0, [%1], 1;") +
                        diagnostic("<snippet>", 3, 1, "invalid form 'shl.u32': shl takes .b16, .b32 or .b64",
                                   "shl.u32 %0, %1, 2;"));
}

TEST_CASE("explain: syntax and decoder errors in one snippet are reported together") {
  Run r = run({"explain", "and.u32 %0, %1, 3;\nxor.b32 %0 %1, 3;\nshl.b32 %0, %1;"});
  INFO(toString(r));
  CHECK(r.exited(1));
  CHECK(r.out.empty());
  CHECK(r.err == diagnostic("<snippet>", 1, 1, "invalid form 'and.u32': type must be one of .pred, .b16, .b32, .b64",
                            "and.u32 %0, %1, 3;") +
                     diagnostic("<snippet>", 2, 11, "expected ';'", "xor.b32 %0 %1, 3;") +
                     diagnostic("<snippet>", 3, 1, "'shl.b32' expects 3 operands, got 2", "shl.b32 %0, %1;"));
}

TEST_CASE("explain: unknown -mcpu") {
  Run r = run({"explain", "-mcpu=gfx999", "and.b32 %0, %1, 3;"});
  INFO(toString(r));
  CHECK(r.exited(2));
  CHECK(r.out.empty());
  CHECK(r.err == "ptx2amdgpu: error: unknown -mcpu 'gfx999'; supported: gfx900 gfx90a gfx942 gfx1030 gfx1100 gfx1200\n");
}

TEST_CASE("-fsyntax-only: every committed sample parses") {
  const std::vector<std::string> files = samplePtxFiles("samples");
  CHECK(files.size() >= 9);
  for (const std::string &f : files) {
    INFO(f);
    Run r = run({"-fsyntax-only", f});
    INFO(toString(r));
    CHECK(r.exited(0));
    CHECK(r.err.empty());
    CHECK(r.out.empty());
  }
  // Several files in one run.
  Run all = run([&] {
    std::vector<std::string> a{"-fsyntax-only"};
    a.insert(a.end(), files.begin(), files.end());
    return a;
  }());
  CHECK(all.exited(0));
}

TEST_CASE("-fsyntax-only: a broken file reports every error") {
  const std::string f = tempFile("broken.ptx", "and.b32 %r1, %r2 %r3;\n"
                                               "xor.b32 %r1, %r2, %r3;\n"
                                               "shl.b32 %r1 %r2, 3;\n");
  Run r = run({"-fsyntax-only", f});
  INFO(toString(r));
  CHECK(r.exited(1));
  CHECK(r.out.empty());
  CHECK(r.err == diagnostic(f, 1, 17, "expected ';'", "and.b32 %r1, %r2 %r3;") +
                     diagnostic(f, 3, 12, "expected ';'", "shl.b32 %r1 %r2, 3;"));

  // A module (it has .version) with two broken statements in a kernel body.
  const std::string m = tempFile("broken_module.ptx", ".version 9.0\n.target sm_90\n.address_size 64\n"
                                                      ".visible .entry k()\n{\n"
                                                      "  .reg .b32 %r<4>;\n"
                                                      "  and.b32 %r1, %r2,;\n"
                                                      "  ret;\n"
                                                      "  shl.b32 %r1, %r2, 3\n"
                                                      "}\n");
  Run rm = run({"-fsyntax-only", m});
  INFO(toString(rm));
  CHECK(rm.exited(1));
  CHECK(rm.err.substr(0, rm.err.find('\n')) == m + ":7:20: error: expected operand");
  CHECK(contains(rm.err, "\n  and.b32 %r1, %r2,;\n                   ^\n"));
  CHECK(contains(rm.err, m + ":9:22: error: expected ';'\n  shl.b32 %r1, %r2, 3\n" + std::string(21, ' ') + "^\n"));

  // Only the broken file fails; the good one is still checked.
  const std::string good = tempFile("good.ptx", "and.b32 %r1, %r2, %r3;\n");
  Run mixed = run({"-fsyntax-only", good, f});
  CHECK(mixed.exited(1));
  CHECK(mixed.err == r.err);
}

TEST_CASE("-fsyntax-only: -x selects module or snippet") {
  const std::string snippet = tempFile("snip.ptx", "and.b32 %r1, %r2, %r3;\n");
  CHECK(run({"-fsyntax-only", "-x", "snippet", snippet}).exited(0));
  CHECK(run({"-fsyntax-only", "-x", "auto", snippet}).exited(0));
  Run asModule = run({"-fsyntax-only", "-x", "module", snippet});
  CHECK(asModule.exited(1));
  CHECK(contains(asModule.err, snippet + ":1:1: error: "));
}

TEST_CASE("hostile inputs: no crash, a clear error") {
  const std::string empty = tempFile("empty.ptx", "");
  std::string junkBytes;
  for (unsigned i = 0; i < 4096; ++i)
    junkBytes.push_back(static_cast<char>((i * 2654435761u >> 13) & 0xff));
  junkBytes[100] = '\0';
  const std::string junk = tempFile("junk.ptx", junkBytes);
  const std::string dir = tempPath("a-directory.ptx");
  REQUIRE(fs::create_directory(dir));
  const std::string missing = tempDir() + "/does-not-exist.ptx";

  SUBCASE("-fsyntax-only") {
    Run e = run({"-fsyntax-only", empty});
    INFO(toString(e));
    CHECK(e.exited(1)); // an empty file is a module without .version (ptxas rejects it too)
    CHECK(e.err.rfind(empty + ":1:1: error: missing '.version' directive", 0) == 0);

    Run j = run({"-fsyntax-only", junk});
    INFO(toString(j));
    CHECK(j.exited(1));
    CHECK(j.err.rfind(junk + ":1:1: error: ", 0) == 0);

    Run d = run({"-fsyntax-only", dir});
    INFO(toString(d));
    CHECK(d.exited(1));
    CHECK(d.err == "ptx2amdgpu: error: cannot read '" + dir + "': Is a directory\n");

    Run m = run({"-fsyntax-only", missing});
    INFO(toString(m));
    CHECK(m.exited(1));
    CHECK(m.err == "ptx2amdgpu: error: cannot read '" + missing + "': No such file or directory\n");

    Run none = run({"-fsyntax-only"});
    CHECK(none.exited(2));
    CHECK(none.err == "ptx2amdgpu: error: no input files\n");
  }
  SUBCASE("explain") {
    Run e = run({"explain", empty});
    INFO(toString(e));
    CHECK(e.exited(1));
    CHECK(e.err == "ptx2amdgpu: error: the snippet has no instructions\n");

    Run ws = run({"explain", " \n\t// only a comment\n"});
    CHECK(ws.exited(1));
    CHECK(ws.err == "ptx2amdgpu: error: the snippet has no instructions\n");

    Run j = run({"explain", junk});
    INFO(toString(j));
    CHECK(j.exited(1));
    CHECK(j.err.rfind(junk + ":1:1: error: ", 0) == 0);

    Run d = run({"explain", dir});
    INFO(toString(d));
    CHECK(d.exited(1));
    CHECK(d.err == "ptx2amdgpu: error: cannot read '" + dir + "': Is a directory\n");

    Run m = run({"explain", missing});
    INFO(toString(m));
    CHECK(m.exited(1));
    CHECK(m.err == "ptx2amdgpu: error: cannot read '" + missing + "': No such file or directory\n");

    Run s = run({"explain", "-"}, junkBytes);
    INFO(toString(s));
    CHECK(s.exited(1));
    CHECK(s.err.rfind("<stdin>:1:1: error: ", 0) == 0);

    Run emptyArg = run({"explain", ""});
    CHECK(emptyArg.exited(1));
    CHECK(emptyArg.signal == 0);
  }
  SUBCASE("file translation") {
    Run d = run({dir});
    CHECK(d.exited(2));
    CHECK(d.err == "ptx2amdgpu: error: a directory or several inputs need -o DIRECTORY for the outputs\n");
    for (const std::string &p : {empty, junk, missing}) {
      INFO(p);
      Run r = run({p});
      INFO(toString(r));
      CHECK(r.signal == 0);
      CHECK((r.exitCode == 0 || r.exitCode == 1));
    }
    Run none = run({});
    CHECK(none.exited(2));
    CHECK(none.err == "ptx2amdgpu: error: no input files (see --help)\n");
    Run closing = run({"explain", "}"});
    CHECK(closing.exited(1));
    CHECK(closing.err == "<snippet>:1:1: error: unexpected '}'\n}\n^\n");
  }
}

TEST_CASE("rules --format=md") {
  Run r = run({"rules", "--format=md", "-j", "2", "shf.l.wrap"});
  INFO(toString(r));
  REQUIRE(r.exited(0));
  std::vector<std::string> ls = lines(r.out);
  size_t header = ls.size();
  for (size_t i = 0; i < ls.size(); ++i)
    if (ls[i].rfind("| **PTX form** |", 0) == 0) {
      header = i;
      break;
    }
  REQUIRE(header + 2 < ls.size());
  for (const char *t : kTargets)
    CHECK(contains(ls[header], std::string("**") + t + "**"));
  CHECK(ls[header + 1].rfind("|:--|", 0) == 0);
  unsigned rows = 0;
  for (size_t i = header + 2; i < ls.size() && ls[i].rfind("| ", 0) == 0; ++i) {
    ++rows;
    CHECK(ls[i].rfind("| `shf.l.wrap.b32` |", 0) == 0);
    CHECK(contains(ls[i], "\xE2\x9C\x93")); // ✓ proved
    CHECK_FALSE(contains(ls[i], "\xE2\x9C\x97")); // ✗ failed
  }
  CHECK(rows >= 2);
}

TEST_CASE("rules --format=json: lop3.b32/0x96 is proved on every target") {
  Run r = run({"rules", "--format=json", "-j", "2", "lop3.b32/0x96"});
  INFO(toString(r));
  REQUIRE(r.exited(0));
  llvm::json::Value v = parseJson(r.out);
  const llvm::json::Object *root = v.getAsObject();
  REQUIRE(root);
  const llvm::json::Array *rules = root->getArray("rules");
  REQUIRE(rules);
  REQUIRE(!rules->empty());
  std::set<std::string> covered;
  for (const llvm::json::Value &rv : *rules) {
    const llvm::json::Object *rule = rv.getAsObject();
    REQUIRE(rule);
    REQUIRE(rule->getString("name"));
    CHECK(rule->getString("name")->starts_with("lop3.b32/0x96"));
    const llvm::json::Object *per = rule->getObject("per_target");
    REQUIRE(per);
    CHECK(!per->empty());
    for (const auto &kv : *per) {
      INFO(rule->getString("name")->str() << " on " << kv.first.str());
      const llvm::json::Object *cell = kv.second.getAsObject();
      REQUIRE(cell);
      REQUIRE(cell->getString("proof"));
      CHECK(cell->getString("proof")->str() == "proved");
      covered.insert(kv.first.str());
    }
  }
  for (const char *t : kTargets)
    CHECK(covered.count(t));
}

TEST_CASE("rules --verify shf, and an unknown filter") {
  Run r = run({"rules", "--verify", "-j", "2", "shf"});
  INFO(toString(r));
  CHECK(r.exited(0));
  CHECK(contains(r.err, " 0 failed"));
  CHECK(contains(r.err, "verify: "));

  Run none = run({"rules", "-j", "1", "nosuchrule"});
  INFO(toString(none));
  CHECK(none.exited(1));
  CHECK(none.err == "ptx2amdgpu: error: no rule matches 'nosuchrule'\n");

  Run cpu = run({"rules", "-mcpu=gfx999", "shf"});
  CHECK(cpu.exited(2));
}

TEST_CASE("rules --write-proved-queries, then --proved-queries: the listed queries are found, not solved; a bad "
          "list is a located error") {
  const std::string list = p2a::testing::tempDir() + "/proved_shf_imm.txt";
  Run write = run({"rules", "--verify", "-j", "1", "--write-proved-queries=" + list, "shf.l.wrap.b32/imm"});
  INFO(toString(write));
  REQUIRE(write.exited(0));
  Run read = run({"rules", "--verify", "-j", "1", "--proved-queries=" + list, "shf.l.wrap.b32/imm"});
  INFO(toString(read));
  CHECK(read.exited(0));
  CHECK(contains(read.err, " 0 failed"));
  CHECK(contains(read.err, " 0 solved"));

  const std::string bad = p2a::testing::tempDir() + "/proved_bad.txt";
  { std::ofstream(bad) << "# a comment\nnot-a-digest\n"; }
  Run broken = run({"rules", "--proved-queries=" + bad, "shf"});
  INFO(toString(broken));
  CHECK(broken.exited(1));
  CHECK(broken.err == "ptx2amdgpu: error: " + bad + ":2: expected a 32-digit hex digest, got 'not-a-digest'\n");
}

TEST_CASE("compare --format=json: never more instructions than llc (issue acceptance)") {
  Run r = run({"compare", std::string("--llc=") + P2A_SOURCE_DIR + "/bench/llc_compare/llc_counts.json",
               "--format=json", "-j", "2"});
  INFO(toString(r));
  REQUIRE(r.exited(0));
  llvm::json::Value v = parseJson(r.out);
  const llvm::json::Object *root = v.getAsObject();
  REQUIRE(root);
  const llvm::json::Array *rows = root->getArray("rows");
  REQUIRE(rows);
  std::set<std::string> forms;
  unsigned compared = 0;
  for (const llvm::json::Value &rv : *rows) {
    const llvm::json::Object *row = rv.getAsObject();
    REQUIRE(row);
    REQUIRE(row->getString("form"));
    const std::string form = row->getString("form")->str();
    forms.insert(form);
    if (form.rfind("lop3.b32/", 0) == 0)
      continue; // per-LUT rows are summarised, not held to the criterion
    const llvm::json::Object *targets = row->getObject("targets");
    REQUIRE(targets);
    for (const char *t : kTargets) {
      INFO(form << " on " << std::string(t));
      const llvm::json::Object *cell = targets->getObject(t);
      REQUIRE(cell);
      REQUIRE(cell->getInteger("ours"));
      REQUIRE(cell->getInteger("llvm"));
      const int64_t ours = *cell->getInteger("ours"), llvm = *cell->getInteger("llvm");
      INFO("ours " << ours << " llvm " << llvm << " rule " << (cell->getString("rule") ? cell->getString("rule")->str() : ""));
      // ours == -1 is a translation error: never allowed for a Logic & Shift
      // form. Other forms in the table (the bit-manipulation neighbours) are
      // outside the issue and are held to the criterion once they translate.
      if (kFamilyForms.count(form))
        CHECK(ours >= 1);
      else if (ours < 0)
        continue;
      const bool strictlyFewer = form == "shf.l.wrap.b32" || form == "shf.l.clamp.b32";
      if (strictlyFewer)
        CHECK(llvm >= 1); // these two must be compared, not n/a
      if (llvm < 0)
        continue; // n/a: no llc count
      ++compared;
      CHECK(ours <= llvm);
      if (strictlyFewer)
        CHECK(ours < llvm);
    }
  }
  // Every Logic & Shift form and every lop3 LUT has a row.
  for (const std::string &f : kFamilyForms)
    CHECK_MESSAGE(forms.count(f), f);
  for (unsigned lut = 0; lut < 256; ++lut) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "lop3.b32/0x%02x", lut);
    CHECK_MESSAGE(forms.count(buf), buf);
  }
  CHECK(compared >= 30 * 6);
}

TEST_CASE("compare: missing or bad --llc") {
  Run none = run({"compare"});
  CHECK(none.exited(2));
  CHECK(none.err == "ptx2amdgpu: error: compare needs --llc=FILE (bench/llc_compare/llc_counts.json)\n");
  const std::string bad = tempFile("bad.json", "{ not json");
  Run b = run({"compare", "--llc=" + bad});
  CHECK(b.exited(1));
  CHECK(b.err.rfind("ptx2amdgpu: error: " + bad + ": ", 0) == 0);
}

TEST_CASE("check: exit status and report") {
  const std::string fixture = std::string(P2A_SOURCE_DIR) + "/tests/fixtures/shift.ptx";
  // Agreement on every target: exit 0, one report per target.
  Run ok = run({"check", fixture, "--kernel", "shf_r_clamp", "-mcpu=all", "--grid", "2", "--block", "96",
                "--trials", "2", "--seed", "7"});
  INFO(toString(ok));
  CHECK(ok.exited(0));
  for (const p2a::targets::TargetInfo &t : p2a::targets::allTargets())
    CHECK(contains(ok.out, "check: kernel 'shf_r_clamp' on " + t.name));
  CHECK(contains(ok.out, "grid (2,1,1) block (96,1,1), 2 trial(s), seed 7"));
  CHECK(contains(ok.out, "buffers: in 6144 bytes (inferred), out 1536 bytes (inferred)"));
  CHECK(contains(ok.out, "result: every output buffer agrees in all 2 trial(s)"));
  // A race in the PTX kernel (every thread stores its index to out[0] on
  // the step its search ends) is exit 3, not a mismatch.
  const std::string racy = tempFile(
      "racy.ptx", ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry found(.param .u64 out)\n{\n"
                  ".reg .pred %p<3>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<3>;\nld.param.u64 %rd1, [out];\n"
                  "mov.u32 %r1, %tid.x;\nsub.u32 %r2, 63, %r1;\nLOOP:\nsetp.eq.u32 %p1, %r2, 0;\n"
                  "@%p1 st.global.u32 [%rd1], %r1;\n@%p1 bra DONE;\nsub.u32 %r2, %r2, 1;\nbra LOOP;\nDONE:\nret;\n}\n");
  Run race = run({"check", racy, "--trials", "1"});
  INFO(toString(race));
  CHECK(race.exited(3));
  CHECK(contains(race.out, "  RACE: trial 0: buffer 'out' differs first at byte offset 0"));
  // Given buffer sizes are used as they are.
  Run sized = run({"check", fixture, "--kernel", "shf_r_clamp", "--buffer", "in=8192", "--buffer", "out=2048"});
  CHECK(sized.exited(0));
  CHECK(contains(sized.out, "buffers: in 8192 bytes, out 2048 bytes"));
  // Usage and input errors: exit 2, located where there is a location.
  Run noKernel = run({"check", fixture, "--kernel", "nope"});
  CHECK(noKernel.exited(2));
  CHECK(contains(noKernel.err, fixture + ":1:1: error: no kernel 'nope' (kernels: "));
  Run badGrid = run({"check", fixture, "--grid", "0,1"});
  CHECK(badGrid.exited(2));
  CHECK(contains(badGrid.err, "--grid=0,1: expected X[,Y[,Z]] with X in 1..2147483647, Y in 1..65535 and Z in 1..65535"));
  Run badParam = run({"check", fixture, "--param", "x"});
  CHECK(badParam.exited(2));
  CHECK(contains(badParam.err, "--param=x: expected NAME=INTEGER"));
  // A signed parameter may be given a negative value; a buffer size may not.
  const std::string operands = std::string(P2A_SOURCE_DIR) + "/tests/kernels/ptxas_operands.ptx";
  Run negative = run({"check", operands, "--kernel", "wide_registers_from_params", "--param",
                      "wide_registers_from_params_param_2=-5", "-mcpu=gfx1100"});
  CHECK(negative.exited(0));
  // --fill and --input set a buffer's bytes: each thread divides by its word
  // of `in`, so zero words fault in the interpreter and ones do not.
  const std::string divides = std::string(P2A_SOURCE_DIR) + "/tests/fixtures/divide_by_input.ptx";
  Run zeros = run({"check", divides, "--fill", "in=zero"});
  CHECK(zeros.exited(2));
  CHECK(contains(zeros.err, "has undefined behaviour for these operands"));
  Run seq = run({"check", divides, "--fill", "in=seq32"}); // word 0 is 0
  CHECK(seq.exited(2));
  Run ones = run({"check", divides, "--fill", "in=ones", "-mcpu=gfx1100"});
  CHECK(ones.exited(0));
  CHECK(contains(ones.out, "buffers: in 256 bytes (inferred), filled ones, out 256 bytes (inferred)"));
  const std::string words = tempFile("words.bin", std::string("\x07\x00\x00\x00\x09\x00\x00\x00", 8));
  Run given = run({"check", divides, "--input", "in=" + words, "--fill", "in=zero", "--block", "2"});
  CHECK(given.exited(0));
  CHECK(contains(given.out, "in 256 bytes (inferred), from 8 given bytes, then zero"));
  // --dump: both sides' final bytes, per trial; out[t] = 1000000 / in[t].
  const std::string dumpDir = std::filesystem::path(words).parent_path().string() + "/dump";
  Run dumped = run({"check", divides, "--input", "in=" + words, "--fill", "in=ones", "--block", "2", "--trials", "1",
                    "--dump", dumpDir});
  CHECK(dumped.exited(0));
  for (const char *side : {"ptx", "amd"}) {
    const std::string out = slurp(dumpDir + "/out.trial0." + side);
    REQUIRE(out.size() == 256);
    uint32_t first[2];
    std::memcpy(first, out.data(), 8);
    CHECK(first[0] == 1000000 / 7);
    CHECK(first[1] == 1000000 / 9);
    CHECK(slurp(dumpDir + "/in.trial0." + side).substr(0, 8) == std::string("\x07\x00\x00\x00\x09\x00\x00\x00", 8));
  }
  Run badDump = run({"check", divides, "--fill", "in=ones", "--dump", "/proc/no/such/dir"});
  CHECK(badDump.exited(2));
  CHECK(contains(badDump.err, "--dump: cannot create '/proc/no/such/dir'"));
  Run thirdZero = run({"check", divides, "--input", "in=" + words, "--fill", "in=zero", "--block", "3"});
  CHECK(thirdZero.exited(2));
  Run missing = run({"check", divides, "--input", "in=/nonexistent/words.bin"});
  CHECK(missing.exited(2));
  CHECK(contains(missing.err, "--input=in=/nonexistent/words.bin: cannot read '/nonexistent/words.bin'"));
  Run badFill = run({"check", divides, "--fill", "in=twos"});
  CHECK(badFill.exited(2));
  CHECK(contains(badFill.err, "--fill=in=twos: expected NAME=zero|ones|seq32|random"));
  Run noSuch = run({"check", divides, "--fill", "x=zero"});
  CHECK(noSuch.exited(2));
  CHECK(contains(noSuch.err, "--fill x: kernel 'divby' has no pointer parameter of that name"));
  Run tooLong = run({"check", divides, "--buffer", "in=4", "--input", "in=" + words});
  CHECK(tooLong.exited(2));
  CHECK(contains(tooLong.err, "--input in: 8 bytes do not fit its buffer of 4 bytes"));
  Run negativeBuffer = run({"check", fixture, "--buffer", "out=-5"});
  CHECK(negativeBuffer.exited(2));
  CHECK(contains(negativeBuffer.err, "--buffer=out=-5: expected NAME=INTEGER"));
  Run small = run({"check", fixture, "--kernel", "shf_r_clamp", "--buffer", "out=16"});
  CHECK(small.exited(2));
  CHECK(contains(small.err, "error: the PTX kernel faults in the reference interpreter: global access of 4 "
                            "bytes at 0x"));
  CHECK(contains(small.err, "bytes past the end of 'out' (16 bytes)"));
  // A kernel that does not translate: exit 2 with the translator's own error.
  const std::string bad = tempFile("untranslatable.ptx", ".version 8.0\n.target sm_80\n.address_size 64\n"
                                                         ".visible .entry k(.param .u64 p)\n{\n"
                                                         "  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
                                                         "  ld.param.u64 %rd1, [p];\n"
                                                         "  suld.b.1d.b32.trap {%r1}, [surf, {%r2}];\n  ret;\n}\n");
  Run untranslatable = run({"check", bad});
  CHECK(untranslatable.exited(2));
  CHECK(contains(untranslatable.err, bad + ":9:3: error: unsupported PTX instruction 'suld.b.1d.b32.trap'"));
}

TEST_CASE("check: pointers stored in memory (--buffer PARENT+OFFSET), a by-value struct from --input") {
  // tests/kernels/pointer_params.ptx: cfg = {u64 salt; u32 len; u32 rounds}
  // by value, tables+8 the S-box's address.
  const std::string k = std::string(P2A_SOURCE_DIR) + "/tests/kernels/pointer_params.ptx";
  const std::string cfg = tempFile("cfg.bin", std::string("\0\0\0\0\0\0\0\0\x10\0\0\0\x04\0\0\0", 16));
  Run ok = run({"check", k, "--input", "cfg=" + cfg, "--buffer", "cfg+0=16", "--buffer", "tables+8=1024", "-mcpu=all",
                "--trials", "2"});
  CHECK(ok.exited(0));
  CHECK(contains(ok.out, "buffers: tables 256 bytes (inferred), out 256 bytes (inferred), cfg+0 16 bytes, tables+8 "
                         "1024 bytes"));
  // Without the S-box's buffer the kernel reads through random bytes: the
  // error names where the pointer came from and the option that fixes it.
  Run noTable = run({"check", k, "--input", "cfg=" + cfg, "--buffer", "cfg+0=16"});
  CHECK(noTable.exited(2));
  CHECK(contains(noTable.err, "pointer_params.ptx:48:2: error: the PTX kernel faults in the reference interpreter"));
  CHECK(contains(noTable.err, "bytes past the pointer stored at tables+8 (8 bytes of 'tables' that check gave no "
                              "buffer): give it one with --buffer tables+8=BYTES"));
  Run noSalt = run({"check", k, "--input", "cfg=" + cfg, "--buffer", "tables+8=1024"});
  CHECK(noSalt.exited(2));
  CHECK(contains(noSalt.err, "give it one with --buffer cfg+0=BYTES"));
  // A chain: the pointer inside the pointed-to buffer.
  Run chained = run({"check", k, "--input", "cfg=" + cfg, "--buffer", "cfg+0=16", "--buffer", "tables+8=1024",
                     "--buffer", "tables+8+16=64", "--trials", "1"});
  CHECK(chained.exited(0));
  Run misplaced = run({"check", k, "--buffer", "cfg+12=16"});
  CHECK(misplaced.exited(2));
  CHECK(contains(misplaced.err, "--buffer cfg+12: the pointer's 8 bytes at offset 12 do not fit parameter 'cfg' (16 bytes)"));
  Run noParent = run({"check", k, "--buffer", "nothing+0=16"});
  CHECK(noParent.exited(2));
  CHECK(contains(noParent.err, "--buffer nothing+0: kernel 'crack' has no buffer or by-value parameter 'nothing'"));
  Run badOffset = run({"check", k, "--buffer", "cfg+x=16"});
  CHECK(badOffset.exited(2));
  CHECK(contains(badOffset.err, "--buffer cfg+x: expected PARENT+OFFSET=BYTES"));
  Run tooBig = run({"check", k, "--input", "cfg=" + tempFile("big.bin", std::string(24, 'x'))});
  CHECK(tooBig.exited(2));
  CHECK(contains(tooBig.err, "--input cfg: 24 bytes do not fit the 16-byte parameter"));
}

} // TEST_SUITE

TEST_CASE("-fsyntax-only reports the form errors a translation reports, and a module without .version/.target") {
  const std::string header = ".version 8.5\n.target sm_90\n.address_size 64\n";
  const std::string body = ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\tshf.l.b32 %r1, %r2, %r3, 4;\n\tret;\n}\n";
  const std::string modeless = tempFile("modeless.ptx", header + body);
  Run s = run({"-fsyntax-only", modeless});
  Run t = run({modeless, "-o", tempPath("modeless.s")});
  INFO(toString(s) << toString(t));
  const std::string formError = modeless + ":7:2: error: invalid form 'shf.l.b32': shf needs a mode, .wrap or .clamp";
  CHECK(s.exited(1));
  CHECK(t.exited(1));
  CHECK(s.err.rfind(formError, 0) == 0);
  CHECK(contains(t.err, formError));

  // Unsupported but valid PTX is no syntax error.
  const std::string atomics =
      tempFile("atom.ptx", header + ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\t.reg .f32 %f<4>;\n\t.reg .pred %p<2>;\n"
                                    "\tld.param.u64 %rd1, [p];\n\tatom.global.add.u32 %r1, [%rd1], 1;\n"
                                    "\tmad.lo.cc.u32 %r1, %r1, %r1, %r1;\n"
                                    "\tadd.f32 %f1, %f2, %f3;\n\tsetp.lt.f32 %p1, %f1, %f2;\n"
                                    "\tcvt.rn.f32.s32 %f1, %r1;\n\tcvt.rzi.s32.f32 %r1, %f1;\n\tret;\n}\n");
  Run a = run({"-fsyntax-only", atomics});
  INFO(toString(a));
  CHECK(a.exited(0));

  const std::string headless = tempFile("headless.ptx", body);
  for (const std::vector<std::string> &args :
       {std::vector<std::string>{"-fsyntax-only", headless}, std::vector<std::string>{headless, "-o", tempPath("h.s")}}) {
    Run h = run(args);
    INFO(toString(h));
    CHECK(h.exited(1));
    CHECK(contains(h.err, headless + ":1:1: error: missing '.version' directive"));
    CHECK(contains(h.err, headless + ":1:1: error: missing '.target' directive"));
  }
}

TEST_CASE("an output that is an input is refused before any work, and the source stays intact") {
  const std::string src = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
  const std::string in = tempFile("victim.ptx", src);
  const std::string link = tempPath("link.s");
  fs::create_symlink(in, link);
  const std::vector<std::vector<std::string>> attempts = {
      {in, "-o", in},                                   // the same path
      {in, "-o", fs::path(in).parent_path().string() + "/./" + fs::path(in).filename().string()}, // another spelling
      {in, "-o", link},                                 // a symlink to it
      {in, "-o", tempPath("out.s"), "--report=" + in},  // the HTML report
      {"explain", "-filetype=obj", "-o", in, in},       // explain's object output
  };
  for (const std::vector<std::string> &args : attempts) {
    Run r = run(args);
    INFO(toString(r));
    CHECK(r.exited(2));
    CHECK(contains(r.err, "refusing to overwrite a source file"));
    CHECK(slurp(in) == src);
  }
}
