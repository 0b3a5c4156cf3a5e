// Batch mode end to end (driver/batch.cpp through the driver): layout
// mirroring, atomic outputs, summary and JSON statistics cross-checked
// against the inputs, determinism across -j, warnings and -Werror, the error
// limit, and colour only on a terminal.
#include "cli_support.hpp"
#include "driver/statement_budget.hpp"

#include <doctest/doctest.h>

#include <llvm/Support/JSON.h>
#include <llvm/Support/ThreadPool.h>

#include <chrono>
#include <map>
#include <optional>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

using namespace p2a::testing;

namespace {

const std::string kHeader = ".version 8.5\n.target sm_90\n.address_size 64\n\n";

// A kernel of Logic & Shift instructions only (it translates), `n` of them.
std::string familyKernel(const std::string &name, unsigned n) {
  std::string s = ".visible .entry " + name + "()\n{\n\t.reg .b32 %r<8>;\n";
  const char *ops[] = {"xor.b32 %r1, %r2, %r3;", "shf.l.wrap.b32 %r4, %r1, %r1, 7;", "and.b32 %r5, %r4, %r2;",
                       "lop3.b32 %r6, %r5, %r1, %r3, 0x96;"};
  for (unsigned i = 0; i < n; ++i)
    s += std::string("\t") + ops[i % 4] + "\n";
  return s + "}\n";
}

// A kernel with `unsupported` warp shuffles (not supported yet) among family instructions.
std::string kernelWithLoads(const std::string &name, unsigned unsupported) {
  std::string s = ".visible .entry " + name + "(.param .u64 p)\n{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<2>;\n";
  for (unsigned i = 0; i < unsupported; ++i)
    s += "\tsuld.b.1d.b32.trap {%r1}, [surf, {%r2}];\n\txor.b32 %r1, %r2, %r3;\n";
  return s + "}\n";
}

struct Tree {
  std::string root, out;
};

// in/a.ptx (translates), in/sub/b.ptx (translates, two kernels),
// in/sub/deep/c.ptx (3 unsupported loads), in/empty.ptx (no function),
// in/notes.txt (not PTX: ignored).
Tree makeTree() {
  Tree t{tempPath("tree"), tempPath("out")};
  fs::create_directories(t.root + "/sub/deep");
  spit(t.root + "/a.ptx", kHeader + familyKernel("ka", 8));
  spit(t.root + "/sub/b.ptx", kHeader + familyKernel("kb0", 4) + familyKernel("kb1", 5));
  spit(t.root + "/sub/deep/c.ptx", kHeader + kernelWithLoads("kc", 3));
  spit(t.root + "/empty.ptx", kHeader);
  spit(t.root + "/notes.txt", "not ptx");
  return t;
}

std::map<std::string, std::string> filesUnder(const std::string &dir) {
  std::map<std::string, std::string> m;
  if (!fs::exists(dir))
    return m;
  for (const fs::directory_entry &e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file())
      m[fs::relative(e.path(), dir).string()] = slurp(e.path().string());
  return m;
}

} // namespace

