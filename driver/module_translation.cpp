#include "driver/module_translation.hpp"
#include "driver/statement_budget.hpp"

#include "driver/launch_bounds.hpp"
#include "grammar/ast_blocks.hpp"
#include "grammar/parser.hpp"
#include "ptx/ptx_decoder.hpp"
#include "targets/target_info.hpp"

#include <llvm/Support/MathExtras.h>
#include <llvm/Support/ThreadPool.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
// jemalloc's control interface, where jemalloc is the malloc (the
// executable links it; weak: null under glibc's allocator).
extern "C" int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen)
    __attribute__((weak));
#endif
#include <set>
#include <tuple>
#include <type_traits>
#include <utility>

namespace p2a::module {

namespace ast = ::ptx::ast;

namespace {

// Performance-tuning directives (PTX ISA 11.4) the translation does not act
// on: cluster shapes (no AMD equivalent) and the deprecated .maxnctapersm. A
// user relying on them should know. (.maxntid, .reqntid, .minnctapersm and
// .maxnreg are launch bounds: launch_bounds.cpp.)
bool isIgnoredDirective(const std::string &name) {
  return name == "maxnctapersm" || name == "maxclusterrank" || name == "reqnctapercluster";
}

} // namespace

unsigned ModuleResult::errorCount() const {
  return static_cast<unsigned>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const Diagnostic &d) {
    return d.severity == Diagnostic::Severity::Error;
  }));
}

unsigned ModuleResult::kernelCount() const {
  return static_cast<unsigned>(
      std::count_if(functions.begin(), functions.end(), [](const FunctionResult &f) { return f.isEntry; }));
}

