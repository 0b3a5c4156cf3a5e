// ptx2amdgpu: the command-line driver. Thin by design (like llvm-mc): it
// parses options, reads inputs, calls the library and prints its results.
#include "grammar/parser.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "reports/compare_llc.hpp"
#include "isel/cost_model.hpp"
#include "driver/batch.hpp"
#include "reports/explain.hpp"
#include "reports/html_report.hpp"
#include "driver/module_translation.hpp"
#include "driver/output_file.hpp"
#include "driver/syntax_check.hpp"
#include "reports/rules_report.hpp"
#include "ptx/source_diagnostics.hpp"
#include "driver/translate.hpp"
#include "validation/check.hpp"
#include "port/port_report.hpp"
#include "port/source_rewrite.hpp"
#include "proof/proved_queries.hpp"
#include "tools/allocator_policy.hpp"

#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/WithColor.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <functional>
#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <optional>
#include <cstdlib>
#include <thread>

using namespace llvm;
using namespace p2a;

namespace {

cl::OptionCategory Category("ptx2amdgpu options");

cl::SubCommand ExplainCmd("explain", "Translate a PTX instruction sequence (inline-asm snippet) and explain it");
cl::SubCommand RulesCmd("rules", "Print the rule table: forms, constraints, AMD sequences, costs and proofs");
cl::SubCommand CompareCmd("compare", "Compare instruction counts with LLVM's llc on the same semantics");
cl::SubCommand PortAsmCmd("port-asm", "Rewrite CUDA inline PTX asm as HIP C++, each statement proved equal to its PTX");
cl::SubCommand CheckCmd("check", "Run a kernel and its translation on the same random inputs and compare the outputs");

// Top level: syntax checking and file translation.
cl::list<std::string> Inputs(cl::Positional, cl::desc("<input .ptx files>"), cl::sub(cl::SubCommand::getTopLevel()));
cl::opt<bool> SyntaxOnly("fsyntax-only", cl::desc("Only parse the inputs and report syntax errors"),
                         cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));
enum class InputKind { Auto, Module, Snippet };
cl::opt<InputKind> InputAs("x", cl::desc("Input kind for -fsyntax-only"), cl::init(InputKind::Auto),
                           cl::values(clEnumValN(InputKind::Auto, "auto", "a module if it has a .version directive, else a snippet"),
                                      clEnumValN(InputKind::Module, "module", "a whole PTX module"),
                                      clEnumValN(InputKind::Snippet, "snippet", "instructions as in inline asm")),
                           cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));

// Batch and file translation.
cl::opt<bool> WarningsAsErrors("Werror", cl::desc("Treat warnings as errors"), cl::sub(cl::SubCommand::getTopLevel()),
                               cl::cat(Category));
cl::opt<bool> NoWarnings("w", cl::desc("Suppress all warnings"), cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));
cl::opt<unsigned> ErrorLimit("ferror-limit", cl::desc("Errors shown per file before the rest are counted (0: all)"),
                             cl::init(20), cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));
enum class StatsKind { Auto, None, Text, Json };
// Created in main(): LLVM's Support library registers its own -stats
// (statistics), which this one replaces.
std::unique_ptr<cl::opt<StatsKind>> Stats;
void registerStatsOption() {
  StringMap<cl::Option *> &registered = cl::getRegisteredOptions();
  if (auto it = registered.find("stats"); it != registered.end())
    it->second->removeArgument();
  Stats = std::make_unique<cl::opt<StatsKind>>(
      "stats", cl::desc("Summary after translating"), cl::init(StatsKind::Auto),
      cl::values(clEnumValN(StatsKind::Auto, "auto", "text on stderr for batch runs (default)"),
                 clEnumValN(StatsKind::None, "none", "no summary"),
                 clEnumValN(StatsKind::Text, "text", "text on stderr"),
                 clEnumValN(StatsKind::Json, "json", "JSON on stdout (on stderr when the output goes to stdout)")),
      cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));
}
// (The steps named from the lowering's own list: a list written here had
// fallen behind it.)
const std::string &printAfterDescription() {
  static const std::string description = [] {
    std::string d = "Print each kernel's machine IR after these lowering steps (comma-separated) on stderr: ";
    for (const std::string &step : klower::loweringSteps())
      d += (&step == &klower::loweringSteps().front() ? "" : ", ") + step;
    return d;
  }();
  return description;
}
cl::list<std::string> PrintAfter("print-ir-after", cl::desc(printAfterDescription()), cl::CommaSeparated,
                                 cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));
cl::opt<bool> PrintIr("print-ir", cl::desc("Print each kernel's machine IR after every lowering step (stderr)"),
                      cl::sub(cl::SubCommand::getTopLevel()), cl::cat(Category));
cl::opt<std::string> ReportFile("report", cl::desc("Write a self-contained HTML page: PTX beside AMD code"),
                                cl::value_desc("file.html"), cl::init(""), cl::sub(cl::SubCommand::getTopLevel()),
                                cl::cat(Category));

// check: translation validation by execution.
cl::opt<std::string> CheckFile(cl::Positional, cl::desc("<FILE.ptx>"), cl::Required, cl::sub(CheckCmd));
cl::opt<std::string> CheckKernel("kernel", cl::desc("Kernel to check (default: the first .entry)"), cl::init(""),
                                 cl::sub(CheckCmd), cl::cat(Category));
cl::opt<std::string> CheckGrid("grid", cl::desc("Blocks per grid: X[,Y[,Z]] (default 1)"), cl::init("1"),
                               cl::sub(CheckCmd), cl::cat(Category));
cl::opt<std::string> CheckBlock("block", cl::desc("Threads per block: X[,Y[,Z]] (default 64)"), cl::init("64"),
                                cl::sub(CheckCmd), cl::cat(Category));
cl::opt<unsigned> CheckTrials("trials", cl::desc("Random input sets to run (default 3)"), cl::init(3),
                              cl::sub(CheckCmd), cl::cat(Category));
cl::opt<int> CheckSharedBytes("shared-bytes",
                               cl::desc("Dynamic shared memory per block (extern __shared__) in bytes (default: what "
                                        "64 KiB leave beside the static shared variables)"),
                               cl::init(-1), cl::sub(CheckCmd), cl::cat(Category));
cl::opt<uint64_t> CheckSeed("seed", cl::desc("Seed of the random inputs (default 1)"), cl::init(1), cl::sub(CheckCmd),
                            cl::cat(Category));
