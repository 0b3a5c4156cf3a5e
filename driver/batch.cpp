#include "driver/batch.hpp"
#include "driver/input_file.hpp"

#include "driver/code_object_link.hpp"

#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "isel/cost_model.hpp"
#include "driver/output_file.hpp"
#include "ptx/source_diagnostics.hpp"

#include <llvm/Support/Format.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/ThreadPool.h>
#include <llvm/Support/Threading.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <set>

namespace p2a::batch {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

const char *outputExtension(OutputKind kind) {
  return kind == OutputKind::Object ? ".o" : kind == OutputKind::CodeObject ? ".hsaco" : ".s";
}

namespace {

std::string outputFor(const std::string &relative, const std::string &outDir, OutputKind kind) {
  llvm::SmallString<256> out(outDir);
  path::append(out, relative);
  path::replace_extension(out, outputExtension(kind));
  return std::string(out);
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A string stream that says whether it wants colours: diagnostics are
// rendered into one per file (printed later, in input order), and a plain
// raw_string_ostream never reports colours because it is not a terminal.
class DiagnosticBuffer : public llvm::raw_string_ostream {
public:
  DiagnosticBuffer(std::string &s, bool colors) : llvm::raw_string_ostream(s), colors_(colors) { enable_colors(colors); }
  bool has_colors() const override { return colors_; }

private:
  bool colors_;
};

// Renders a file's diagnostics clang-style, stopping after `limit` errors
// with a note of how many were left out.
std::string renderDiagnostics(const SourceFile &src, const Diagnostics &diags, unsigned limit, bool colors) {
  std::string text;
  DiagnosticBuffer os(text, colors);
  unsigned errors = 0, hidden = 0;
  for (const Diagnostic &d : diags) {
    if (d.severity == Diagnostic::Severity::Error && limit && errors >= limit) {
      ++hidden;
      continue;
    }
    if (d.severity == Diagnostic::Severity::Error)
      ++errors;
    src.print(os, d);
  }
  if (hidden)
    src.print(os, Diagnostic{Diagnostic::Severity::Note, {},
                             std::to_string(hidden) + " more error" + (hidden == 1 ? "" : "s") +
                                 " not shown (-ferror-limit=" + std::to_string(limit) + "; 0 shows all)"});
  return text;
}

// A failure of the whole file (unreadable, unwritable, internal), with no
// location in it: added to its diagnostics, and the file fails.
void addFileError(FileOutcome &out, const std::string &message, bool colors) {
  out.fileErrors.push_back(message);
  SourceFile src(out.file.input, "");
  out.diagnostics += renderDiagnostics(src, {Diagnostic{Diagnostic::Severity::Error, {}, message}}, 0, colors);
  out.errors++;
  out.status = FileOutcome::Status::Failed;
}

// Creates the output's directory, then writes atomically.
std::string writeOutputFile(const std::string &outPath, const std::string &data) {
  if (outPath != "-") {
    llvm::StringRef parent = path::parent_path(outPath);
    if (!parent.empty())
      if (std::error_code ec = fs::create_directories(parent))
        return "cannot create directory '" + parent.str() + "': " + ec.message();
  }
  return output::writeAtomically(outPath, data);
}

} // namespace

bool emit(const std::string &assembly, OutputKind kind, const targets::TargetInfo &t, cost::CostModel &costs,
          const std::string &header, std::string &out, std::string &error, const std::string *object) {
  if (kind == OutputKind::Asm) {
    out = header + assembly;
    return true;
  }
  const bool binary = kind == OutputKind::Object || kind == OutputKind::CodeObject;
  if (binary && object && !object->empty()) {
    if (kind == OutputKind::CodeObject)
      return link::linkCodeObject(*object, out, error);
    out = *object;
    return true;
  }
  mc::AssembleResult r = costs.assembler(t).assemble(
      assembly, binary ? mc::OutputKind::Object : mc::OutputKind::AsmWithEncoding);
  if (!r.ok) {
    error = "internal error: LLVM MC rejected the translation";
    if (!r.diagnostics.empty())
      error += ": " + r.diagnostics.front().message + " in '" + r.diagnostics.front().source_line + "'";
    return false;
  }
  if (kind == OutputKind::CodeObject)
    return link::linkCodeObject(r.output, out, error);
  out = kind == OutputKind::Object ? r.output : header + r.output;
  return true;
}

bool collectInputs(const std::vector<std::string> &args, const std::string &outDir, OutputKind kind,
                   std::vector<InputFile> &files, std::vector<std::string> &warnings, std::string &error) {
  std::map<std::string, std::string> claimedBy; // output -> input
  auto add = [&](const std::string &input, const std::string &relative) {
    std::string out = outputFor(relative, outDir, kind);
    auto [it, fresh] = claimedBy.emplace(out, input);
    if (!fresh) {
      error = "'" + input + "' and '" + it->second + "' would both write '" + out + "'";
      return false;
    }
    files.push_back({input, out});
    return true;
  };
  for (const std::string &given : args) {
    fs::file_status st;
    if (std::error_code ec = fs::status(given, st)) {
      error = "cannot read '" + given + "': " + ec.message();
      return false;
    }
    if (!fs::is_directory(st)) {
      if (!add(given, path::filename(given).str()))
        return false;
      continue;
    }
    // "in//" and "in/" walk as "in", so that every path found starts with it.
    std::string arg = given;
    while (arg.size() > 1 && path::is_separator(arg.back()))
      arg.pop_back();
    std::vector<std::string> found;
    std::error_code ec;
    for (fs::recursive_directory_iterator it(arg, ec, /*follow_symlinks=*/false), end; it != end && !ec;
         it.increment(ec)) {
      if (path::extension(it->path()) != ".ptx")
        continue;
      // A .ptx name that is no readable file (a dangling link, a device, a
      // name too long to open) is said, not silently passed over.
      fs::file_status est;
      if (std::error_code sec = fs::status(it->path(), est))
        warnings.push_back("skipping '" + printableName(it->path()) + "': " + sec.message());
      else if (fs::is_regular_file(est))
        found.push_back(it->path());
      else if (!fs::is_directory(est))
        warnings.push_back("skipping '" + printableName(it->path()) + "': not a regular file");
    }
    if (ec) {
      error = "cannot walk '" + given + "': " + ec.message();
      return false;
    }
    if (found.empty())
      warnings.push_back("no .ptx files under '" + given + "'");
    std::sort(found.begin(), found.end()); // directory order is not deterministic
    for (const std::string &f : found) {
      llvm::StringRef rel(f);
      if (!rel.consume_front(arg)) {
        error = "internal error: '" + f + "' is not under '" + arg + "'";
        return false;
      }
      rel = rel.ltrim('/');
      if (!add(f, rel.str()))
        return false;
    }
  }
  return true;
}

FileOutcome translateFile(const InputFile &file, const Options &opts, cost::CostModel &costs,
                          llvm::ThreadPoolInterface *pool) {
  const auto t0 = std::chrono::steady_clock::now();
  FileOutcome out;
  out.file = file;
  try {
    input::ReadResult read = input::readInput(file.input, opts.maxInputBytes);
    if (!read.ok) {
      addFileError(out, read.error, opts.colors);
      out.seconds = secondsSince(t0);
      return out;
    }
    SourceFile src(file.input, std::move(read.text));
    out.lines = static_cast<unsigned>(std::count(src.text().begin(), src.text().end(), '\n') +
                                      (!src.text().empty() && src.text().back() != '\n'));
    auto res = std::make_shared<module::ModuleResult>(
        module::translateModule(src.text(), *opts.target, costs, opts.warnings, opts.lowering, pool));
    for (const module::FunctionResult &f : res->functions)
      if (f.kernel)
        out.diagnostics += f.kernel->irDump;
    out.diagnostics += renderDiagnostics(src, res->diagnostics, opts.errorLimit, opts.colors);
    for (const Diagnostic &d : res->diagnostics)
      (d.severity == Diagnostic::Severity::Error ? out.errors : out.warnings) +=
          d.severity != Diagnostic::Severity::Note;
    out.instructions = res->ptxInstructions;
    out.unsupported = res->unsupported;
    out.functions = static_cast<unsigned>(res->functions.size());
    out.kernels = res->kernelCount();
    for (const module::FunctionResult &f : res->functions) {
      FileOutcome::Kernel k{f.name, f.isEntry, f.ok, f.translation.numVgprs, f.translation.numSgprs,
                            translate::amdInstructionCount(f.translation)};
      for (const mir::TranslatedInstruction &ti : f.translation.instructions)
        ++k.rules[ti.rule ? ti.rule->name : "(kernel lowering)"];
      if (f.kernel) {
        k.ldsBytes = f.kernel->groupBytes;
        k.scratchBytes = f.kernel->privateBytes;
        k.spilledVgprValues = f.kernel->spilledVgprValues;
        k.spilledSgprValues = f.kernel->spilledSgprValues;
        k.spillScratchBytes = f.kernel->spillScratchBytes;
        k.occupancy = targets::occupancy(*opts.target, k.vgprs, k.sgprs, k.ldsBytes);
      }
      out.kernelStats.push_back(std::move(k));
    }
    if (opts.keepResults) {
      out.source = src.text();
      out.result = res;
    }
    out.status = res->skipped ? FileOutcome::Status::Skipped
                 : res->ok    ? FileOutcome::Status::Translated
                              : FileOutcome::Status::Failed;
    // A skipped file (nothing to translate) still gets its (empty) output, so
    // that an older output of the same name never passes for a current one.
    if (out.status != FileOutcome::Status::Failed) {
      std::string data, error;
      const std::string header = "; ptx2amdgpu " + printableName(file.input) + " for " + opts.target->name + "\n";
      if (!emit(res->assembly, opts.kind, *opts.target, costs, header, data, error, &res->object))
        addFileError(out, error, opts.colors);
      else if (std::string werr = writeOutputFile(file.output, data); !werr.empty())
        addFileError(out, werr, opts.colors);
    }
  } catch (const std::exception &e) {
    addFileError(out, std::string("internal error: ") + e.what(), opts.colors);
  } catch (...) {
    addFileError(out, "internal error: unknown exception", opts.colors);
  }
  out.seconds = secondsSince(t0);
  return out;
}

unsigned Summary::count(FileOutcome::Status status) const {
  return static_cast<unsigned>(
      std::count_if(files.begin(), files.end(), [&](const FileOutcome &f) { return f.status == status; }));
}

Summary run(const std::vector<InputFile> &files, const Options &opts, cost::CostModel &costs,
            llvm::raw_ostream &diagOut, const Progress *progress) {
  const auto t0 = std::chrono::steady_clock::now();
  Summary s;
  s.files.resize(files.size());
  s.jobs = opts.jobs ? opts.jobs : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
  std::mutex mu;
  std::vector<bool> done(files.size(), false);
  size_t nextToPrint = 0;
  unsigned finished = 0;
  // One pool for files and, within each file, its kernels (a single big
  // module uses every thread too).
  std::optional<llvm::DefaultThreadPool> pool;
  if (s.jobs > 1)
    pool.emplace(llvm::hardware_concurrency(s.jobs));
  auto work = [&](size_t i) {
    FileOutcome o;
    try {
      o = translateFile(files[i], opts, costs, pool ? &*pool : nullptr);
    } catch (...) { // translateFile catches everything it can; this is the last resort
      o.file = files[i];
      o.status = FileOutcome::Status::Failed;
      o.errors = 1;
      o.fileErrors.push_back("internal error while translating this file");
      o.diagnostics = files[i].input + ": error: internal error while translating this file\n";
    }
    std::lock_guard<std::mutex> lock(mu);
    s.files[i] = std::move(o);
    done[i] = true;
    ++finished;
    while (nextToPrint < files.size() && done[nextToPrint]) {
      if (progress && !s.files[nextToPrint].diagnostics.empty())
        progress->clear();
      diagOut << s.files[nextToPrint].diagnostics;
      ++nextToPrint;
    }
    diagOut.flush();
    if (progress)
      progress->update(finished, static_cast<unsigned>(files.size()), secondsSince(t0));
  };
  if (!pool || files.size() <= 1) {
    for (size_t i = 0; i < files.size(); ++i)
      work(i);
  } else {
    for (size_t i = 0; i < files.size(); ++i)
      pool->async([&work, i] { work(i); });
    pool->wait();
  }
  s.seconds = secondsSince(t0);
  return s;
}

namespace {

std::map<std::string, unsigned> unsupportedTotals(const Summary &s) {
  std::map<std::string, unsigned> total;
  for (const FileOutcome &f : s.files)
    for (const auto &[op, n] : f.unsupported)
      total[op] += n;
  return total;
}

// Most frequent first, ties by name (deterministic).
std::vector<std::pair<std::string, unsigned>> byCount(const std::map<std::string, unsigned> &m) {
  std::vector<std::pair<std::string, unsigned>> v(m.begin(), m.end());
  std::stable_sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  return v;
}

} // namespace

std::string formatSummaryText(const Summary &s, unsigned topOpcodes) {
  unsigned kernels = 0, instructions = 0, lines = 0, kernelsOk = 0;
  for (const FileOutcome &f : s.files) {
    kernels += f.kernels;
    instructions += f.instructions;
    lines += f.lines;
    // A kernel counts as translated when its file's output was written.
    for (const FileOutcome::Kernel &k : f.kernelStats)
      kernelsOk += k.isEntry && k.ok && f.status == FileOutcome::Status::Translated;
  }
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "ptx2amdgpu: " << s.files.size() << " file" << (s.files.size() == 1 ? "" : "s") << ": " << s.translated()
     << " translated, " << s.failed() << " failed, " << s.skipped() << " skipped; " << kernelsOk << " of " << kernels
     << " kernels translated; " << instructions << " PTX instructions in " << lines << " lines; "
     << llvm::format("%.2f", s.seconds) << " s with " << s.jobs << " thread" << (s.jobs == 1 ? "" : "s") << "\n";
  // Per kernel: registers, scratch, size and the rules used, most used first.
  for (const FileOutcome &f : s.files)
    for (const FileOutcome::Kernel &k : f.kernelStats) {
      if (!k.ok)
        continue;
      os << "ptx2amdgpu: " << (k.isEntry ? "kernel " : "function ") << k.name << ": " << k.vgprs << " VGPRs, "
         << k.sgprs << " SGPRs, " << k.scratchBytes << " bytes scratch, " << k.ldsBytes << " bytes LDS, ";
      if (k.spilledVgprValues || k.spilledSgprValues)
        os << "spills: " << k.spilledVgprValues << " VGPR values to scratch (" << k.spillScratchBytes << " bytes), "
           << k.spilledSgprValues << " SGPR values to VGPR lanes, ";
      if (k.occupancy.wavesPerSimd)
        os << "occupancy " << k.occupancy.wavesPerSimd << " waves/SIMD (" << k.occupancy.limitedBy << ")"
           << (k.occupancy.workgroupsPerCuByLds
                   ? ", LDS allows " + std::to_string(k.occupancy.workgroupsPerCuByLds) + " workgroups/CU"
                   : std::string())
           << ", ";
      os << k.amdInstructions << " AMD instructions; rules:";
      std::vector<std::pair<std::string, unsigned>> used = byCount(k.rules);
      for (size_t i = 0; i < used.size(); ++i)
        os << (i ? ", " : " ") << used[i].first << " x" << used[i].second;
      os << "\n";
    }
  std::vector<std::pair<std::string, unsigned>> top = byCount(unsupportedTotals(s));
  if (!top.empty()) {
    os << "ptx2amdgpu: unsupported opcodes:";
    for (size_t i = 0; i < top.size() && i < topOpcodes; ++i)
      os << (i ? ", " : " ") << top[i].first << " (" << top[i].second << ")";
    if (top.size() > topOpcodes)
      os << ", and " << (top.size() - topOpcodes) << " more";
    os << "\n";
  }
  return out;
}

std::string formatSummaryJson(const Summary &s, const targets::TargetInfo &t) {
  namespace json = llvm::json;
  json::Array files;
  unsigned kernels = 0, instructions = 0, lines = 0;
  for (const FileOutcome &f : s.files) {
    kernels += f.kernels;
    instructions += f.instructions;
    lines += f.lines;
    json::Array ks;
    for (const FileOutcome::Kernel &k : f.kernelStats) {
      json::Object rules;
      for (const auto &[name, n] : k.rules)
        rules[name] = n;
      ks.push_back(json::Object{{"name", k.name},
                                {"kind", k.isEntry ? "entry" : "func"},
                                {"translated", k.ok},
                                {"vgprs", k.vgprs},
                                {"sgprs", k.sgprs},
                                {"scratch_bytes", k.scratchBytes},
                                {"spilled_vgpr_values", k.spilledVgprValues},
                                {"spilled_sgpr_values", k.spilledSgprValues},
                                {"spill_scratch_bytes", k.spillScratchBytes},
                                {"lds_bytes", k.ldsBytes},
                                {"occupancy_waves_per_simd", k.occupancy.wavesPerSimd},
                                {"occupancy_limited_by", k.occupancy.limitedBy},
                                {"lds_workgroups_per_cu", k.occupancy.workgroupsPerCuByLds},
                                {"amd_instructions", k.amdInstructions},
                                {"rules", std::move(rules)}});
    }
    json::Array unsup;
    for (const auto &[op, n] : byCount(f.unsupported))
      unsup.push_back(json::Object{{"opcode", op}, {"count", n}});
    const char *status = f.status == FileOutcome::Status::Translated ? "translated"
                         : f.status == FileOutcome::Status::Skipped  ? "skipped"
                                                                     : "failed";
    files.push_back(json::Object{{"input", f.file.input},
                                 {"output", f.status != FileOutcome::Status::Failed ? json::Value(f.file.output)
                                                                                    : json::Value(nullptr)},
                                 {"status", status},
                                 {"errors", f.errors},
                                 {"warnings", f.warnings},
                                 {"lines", f.lines},
                                 {"instructions", f.instructions},
                                 {"functions", std::move(ks)},
                                 {"unsupported", std::move(unsup)},
                                 {"seconds", f.seconds}});
  }
  json::Array unsup;
  for (const auto &[op, n] : byCount(unsupportedTotals(s)))
    unsup.push_back(json::Object{{"opcode", op}, {"count", n}});
  json::Object root{{"target", t.name},
                    {"files", json::Object{{"total", static_cast<int64_t>(s.files.size())},
                                           {"translated", s.translated()},
                                           {"failed", s.failed()},
                                           {"skipped", s.skipped()}}},
                    {"kernels", kernels},
                    {"instructions", instructions},
                    {"lines", lines},
                    {"seconds", s.seconds},
                    {"jobs", s.jobs},
                    {"unsupported", std::move(unsup)},
                    {"per_file", std::move(files)}};
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::formatv("{0:2}", json::Value(std::move(root))) << "\n";
  return out;
}

} // namespace p2a::batch