ModuleResult translateModule(const std::string &text, const targets::TargetInfo &t, cost::CostModel &costs,
                             const WarningOptions &warnings, const klower::Options &lowering,
                             llvm::ThreadPoolInterface *pool) {
  ModuleResult res;
  // Kernel bodies are parsed where each kernel is translated (below), and
  // their trees dropped once decoded: at most the kernels in flight have one.
  ::ptx::ParseResult pr = ::ptx::parseModule(text, {.deferEntryBodies = true});
  std::vector<const ::ptx::DeferredBody *> deferredBody(pr.module.functions.size(), nullptr);
  std::vector<bool> isDeferred(pr.module.functions.size(), false);
  for (const ::ptx::DeferredBody &d : pr.deferredBodies) {
    deferredBody[d.function] = &d;
    isDeferred[d.function] = true;
  }
  // (After syntax errors, a missing .version is noise: junk lacks one too. A
  // kernel's own syntax errors are found when it is parsed, below.)
  if (pr.ok())
    ptx::checkModuleStructure(pr.module, res.diagnostics, isDeferred);
  for (const ::ptx::SyntaxError &e : pr.errors)
    error(res.diagnostics, e.loc, e.message);
  // Frees a container's memory now: swapped with an empty one. (`v = {}`
  // assigns an empty initializer list, which clears and keeps the capacity:
  // nvcomp's RunLengthEncode held 40 MiB of emptied row vectors so.)
  auto release = [](auto &v) { std::decay_t<decltype(v)>().swap(v); };
  auto countInstructions = [](const ast::Block &body) {
    unsigned n = 0;
    for (const ast::Statement *st : ::ptx::ast::flatten(body))
      n += std::holds_alternative<ast::Instruction>(*st);
    return n;
  };

  Diagnostics warns;
  bool anyBody = false;
  std::vector<ast::Function *> translated;
  std::vector<const ::ptx::DeferredBody *> translatedBody; // (a deferred one, or null)
  const bool hasKernels = std::any_of(pr.module.functions.begin(), pr.module.functions.end(),
                                      [](const ast::Function &f) { return f.is_entry && f.body; }) ||
                          !pr.deferredBodies.empty();
  for (size_t i = 0; i < pr.module.functions.size(); ++i) {
    ast::Function &f = pr.module.functions[i];
    if (!f.body && !deferredBody[i])
      continue; // a prototype or .extern declaration
    anyBody = true;
    if (f.body)
      res.ptxInstructions += countInstructions(*f.body);
    if (!f.is_entry && hasKernels) {
      // Its instructions are counted, decoded and lowered inside each kernel
      // that calls it (errors show at its lines then).
      res.inlinedFunctions.push_back(f.name);
      continue;
    }
    translated.push_back(&f);
    translatedBody.push_back(deferredBody[i]);
  }

  // Each function is translated on its own, into a slot of its own: on the
  // pool's threads when there is one (kernels are independent; see
  // statement_budget.hpp), and merged in module order, so the result is the
  // same for every -j.
  struct Slot {
    FunctionResult fr;
    Diagnostics diags, warns;
    unsigned ptxInstructions = 0; // of a deferred body
    std::exception_ptr failure;
  };
  std::vector<Slot> slots(translated.size());
  // The .func bodies are read while kernels are prepared (their statement
  // estimates) and decoded (inlining), and by nothing after: once the last
  // kernel is decoded they go, before the lowering that follows it is at
  // its peak (KeyHunt at -j2: its last big kernel is lowered last, beside
  // 12 MB of syntax trees of the functions it had inlined).
  std::atomic<size_t> kernelsToDecode = static_cast<size_t>(
      std::count_if(translated.begin(), translated.end(), [](const ast::Function *f) { return f->is_entry; }));
  auto kernelDecoded = [&] {
    if (--kernelsToDecode == 0)
      for (ast::Function &f : pr.module.functions)
        if (!f.is_entry)
          f.body.reset();
  };
  // Before a function is translated: its deferred body parsed, and the
  // statements its lowering holds at once (a kernel's, inlined calls and all).
  auto prepareOne = [&](size_t i) -> PreparedKernel {
    ast::Function &f = *translated[i];
    Slot &slot = slots[i];
    try {
      if (const ::ptx::DeferredBody *d = translatedBody[i]) {
        ::ptx::BodyParseResult body = ::ptx::parseDeferredBody(text, *d);
        for (const ::ptx::SyntaxError &e : body.errors)
          error(slot.diags, e.loc, e.message);
        f.body = std::move(body.body);
        if (pr.ok() && body.errors.empty())
          ptx::checkLabels(f, slot.diags);
        slot.ptxInstructions = countInstructions(*f.body);
      }
      // (A body parsed with the module, not deferred, is held anyway.)
      return {f.is_entry ? kernel::decodedStatementEstimate(pr.module, f) : 0, slot.ptxInstructions};
    } catch (...) { // carried to the caller's thread (batch reports it)
      slot.failure = std::current_exception();
      return {};
    }
  };
  auto translateOne = [&](size_t i) {
    ast::Function &f = *translated[i];
    Slot &slot = slots[i];
    FunctionResult &fr = slot.fr;
    if (slot.failure) {
      if (f.is_entry)
        kernelDecoded();
      return;
    }
    try {
      for (const ast::Directive &d : f.performance)
        if (isIgnoredDirective(d.name))
          warning(slot.warns, d.loc, "ignored-directive",
                  "'." + d.name + "' is not honoured: AMD targets have no equivalent (no thread-block clusters; no "
                  "upper bound on resident blocks)");
      fr.name = f.name;
      fr.isEntry = f.is_entry;
      fr.loc = f.name_loc.line ? f.name_loc : f.loc;
      if (f.is_entry) {
        // A kernel: decoded whole (parameters, memory, special registers) and
        // lowered with its ABI; its statements also fill `translation` so that
        // stats and the report see one shape for kernels and functions.
        std::optional<kernel::Kernel> k = kernel::decodeKernel(pr.module, f, slot.diags, /*partial=*/true);
        kernelDecoded();
        // Its syntax tree is read by nothing else (inlining looks up .func
        // bodies only, and tests is_entry before body): it goes now rather
        // than with the module's, for what it is worth at the peak (stdgpu's
        // 148k-line module: a third of the heap while kernels are lowered).
        f.body.reset();
        // Each statement's text is read by listings (rows' ptxText) and IR
        // dumps only: without them it goes too (two copies a statement: the
        // peak of KeyHunt's 80k-statement kernels' lowering, 5 MB less).
        if (k && !lowering.keepListing && lowering.printAfter.empty())
          for (kernel::Stmt &st : k->body) {
            release(st.text);
            release(st.inst.text);
          }
        const bool decoded = !errorsSince(slot.diags, 0);
        // A failed kernel's partial lowering only fills the report's rows: not
        // for one inlined past any readable size (VanitySearch's reach 400k
        // statements each: minutes and gigabytes for rows no one reads).
        constexpr size_t kMaxPartialStatements = 50000;
        if (k && !decoded && k->body.size() > kMaxPartialStatements)
          k.reset();
        if (k) {
          klower::KernelTranslation kt;
          // A kernel with decode errors is still lowered (for the report's
          // rows), its own lowering messages set aside: the first error stands.
          Diagnostics partialDiags;
          // (the kernel moves into its lowering: only where it stands and
          // its launch bounds are read afterwards)
          const ast::SourceLoc kernelLoc = k->loc;
          const kernel::LaunchBounds bounds = k->bounds;
          const size_t statements = k->body.size();
          fr.ok = klower::translateKernel(std::move(*k), t, costs, kt, decoded ? slot.diags : partialDiags,
                                          lowering) &&
                  decoded;
          k.reset();
          fr.translation.target = t.name;
          fr.translation.waveSize = t.wave_size;
          // (Only listings read where registers live: nvcomp's RunLengthEncode
          // held 46 MiB of them, a copy here beside the kernel's own.)
          if (lowering.keepListing)
            fr.translation.registers = std::move(kt.registers);
          release(kt.registers);
          // The ABI prologue and a closing s_endpgm appear as rows of their
          // own at the kernel's line, so that counts and listings cover every
          // instruction the kernel has.
          auto abiRow = [&](const std::vector<std::string> &code, const char *what) {
            if (code.empty())
              return;
            mir::TranslatedInstruction ti;
            ti.textToWrite() = {what, code, {}};
            ti.loc = kernelLoc;
            ti.amdLines = static_cast<unsigned>(code.size());
            fr.translation.instructions.push_back(std::move(ti));
          };
          fr.translation.instructions.reserve(kt.statements.size() + 2); // (held to the end: no doubling's slack)
          abiRow(kt.prologue, "(kernel entry: load the kernel arguments)");
          // The statements' rows move here (the kernel keeps none: memory).
          fr.firstStatementRow = fr.translation.instructions.size();
          for (mir::TranslatedInstruction &ti : kt.statements)
            fr.translation.instructions.push_back(std::move(ti));
          release(kt.statements);
          abiRow(kt.epilogue, "(end of the kernel)");
          if (fr.ok)
            checkLaunchBounds(bounds, kt, t, slot.warns);
          fr.translation.numVgprs = kt.numVgprs;
          fr.translation.numSgprs = kt.numSgprs;
          // What only lowering and `check` read (the machine IR, its
          // registers) goes now: a module keeps every
          // kernel's results until its one assembly, so this bounds its memory.
          kt.function = {};
          kt.allocation = {};
          fr.kernel = std::move(kt);
#ifdef __GLIBC__
          // A large kernel's lowering freed far more than it keeps; glibc
          // keeps freed memory in each thread's arena, and with kernels
          // lowered on several threads the arenas' leftovers added up to a
          // third of a large module's peak (stdgpu unordered_map at -j2:
          // 433 -> 313 MB). Give it back, after large kernels only: each
          // trim returns pages the next kernel faults in again (nvcomp's
          // RunLengthEncode with 1000: +1.3 s system time of 20 s).
          // Only under glibc's allocator: where jemalloc is the malloc (its
          // own decay returns pages), malloc_trim would set up glibc's unused
          // arenas on first call, and two kernels ending at once on two
          // threads raced in that set-up (a crash in 1 of 40-150 runs of
          // ccminer's x17_sha512 on gfx1100, whose two kernels end together).
          constexpr size_t kTrimAfterStatements = 4000;
          if (statements >= kTrimAfterStatements && !mallctl)
            malloc_trim(0);
#endif
        }
      } else {
        fr.ok = translate::translateBody(*f.body, t, costs, fr.translation, slot.diags);
      }
    } catch (...) { // carried to the caller's thread (batch reports it)
      slot.failure = std::current_exception();
    }
  };
  // The module's one assembly (below) takes its text in pieces, in module
  // order: the header, each function's code, then the data and metadata.
  // With a pool it starts while kernels are still being translated: a
  // thread of its own feeds LLVM MC each function as soon as it and those
  // before it are done (KeyHunt: a fifth of the translation, on the core a
  // kernel too large to share the statement budget leaves idle). The
  // pieces are the same either way, so the object is the same for every -j.
  std::unique_ptr<mc::PieceAssembly> assembly = costs.assembler(t).beginObject();
  std::vector<std::string> kernelMetadata; // of the functions fed, in order
  {
    std::string header = klower::moduleHeader(t);
    for (const std::string &name : res.inlinedFunctions)
      header += "; .func " + name + ": inlined into the kernels that call it\n";
    assembly->add(std::move(header));
  }
  // Function i's piece: its code moves out of its result (one copy of it).
  auto feedFunction = [&](FunctionResult &f) {
    std::string comment = "; " + std::string(f.isEntry ? ".entry " : ".func ") + f.name + "\n";
    if (f.kernel) {
      // The comment line, then the kernel's text as a piece of its own: moved
      // in, not copied after the comment (a big kernel's text is megabytes,
      // and it was held twice while the next kernel was being lowered).
      assembly->add(std::move(comment));
      const unsigned linesBefore = assembly->lines();
      f.firstAsmLine = linesBefore + 1;
      assembly->add(std::exchange(f.kernel->assembly, std::string()));
      kernelMetadata.push_back(f.kernel->metadata);
      f.asmLineCount = assembly->lines() - linesBefore;
    } else { // a .func's instructions (no call convention yet)
      assembly->add(comment + "\t.text\n" + translate::assemblyText(f.translation));
    }
  };
  // The feeder goes up to the first function that failed (the module will
  // have no object); those from `fed` on are fed below, on the caller's
  // thread, as all of them are without a pool. An exception out of it goes
  // to the caller as a function's does.
  size_t fed = 0;
  std::mutex doneMutex;
  std::condition_variable doneChanged;
  std::vector<char> done(slots.size(), 0);
  std::exception_ptr feederFailure;
  auto fedWithoutError = [&](size_t i) {
    const Slot &slot = slots[i];
    return !slot.failure && slot.fr.ok && !errorsSince(slot.diags, 0);
  };
  // (Only for a module big enough to pay for a thread of its own: in a batch
  // of 200 small files at -j2, whose cores the files already share, a feeder
  // per file took the run from 0.67 to 0.90 s.)
  constexpr size_t kFeederMinBytes = size_t(1) << 20; // about 30,000 lines of PTX
  std::thread feeder;
  if (pool && !slots.empty() && text.size() >= kFeederMinBytes)
    feeder = std::thread([&] {
      try {
        for (size_t i = 0; i < slots.size(); ++i) {
          {
            std::unique_lock lock(doneMutex);
            doneChanged.wait(lock, [&] { return done[i] != 0; });
          }
          if (!fedWithoutError(i))
            return;
          feedFunction(slots[i].fr);
          fed = i + 1;
        }
      } catch (...) {
        feederFailure = std::current_exception();
      }
    });
  auto translateAndMarkDone = [&](size_t i) {
    translateOne(i);
    std::lock_guard lock(doneMutex);
    done[i] = 1;
    doneChanged.notify_all();
  };
  // (100,000 statements: about 150 MiB of working memory; one kernel that
  // size, or many small ones, at once.)
  constexpr size_t kStatementsLoweredAtOnce = 100000;
  try {
    runWithinStatementBudget(pool, slots.size(), kStatementsLoweredAtOnce, prepareOne, translateAndMarkDone);
  } catch (...) {
    {
      std::lock_guard lock(doneMutex);
      std::fill(done.begin(), done.end(), 1);
      doneChanged.notify_all();
    }
    if (feeder.joinable())
      feeder.join();
    throw;
  }
  if (feeder.joinable())
    feeder.join();
  if (feederFailure) // (carried to the caller's thread, as a function's is)
    std::rethrow_exception(feederFailure);
  for (Slot &slot : slots) {
    if (slot.failure)
      std::rethrow_exception(slot.failure);
    res.functions.push_back(std::move(slot.fr));
    res.ptxInstructions += slot.ptxInstructions;
    for (Diagnostic &d : slot.diags)
      res.diagnostics.push_back(std::move(d));
    for (Diagnostic &w : slot.warns)
      warns.push_back(std::move(w));
  }
  const bool parsedCleanly = pr.ok() && !pr.module.version.empty();
  // The syntax tree is done with: its memory goes before the module's
  // assembly, the peak (nothing below points into it; rows and diagnostics
  // hold copies).
  release(slots);
  release(translated);
  release(translatedBody);
  release(deferredBody);
  pr = {};
  if (!anyBody && parsedCleanly)
    warning(warns, {}, "empty-file", "no function with a body: nothing to translate");
  for (Diagnostic &w : warns)
    res.diagnostics.push_back(std::move(w));
  // -w and -Werror apply to every warning, the decoders' included; a
  // function inlined into several kernels warns once.
  std::set<std::tuple<unsigned, unsigned, std::string>> warned;
  std::erase_if(res.diagnostics, [&](const Diagnostic &d) {
    return d.severity == Diagnostic::Severity::Warning &&
           (warnings.ignore || !warned.insert({d.loc.line, d.loc.col, d.message}).second);
  });
  if (warnings.asErrors)
    for (Diagnostic &d : res.diagnostics)
      if (d.severity == Diagnostic::Severity::Warning)
        d.severity = Diagnostic::Severity::Error;
  sortBySource(res.diagnostics);
  for (const Diagnostic &d : res.diagnostics)
    if (!d.unsupportedOpcode.empty())
      ++res.unsupported[d.unsupportedOpcode];

  // An empty file is skipped, unless -Werror made its warning an error.
  res.skipped = !anyBody && res.errorCount() == 0;
  res.ok = !anyBody ? false : res.errorCount() == 0;
  if (res.ok) {
    // The functions the feeder did not reach (all of them without a pool).
    for (size_t i = fed; i < res.functions.size(); ++i)
      feedFunction(res.functions[i]);
    // Module variables the kernels address, defined once.
    std::vector<kernel::Variable> variables;
    std::set<std::string> defined;
    uint64_t dataBytes = 0;
    for (const FunctionResult &f : res.functions)
      if (f.kernel)
        for (const kernel::Variable &v : f.kernel->variables)
          if (defined.insert(v.name).second) {
            variables.push_back(v);
            dataBytes = llvm::alignTo(dataBytes, std::max(v.align, 1u)) + v.size;
            // Kernels reach module variables PC-relative with a signed
            // 32-bit offset (@rel32): data past 2 GiB of the code cannot be
            // addressed, and lld would fail the link.
            if (dataBytes > targets::kMaxModuleDataBytes && res.ok) {
              error(res.diagnostics, v.loc,
                    "the module's .global and .const variables take more than " +
                        std::to_string(targets::kMaxModuleDataBytes) +
                        " bytes with '" + v.name + "'; code reaches them with 32-bit PC-relative offsets");
              res.ok = false;
            }
          }
    if (!res.ok)
      return res;
    std::string tail = klower::variablesAssembly(variables);
    if (!kernelMetadata.empty())
      tail += klower::moduleMetadata(t, kernelMetadata);

    // LLVM MC is the authority on what the GPU accepts, and this one
    // assembly is both the check and the output: as an object, because some
    // limits (branch ranges, fixups) are checked only when MC encodes and
    // lays out the code. batch::emit writes these bytes.
    std::vector<std::string> pieces;
    mc::AssembleResult r = assembly->finish(std::move(tail), pieces);
    assembly.reset();
    size_t textBytes = 0;
    for (const std::string &piece : pieces)
      textBytes += piece.size();
    res.assembly.reserve(textBytes);
    for (std::string &piece : pieces) {
      res.assembly += piece;
      release(piece);
    }
    if (r.ok) {
      res.object = std::move(r.output);
      return res;
    }
    reportMcRejection(res, r, t);
  }
  return res;
}

