// The hostile-input corpus (tests/hostile/, README there): every case ends
// with its expected located message, a non-zero exit (or a skip for the empty
// file), no signal, no hang and no partial output.
#include "cli_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace p2a::testing;

namespace {

const std::string kCorpus = std::string(P2A_SOURCE_DIR) + "/tests/hostile/";
const std::string kHeader = ".version 8.5\n.target sm_90\n.address_size 64\n\n";
constexpr unsigned kDeadline = 60; // seconds; a run past it is killed and fails
// Peak resident memory of any hostile run. Sanitizers add shadow memory,
// redzones and a quarantine of freed blocks, so they get more room.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr uint64_t kPeakKiB = 3ull << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr uint64_t kPeakKiB = 3ull << 20;
#else
constexpr uint64_t kPeakKiB = 1ull << 20;
#endif
#else
constexpr uint64_t kPeakKiB = 1ull << 20;
#endif

// Translates `input` to a fresh output path; checks no signal and, when it
// fails, that no output exists.
Run translate(const std::string &input, std::vector<std::string> extra = {}, std::vector<std::string> env = {}) {
  const std::string out = tempPath("hostile.s");
  std::vector<std::string> args{input, "-o", out};
  args.insert(args.end(), extra.begin(), extra.end());
  Run r = run(args, "", env, kDeadline);
  INFO(toString(r));
  CHECK(r.signal == 0);
  CHECK(r.peakKiB < kPeakKiB);
  if (!r.exited(0))
    CHECK_FALSE(fs::exists(out));
  return r;
}

std::string firstLines(const std::string &s, unsigned n) {
  std::string out;
  size_t at = 0;
  for (unsigned i = 0; i < n && at < s.size(); ++i) {
    size_t nl = s.find('\n', at);
    if (nl == std::string::npos)
      nl = s.size() - 1;
    out += s.substr(at, nl - at + 1);
    at = nl + 1;
  }
  return out;
}

} // namespace

