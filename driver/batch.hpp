// Batch conversion: many PTX files (named, or found by walking directories
// for *.ptx) translated in parallel on LLVM's thread pool, each output written
// atomically under an output directory that mirrors the inputs' layout, and a
// summary (text or JSON) of what translated, failed or was skipped.
//
// Outputs do not depend on the number of threads: every file is translated
// on its own, and diagnostics are printed in input order.
#pragma once

#include "targets/occupancy.hpp"
#include "driver/input_file.hpp"
#include "driver/module_translation.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace llvm {
class ThreadPoolInterface;
}
namespace p2a::batch {

enum class OutputKind { Asm, AsmWithEncoding, Object, CodeObject };

// The extension an output of this kind gets: .s or .o.
const char *outputExtension(OutputKind kind);

// The bytes of an output: the assembly with `header` (already checked by MC
// during translation), the assembly with MC's encodings, or an ELF object:
// `object` when the translation assembled it already (ModuleResult::object:
// a module is assembled once), else assembled here. False with `error` set
// when MC rejects it (an internal error).
bool emit(const std::string &assembly, OutputKind kind, const targets::TargetInfo &t, cost::CostModel &costs,
          const std::string &header, std::string &out, std::string &error, const std::string *object = nullptr);

struct InputFile {
  std::string input;  // as given or found: "kernels/a.ptx"
  std::string output; // "OUT/a.s", or "-" for stdout
};

// Expands INPUT... (files, and directories walked recursively for *.ptx in
// sorted order) into (input, output) pairs under outDir. A named file's
// output is outDir/its name; a file found under a directory D keeps its path
// relative to D. False with a message when an input is missing or two
// inputs would write the same output.
// A directory without any .ptx file adds a warning.
bool collectInputs(const std::vector<std::string> &args, const std::string &outDir, OutputKind kind,
                   std::vector<InputFile> &files, std::vector<std::string> &warnings, std::string &error);

struct Options {
  const targets::TargetInfo *target = nullptr;
  OutputKind kind = OutputKind::Asm;
  module::WarningOptions warnings;
  unsigned jobs = 0;        // 0: one per core
  unsigned errorLimit = 20; // per file, as clang's -ferror-limit (0: no limit)
  uint64_t maxInputBytes = input::kDefaultMaxBytes; // a larger input is that file's error
  bool colors = false;      // ANSI colours in diagnostics
  bool keepResults = false; // keep each file's source and ModuleResult (for the HTML report)
  klower::Options lowering;  // --print-ir-after: each kernel's IR dump goes out with its diagnostics
};

struct FileOutcome {
  enum class Status { Translated, Failed, Skipped } status = Status::Failed;
  InputFile file;
  std::string diagnostics; // rendered clang-style, possibly coloured
  std::vector<std::string> fileErrors; // failures of the whole file (read, write, MC), uncoloured
  unsigned errors = 0, warnings = 0;
  unsigned lines = 0;        // PTX source lines
  unsigned instructions = 0; // PTX instructions in function bodies
  unsigned kernels = 0, functions = 0;
  std::map<std::string, unsigned> unsupported;
  struct Kernel {
    std::string name;
    bool isEntry = false;
    bool ok = false;
    unsigned vgprs = 0, sgprs = 0, amdInstructions = 0;
    unsigned scratchBytes = 0; // private segment per thread (.local variables and VGPR spills)
    // Spills (lowering/spilling.cpp): values in scratch instead of VGPRs, in
    // VGPR lanes instead of SGPRs, and the scratch bytes the first take.
    unsigned spilledVgprValues = 0, spilledSgprValues = 0, spillScratchBytes = 0;
    unsigned ldsBytes = 0;     // group segment
    targets::Occupancy occupancy; // kernels only
    std::map<std::string, unsigned> rules; // rule name -> statements it lowered
  };
  std::vector<Kernel> kernelStats;
  double seconds = 0;
  // With Options::keepResults:
  std::string source;
  std::shared_ptr<module::ModuleResult> result;
};

// Translates one file and writes its output atomically: a skipped file (no
// function body) gets an output without code, a failed one gets nothing.
// Never throws: an internal error becomes a failed outcome.
// With a pool, the module's kernels are translated on its threads too.
FileOutcome translateFile(const InputFile &file, const Options &opts, cost::CostModel &costs,
                          llvm::ThreadPoolInterface *pool = nullptr);

struct Summary {
  std::vector<FileOutcome> files; // in input order
  double seconds = 0;
  unsigned jobs = 1;
  unsigned count(FileOutcome::Status status) const;
  unsigned translated() const { return count(FileOutcome::Status::Translated); }
  unsigned failed() const { return count(FileOutcome::Status::Failed); }
  unsigned skipped() const { return count(FileOutcome::Status::Skipped); }
};

// A terminal progress line: update() after each file with (files done,
// total, seconds elapsed); clear() before diagnostics are printed under it.
struct Progress {
  std::function<void(unsigned, unsigned, double)> update;
  std::function<void()> clear;
};

// Translates every file, printing each file's diagnostics to `diagOut` in
// input order as soon as it and every file before it are done.
Summary run(const std::vector<InputFile> &files, const Options &opts, cost::CostModel &costs,
            llvm::raw_ostream &diagOut, const Progress *progress = nullptr);

// "12 files: 10 translated, 1 failed, 1 skipped; ..." and the top
// unsupported opcodes.
std::string formatSummaryText(const Summary &s, unsigned topOpcodes = 10);
// The same, plus per-file and per-kernel figures, as JSON for build systems.
std::string formatSummaryJson(const Summary &s, const targets::TargetInfo &t);

} // namespace p2a::batch