TEST_SUITE("batch") {

TEST_CASE("batch: layout mirrored, failed and skipped files write nothing, summary counts") {
  Tree t = makeTree();
  Run r = run({t.root, "-o", t.out, "-mcpu=gfx1100"});
  INFO(toString(r));
  CHECK(r.exited(1)); // c.ptx failed
  std::map<std::string, std::string> outs = filesUnder(t.out);
  std::set<std::string> names;
  for (const auto &[k, v] : outs)
    names.insert(k);
  // The skipped empty.ptx gets an output without code; the failed c.ptx none.
  CHECK(names == std::set<std::string>{"a.s", "sub/b.s", "empty.s"});
  CHECK(outs["empty.s"] == "; ptx2amdgpu " + t.root + "/empty.ptx for gfx1100\n");
  CHECK(contains(outs["a.s"], "; .entry ka\n"));
  CHECK(contains(outs["sub/b.s"], "; .entry kb0\n"));
  CHECK(contains(outs["sub/b.s"], "; .entry kb1\n"));
  CHECK(contains(outs["a.s"], "v_alignbit_b32"));
  // Diagnostics in input order (sorted paths), then the summary.
  const std::string c = t.root + "/sub/deep/c.ptx";
  CHECK(contains(r.err, t.root + "/empty.ptx: warning: no function with a body: nothing to translate [-Wempty-file]\n"));
  CHECK(contains(r.err, c + ":9:2: error: unsupported PTX instruction 'suld.b.1d.b32.trap'\n        suld.b.1d.b32.trap {%r1}, [surf, {%r2}];\n"));
  CHECK(r.err.find("empty.ptx: warning") < r.err.find("c.ptx:9:2"));
  CHECK(contains(r.err, "ptx2amdgpu: 4 files: 2 translated, 1 failed, 1 skipped; 3 of 4 kernels translated; "
                        "23 PTX instructions in "));
  CHECK(contains(r.err, "\nptx2amdgpu: unsupported opcodes: suld (3)\n"));
}

TEST_CASE("batch: --stats=json agrees with the inputs and the outputs") {
  Tree t = makeTree();
  Run r = run({t.root, "-o", t.out, "--stats=json", "-j", "2"});
  INFO(toString(r));
  CHECK(r.exited(1));
  llvm::json::Value v = parseJson(r.out);
  const llvm::json::Object &root = *v.getAsObject();
  CHECK(*root.getString("target") == "gfx942");
  const llvm::json::Object &files = *root.getObject("files");
  CHECK(*files.getInteger("total") == 4);
  CHECK(*files.getInteger("translated") == 2);
  CHECK(*files.getInteger("failed") == 1);
  CHECK(*files.getInteger("skipped") == 1);
  CHECK(*root.getInteger("jobs") == 2);
  const llvm::json::Array &unsup = *root.getArray("unsupported");
  REQUIRE(unsup.size() == 1);
  CHECK(*unsup[0].getAsObject()->getString("opcode") == "suld");
  CHECK(*unsup[0].getAsObject()->getInteger("count") == 3);
  unsigned seen = 0;
  for (const llvm::json::Value &f : *root.getArray("per_file")) {
    const llvm::json::Object &o = *f.getAsObject();
    const std::string input = o.getString("input")->str();
    const std::string status = o.getString("status")->str();
    // Every translated or skipped file's output exists; a failed file has none.
    if (status == "skipped")
      CHECK(fs::exists(o.getString("output")->str()));
    if (status == "translated") {
      const std::string out = o.getString("output")->str();
      REQUIRE(fs::exists(out));
      // Each function's AMD instruction count is the lines its section has.
      const std::string text = slurp(out);
      for (const llvm::json::Value &k : *o.getArray("functions")) {
        const llvm::json::Object &ko = *k.getAsObject();
        const std::string name = ko.getString("name")->str();
        size_t at = text.find("; .entry " + name + "\n");
        REQUIRE(at != std::string::npos);
        size_t end = std::min(text.find("; .entry ", at + 1), text.find("\t.amdgpu_metadata", at));
        std::string section = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
        // Instructions: not comments, directives or labels.
        unsigned amdLines = 0;
        for (std::string l : lines(section)) {
          l.erase(0, l.find_first_not_of(" \t"));
          amdLines += !l.empty() && l[0] != ';' && l[0] != '.' && l.back() != ':';
        }
        CHECK(*ko.getInteger("amd_instructions") == amdLines);
        CHECK(*ko.getInteger("vgprs") > 0);
        // Occupancy on gfx942: 1..8 waves whose VGPRs (granule 8) fit the 512 of a SIMD.
        const int64_t waves = *ko.getInteger("occupancy_waves_per_simd");
        CHECK(waves >= 1);
        CHECK(waves <= 8);
        CHECK(waves * ((*ko.getInteger("vgprs") + 7) / 8 * 8) <= 512);
        CHECK(!ko.getString("occupancy_limited_by")->empty());
      }
    } else if (status == "failed") {
      CHECK(o.get("output")->kind() == llvm::json::Value::Null);
    }
    if (input.find("c.ptx") != std::string::npos) {
      CHECK(status == "failed");
      CHECK(*o.getInteger("errors") == 3);
    }
    if (input.find("empty.ptx") != std::string::npos) {
      CHECK(status == "skipped");
      CHECK(*o.getInteger("warnings") == 1);
    }
    ++seen;
  }
  CHECK(seen == 4);
  // With a report the rows keep their text (klower::Options::keepListing);
  // without, only counts and rules: the statistics are the same.
  Run withReport = run({t.root, "-o", tempPath("out_report"), "--stats=json", "-j", "2",
                        "--report=" + tempPath("report.html")});
  llvm::json::Value w = parseJson(withReport.out);
  auto functionsOf = [](const llvm::json::Value &stats) {
    std::map<std::string, std::pair<int64_t, std::string>> out; // name -> (AMD instructions, rules)
    for (const llvm::json::Value &f : *stats.getAsObject()->getArray("per_file"))
      if (const llvm::json::Array *fns = f.getAsObject()->getArray("functions"))
        for (const llvm::json::Value &k : *fns) {
          const llvm::json::Object &ko = *k.getAsObject();
          std::string rules;
          llvm::raw_string_ostream os(rules);
          os << llvm::json::Value(llvm::json::Object(*ko.getObject("rules")));
          out[ko.getString("name")->str()] = {*ko.getInteger("amd_instructions"), os.str()};
        }
    return out;
  };
  const auto plain = functionsOf(v), listed = functionsOf(w);
  CHECK(plain.size() >= 2);
  CHECK(plain == listed);
}

TEST_CASE("batch: outputs and diagnostics do not depend on -j") {
  Tree t = makeTree();
  // More files, so that two threads really interleave.
  for (unsigned i = 0; i < 12; ++i)
    spit(t.root + "/gen" + std::to_string(i) + ".ptx",
         kHeader + (i % 3 ? familyKernel("g" + std::to_string(i), 40 + i) : kernelWithLoads("g" + std::to_string(i), i + 1)));
  for (const char *kind : {"asm", "obj"}) {
    INFO(kind);
    const std::string o1 = tempPath("j1"), o2 = tempPath("j2");
    Run a = run({t.root, "-o", o1, "-j", "1", "--stats=none", std::string("-filetype=") + kind});
    Run b = run({t.root, "-o", o2, "-j", "2", "--stats=none", std::string("-filetype=") + kind});
    CHECK(a.exited(1));
    CHECK(b.exited(1));
    CHECK(a.err == b.err);
    std::map<std::string, std::string> fa = filesUnder(o1), fb = filesUnder(o2);
    CHECK(fa.size() == 11); // a, sub/b, empty and 8 translating generated files
    CHECK(fa == fb);
    if (std::string(kind) == "obj")
      for (const auto &[name, bytes] : fa) {
        INFO(name);
        CHECK(name.substr(name.size() - 2) == ".o");
        CHECK(isElfForAmdgpu(bytes));
      }
  }
}

TEST_CASE("one module's kernels on several threads: outputs and diagnostics do not depend on -j") {
  // 24 kernels in one file (the pool translates them in parallel), with an
  // ignored directive's warning among them; then the same with errors.
  std::string good = kHeader, bad = kHeader;
  for (unsigned i = 0; i < 24; ++i) {
    std::string k = familyKernel("k" + std::to_string(i), 30 + 7 * i);
    if (i % 5 == 0)
      k.replace(k.find("()\n"), 3, "()\n.maxclusterrank 2\n");
    good += k;
    bad += i % 4 == 1 ? kernelWithLoads("k" + std::to_string(i), i % 3 + 1) : k;
  }
  const std::string goodPath = tempPath("module_good.ptx"), badPath = tempPath("module_bad.ptx");
  spit(goodPath, good);
  spit(badPath, bad);
  for (const char *kind : {"asm", "obj"}) {
    INFO(kind);
    std::string first, firstErr;
    for (const char *j : {"1", "2", "4"}) {
      INFO("-j " << j);
      const std::string out = tempPath(std::string("module_j") + j);
      Run r = run({goodPath, "-o", out, "-j", j, std::string("-filetype=") + kind});
      CHECK(r.exited(0));
      CHECK(contains(r.err, "maxclusterrank"));
      const std::string bytes = slurp(out);
      CHECK(!bytes.empty());
      Run e = run({badPath, "-o", out + ".bad", "-j", j, std::string("-filetype=") + kind});
      CHECK(e.exited(1));
      CHECK(contains(e.err, "error:"));
      if (first.empty()) {
        first = bytes + r.err;
        firstErr = e.err;
      } else {
        CHECK(first == bytes + r.err);
        CHECK(firstErr == e.err);
      }
    }
  }
}

TEST_CASE("a module's kernels within a statement budget: each prepared, then run, once; never over the budget") {
  // Statements per kernel against a budget of 100: the 200 runs alone, the
  // 90, 80 and 70 one at a time, the 5s beside any of them.
  const std::vector<size_t> statements{90, 5, 5, 80, 5, 5, 70, 5, 5, 5, 200, 5};
  const size_t budget = 100;
  for (unsigned threads : {0u, 1u, 2u, 4u}) {
    INFO(threads << " threads");
    std::optional<llvm::StdThreadPool> pool;
    if (threads)
      pool.emplace(llvm::hardware_concurrency(threads));
    std::mutex m;
    std::vector<std::string> events;
    std::vector<unsigned> prepared(statements.size(), 0), ran(statements.size(), 0);
    size_t held = 0, running = 0, mostRunning = 0;
    bool overBudget = false, runBeforePrepare = false;
    p2a::module::runWithinStatementBudget(
        pool ? &*pool : nullptr, statements.size(), budget,
        [&](size_t i) {
          std::lock_guard lock(m);
          ++prepared[i];
          events.push_back("p" + std::to_string(i));
          return p2a::module::PreparedKernel{statements[i], statements[i]};
        },
        [&](size_t i) {
          {
            std::lock_guard lock(m);
            runBeforePrepare |= prepared[i] == 0;
            ++ran[i];
            held += statements[i];
            ++running;
            mostRunning = std::max(mostRunning, running);
            overBudget |= running > 1 && held > budget;
            events.push_back("r" + std::to_string(i));
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(statements[i] > 5 ? 30 : 2));
          std::lock_guard lock(m);
          held -= statements[i];
          --running;
        });
    CHECK(prepared == std::vector<unsigned>(statements.size(), 1));
    CHECK(ran == std::vector<unsigned>(statements.size(), 1));
    CHECK(!runBeforePrepare);
    CHECK(!overBudget);
    if (threads == 0) { // in order, each run right after its preparation
      std::vector<std::string> inOrder;
      for (size_t i = 0; i < statements.size(); ++i)
        inOrder.insert(inOrder.end(), {"p" + std::to_string(i), "r" + std::to_string(i)});
      CHECK(events == inOrder);
    }
    if (threads >= 2) // small kernels ran beside a large one
      CHECK(mostRunning >= 2);
  }
}

TEST_CASE("a module's kernels within a statement budget: kernels prepared ahead are bounded by the budget") {
  // Ten kernels of 60 statements against a budget of 100: one runs at a
  // time; those prepared and waiting (each holds its parsed body) stay
  // within the budget's worth, plus one being prepared per thread.
  const std::vector<size_t> statements(10, 60);
  const size_t budget = 100;
  for (unsigned threads : {2u, 4u}) {
    INFO(threads << " threads");
    llvm::StdThreadPool pool(llvm::hardware_concurrency(threads));
    std::mutex m;
    std::vector<bool> prepared(statements.size()), started(statements.size());
    size_t mostAhead = 0;
    p2a::module::runWithinStatementBudget(
        &pool, statements.size(), budget,
        [&](size_t i) {
          std::lock_guard lock(m);
          prepared[i] = true;
          size_t ahead = 0;
          for (size_t j = 0; j < statements.size(); ++j)
            ahead += prepared[j] && !started[j];
          mostAhead = std::max(mostAhead, ahead);
          return p2a::module::PreparedKernel{statements[i], statements[i]};
        },
        [&](size_t i) {
          {
            std::lock_guard lock(m);
            started[i] = true;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        });
    CHECK(mostAhead <= budget / 60 + 1 + threads);
  }
}

TEST_CASE("a module's kernels within a statement budget: waiting kernels are bounded by their parsed bodies") {
  // Three kernels that lower 80 statements each from 2 of their own
  // (inlined calls), then small ones, against a budget of 100: the other
  // large ones wait for the first, holding only their 2 parsed statements
  // each, and the small ones after them are prepared and run beside the
  // first meanwhile.
  const std::vector<size_t> lowered{80, 80, 80, 5, 5, 5}, parsed{2, 2, 2, 5, 5, 5};
  const size_t budget = 100;
  llvm::StdThreadPool pool(llvm::hardware_concurrency(2));
  std::mutex m;
  std::vector<std::string> events;
  p2a::module::runWithinStatementBudget(
      &pool, lowered.size(), budget,
      [&](size_t i) { return p2a::module::PreparedKernel{lowered[i], parsed[i]}; },
      [&](size_t i) {
        {
          std::lock_guard lock(m);
          events.push_back("start " + std::to_string(i));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(lowered[i] > 5 ? 100 : 2));
        std::lock_guard lock(m);
        events.push_back("end " + std::to_string(i));
      });
  auto at = [&](const std::string &e) { return std::find(events.begin(), events.end(), e) - events.begin(); };
  REQUIRE(events.size() == 12);
  CHECK(at("start 1") > at("end 0")); // (never two large ones at once)
  for (const char *small : {"end 3", "end 4", "end 5"})
    CHECK(at(small) < at("end 0")); // beside the first large one, not after the second
}

TEST_CASE("batch: usage errors") {
  Tree t = makeTree();
  SUBCASE("a directory needs -o") {
    Run r = run({t.root});
    CHECK(r.exited(2));
    CHECK(r.err == "ptx2amdgpu: error: a directory or several inputs need -o DIRECTORY for the outputs\n");
  }
  SUBCASE("-o names a file") {
    const std::string f = tempFile("a-file", "x");
    Run r = run({t.root, "-o", f});
    CHECK(r.exited(2));
    CHECK(r.err == "ptx2amdgpu: error: -o '" + f + "' is a file; a directory or several inputs need a directory\n");
    CHECK(slurp(f) == "x");
  }
  SUBCASE("two inputs with one output name") {
    const std::string other = tempPath("other");
    fs::create_directories(other);
    spit(other + "/a.ptx", kHeader + familyKernel("k", 1));
    Run r = run({t.root + "/a.ptx", other + "/a.ptx", "-o", t.out});
    CHECK(r.exited(2));
    CHECK(r.err == "ptx2amdgpu: error: '" + other + "/a.ptx' and '" + t.root + "/a.ptx' would both write '" + t.out +
                       "/a.s'\n");
    CHECK_FALSE(fs::exists(t.out));
  }
  SUBCASE("a missing input") {
    Run r = run({t.root, t.root + "/nope.ptx", "-o", t.out});
    CHECK(r.exited(2));
    CHECK(r.err == "ptx2amdgpu: error: cannot read '" + t.root + "/nope.ptx': No such file or directory\n");
  }
  SUBCASE("an output directory blocked by a file") {
    fs::create_directories(t.out);
    spit(t.out + "/sub", "a file where a directory should go");
    Run r = run({t.root, "-o", t.out, "--stats=none"});
    CHECK(r.exited(1));
    CHECK(contains(r.err, t.root + "/sub/b.ptx: error: cannot write '" + t.out + "/sub/b.s': Not a directory\n"));
    CHECK(fs::exists(t.out + "/a.s"));
  }
}

TEST_CASE("warnings: -Wempty-file, -Wignored-directive, -Werror and -w") {
  const std::string empty = tempFile("empty.ptx", kHeader);
  const std::string directive = tempFile(
      "cluster.ptx", kHeader + ".visible .entry k()\n.maxclusterrank 2\n{\n\t.reg .b32 %r<4>;\n\txor.b32 %r1, %r2, %r3;\n}\n");
  const std::string out = tempPath("w.s");
  Run plain = run({directive, "-o", out});
  CHECK(plain.exited(0));
  CHECK(plain.err == directive + ":6:1: warning: '.maxclusterrank' is not honoured: AMD targets have no equivalent (no "
                                 "thread-block clusters; no upper bound on resident blocks) [-Wignored-directive]\n"
                                 ".maxclusterrank 2\n^\n");
  CHECK(fs::exists(out));
  fs::remove(out);
  Run werror = run({directive, "-o", out, "-Werror"});
  CHECK(werror.exited(1));
  CHECK(contains(werror.err, ":6:1: error: '.maxclusterrank' is not honoured"));
  CHECK_FALSE(fs::exists(out));
  Run quiet = run({directive, "-o", out, "-w"});
  CHECK(quiet.exited(0));
  CHECK(quiet.err.empty());

  spit(out, "an older output\n");
  Run e = run({empty, "-o", out});
  CHECK(e.exited(0));
  CHECK(e.err == empty + ": warning: no function with a body: nothing to translate [-Wempty-file]\n");
  // A skipped file still replaces its output (with no code), so an older one
  // never passes for current.
  CHECK(slurp(out) == "; ptx2amdgpu " + empty + " for gfx942\n");
  Run ee = run({empty, "-o", out, "-Werror"});
  CHECK(ee.exited(1));
  CHECK(ee.err == empty + ": error: no function with a body: nothing to translate [-Wempty-file]\n");
}

TEST_CASE("launch bounds: .maxntid/.reqntid in the metadata, .maxnreg/.minnctapersm checked, check's --block held to them") {
  const std::string body = "{\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [p];\n"
                           "\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd2, %rd1, %rd2;\n"
                           "\tld.global.u32 %r2, [%rd2];\n\tmul.lo.u32 %r3, %r2, %r2;\n\tadd.u32 %r4, %r3, %r1;\n"
                           "\tst.global.u32 [%rd2], %r4;\n\tret;\n}\n";
  const std::string f = tempFile("bounds.ptx", kHeader + ".visible .entry k(.param .u64 p)\n.maxntid 256, 1, 1\n"
                                                         ".minnctapersm 16\n.maxnreg 3\n" + body +
                                                         ".visible .entry r(.param .u64 p)\n.reqntid 64, 2\n" + body);
  const std::string out = tempPath("bounds.s");
  Run r = run({f, "-o", out});
  INFO(toString(r));
  CHECK(r.exited(0));
  // 16 blocks of 4 waves over a CU's 4 SIMDs need 16 waves per SIMD; gfx942 has 8 slots.
  CHECK(contains(r.err, f + ":7:1: warning: .minnctapersm 16 is not honoured on gfx942: 16 blocks of 256 threads need "
                            "16 waves per SIMD; kernel 'k' allows 8 (limited by wave slots) [-Wlaunch-bounds]"));
  CHECK(contains(r.err, f + ":8:1: warning: .maxnreg 3 is not honoured: kernel 'k' uses "));
  const std::string s = slurp(out);
  CHECK(contains(s, "    .max_flat_workgroup_size: 256\n    .name: k\n"));
  CHECK(contains(s, "    .max_flat_workgroup_size: 128\n    .name: r\n"));
  CHECK(contains(s, "    .reqd_workgroup_size:\n      - 64\n      - 2\n      - 1\n"));
  // LLVM MC checks the metadata's types.
  CHECK(run({f, "-filetype=obj", "-o", tempPath("bounds.o")}).exited(0));
  // A launch the bounds forbid is refused, at the directive.
  Run big = run({"check", f, "--kernel", "k", "--block", "512"});
  CHECK(big.exited(2));
  CHECK(contains(big.err, f + ":6:1: error: --block (512,1,1) has 512 threads; .maxntid allows at most 256"));
  Run wrong = run({"check", f, "--kernel", "r", "--block", "128"});
  CHECK(wrong.exited(2));
  CHECK(contains(wrong.err, "error: --block (128,1,1) is not the block .reqntid requires (64,2,1)"));
  Run ok = run({"check", f, "--kernel", "r", "--block", "64,2", "--trials", "1"});
  CHECK(ok.exited(0));
  // More threads than a block can have is an error at the directive.
  const std::string bad = tempFile("bad_bounds.ptx", kHeader + ".visible .entry b()\n.maxntid 2048\n{\n\tret;\n}\n");
  Run e = run({bad, "-o", tempPath("bad.s")});
  CHECK(e.exited(1));
  CHECK(contains(e.err, bad + ":6:1: error: .maxntid 2048 asks for 2048 threads per block; a block has at most 1024"));
}

TEST_CASE("batch: directory arguments with trailing slashes, and a directory without PTX") {
  Tree t = makeTree();
  Run r = run({t.root + "//", "-o", t.out, "--stats=none"});
  CHECK(r.exited(1));
  std::map<std::string, std::string> outs = filesUnder(t.out);
  std::set<std::string> names;
  for (const auto &[k, v] : outs)
    names.insert(k);
  CHECK(names == std::set<std::string>{"a.s", "sub/b.s", "empty.s"});
  const std::string none = tempPath("no-ptx");
  fs::create_directories(none + "/x");
  spit(none + "/x/readme.txt", "nothing here");
  Run n = run({none, "-o", tempPath("o")});
  CHECK(n.exited(0));
  CHECK(contains(n.err, "ptx2amdgpu: warning: no .ptx files under '" + none + "' [-Wempty-file]\n"));
  CHECK(contains(n.err, "ptx2amdgpu: 0 files: "));
  Run w = run({none, "-o", tempPath("o"), "-Werror"});
  CHECK(w.exited(1));
  CHECK(w.err == "ptx2amdgpu: error: no .ptx files under '" + none + "' [-Wempty-file]\n");
}

TEST_CASE("diagnostics: CRLF lines, and a report line with both code and an error") {
  const std::string f = tempFile("crlf.ptx", ".version 8.5\r\n.target sm_90\r\n.address_size 64\r\n"
                                             ".visible .entry k(.param .u64 p)\r\n{\r\n\t.reg .b32 %r<4>;\r\n"
                                             "\t.reg .b64 %rd<2>;\r\n"
                                             "\txor.b32 %r1, %r2, %r3; suld.b.1d.b32.trap {%r1}, [surf, {%r2}];\r\n}\r\n");
  const std::string report = tempPath("r.html");
  Run r = run({f, "-o", tempPath("x.s"), "--report=" + report});
  CHECK(r.exited(1));
  CHECK(r.err == f + ":8:25: error: unsupported PTX instruction 'suld.b.1d.b32.trap'\n"
                     "        xor.b32 %r1, %r2, %r3; suld.b.1d.b32.trap {%r1}, [surf, {%r2}];\n"
                     "                               ^\n");
  const std::string html = slurp(report);
  // The code row, then the message in a row of its own.
  const size_t code = html.find("data-line=\"8\"");
  const size_t note = html.find("data-note-line=\"8\"");
  REQUIRE(code != std::string::npos);
  REQUIRE(note != std::string::npos);
  CHECK(code < note);
  CHECK(html.find("v_xor_b32", code) < note);
  CHECK(html.find("error: unsupported PTX instruction &#39;suld.b.1d.b32.trap&#39;", note) != std::string::npos);
}

TEST_CASE("-ferror-limit") {
  const std::string f = tempFile("many.ptx", kHeader + kernelWithLoads("k", 25));
  Run r = run({f, "-o", tempPath("x.s")});
  CHECK(r.exited(1));
  CHECK(countOf(r.err, ": error: ") == 20);
  CHECK(contains(r.err, f + ": note: 5 more errors not shown (-ferror-limit=20; 0 shows all)\n"));
  Run all = run({f, "-o", tempPath("x.s"), "-ferror-limit=0"});
  CHECK(countOf(all.err, ": error: ") == 25);
  CHECK_FALSE(contains(all.err, "not shown"));
}

TEST_CASE("colour and the progress line only on a terminal, and never with NO_COLOR") {
  // util-linux `script` gives the driver a pseudo-terminal.
  if (std::system("script --version >/dev/null 2>&1") != 0)
    FAIL("util-linux 'script' is needed for this test");
  Tree t = makeTree();
  auto onTerminal = [&](const std::string &env) {
    const std::string log = tempPath("tty.log");
    const std::string cmd = env + " script -qec '" + std::string(P2A_BINARY) + " " + t.root + " -o " + tempPath("tty") +
                            " --stats=none' " + log + " >/dev/null 2>&1";
    (void)std::system(cmd.c_str());
    return slurp(log);
  };
  const std::string coloured = onTerminal("env -u NO_COLOR TERM=xterm");
  CHECK(contains(coloured, "\x1b[0;1;31merror: ")); // red, as clang
  CHECK(contains(coloured, "[4/4]"));              // the progress line
  const std::string plain = onTerminal("env NO_COLOR=1 TERM=xterm");
  CHECK(contains(plain, "error: unsupported PTX instruction"));
  CHECK_FALSE(contains(plain, "\x1b[1m"));
  CHECK_FALSE(contains(plain, "\x1b[0;1;31m"));
  // Not a terminal: no colour and no progress line, whatever NO_COLOR says.
  Run piped = run({t.root, "-o", tempPath("p")}, "", {"NO_COLOR="});
  CHECK_FALSE(contains(piped.err, "\x1b["));
  CHECK_FALSE(contains(piped.err, "[4/4]"));
}

} // TEST_SUITE