TEST_SUITE("hostile") {

TEST_CASE("hostile: binary junk") {
  const std::string f = kCorpus + "junk.ptx";
  Run r = translate(f);
  CHECK(r.exited(1));
  const std::string head = firstLines(r.err, 3);
  CHECK(head.rfind(f + ":1:1: error: expected directive or function\n", 0) == 0);
  // The junk line is shown with every control and non-ASCII byte as '?', and the caret under column 1.
  const std::string shown = lines(head)[1];
  for (char c : shown)
    CHECK((c >= 0x20 && c < 0x7f));
  CHECK(lines(head)[2] == "^");
}

TEST_CASE("hostile: truncated file") {
  const std::string f = kCorpus + "truncated.ptx";
  Run r = translate(f);
  CHECK(r.exited(1));
  CHECK(r.err.rfind(f + ":103:10: error: expected operand\nnot.pred \n         ^\n", 0) == 0);
}

TEST_CASE("hostile: a fuzzed kernel with a broken operand and branches to missing labels") {
  // Found by the fuzzer: the kernel is decoded partially (for the report),
  // and its branches to undefined labels must not index past the body.
  const std::string f = kCorpus + "mutated_unresolved_labels.ptx";
  for (const char *cpu : {"-mcpu=gfx900", "-mcpu=gfx1100"}) {
    Run r = run({f, cpu, "-o", tempPath("mutated.s"), "--report=" + tempPath("mutated.html")}, "", {}, kDeadline);
    CHECK(r.exited(1));
    CHECK(contains(r.err, f + ":45:2: error: branch to undefined label '$L__BB0_3'"));
    CHECK(contains(r.err, f + ":49:2: error: branch to undefined label '$L__BB0_2'"));
  }
}

TEST_CASE("hostile: non-UTF-8 bytes") {
  const std::string f = kCorpus + "non_utf8.ptx";
  Run r = translate(f);
  CHECK(r.exited(1));
  CHECK(r.err.rfind(f + ":10:12: error: expected ';'\n        and.b32 %r?1, %r2, %r3;\n", 0) == 0);
  CHECK(lines(r.err).size() == 3); // the Latin-1 comment is not an error
}

TEST_CASE("hostile: empty file") {
  const std::string f = kCorpus + "empty.ptx";
  Run r = translate(f);
  // An empty file is no PTX module: ptxas rejects it for its missing
  // .version and .target, and so do we, at 1:1.
  CHECK(r.exited(1));
  CHECK(r.err.rfind(f + ":1:1: error: missing '.version' directive", 0) == 0);
  CHECK(contains(r.err, f + ":1:1: error: missing '.target' directive"));
}

TEST_CASE("hostile: 10,000 nested braces") {
  const std::string f = kCorpus + "nested_braces.ptx";
  Run r = translate(f);
  CHECK(r.exited(1));
  const std::vector<std::string> ls = lines(r.err);
  REQUIRE(ls.size() >= 3);
  CHECK(ls[0] == f + ":6:257: error: block nesting too deep");
  CHECK(ls[1] == "..." + std::string(120, '{') + "...");
  CHECK(ls[2] == std::string(63, ' ') + "^"); // under brace 257 of the window
}

TEST_CASE("hostile: a 10 MB single line") {
  const std::string body(10u << 20, 'x');
  const std::string f = tempFile("longline.ptx", kHeader + ".visible .entry k() { .reg .b32 %r<4>; xor.b32 %r1, %r1, %r2; " +
                                                     body + " }\n");
  Run r = translate(f);
  CHECK(r.exited(1));
  CHECK(r.err.size() < 2000); // the line is cut to a window, not echoed
  CHECK(r.err.rfind(f + ":5:", 0) == 0);
  CHECK(contains(r.err, ": error: "));
}

TEST_CASE("hostile: a million registers") {
  std::string body = ".visible .entry k()\n{\n\t.reg .b32 %r<1000000>;\n";
  for (unsigned i = 0; i < 300; ++i)
    body += "\txor.b32 %r" + std::to_string(i * 3331 + 3) + ", %r" + std::to_string(i * 3331 + 1) + ", %r" +
            std::to_string(i * 3331 + 2) + ";\n";
  const std::string f = tempFile("million.ptx", kHeader + body + "}\n");
  // 600 registers read before any write are all live from the entry: more
  // than 256 VGPRs, so most of them live in scratch.
  Run r = translate(f, {"--stats=text"});
  CHECK(r.exited(0));
  CHECK(contains(r.err, "kernel k: 255 VGPRs, "));
  CHECK(contains(r.err, " VGPR values to scratch ("));
}

TEST_CASE("hostile: a directory passed as a file") {
  const std::string dir = tempPath("dir.ptx");
  fs::create_directories(dir);
  Run s = run({"-fsyntax-only", dir}, "", {}, kDeadline);
  CHECK(s.exited(1));
  CHECK(s.err == "ptx2amdgpu: error: cannot read '" + dir + "': Is a directory\n");
  Run e = run({"explain", dir}, "", {}, kDeadline);
  CHECK(e.exited(1));
  CHECK(e.err == "ptx2amdgpu: error: cannot read '" + dir + "': Is a directory\n");
  Run c = run({"compare", "--llc=" + dir}, "", {}, kDeadline);
  CHECK(c.exited(1));
  CHECK(c.err == "ptx2amdgpu: error: cannot read '" + dir + "': Is a directory\n");
}

TEST_CASE("hostile: an unwritable output directory") {
  const std::string in = tempFile("ok.ptx", kHeader + ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n\txor.b32 %r1, %r2, "
                                                      "%r3;\n}\n");
  const std::string dir = tempPath("readonly");
  fs::create_directories(dir);
  fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                           fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  // Root ignores permissions: then make the directory immutable, and where
  // that is not allowed either, let the fault-injection shim refuse it.
  auto writable = [&] { return access(dir.c_str(), W_OK) == 0; };
  bool immutable = false;
  if (writable() && geteuid() == 0)
    immutable = std::system(("chattr +i '" + dir + "' 2>/dev/null").c_str()) == 0;
  // Undone however the test ends, so that the temporary directory can go.
  struct Mutable {
    const std::string &dir;
    bool on;
    ~Mutable() {
      if (on)
        (void)std::system(("chattr -i '" + dir + "'").c_str());
      fs::permissions(dir, fs::perms::owner_all);
    }
  } restore{dir, immutable};
  std::vector<std::string> env;
  if (writable() && !immutable)
    env = {"LD_PRELOAD=" + std::string(P2A_FAULT_INJECTION), "P2A_FAULT_EACCES_DIR=" + dir,
           "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0"};
  const std::string out = dir + "/out.s";
  Run r = run({in, "-o", out}, "", env, kDeadline);
  INFO(toString(r));
  CHECK(r.exited(1));
  // EACCES from permissions or the shim, EPERM from an immutable directory.
  CHECK(r.err == in + ": error: cannot write '" + out + "': " +
                     (immutable ? "Operation not permitted" : "Permission denied") + "\n");
  Run b = run({in, in, "-o", dir, "--stats=none"}, "", env, kDeadline);
  CHECK(b.exited(2)); // the same input twice: one output name
  CHECK(fs::is_empty(dir));
}

TEST_CASE("hostile: a full filesystem (simulated)") {
  std::string body = ".visible .entry k()\n{\n\t.reg .b32 %r<4>;\n";
  for (unsigned i = 0; i < 200; ++i)
    body += "\txor.b32 %r1, %r2, %r3;\n";
  const std::string in = tempFile("big.ptx", kHeader + body + "}\n");
  const std::vector<std::string> full = {"LD_PRELOAD=" + std::string(P2A_FAULT_INJECTION), "P2A_FAULT_ENOSPC_AFTER=1000",
                                         "ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0"};
  for (const char *kind : {"-filetype=asm", "-filetype=obj"}) {
    INFO(kind);
    const std::string dir = tempPath("full");
    fs::create_directories(dir);
    const std::string out = dir + "/out.s";
    Run r = run({in, "-o", out, kind}, "", full, kDeadline);
    INFO(toString(r));
    CHECK(r.exited(1));
    CHECK(r.err == in + ": error: cannot write '" + out + "': No space left on device\n");
    CHECK(fs::is_empty(dir)); // neither the output nor its temporary file

    // An older output of the same name is kept as it was.
    spit(out, "older output\n");
    Run again = run({in, "-o", out, kind}, "", full, kDeadline);
    CHECK(again.exited(1));
    CHECK(slurp(out) == "older output\n");

    // The report, too, is written atomically.
    const std::string report = dir + "/report.html";
    Run rep = run({in, "-o", dir + "/x.s", "--report=" + report}, "", full, kDeadline);
    CHECK(rep.exited(1));
    CHECK(contains(rep.err, "error: cannot write '" + report + "': No space left on device\n"));
    CHECK_FALSE(fs::exists(report));
  }
  // A translation written to standard output that cannot take it.
  Run dev = run({in, "-o", "/dev/full"}, "", {}, kDeadline);
  CHECK(dev.exited(1));
  CHECK(dev.err == in + ": error: cannot write '/dev/full': No space left on device\n");
}

} // TEST_SUITE