cl::list<std::string> CheckBuffers("buffer", cl::desc("Size of a pointer parameter's buffer: NAME=BYTES (default: inferred from the launch); "
                                                    "PARENT+OFFSET=BYTES: a buffer whose address is stored at byte OFFSET of buffer or by-value parameter PARENT"),
                                   cl::sub(CheckCmd), cl::cat(Category));
cl::list<std::string> CheckInputs("input", cl::desc("A buffer's or by-value parameter's leading bytes in every trial: NAME=FILE (its buffer is at least that long)"),
                                  cl::sub(CheckCmd), cl::cat(Category));
cl::list<std::string> CheckFills("fill", cl::desc("How a buffer starts: NAME=zero|ones|seq32|random (default random)"),
                                 cl::sub(CheckCmd), cl::cat(Category));
cl::opt<std::string> CheckDump("dump", cl::desc("Write every buffer's final bytes from both sides to DIR (NAME.trialT.ptx, NAME.trialT.amd)"),
                               cl::value_desc("DIR"), cl::sub(CheckCmd), cl::cat(Category));
cl::opt<bool> CheckProgress("progress",
                            cl::desc("Show which trial, side and block is running (default: when stderr is a terminal)"),
                            cl::sub(CheckCmd), cl::cat(Category));
cl::opt<std::string> CheckAmd("amd",
                              cl::desc("Run this AMD code object (ELF object or .hsaco, built for -mcpu) against the PTX "
                                       "instead of the translation; --kernel PTX=AMD where the names differ"),
                              cl::value_desc("FILE"), cl::init(""), cl::sub(CheckCmd), cl::cat(Category));
cl::list<std::string> CheckParams("param", cl::desc("Value of a parameter: NAME=VALUE (default: random; a pointer parameter given a value gets no buffer)"),
                                  cl::sub(CheckCmd), cl::cat(Category));

// port-asm: CUDA sources with inline PTX asm -> HIP C++.
cl::list<std::string> PortInputs(cl::Positional, cl::desc("<.cu .cuh .h .hpp files>"), cl::OneOrMore,
                                 cl::sub(PortAsmCmd));
cl::opt<bool> PortInPlace("i", cl::desc("Edit the files in place (each only after all of it was ported)"),
                          cl::sub(PortAsmCmd), cl::cat(Category));
cl::opt<port::PortMode> PortModeOpt(
    cl::desc("How ported statements replace the asm:"), cl::init(port::PortMode::Guard),
    cl::values(clEnumValN(port::PortMode::Guard, "guard",
                          "#if defined(__HIP_PLATFORM_AMD__) port #else original #endif (default)"),
               clEnumValN(port::PortMode::Replace, "replace", "the port only")),
    cl::sub(PortAsmCmd), cl::cat(Category));
cl::opt<port::PortStyle> PortStyleOpt(
    "style", cl::desc("What replaces a statement"), cl::init(port::PortStyle::Builtin),
    cl::values(clEnumValN(port::PortStyle::Builtin, "builtin",
                          "HIP C++: clang's AMDGPU builtins and operators (default)"),
               clEnumValN(port::PortStyle::Asm, "asm", "AMDGPU inline asm, the rule table's sequence per target")),
    cl::sub(PortAsmCmd), cl::cat(Category));
cl::opt<std::string> PortReport("report", cl::desc("Write an HTML page listing every asm statement"),
                                cl::value_desc("file.html"), cl::init(""), cl::sub(PortAsmCmd), cl::cat(Category));

// Shared options.
cl::opt<std::string> Mcpu("mcpu", cl::desc("Target GPU: gfx900, gfx90a, gfx942 (default), gfx1030, gfx1100, gfx1200"),
                          cl::value_desc("gpu"), cl::init("gfx942"), cl::sub(cl::SubCommand::getAll()), cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Output file (default: stdout), or directory for several inputs"), cl::value_desc("file"), cl::init("-"),
                            cl::sub(cl::SubCommand::getAll()), cl::cat(Category));
cl::opt<unsigned> MaxInputMiB("max-input-size",
                              cl::desc("Largest input file read, in MiB (default 256); a larger one is an error"),
                              cl::value_desc("MiB"), cl::init(p2a::input::kDefaultMaxBytes >> 20),
                              cl::sub(cl::SubCommand::getAll()), cl::cat(Category));
cl::opt<unsigned> MaxVgprs("max-vgprs",
                           cl::desc("VGPRs a kernel may use (default: the target's 256); more live values are spilled "
                                    "to scratch, as ptxas --maxrregcount does"),
                           cl::value_desc("N"), cl::init(0), cl::sub(cl::SubCommand::getAll()), cl::cat(Category));
cl::opt<unsigned> MaxSgprs("max-sgprs",
                           cl::desc("SGPRs a kernel may use (default: the target's 100); more live uniform values and "
                                    "predicates are spilled to VGPR lanes"),
                           cl::value_desc("N"), cl::init(0), cl::sub(cl::SubCommand::getAll()), cl::cat(Category));
cl::opt<bool> NoSchedule("fno-schedule",
                         cl::desc("Keep each block's statements in the order written (no statement scheduling)"),
                         cl::sub(cl::SubCommand::getAll()), cl::cat(Category));
enum class FileType { Asm, Obj, Hsaco };
cl::opt<FileType> Filetype("filetype", cl::desc("Output kind"), cl::init(FileType::Asm),
                           cl::values(clEnumValN(FileType::Asm, "asm", "AMDGPU assembly"),
                                      clEnumValN(FileType::Obj, "obj", "ELF relocatable object"),
                                      clEnumValN(FileType::Hsaco, "hsaco",
                                                 "loadable code object (linked with ld.lld-19 -shared)")),
                           cl::sub(cl::SubCommand::getTopLevel()), cl::sub(ExplainCmd), cl::cat(Category));
cl::opt<bool> ShowEncoding("show-encoding", cl::desc("Show instruction encodings (assembly output)"),
                           cl::sub(cl::SubCommand::getTopLevel()), cl::sub(ExplainCmd), cl::cat(Category));

enum class Format { Text, Json, Markdown, CostTable };
cl::opt<Format> ExplainFormat("format", cl::desc("Output format"), cl::init(Format::Text),
                              cl::values(clEnumValN(Format::Text, "text", "annotated assembly"),
                                         clEnumValN(Format::Json, "json", "JSON")),
                              cl::sub(ExplainCmd), cl::cat(Category));