void reportMcRejection(ModuleResult &res, const mc::AssembleResult &rejected, const targets::TargetInfo &t) {
  // Each rejected line goes to the statement of the kernel that emitted it.
  std::map<FunctionResult *, mc::AssembleResult> perKernel;
  for (mc::McDiagnostic d : rejected.diagnostics) {
    auto in = std::find_if(res.functions.begin(), res.functions.end(), [&](const FunctionResult &f) {
      return f.kernel && d.line >= f.firstAsmLine && d.line < f.firstAsmLine + f.asmLineCount;
    });
    if (in != res.functions.end()) {
      d.line = d.line - in->firstAsmLine + klower::kHeaderLines + 1;
      perKernel[&*in].diagnostics.push_back(std::move(d));
    } else if (d.kind == mc::McDiagnostic::Kind::Error) {
      error(res.diagnostics, {},
            "internal error: LLVM MC rejected '" + d.source_line + "' of the module's data or metadata on " + t.name +
                ": " + d.message);
    }
  }
  for (auto &[f, kernelPart] : perKernel) {
    klower::reportMcRejection(*f->kernel, f->translation.instructions, f->firstStatementRow, kernelPart, f->loc, t,
                              res.diagnostics);
    f->ok = false;
  }
  if (res.errorCount() == 0)
    error(res.diagnostics, {}, "internal error: LLVM MC rejected the module on " + t.name);
  sortBySource(res.diagnostics);
  res.ok = false;
  res.assembly.clear();
  res.object.clear();
}

} // namespace p2a::module