TEST_CASE("hostile: SIGINT and SIGTERM end a parallel batch promptly, leaving finished outputs and no temporary files") {
  const std::string kernel = slurp(std::string(P2A_SOURCE_DIR) + "/samples/sha256/sha256.ptx");
  for (int sig : {SIGINT, SIGTERM}) {
    CAPTURE(sig);
    const std::string in = tempPath(sig == SIGINT ? "interrupted_in" : "terminated_in");
    const std::string out = tempPath(sig == SIGINT ? "interrupted_out" : "terminated_out");
    fs::create_directories(in);
    for (unsigned i = 0; i < 400; ++i)
      spit(in + "/k" + std::to_string(i) + ".ptx", kernel);
    const auto start = std::chrono::steady_clock::now();
    Run r = run({in, "-o", out, "-j", "2"}, "", {}, kDeadline, 800, sig);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(toString(r));
    CHECK(r.signal == sig); // (a shell reports 128 + the signal: 130, 143)
    CHECK(seconds < 10);
    unsigned finished = 0;
    if (fs::exists(out))
      for (const fs::directory_entry &e : fs::recursive_directory_iterator(out)) {
        const std::string name = e.path().filename().string();
        CHECK_MESSAGE(name.find(".tmp-") == std::string::npos, "temporary file left: " << name);
        if (e.path().extension() == ".s") {
          CHECK(contains(slurp(e.path().string()), "\t.end_amdgpu_metadata\n"));
          ++finished;
        }
      }
    CHECK(finished < 400); // it did stop early
  }
}