cl::opt<std::string> Snippet(cl::Positional, cl::desc("<PTX snippet text, a .ptx file, or - for stdin>"), cl::Required,
                             cl::sub(ExplainCmd));

cl::opt<Format> RulesFormat("format", cl::desc("Output format"), cl::init(Format::Text),
                            cl::values(clEnumValN(Format::Text, "text", "plain text"),
                                       clEnumValN(Format::Markdown, "md", "Markdown table (HIPIFY style)"),
                                       clEnumValN(Format::Json, "json", "JSON"),
                                       clEnumValN(Format::CostTable, "cost-table",
                                                  "rules only: the committed cost table (isel/rule_costs.inc), "
                                                  "measured now")),
                            cl::sub(RulesCmd), cl::sub(CompareCmd), cl::cat(Category));
cl::opt<std::string> RulesFilter(cl::Positional, cl::desc("[FILTER] (substring of rule names)"), cl::init(""),
                                 cl::sub(RulesCmd));
cl::opt<bool> Verify("verify", cl::desc("Prove every rule with Z3 on every target; print counterexamples; "
                                        "exit 1 on any failure"),
                     cl::sub(RulesCmd), cl::cat(Category));
cl::opt<std::string> ProvedQueriesIn(
    "proved-queries",
    cl::desc("Take the queries whose digests FILE lists as proved instead of solving them again "
             "(proof/proved_queries.txt; a changed rule's queries are new, and are solved)"),
    cl::value_desc("FILE"), cl::init(""), cl::sub(RulesCmd), cl::cat(Category));
cl::opt<std::string> ProvedQueriesOut("write-proved-queries",
                                      cl::desc("Write the digests of every query proved in this run to FILE"),
                                      cl::value_desc("FILE"), cl::init(""), cl::sub(RulesCmd), cl::cat(Category));
cl::opt<bool> AllTargets("all-targets", cl::desc("Show every target (the default for rules and compare)"),
                         cl::init(true), cl::sub(RulesCmd), cl::sub(CompareCmd), cl::cat(Category));
cl::opt<unsigned> Jobs("j", cl::desc("Worker threads (default: number of cores; at most 256)"), cl::init(0), cl::Prefix,
                       cl::sub(cl::SubCommand::getTopLevel()), cl::sub(RulesCmd), cl::sub(CompareCmd), cl::cat(Category));
cl::opt<std::string> LlcCounts("llc", cl::desc("llc instruction counts (bench/llc_compare/llc_counts.json)"),
                               cl::init(""), cl::sub(CompareCmd), cl::cat(Category));

void printVersion(raw_ostream &os) {
  os << "ptx2amdgpu " << P2A_VERSION << " (LLVM " << LLVM_VERSION_STRING << " MC backend)\n";
}

const targets::TargetInfo *requireTarget() {
  const targets::TargetInfo *t = targets::findTarget(Mcpu);
  if (!t) {
    WithColor::error(errs(), "ptx2amdgpu") << "unknown -mcpu '" << Mcpu << "'; supported:";
    for (const targets::TargetInfo &x : targets::allTargets())
      errs() << " " << x.name;
    errs() << "\n";
  }
  return t;
}

std::vector<const targets::TargetInfo *> selectedTargets() {
  std::vector<const targets::TargetInfo *> ts;
  if (Mcpu.getNumOccurrences() == 0) {
    for (const targets::TargetInfo &t : targets::allTargets())
      ts.push_back(&t);
  } else if (const targets::TargetInfo *t = requireTarget()) {
    ts.push_back(t);
  }
  return ts;
}

// Worker threads: -j N, at most kMaxJobs (more threads than that only cost
// memory and start-up; 2^31 of them never started at all), or every core.
constexpr unsigned kMaxJobs = 256;
unsigned requestedJobs() { return std::min<unsigned>(Jobs, kMaxJobs); }
unsigned jobs() { return Jobs ? requestedJobs() : std::max(1u, std::thread::hardware_concurrency()); }

// Writes atomically (see output_file.hpp): a failure never leaves a partial
// output file. "-" is stdout.
bool writeOutput(StringRef data, const std::string &path = Output) {
  std::string error = output::writeAtomically(path, data);
  if (!error.empty())
    WithColor::error(errs(), "ptx2amdgpu") << error << "\n";
  return error.empty();
}

// Whether explain's argument names a file rather than being PTX text: any
// existing path (a regular file, but also a directory, or a pipe such as the
// /dev/fd/N of `<(...)`), or a `.ptx` name with nothing a snippet would
// contain. Such an argument is read, so a bad path gets "cannot read" and not
// a syntax error on the path itself.
bool namesFile(StringRef arg) {
  if (sys::fs::exists(arg))
    return true;
  return arg.ends_with(".ptx") && arg.find_first_of(" \t\r\n;{}") == StringRef::npos;
}

uint64_t maxInputBytes() { return uint64_t(MaxInputMiB) << 20; }

bool readInput(const std::string &path, std::string &text) {
  p2a::input::ReadResult read = p2a::input::readInput(path, maxInputBytes());
  if (!read.ok) {
    WithColor::error(errs(), "ptx2amdgpu") << printableName(read.error) << "\n";
    return false;
  }
  text = withoutByteOrderMark(std::move(read.text));
  return true;
}

batch::OutputKind outputKind() {
  return Filetype == FileType::Hsaco ? batch::OutputKind::CodeObject
         : Filetype == FileType::Obj ? batch::OutputKind::Object
         : ShowEncoding            ? batch::OutputKind::AsmWithEncoding
                                   : batch::OutputKind::Asm;
}

struct ParsedInput {
  std::unique_ptr<SourceFile> src;
  ::ptx::ParseResult parse;
  size_t errors = 0; // syntax, module-directive and form errors printed
};