TEST_CASE("hostile: SIGINT during rules --verify ends the run; no rule is reported wrong") {
  Run r = run({"rules", "--verify", "-j", "2"}, "", {}, kDeadline, 1500, SIGINT);
  INFO(toString(r));
  CHECK(r.signal == SIGINT);
  CHECK_FALSE(contains(r.err, "is wrong"));
  CHECK_FALSE(contains(r.out, "is wrong"));
}

TEST_CASE("hostile: hardware and CUDA limits and duplicate definitions are located errors") {
  auto entry = [](const std::string &name, const std::string &params, const std::string &body) {
    return ".visible .entry " + name + "(" + params + ")\n{\n" + body + "\tret;\n}\n";
  };
  {
    // 1 MiB of shared memory: more than a workgroup's 64 KiB of LDS.
    const std::string f = tempFile("lds.ptx", kHeader + entry("big", ".param .u64 p",
                                                          "\t.reg .b32 %r<2>;\n\t.shared .align 4 .b8 buf[1048576];\n"
                                                          "\tmov.u32 %r1, buf;\n\tst.shared.u32 [%r1], 0;\n"));
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, f + ":5:17: error: kernel 'big' declares 1048576 bytes of shared memory; a workgroup on "
                              "gfx942 has 65536 bytes of LDS"));
  }
  {
    // A 4 GiB parameter used to wrap the kernarg offsets to 0.
    const std::string f = tempFile("param.ptx", kHeader + entry("bigparam", ".param .align 8 .b8 p[4294967296]", ""));
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, f + ":5:46: error: kernel parameters larger than 32764 bytes in all (CUDA's limit) are not "
                              "supported"));
  }
  {
    // ptxas: "Duplicate definition of function 'k'" / "... of label '$L1'".
    const std::string f = tempFile("dup.ptx", kHeader + entry("k", "", "") + entry("k", "", "") +
                                                  entry("m", "", "$L1:\n$L1:\n"));
    for (const std::vector<std::string> &extra : {std::vector<std::string>{}, std::vector<std::string>{"-fsyntax-only"}}) {
      Run r = extra.empty() ? translate(f) : run({"-fsyntax-only", f}, "", {}, kDeadline);
      INFO(toString(r));
      CHECK(r.exited(1));
      CHECK(contains(r.err, f + ":9:17: error: duplicate definition of function 'k'\n"));
      CHECK(contains(r.err, f + ":16:1: error: duplicate definition of label '$L1' in 'm'\n"));
    }
  }
  {
    // check needs a trial to compare anything; -j is capped, not a deadlock.
    const std::string f = tempFile("ok.ptx", kHeader + entry("k", ".param .u64 p", ""));
    Run none = run({"check", f, "--trials", "0"}, "", {}, kDeadline);
    CHECK(none.exited(2));
    CHECK(contains(none.err, "--trials: at least 1"));
    const std::string dir = tempPath("many_in");
    fs::create_directories(dir);
    fs::copy_file(f, dir + "/a.ptx");
    fs::copy_file(f, dir + "/b.ptx");
    Run many = run({dir, "-o", tempPath("many_out"), "-j", "2147483648"}, "", {}, kDeadline);
    INFO(toString(many));
    CHECK(many.exited(0));
  }
}

TEST_CASE("hostile: declarations and call trees that would exhaust memory are one located error") {
  {
    // 200 unused ranges of a million registers (6 KB of text).
    std::string s = kHeader + ".visible .entry k()\n{\n";
    for (unsigned i = 0; i < 200; ++i)
      s += "\t.reg .b32 %y" + std::to_string(i) + "_<1000000>;\n";
    const std::string f = tempFile("declared.ptx", s + "\tret;\n}\n");
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, f + ":8:12: error: register range %y1_<1000000> makes more than 1048576 registers "
                              "declared in this function"));
  }
  auto chain = [](unsigned levels, unsigned fanOut) {
    std::string s = kHeader;
    for (unsigned i = 0; i < levels; ++i) {
      s += ".func f" + std::to_string(i) + "()\n{\n";
      for (unsigned c = 0; i + 1 < levels && c < fanOut; ++c)
        s += "\tcall f" + std::to_string(i + 1) + ";\n";
      s += "\tret;\n}\n";
    }
    return s + ".visible .entry k()\n{\n\tcall f0;\n\tret;\n}\n";
  };
  {
    // Each function calls the next four times: 4^9 copies of the last one.
    const std::string f = tempFile("fanout.ptx", chain(10, 4));
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, "error: inlining 'f8' here (k -> f0 -> f1 -> f2 -> f3 -> f4 -> f5 -> f6 -> f7 -> f8) makes "
                          "kernel 'k' inline more than 10000 calls or 400000 statements"));
    CHECK(std::count(r.err.begin(), r.err.end(), '^') == 1); // one error, not one per remaining call site
  }
  {
    const std::string f = tempFile("deep.ptx", chain(22, 2));
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, "error: calls nested more than 16 deep (k -> f0 -> f1"));
    CHECK(std::count(r.err.begin(), r.err.end(), '^') == 1);
  }
  {
    // 100,000 levels (4 MB): what sizes the kernel before decoding it
    // (inlinedStatementEstimate) stops where inlining stops; walking the
    // whole chain overflowed the stack.
    const std::string f = tempFile("deeper.ptx", chain(100000, 1));
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, "error: calls nested more than 16 deep (k -> f0 -> f1"));
  }
}

TEST_CASE("hostile: control bytes in a file name reach neither the terminal nor the assembly") {
  const std::string dir = tempPath("names");
  fs::create_directories(dir);
  const std::string good = dir + "/evil\n\ts_endpgm\n\x1b[31m.ptx";
  spit(good, kHeader + ".visible .entry k()\n{\n\tret;\n}\n");
  const std::string out = tempPath("names.s");
  Run r = run({good, "-o", out}, "", {}, kDeadline);
  INFO(toString(r));
  REQUIRE(r.exited(0));
  const std::string s = slurp(out);
  CHECK(s.rfind("; ptx2amdgpu " + dir + "/evil??s_endpgm??[31m.ptx for gfx942\n", 0) == 0);
  CHECK(std::count(s.begin(), s.end(), '\x1b') == 0);
  const std::string bad = dir + "/bad\x1b[2J.ptx";
  spit(bad, kHeader + ".visible .entry k()\n{\n\tfoo.b32 %r1;\n}\n");
  Run e = run({bad, "-o", tempPath("bad.s")}, "", {}, kDeadline);
  CHECK(e.exited(1));
  CHECK(contains(e.err, dir + "/bad?[2J.ptx:7:2: error:"));
  CHECK(std::count(e.err.begin(), e.err.end(), '\x1b') == 0);
}