// Reads and parses one input file, printing its syntax errors. A module is
// parsed as a module, a snippet as a snippet (`Auto`: a module iff it has a
// .version directive). nullopt when the file cannot be read.
std::optional<ParsedInput> readAndParse(const std::string &path, InputKind kind) {
  std::string text;
  if (!readInput(path, text))
    return std::nullopt;
  // -x auto: a module when it has a module's directives or functions, or
  // nothing at all (an empty .ptx file is an empty module, which ptxas
  // rejects); otherwise an inline-asm snippet.
  const bool moduleLike = text.find(".version") != std::string::npos || text.find(".entry") != std::string::npos ||
                          text.find(".func") != std::string::npos ||
                          text.find_first_not_of(" \t\r\n") == std::string::npos;
  const bool snippet = kind == InputKind::Snippet || (kind == InputKind::Auto && !moduleLike);
  ParsedInput in{std::make_unique<SourceFile>(path, std::move(text)), {}};
  in.parse = snippet ? ::ptx::parseSnippet(in.src->text()) : ::ptx::parseModule(in.src->text());
  // Beside syntax errors: a missing .version/.target and wrong instruction
  // forms, as a translation would report them (driver/syntax_check.hpp).
  Diagnostics diags;
  for (const ::ptx::SyntaxError &e : in.parse.errors)
    diags.push_back({Diagnostic::Severity::Error, e.loc, e.message});
  if (!snippet)
    for (Diagnostic &d : syntax::moduleErrors(in.parse.module, in.parse.ok()))
      diags.push_back(std::move(d));
  sortBySource(diags);
  for (const Diagnostic &d : diags)
    in.src->print(errs(), d);
  in.errors = diags.size();
  return in;
}

// The input files by identity (device and inode), so that an output path
// that is one of them, however spelled or linked, is refused before any work
// starts: it would destroy the source. One lookup per output, not a
// comparison with every input (a batch may hold thousands of files).
class InputFiles {
public:
  explicit InputFiles(const std::vector<std::string> &inputs) {
    for (const std::string &in : inputs) {
      sys::fs::UniqueID id;
      if (in != "-" && !sys::fs::getUniqueID(in, id))
        byId_.emplace(id, in);
    }
  }
  // True (with an error) when `output` is one of the inputs.
  bool refuse(const std::string &output, const char *option) const {
    sys::fs::UniqueID id;
    if (output.empty() || output == "-" || sys::fs::getUniqueID(output, id))
      return false; // (an output that does not exist yet is no input)
    auto it = byId_.find(id);
    if (it == byId_.end())
      return false;
    WithColor::error(errs(), "ptx2amdgpu") << option << " '" << output << "' is the input '" << it->second
                                           << "': refusing to overwrite a source file\n";
    return true;
  }

private:
  std::map<sys::fs::UniqueID, std::string> byId_;
};

int runSyntaxOnly() {
  if (Inputs.empty()) {
    WithColor::error(errs(), "ptx2amdgpu") << "no input files\n";
    return 2;
  }
  int rc = 0;
  for (const std::string &path : Inputs) {
    std::optional<ParsedInput> in = readAndParse(path, InputAs);
    if (!in || in->errors)
      rc = 1;
  }
  return rc;
}

// The tool's one cost model (rule costs and the in-process assemblers, cached
// per rule and target), passed to every library call that selects rules.
cost::CostModel &costModel() {
  static cost::CostModel model;
  return model;
}

int runExplain() {
  const targets::TargetInfo *t = requireTarget();
  if (!t)
    return 2;
  std::string text, name = "<snippet>";
  if (Snippet == "-") {
    name = "<stdin>";
    if (!readInput("-", text))
      return 1;
  } else if (namesFile(Snippet)) {
    if (InputFiles({Snippet}).refuse(Output, "-o"))
      return 2;
    name = Snippet;
    if (!readInput(Snippet, text))
      return 1;
  } else {
    text = Snippet;
  }
  SourceFile src(name, text);
  if (text.find(".version") != std::string::npos) {
    // A whole module: every function explained, kernels with their ABI code.
    module::ModuleResult m = module::translateModule(text, *t, costModel());
    for (const Diagnostic &d : m.diagnostics)
      src.print(errs(), d);
    if (!m.ok)
      return 1;
    std::string out;
    for (const module::FunctionResult &f : m.functions) {
      if (ExplainFormat == Format::Json)
        out += explain::formatJson(f.translation);
      else
        out += "; " + std::string(f.isEntry ? ".entry " : ".func ") + f.name + "\n" + explain::formatText(f.translation);
    }
    return writeOutput(out) ? 0 : 1;
  }
  ::ptx::ParseResult pr = ::ptx::parseSnippet(text);
  // parseSnippet always returns one function whose body holds the statements.
  // Statements that parsed are still decoded, so one run reports syntax and
  // form errors together, in source order.
  cost::CostModel &costs = costModel();
  translate::Translation tr;
  Diagnostics diags;
  bool ok = translate::translateBody(*pr.module.functions.front().body, *t, costs, tr, diags) && pr.ok();
  for (const ::ptx::SyntaxError &e : pr.errors)
    diags.push_back({Diagnostic::Severity::Error, e.loc, e.message});
  sortBySource(diags);
  for (const Diagnostic &d : diags)
    src.print(errs(), d);
  if (!ok)
    return 1;
  if (tr.instructions.empty()) {
    WithColor::error(errs(), "ptx2amdgpu") << "the snippet has no instructions\n";
    return 1;
  }
  if (ExplainFormat == Format::Json)
    return writeOutput(explain::formatJson(tr)) ? 0 : 1;
  if (Filetype != FileType::Asm || ShowEncoding) {
    std::string out, error;
    if (!batch::emit(translate::assemblyText(tr), outputKind(), *t, costs, "", out, error)) {
      WithColor::error(errs(), "ptx2amdgpu") << error << "\n";
      return 1;
    }
    return writeOutput(out) ? 0 : 1;
  }
  return writeOutput(explain::formatText(tr)) ? 0 : 1;
}