TEST_CASE("hostile: a UTF-8 byte-order mark is accepted, as ptxas does; an empty -o is a usage error") {
  const std::string f = tempFile("bom.ptx", "\xEF\xBB\xBF" + kHeader + ".visible .entry k()\n{\n\tfoo.b32 %r1;\n}\n");
  Run r = translate(f);
  CHECK(r.exited(1));
  CHECK(contains(r.err, f + ":7:2: error:")); // located past the mark, not at 1:1
  const std::string ok = tempFile("bom_ok.ptx", "\xEF\xBB\xBF" + kHeader + ".visible .entry k()\n{\n\tret;\n}\n");
  CHECK(translate(ok).exited(0));
  Run e = run({ok, "-o", ""}, "", {}, kDeadline);
  CHECK(e.exited(2));
  CHECK(contains(e.err, "-o: expected a file or directory name, got an empty one"));
}

TEST_CASE("hostile: a .ptx name in a batch tree that is no file is reported, not passed over") {
  const std::string dir = tempPath("odd_tree");
  fs::create_directories(dir + "/sub");
  spit(dir + "/a.ptx", kHeader + ".visible .entry k()\n{\n\tret;\n}\n");
  fs::create_symlink("/nonexistent/x.ptx", dir + "/sub/dangling.ptx");
  Run r = run({dir, "-o", tempPath("odd_out")}, "", {}, kDeadline);
  INFO(toString(r));
  CHECK(r.exited(0));
  CHECK(contains(r.err, "warning: skipping '" + dir + "/sub/dangling.ptx': No such file or directory"));
  CHECK(contains(r.err, "1 file: 1 translated"));
}

TEST_CASE("hostile: kernel and parameter names that YAML reads as booleans, nulls or numbers keep their names") {
  // `off`, `n`, `nan` once broke the code object metadata ("invalid HSA
  // metadata", no location); they are tagged !str.
  for (const std::string name : {"off", "n", "nan", "Yes", "null"}) {
    const std::string f = tempFile("yaml.ptx", kHeader + ".visible .entry " + name + "(.param .u64 " + name +
                                                   "_p, .param .u32 on)\n{\n\tret;\n}\n");
    Run r = translate(f);
    CHECK(r.exited(0));
    const std::string obj = tempPath("yaml.o");
    Run o = run({f, "-filetype=obj", "-o", obj}, "", {}, kDeadline);
    INFO(toString(o));
    CHECK(o.exited(0));
    CHECK(isElfForAmdgpu(slurp(obj)));
  }
  const std::string f = tempFile("yaml_s.ptx", kHeader + ".visible .entry off(.param .u32 y)\n{\n\tret;\n}\n");
  const std::string out = tempPath("yaml.s");
  REQUIRE(run({f, "-o", out}, "", {}, kDeadline).exited(0));
  const std::string s = slurp(out);
  CHECK(contains(s, "    .name: !str 'off'\n"));
  CHECK(contains(s, "    .symbol: off.kd\n"));
  CHECK(contains(s, ".name: !str 'y'\n"));
}

TEST_CASE("hostile: an integer constant wider than its operand is truncated as ptxas does, with a warning") {
  const std::string f = tempFile(
      "imm.ptx", kHeader + ".visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b16 %h<2>;\n"
                           "\tmov.u32 %r1, %tid.x;\n\tadd.s32 %r2, %r1, 0x100000000;\n\tmov.u16 %h1, 65536;\n\tadd.s32 %r2, %r1, -2147483648;\n"
                           "\tand.b32 %r2, %r1, 0xFFFFFFFF;\n\tmov.u16 %h1, -32768;\n\tret;\n}\n");
  // ptxas 13 accepts all five without a word and uses the low bits.
  Run r = translate(f);
  CHECK(r.exited(0));
  CHECK(contains(r.err, f + ":10:20: warning: integer constant 0x100000000 does not fit the 32-bit operand of "
                            "'add.s32'; its low 32 bits are used, as ptxas does [-Wconstant-truncated]"));
  CHECK(contains(r.err, f + ":11:15: warning: integer constant 65536 does not fit"));
  CHECK(std::count(r.err.begin(), r.err.end(), '^') == 2); // the extremes that fit are accepted
  CHECK(translate(f, {"-Werror"}).exited(1));
  // A warning fails nothing: the kernel counts as translated, and check runs it.
  Run stats = translate(f, {"--stats=text"});
  CHECK(contains(stats.err, "1 of 1 kernels translated"));
  Run c = run({"check", f, "--trials", "1"}, "", {}, kDeadline);
  INFO(toString(c));
  CHECK(c.exited(0));
  Run e = run({"explain", "add.s32 %0, %1, 0x100000001;"}, "", {}, kDeadline);
  CHECK(e.exited(0));
  CHECK(contains(e.err, "warning: integer constant 0x100000001 does not fit"));
  Run quiet = translate(f, {"-w"});
  CHECK(quiet.exited(0));
  CHECK_FALSE(contains(quiet.err, "warning"));
}

TEST_CASE("hostile: an input larger than the input limit is that file's error; a batch goes on") {
  {
    // No end of file: read in chunks up to the limit, then refused.
    Run r = run({"/dev/zero", "--max-input-size=4", "-o", tempPath("zero.s")}, "", {}, kDeadline);
    INFO(toString(r));
    CHECK(r.exited(1));
    CHECK(contains(r.err, "'/dev/zero' is larger than the input limit of 4 MiB (--max-input-size=MIB raises it)"));
    CHECK(r.peakKiB < kPeakKiB);
    Run e = run({"explain", "/dev/zero", "--max-input-size=4"}, "", {}, kDeadline);
    CHECK(e.exited(1));
    CHECK(contains(e.err, "larger than the input limit of 4 MiB"));
  }
  const std::string dir = tempPath("big_tree");
  fs::create_directories(dir);
  spit(dir + "/a.ptx", kHeader + ".visible .entry k()\n{\n\tret;\n}\n");
  {
    // A 3 GB sparse file: refused by its size before a byte is read.
    std::ofstream big(dir + "/big.ptx", std::ios::binary);
    big.seekp((3ll << 30) - 1);
    big.put('\n');
  }
  Run r = run({dir, "-o", tempPath("big_out")}, "", {}, kDeadline);
  INFO(toString(r));
  CHECK(r.exited(1));
  CHECK(contains(r.err, "big.ptx' is 3221225472 bytes, larger than the input limit of 256 MiB"));
  CHECK(contains(r.err, "2 files: 1 translated, 1 failed"));
  CHECK(r.peakKiB < kPeakKiB);
  fs::remove(dir + "/big.ptx");
}