int runRules() {
  report::RulesQuery q;
  q.filter = RulesFilter;
  q.targets = selectedTargets();
  if (q.targets.empty())
    return 2;
  // A row without its proof status is half a row; the cost table is
  // measured instead of read, for every rule on every target.
  const bool costTable = RulesFormat == Format::CostTable;
  q.prove = !costTable;
  q.measureCosts = costTable;
  if (costTable && (!q.filter.empty() || q.targets.size() != targets::allTargets().size())) {
    WithColor::error(errs(), "ptx2amdgpu") << "--format=cost-table covers every rule on every target: "
                                              "give no FILTER and no -mcpu\n";
    return 2;
  }
  q.jobs = jobs();
  if (!ProvedQueriesIn.empty()) {
    std::string error;
    if (!verify::loadProvedQueries(ProvedQueriesIn, error)) {
      WithColor::error(errs(), "ptx2amdgpu") << error << "\n";
      return 1;
    }
  }
  if (!ProvedQueriesOut.empty())
    verify::recordProvedQueries();
  const auto wallStart = std::chrono::steady_clock::now();
  const std::clock_t cpuStart = std::clock();
  std::vector<report::RuleRow> rows = report::buildRuleRows(q, costModel());
  const double wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
  const double cpuSeconds = double(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  if (rows.empty()) {
    WithColor::error(errs(), "ptx2amdgpu") << "no rule matches '" << RulesFilter << "'\n";
    return 1;
  }
  if (costTable) {
    // A rule that cannot be measured is a bug; the table is not written.
    unsigned errors = 0;
    for (const report::RuleRow &row : rows)
      for (size_t i = 0; i < q.targets.size(); ++i)
        if (row.costs[i] && !row.costs[i]->ok) {
          ++errors;
          WithColor::error(errs(), "ptx2amdgpu") << "rule " << row.rule->name << " on " << q.targets[i]->name
                                                 << ": " << row.costs[i]->error << "\n";
        }
    if (errors)
      return 1;
    return writeOutput(report::formatRulesCostTable(rows, q)) ? 0 : 1;
  }
  std::string out = RulesFormat == Format::Json       ? report::formatRulesJson(rows, q)
                    : RulesFormat == Format::Markdown ? report::formatRulesMarkdown(rows, q)
                                                      : report::formatRulesText(rows, q);
  if (!writeOutput(out))
    return 1;
  if (!ProvedQueriesOut.empty()) {
    std::string error;
    if (!verify::writeProvedQueries(ProvedQueriesOut, error)) {
      WithColor::error(errs(), "ptx2amdgpu") << error << "\n";
      return 1;
    }
  }
  if (!Verify)
    return 0;
  unsigned proved = 0, failed = 0, errors = 0;
  for (const report::RuleRow &row : rows)
    for (size_t i = 0; i < q.targets.size(); ++i) {
      if (row.costs[i] && !row.costs[i]->ok) {
        ++errors;
        errs() << "error: rule " << row.rule->name << " on " << q.targets[i]->name << ": " << row.costs[i]->error << "\n";
      }
      if (!row.proofs[i])
        continue;
      if (row.proofs[i]->status == verify::ProofResult::Status::Proved)
        ++proved;
      else if (row.proofs[i]->status == verify::ProofResult::Status::Failed) {
        ++failed;
        errs() << "error: rule " << row.rule->name << " is wrong on " << q.targets[i]->name << ": "
               << row.proofs[i]->counterexample << "\n";
      }
    }
  errs() << "verify: " << rows.size() << " rules, " << proved << " (rule, target) proofs hold, " << failed
         << " failed, " << errors << " did not assemble; costed and proved in " << format("%.1f", wallSeconds)
         << " s (" << format("%.1f", cpuSeconds) << " s CPU, " << q.jobs << " threads)";
  if (!ProvedQueriesIn.empty()) {
    const verify::ProvedQueryCounts counts = verify::provedQueryCounts();
    errs() << "; " << counts.found << " queries found in " << ProvedQueriesIn << ", " << counts.solved << " solved";
  }
  errs() << "\n";
  return failed || errors ? 1 : 0;
}

int runCompare() {
  if (RulesFormat == Format::CostTable) {
    WithColor::error(errs(), "ptx2amdgpu") << "compare prints --format=md or json\n";
    return 2;
  }
  std::vector<const targets::TargetInfo *> ts = selectedTargets();
  if (ts.empty())
    return 2;
  std::string json;
  if (LlcCounts.empty()) {
    WithColor::error(errs(), "ptx2amdgpu") << "compare needs --llc=FILE (bench/llc_compare/llc_counts.json)\n";
    return 2;
  }
  if (!readInput(LlcCounts, json))
    return 1;
  std::string error;
  std::optional<compare::Comparison> cmp = compare::compareWithLlc(json, ts, costModel(), error);
  if (!cmp) {
    WithColor::error(errs(), "ptx2amdgpu") << LlcCounts << ": " << error << "\n";
    return 1;
  }
  std::string out = RulesFormat == Format::Json ? compare::formatJson(*cmp) : compare::formatMarkdown(*cmp);
  return writeOutput(out) ? 0 : 1;
}

// Diagnostics in colour only on a terminal, and never with NO_COLOR set
// (https://no-color.org).
bool noColor() {
  const char *v = std::getenv("NO_COLOR");
  return v && *v;
}
bool stderrColors() { return !noColor() && sys::Process::StandardErrHasColors(); }

// One input with -o naming a file (or stdout) translates that file; several
// inputs, a directory, or -o naming an existing directory is a batch run
// whose outputs mirror the inputs under the -o directory.
int runTranslateFiles() {
  if (Inputs.empty()) {
    WithColor::error(errs(), "ptx2amdgpu") << "no input files (see --help)\n";
    return 2;
  }
  const targets::TargetInfo *t = requireTarget();
  if (!t)
    return 2;
  bool batchMode = Inputs.size() > 1 || (Output != "-" && sys::fs::is_directory(Output));
  for (const std::string &in : Inputs)
    batchMode = batchMode || sys::fs::is_directory(in);

  batch::Options opts;
  opts.target = t;
  opts.kind = outputKind();
  opts.warnings.asErrors = WarningsAsErrors;
  opts.warnings.ignore = NoWarnings;
  opts.jobs = requestedJobs();
  opts.errorLimit = ErrorLimit;
  opts.maxInputBytes = maxInputBytes();
  opts.colors = stderrColors();
  opts.keepResults = !ReportFile.empty();
  opts.lowering.keepListing = opts.keepResults; // (only the report reads the rows' text)
  // (Register tuples as lists where only MC reads the text: an object or code
  // object, with no report.)
  if (opts.kind != batch::OutputKind::Asm && !opts.keepResults)
    opts.lowering.tuples = mir::TupleSpelling::List;
  opts.lowering.maxVgprs = MaxVgprs;
  opts.lowering.maxSgprs = MaxSgprs;
  opts.lowering.schedule = !NoSchedule;
  if (PrintIr)
    opts.lowering.printAfter = klower::loweringSteps();
  for (const std::string &step : PrintAfter) {
    const std::vector<std::string> &steps = klower::loweringSteps();
    if (std::find(steps.begin(), steps.end(), step) == steps.end()) {
      std::string names;
      for (const std::string &s : steps)
        names += (names.empty() ? "" : ", ") + s;
      WithColor::error(errs(), "ptx2amdgpu") << "--print-ir-after=" << step << ": no such lowering step (steps: " << names
                                             << ")\n";
      return 2;
    }
    opts.lowering.printAfter.push_back(step);
  }

  std::vector<batch::InputFile> files;
  if (batchMode) {
    if (Output == "-") {
      WithColor::error(errs(), "ptx2amdgpu") << "a directory or several inputs need -o DIRECTORY for the outputs\n";
      return 2;
    }
    if (sys::fs::exists(Output) && !sys::fs::is_directory(Output)) {
      WithColor::error(errs(), "ptx2amdgpu") << "-o '" << Output << "' is a file; a directory or several inputs need a directory\n";
      return 2;
    }
    std::string error;
    std::vector<std::string> warnings;
    if (!batch::collectInputs(Inputs, Output, opts.kind, files, warnings, error)) {
      WithColor::error(errs(), "ptx2amdgpu") << error << "\n";
      return 2;
    }
    for (const std::string &w : warnings) {
      if (NoWarnings)
        continue;
      (WarningsAsErrors ? WithColor::error(errs(), "ptx2amdgpu") : WithColor::warning(errs(), "ptx2amdgpu"))
          << w << " [-Wempty-file]\n";
      if (WarningsAsErrors)
        return 1;
    }
  } else {
    files.push_back({Inputs.front(), Output});
  }
  std::vector<std::string> inputs;
  for (const batch::InputFile &f : files)
    inputs.push_back(f.input);
  const InputFiles inputFiles(inputs);
  for (const batch::InputFile &f : files)
    if (inputFiles.refuse(f.output, "output"))
      return 2;
  if (inputFiles.refuse(ReportFile, "--report"))
    return 2;

  // A progress line on a terminal only; batch runs only.
  batch::Progress progress;
  const char *term = std::getenv("TERM");
  const bool showProgress = batchMode && errs().is_displayed() && files.size() > 1 && !(term && StringRef(term) == "dumb");
  progress.update = [](unsigned done, unsigned total, double secs) {
    const double eta = done ? secs / done * (total - done) : 0;
    errs() << "\r\x1b[K[" << done << "/" << total << "] " << format("%.1f", secs) << " s elapsed";
    if (done < total)
      errs() << ", about " << format("%.0f", eta) << " s left";
    errs().flush();
  };
  progress.clear = [] { errs() << "\r\x1b[K"; };
  batch::Summary summary = batch::run(files, opts, costModel(), errs(), showProgress ? &progress : nullptr);
  if (showProgress)
    progress.clear();

  int rc = summary.failed() ? 1 : 0;
  if (!ReportFile.empty()) {
    if (!writeOutput(report::renderHtml(summary, *t), ReportFile))
      rc = 1;
  }
  const StatsKind stats = *Stats == StatsKind::Auto ? (batchMode ? StatsKind::Text : StatsKind::None) : StatsKind(*Stats);
  if (stats == StatsKind::Text)
    errs() << batch::formatSummaryText(summary);
  if (stats == StatsKind::Json)
    (Output == "-" ? errs() : outs()) << batch::formatSummaryJson(summary, *t);
  return rc;
}

// X[,Y[,Z]], each at least 1 and at most CUDA's limit for that dimension
// (grid: 2^31-1 blocks in x, 65535 in y and z; block: 1024, 1024, 64 threads).
std::optional<Dim3> parseDim3(const std::string &text, const char *option, const unsigned (&max)[3]) {
  Dim3 d;
  unsigned *parts[] = {&d.x, &d.y, &d.z};
  SmallVector<StringRef, 3> fields;
  StringRef(text).split(fields, ',');
  bool ok = !fields.empty() && fields.size() <= 3;
  for (size_t i = 0; ok && i < fields.size(); ++i)
    ok = !fields[i].trim().getAsInteger(10, *parts[i]) && *parts[i] > 0 && *parts[i] <= max[i];
  if (!ok) {
    WithColor::error(errs(), "ptx2amdgpu") << "--" << option << "=" << printableName(text)
                                           << ": expected X[,Y[,Z]] with X in 1.." << max[0] << ", Y in 1.." << max[1]
                                           << " and Z in 1.." << max[2] << " (CUDA's limits)\n";
    return std::nullopt;
  }
  return d;
}

// A line on stderr for a run that takes a while: the first block of each
// trial and side, then at most twice a second; on a terminal it rewrites
// itself, elsewhere (with --progress) each report is a line.
struct ProgressLine {
  bool terminal = sys::Process::StandardErrIsDisplayed();
  std::string current;
  std::chrono::steady_clock::time_point last{};
  bool shown = false;

  void operator()(const std::string &what, uint64_t done, uint64_t blocks) {
    const auto now = std::chrono::steady_clock::now();
    if (what == current && done != blocks && now - last < std::chrono::milliseconds(500))
      return;
    current = what;
    last = now;
    errs() << (terminal ? "\r\x1b[K" : "") << "check: " << what << ", block " << done << " of " << blocks
           << (terminal ? "" : "\n");
    shown = true;
  }
  ~ProgressLine() {
    if (terminal && shown)
      errs() << "\r\x1b[K";
  }
};

// NAME=INTEGER; with `negative` a value may be negative (a signed parameter:
// its two's complement, truncated to the parameter's width by check).
bool parseAssignments(const cl::list<std::string> &list, const char *option, std::map<std::string, uint64_t> &out,
                      bool negative = false) {
  for (const std::string &a : list) {
    auto [name, value] = StringRef(a).split('=');
    uint64_t v = 0;
    int64_t sv = 0;
    const bool isNegative = negative && value.starts_with("-") && !value.getAsInteger(0, sv);
    if (isNegative)
      v = static_cast<uint64_t>(sv);
    if (name.empty() || value.empty() || (!isNegative && value.getAsInteger(0, v))) {
      WithColor::error(errs(), "ptx2amdgpu") << "--" << option << "=" << a << ": expected NAME=INTEGER\n";
      return false;
    }
    out[name.str()] = v;
  }
  return true;
}

// check: 0 all outputs agree, 1 a mismatch, 2 a usage or translation error, 3 a race in the PTX kernel.
int runCheck() {
  check::Options o;
  o.estimate = true;
  o.maxVgprs = MaxVgprs;
  o.maxSgprs = MaxSgprs;
  o.schedule = !NoSchedule;
  o.kernel = CheckKernel;
  if (!CheckAmd.empty()) {
    // --kernel PTX=AMD: HIP may name the kernel otherwise than nvcc did.
    if (auto [ptxName, amdName] = StringRef(CheckKernel).split('='); !amdName.empty()) {
      o.kernel = ptxName.str();
      o.amdKernel = amdName.str();
    }
    if (Mcpu == "all") {
      WithColor::error(errs(), "ptx2amdgpu") << "--amd: a code object is built for one GPU; give its -mcpu\n";
      return 2;
    }
    p2a::input::ReadResult bytes = p2a::input::readInput(CheckAmd, maxInputBytes());
    if (!bytes.ok) {
      WithColor::error(errs(), "ptx2amdgpu") << "--amd: " << printableName(bytes.error) << "\n";
      return 2;
    }
    o.amdObject = std::move(bytes.text);
  } else if (StringRef(CheckKernel).contains('=')) {
    WithColor::error(errs(), "ptx2amdgpu") << "--kernel PTX=AMD names a kernel of --amd's code object; no --amd given\n";
    return 2;
  }
  static const unsigned gridMax[3] = {0x7fffffff, 65535, 65535}, blockMax[3] = {1024, 1024, 64};
  std::optional<Dim3> grid = parseDim3(CheckGrid, "grid", gridMax), block = parseDim3(CheckBlock, "block", blockMax);
  if (!grid || !block)
    return 2;
  if (block->count() > 1024) {
    WithColor::error(errs(), "ptx2amdgpu") << "--block=" << printableName(CheckBlock) << ": " << block->count()
                                           << " threads; at most 1024 per block (CUDA's limit)\n";
    return 2;
  }
  // The product is what costs: every thread runs in the interpreter and the
  // emulator. A GPU takes more; check stops at 1024 x 65535 threads.
  if (grid->count() * block->count() > check::kMaxThreads) {
    WithColor::error(errs(), "ptx2amdgpu") << "--grid=" << printableName(CheckGrid) << " --block=" << printableName(CheckBlock)
                                           << ": " << grid->count() * block->count()
                                           << " threads in all; check runs each one and takes at most "
                                           << check::kMaxThreads << " (blocks x threads per block)\n";
    return 2;
  }
  o.grid = *grid;
  o.block = *block;
  if (CheckTrials < 1) {
    WithColor::error(errs(), "ptx2amdgpu") << "--trials: at least 1 (with none, nothing would be compared)\n";
    return 2;
  }
  o.trials = CheckTrials;
  o.seed = CheckSeed;
  if (CheckSharedBytes < -1) {
    WithColor::error(errs(), "ptx2amdgpu") << "--shared-bytes: expected a byte count\n";
    return 2;
  }
  if (CheckSharedBytes >= 0) {
    if (CheckSharedBytes > targets::kLdsBytesPerWorkgroup) {
      WithColor::error(errs(), "ptx2amdgpu") << "--shared-bytes: at most 65536 (64 KiB of LDS per workgroup)\n";
      return 2;
    }
    o.sharedBytes = static_cast<unsigned>(CheckSharedBytes);
  }
  if (!parseAssignments(CheckBuffers, "buffer", o.bufferBytes) || !parseAssignments(CheckParams, "param", o.params, true))
    return 2;
  for (const std::string &a : CheckInputs) {
    auto [name, file] = StringRef(a).split('=');
    if (name.empty() || file.empty()) {
      WithColor::error(errs(), "ptx2amdgpu") << "--input=" << a << ": expected NAME=FILE\n";
      return 2;
    }
    p2a::input::ReadResult bytes = p2a::input::readInput(file.str(), maxInputBytes());
    if (!bytes.ok) {
      WithColor::error(errs(), "ptx2amdgpu") << "--input=" << printableName(a) << ": " << printableName(bytes.error)
                                             << "\n";
      return 2;
    }
    o.contents[name.str()] = std::vector<uint8_t>(bytes.text.begin(), bytes.text.end());
  }
  o.dumpDir = CheckDump;
  for (const std::string &a : CheckFills) {
    auto [name, kind] = StringRef(a).split('=');
    static const std::pair<const char *, check::Fill> kinds[] = {
        {"zero", check::Fill::Zero}, {"ones", check::Fill::Ones}, {"seq32", check::Fill::Seq32}, {"random", check::Fill::Random}};
    auto it = std::find_if(std::begin(kinds), std::end(kinds), [&](const auto &k) { return kind == k.first; });
    if (name.empty() || it == std::end(kinds)) {
      WithColor::error(errs(), "ptx2amdgpu") << "--fill=" << a << ": expected NAME=zero|ones|seq32|random\n";
      return 2;
    }
    o.fills[name.str()] = it->second;
  }
  std::string text;
  if (!readInput(CheckFile, text))
    return 2;
  SourceFile src(CheckFile, text);
  std::vector<const targets::TargetInfo *> ts;
  if (Mcpu == "all") {
    for (const targets::TargetInfo &t : targets::allTargets())
      ts.push_back(&t);
  } else if (const targets::TargetInfo *t = requireTarget()) {
    ts.push_back(t);
  } else {
    return 2;
  }
  ProgressLine progress;
  if (CheckProgress || progress.terminal)
    o.progress = std::ref(progress);
  int rc = 0;
  for (const targets::TargetInfo *t : ts) {
    check::Result r = check::run(text, *t, o, costModel());
    if (progress.terminal && progress.shown)
      errs() << "\r\x1b[K";
    for (const Diagnostic &d : r.diagnostics)
      src.print(errs(), d);
    outs() << r.report;
    if (r.status == check::Status::Error)
      return 2;
    if (r.status == check::Status::Mismatch)
      rc = 1;
    if (r.status == check::Status::Race && rc == 0)
      rc = 3;
  }
  return rc;
}

// port-asm: each file is read, its asm statements ported (port/), and the
// result written atomically: to -o (a file for one input, a directory for
// several), over the input with -i, or to stdout.
int runPortAsm() {
  const bool toDirectory = PortInputs.size() > 1 && !PortInPlace;
  if (PortInPlace && Output != "-") {
    WithColor::error(errs(), "ptx2amdgpu") << "port-asm: give -i or -o, not both\n";
    return 2;
  }
  if (toDirectory && Output == "-") {
    WithColor::error(errs(), "ptx2amdgpu") << "port-asm: several inputs need -i or -o DIRECTORY\n";
    return 2;
  }
  // -o DIRECTORY mirrors the inputs' relative paths (a source tree keeps
  // its shape); an absolute path or one leaving the current directory is
  // written under its file name.
  auto outputPathOf = [&](const std::string &in) {
    SmallString<256> rel(in);
    sys::path::remove_dots(rel, /*remove_dot_dot=*/true);
    const bool keepPath = sys::path::is_relative(rel) && !StringRef(rel).starts_with("..");
    SmallString<256> out(Output);
    sys::path::append(out, keepPath ? StringRef(rel) : sys::path::filename(in));
    return std::string(out);
  };
  if (toDirectory) {
    std::map<std::string, std::string> byName;
    for (const std::string &in : PortInputs) {
      const std::string out = outputPathOf(in);
      if (auto [it, fresh] = byName.emplace(out, in); !fresh) {
        WithColor::error(errs(), "ptx2amdgpu") << "port-asm: '" << in << "' and '" << it->second
                                               << "' would both be written as " << out << "\n";
        return 2;
      }
    }
  }
  const InputFiles inputFiles({PortInputs.begin(), PortInputs.end()});
  if (!PortInPlace && !toDirectory && inputFiles.refuse(Output, "-o"))
    return 2;
  if (inputFiles.refuse(PortReport, "--report"))
    return 2;
  struct Done {
    std::string name, text;
    port::PortedFile result;
  };
  std::vector<std::unique_ptr<Done>> done;
  int rc = 0;
  unsigned statements = 0, ported = 0;
  // All files first: a macro defined in one may be expanded in another.
  for (const std::string &in : PortInputs) {
    auto d = std::make_unique<Done>();
    d->name = in;
    if (!readInput(in, d->text)) {
      rc = 1;
      continue;
    }
    done.push_back(std::move(d));
  }
  std::vector<const std::string *> texts;
  for (const auto &d : done)
    texts.push_back(&d->text);
  std::vector<port::PortedFile> results = port::portSources(texts, PortModeOpt, costModel(), PortStyleOpt);
  for (size_t i = 0; i < done.size(); ++i) {
    Done &d = *done[i];
    d.result = std::move(results[i]);
    SourceFile src(d.name, d.text);
    for (const Diagnostic &diag : d.result.diags)
      src.print(errs(), diag);
    statements += static_cast<unsigned>(d.result.sites.size());
    ported += d.result.ported;
    std::string out;
    if (PortInPlace)
      out = d.name;
    else if (toDirectory) {
      out = outputPathOf(d.name);
      if (std::error_code ec = sys::fs::create_directories(sys::path::parent_path(out))) {
        WithColor::error(errs(), "ptx2amdgpu") << "cannot create directory '" << sys::path::parent_path(out)
                                               << "': " << ec.message() << "\n";
        rc = 1;
        continue;
      }
    } else
      out = Output;
    // Nothing to change: an in-place run leaves the file untouched.
    if (!(PortInPlace && d.result.text == d.text) && !writeOutput(d.result.text, out))
      rc = 1;
  }
  if (!PortReport.empty()) {
    std::vector<port::ReportedFile> files;
    for (const auto &d : done)
      files.push_back({d->name, &d->text, &d->result});
    if (!writeOutput(port::formatPortReport(files), PortReport))
      rc = 1;
  }
  errs() << "port-asm: " << statements << " asm statement" << (statements == 1 ? "" : "s") << ", " << ported
         << " ported and proved, " << statements - ported << " left as " << (statements - ported == 1 ? "it is" : "they are")
         << "\n";
  return rc;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  if (noColor())
    errs().enable_colors(false);
  cl::SetVersionPrinter(printVersion);
  registerStatsOption();
  cl::HideUnrelatedOptions(Category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "ptx2amdgpu: translate NVIDIA PTX to AMD GPU code (GCN, CDNA, RDNA)\n\n"
                                   "  ptx2amdgpu -fsyntax-only FILE...\n"
                                   "  ptx2amdgpu explain [-mcpu=gfxN] [--format=text|json] SNIPPET|FILE|-\n"
                                   "  ptx2amdgpu rules [--format=text|md|json] [-mcpu=gfxN] [--verify] [FILTER]\n"
                                   "  ptx2amdgpu compare --llc=llc_counts.json [--format=md|json]\n"
                                   "  ptx2amdgpu check FILE.ptx [--kernel NAME[=AMD]] [--amd FILE.hsaco] [-mcpu=gfxN|all] [--grid X,Y,Z] [--block X,Y,Z]\n"
                                   "                   [--trials N] [--seed S] [--buffer NAME=BYTES] [--param NAME=VALUE] [--shared-bytes N]\n"
                                   "  ptx2amdgpu port-asm FILE.cu... [-o OUT | -i] [--style=builtin|asm] [--guard|--replace] [--report=FILE.html]\n"
                                   "  ptx2amdgpu FILE.ptx [-mcpu=gfxN] [-o OUT] [-filetype=asm|obj|hsaco] [--print-ir-after=STEP | --print-ir]\n"
                                   "  ptx2amdgpu INPUT... -o OUTDIR [-j N] [--stats=text|json] [--report=FILE.html]\n",
                                   &errs()))
    return 2;
  // An empty -o (an unset shell variable) would write into the current
  // directory under the input's name.
  if (Output.empty()) {
    WithColor::error(errs(), "ptx2amdgpu") << "-o: expected a file or directory name, got an empty one\n";
    return 2;
  }
  try {
    if (ExplainCmd || RulesCmd || CompareCmd || CheckCmd || PortAsmCmd)
      allocator::keepFreedPages();
    if (ExplainCmd)
      return runExplain();
    if (RulesCmd)
      return runRules();
    if (CompareCmd)
      return runCompare();
    if (CheckCmd)
      return runCheck();
    if (PortAsmCmd)
      return runPortAsm();
    if (SyntaxOnly)
      return runSyntaxOnly();
    return runTranslateFiles();
  } catch (const std::exception &e) {
    WithColor::error(errs(), "ptx2amdgpu") << "internal error: " << e.what() << "\n";
    return 3;
  }
}