TEST_CASE("hostile: scratch per lane and module data past what the hardware addresses are located errors") {
  {
    const std::string f = tempFile("local.ptx", kHeader + ".visible .entry k()\n{\n\t.reg .b64 %rd<2>;\n"
                                                          "\t.local .align 4 .b8 buf[67108864];\n\tmov.u64 %rd1, buf;\n"
                                                          "\tst.local.u8 [%rd1], 5;\n\tret;\n}\n"); // (bytes: kept in scratch)
    Run r = translate(f);
    CHECK(r.exited(1));
    CHECK(contains(r.err, f + ":5:17: error: kernel 'k' declares 67108864 bytes of local memory per thread; a lane on "
                              "gfx942 has at most 131056 bytes of scratch"));
    Run g = translate(f, {"-mcpu=gfx1200"});
    CHECK(contains(g.err, "a lane on gfx1200 has at most 2097144 bytes of scratch"));
    Run c = run({"check", f, "--block", "64"}, "", {}, kDeadline);
    CHECK(c.exited(2));
    CHECK(contains(c.err, "131056 bytes of scratch"));
  }
  // 40 arrays of 64 MiB, 20 per kernel: past 2 GiB of data, which the code
  // reaches with 32-bit PC-relative offsets.
  std::string s = kHeader;
  for (unsigned i = 0; i < 40; ++i)
    s += ".global .align 4 .b8 g" + std::to_string(i) + "[67108864];\n";
  for (unsigned k = 0; k < 2; ++k) {
    s += ".visible .entry k" + std::to_string(k) + "()\n{\n\t.reg .b64 %rd<2>;\n";
    for (unsigned i = 20 * k; i < 20 * k + 20; ++i)
      s += "\tmov.u64 %rd1, g" + std::to_string(i) + ";\n\tst.global.u32 [%rd1], 1;\n";
    s += "\tret;\n}\n";
  }
  const std::string f = tempFile("data.ptx", s);
  Run r = translate(f);
  CHECK(r.exited(1));
  CHECK(contains(r.err, f + ":36:22: error: the module's .global and .const variables take more than 2080374784 bytes "
                            "with 'g31'; code reaches them with 32-bit PC-relative offsets"));
  // 20 of them (1.25 GiB) are fine for a code object: zero-initialised data
  // is .bss and takes no room in the file. check holds it on both sides, so
  // it refuses them.
  const std::string obj = tempPath("data.o");
  Run o = run({f, "-filetype=obj", "-o", obj}, "", {}, kDeadline);
  CHECK(o.exited(1)); // the module as a whole is over
  Run c = run({"check", f, "--kernel", "k0"}, "", {}, kDeadline);
  INFO(toString(c));
  CHECK(c.exited(2));
  CHECK(contains(c.err, "the buffers and module variables of 'k0' take 1342177280 bytes in all, more than check's "
                        "limit of 1 GiB"));
  CHECK(c.peakKiB < kPeakKiB);
}

TEST_CASE("hostile: check's launch and buffer limits name the real limit; long runs show progress") {
  const std::string f = tempFile("chk.ptx", kHeader + ".visible .entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n"
                                                      "\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], 7;\n"
                                                      "\tret;\n}\n");
  Run g = run({"check", f, "--grid", "65535,65535,65535"}, "", {}, kDeadline);
  CHECK(g.exited(2));
  CHECK(contains(g.err, "--grid=65535,65535,65535 --block=64: 18013573888344000 threads in all; check runs each one "
                        "and takes at most 67107840 (blocks x threads per block)"));
  Run x = run({"check", f, "--grid", "65536,65536"}, "", {}, kDeadline);
  CHECK(x.exited(2));
  CHECK(contains(x.err, "with X in 1..2147483647, Y in 1..65535 and Z in 1..65535 (CUDA's limits)"));
  Run b = run({"check", f, "--buffer", "p=99999999999999"}, "", {}, kDeadline);
  INFO(toString(b));
  CHECK(b.exited(2));
  CHECK(contains(b.err, "the buffers and module variables of 'k' take 99999999999999 bytes in all, more than check's "
                        "limit of 1 GiB"));
  CHECK(b.peakKiB < kPeakKiB);
  Run p = run({"check", f, "--grid", "300", "--trials", "1", "--progress"}, "", {}, kDeadline);
  INFO(toString(p));
  CHECK(p.exited(0));
  CHECK(contains(p.err, "check: trial 1 of 1, PTX interpreter, block 1 of 300\n"));
  CHECK(contains(p.err, "check: trial 1 of 1, AMDGPU emulator, block 300 of 300\n"));
  Run quiet = run({"check", f, "--trials", "1"}, "", {}, kDeadline);
  CHECK(quiet.err.empty()); // not a terminal, no --progress
}

