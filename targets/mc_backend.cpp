// In-process LLVM MC for AMDGPU; see mc_backend.hpp.
//
// The object graph is the one llvm/tools/llvm-mc/llvm-mc.cpp (LLVM 19) builds:
//   Target -> MCRegisterInfo, MCAsmInfo, MCInstrInfo, MCSubtargetInfo
//   SourceMgr + MCContext + MCObjectFileInfo
//   MCStreamer (asm text / asm text with encodings / ELF object)
//   MCAsmParser + AMDGPU MCTargetAsmParser -> Parser->Run()
// and costs() follows llvm/tools/llvm-mca (CodeRegionGenerator + InstrBuilder
// + InstructionInfoView) for the numbers.
//
// Immutable per-Assembler state (MRI, MAI, MII, the subtarget features) is
// built once in create(); everything that MC mutates (SourceMgr, MCContext,
// streamer, parser, subtarget copy) is built per call, so one Assembler may
// even be used from several threads at once.
//
// Bad input must never end the process: every MC diagnostic is routed into
// McDiagnostic (SourceMgr handler + MCContext handler), and the few
// report_fatal_error() calls that malformed assembly can still reach in MC
// (e.g. "Fragment can't be larger than a bundle size" under
// .bundle_align_mode) are turned into an exception by a fatal-error handler
// that is active only while this thread is inside an Assembler call.

#include "targets/mc_backend.hpp"
#include "targets/discarding_streamer.hpp"
#include "targets/instruction_reuse.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/MC/MCAsmBackend.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCDisassembler/MCDisassembler.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstPrinter.h>
#include <llvm/MC/MCInstrDesc.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCObjectWriter.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCSchedule.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/Support/FormattedStream.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Triple.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmParser();
void LLVMInitializeAMDGPUDisassembler();
}

namespace p2a::mc {
namespace {

constexpr const char *kTriple = "amdgcn-amd-amdhsa";

// ---------------------------------------------------------------------------
// Fatal errors -> exception, only inside our calls.

struct McFatalError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

thread_local int tlsInsideMc = 0;

struct InsideMcScope {
  InsideMcScope() { ++tlsInsideMc; }
  ~InsideMcScope() { --tlsInsideMc; }
};

void fatalErrorHandler(void *, const char *reason, bool) {
  if (tlsInsideMc > 0)
    throw McFatalError(reason ? reason : "LLVM fatal error");
  // Not ours: behave like LLVM's default handler (print; LLVM then exits).
  llvm::errs() << "LLVM ERROR: " << (reason ? reason : "") << "\n";
}

std::once_flag gInitOnce;

void initLlvmOnce() {
  std::call_once(gInitOnce, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmParser();
    LLVMInitializeAMDGPUDisassembler();
    llvm::install_fatal_error_handler(&fatalErrorHandler, nullptr);
  });
}

// ---------------------------------------------------------------------------
// Output stream with a size cap (object writer needs pwrite).

struct OutputTooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class CappedStringStream final : public llvm::raw_pwrite_stream {
public:
  CappedStringStream(std::string &out, std::size_t cap)
      : llvm::raw_pwrite_stream(/*Unbuffered=*/true), out_(out), cap_(cap) {}
  ~CappedStringStream() override = default;

private:
  void write_impl(const char *ptr, std::size_t size) override {
    if (out_.size() + size > cap_)
      throw OutputTooLarge("output exceeds " + std::to_string(cap_) + " bytes");
    out_.append(ptr, size);
  }
  void pwrite_impl(const char *ptr, std::size_t size, uint64_t offset) override {
    if (offset + size <= out_.size())
      std::memcpy(&out_[offset], ptr, size);
  }
  uint64_t current_pos() const override { return out_.size(); }

  std::string &out_;
  std::size_t cap_;
};

} // namespace

// ---------------------------------------------------------------------------
// Diagnostics collection. (Outside the anonymous namespace: Assembler::Impl,
// a class with linkage, holds one, and g++ warns of that in a unity build.)

struct DiagSink {
  std::vector<McDiagnostic> *diags = nullptr;
  bool hadError = false;
  size_t reported = 0; // diagnostics added so far
  const llvm::SourceMgr *srcMgr = nullptr;
  unsigned bufferId = 0;
  // A text given in pieces (PieceAssembly): per buffer id, the lines of the
  // whole text before that piece (kNotText: not one of them).
  static constexpr unsigned kNotText = ~0u;
  std::vector<unsigned> linesBefore;

  void add(const llvm::SMDiagnostic &d) {
    McDiagnostic m;
    switch (d.getKind()) {
    case llvm::SourceMgr::DK_Error: m.kind = McDiagnostic::Kind::Error; hadError = true; break;
    case llvm::SourceMgr::DK_Warning: m.kind = McDiagnostic::Kind::Warning; break;
    case llvm::SourceMgr::DK_Note: m.kind = McDiagnostic::Kind::Note; break;
    case llvm::SourceMgr::DK_Remark: m.kind = McDiagnostic::Kind::Remark; break;
    }
    // Locations outside the user's buffer (the end-of-input sentinel) have
    // no meaningful line: report them as line 0.
    const unsigned buffer = d.getLineNo() > 0 && d.getLoc().isValid() && srcMgr && d.getSourceMgr() == srcMgr
                                ? srcMgr->FindBufferContainingLoc(d.getLoc())
                                : 0;
    const unsigned before = buffer < linesBefore.size() ? linesBefore[buffer] : kNotText;
    const bool inUserText = buffer != 0 && (linesBefore.empty() ? buffer == bufferId : before != kNotText);
    if (inUserText) {
      m.line = unsigned(d.getLineNo()) + (linesBefore.empty() ? 0 : before);
      m.col = d.getColumnNo() >= 0 ? unsigned(d.getColumnNo()) + 1 : 0;
      m.source_line = d.getLineContents().str();
    }
    m.message = d.getMessage().str();
    diags->push_back(std::move(m));
    ++reported;
  }
  void addError(std::string msg) {
    McDiagnostic m;
    m.message = std::move(msg);
    m.kind = McDiagnostic::Kind::Error;
    hadError = true;
    diags->push_back(std::move(m));
    ++reported;
  }

  static void sourceMgrHandler(const llvm::SMDiagnostic &d, void *ctx) {
    static_cast<DiagSink *>(ctx)->add(d);
  }
};

namespace {

// ---------------------------------------------------------------------------
// Streamer that only records the parsed MCInsts (as llvm-mca's
// MCStreamerWrapper does).

class InstCollector final : public DiscardingStreamer {
public:
  explicit InstCollector(llvm::MCContext &ctx) : DiscardingStreamer(ctx) {}
  std::vector<llvm::MCInst> insts;

  void emitInstruction(const llvm::MCInst &inst, const llvm::MCSubtargetInfo &) override {
    insts.push_back(inst);
  }
};

// Streamer that only adds up how many bytes an object would hold. MC's
// object streamer expands `.fill N, S, V` with a constant N into N*S bytes in
// memory while parsing (llvm-mc-19 needs 16 GiB for `.fill 0x7fffffff, 8, 0`),
// so assemble(Object) runs this pass first and refuses oversized objects --
// where the text can expand at all (mayExpandWhileParsing).
class SizeCounter final : public DiscardingStreamer {
public:
  explicit SizeCounter(llvm::MCContext &ctx) : DiscardingStreamer(ctx) {}
  uint64_t bytes = 0;

  void add(uint64_t n) { bytes = (bytes + n < bytes) ? UINT64_MAX : bytes + n; }
  void addProduct(int64_t count, int64_t size) {
    if (count <= 0 || size <= 0)
      return;
    if (uint64_t(count) > UINT64_MAX / uint64_t(size))
      bytes = UINT64_MAX;
    else
      add(uint64_t(count) * uint64_t(size));
  }

  void emitInstruction(const llvm::MCInst &, const llvm::MCSubtargetInfo &) override { add(16); }
  void emitBytes(llvm::StringRef data) override { add(data.size()); }
  void emitBinaryData(llvm::StringRef data) override { add(data.size()); }
  void emitValueImpl(const llvm::MCExpr *, unsigned size, llvm::SMLoc) override { add(size); }
  void emitULEB128Value(const llvm::MCExpr *) override { add(10); }
  void emitSLEB128Value(const llvm::MCExpr *) override { add(10); }
  // A fill in a section with no file bytes (.bss: SHT_NOBITS) costs nothing.
  bool inFile() const {
    const llvm::MCSection *sec = getCurrentSectionOnly();
    return !sec || !sec->isVirtualSection();
  }
  void emitFill(const llvm::MCExpr &numBytes, uint64_t, llvm::SMLoc) override {
    int64_t n = 0;
    if (inFile() && numBytes.evaluateAsAbsolute(n))
      addProduct(n, 1);
  }
  void emitFill(const llvm::MCExpr &numValues, int64_t size, int64_t, llvm::SMLoc) override {
    int64_t n = 0;
    if (inFile() && numValues.evaluateAsAbsolute(n))
      addProduct(n, size);
  }
  void emitNops(int64_t numBytes, int64_t, llvm::SMLoc, const llvm::MCSubtargetInfo &) override {
    addProduct(numBytes, 1);
  }
};

} // namespace

// Can parsing `text` make MC hold more bytes than the text itself (16 per
// instruction, the data it spells)? Only through a directive that repeats
// or fills: .fill and .ds.* (values made one by one), .rept/.rep/.irp/.irpc
// and macros (repeated statements), .include and .incbin (other files).
// (.zero, .space, .skip, .org and alignment are fragments that the object
// writer expands as it writes, into the capped stream.) Directive names are
// matched without case, as MC looks them up; any token starting with '.'
// counts, in comments too: a false alarm only costs the size pass.
namespace {
bool mayExpandWhileParsing(std::string_view text) {
  auto identifier = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$';
  };
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '.' || (i > 0 && identifier(text[i - 1])))
      continue;
    size_t end = i + 1;
    while (end < text.size() && identifier(text[end]))
      ++end;
    const llvm::StringRef name(text.data() + i + 1, end - i - 1);
    for (const char *expanding : {"fill", "rept", "rep", "irp", "irpc", "macro", "include", "incbin", "ds"})
      if (name.equals_insensitive(expanding))
        return true;
    if (name.starts_with_insensitive("ds."))
      return true;
    i = end - 1;
  }
  return false;
}
} // namespace

// ---------------------------------------------------------------------------

struct Assembler::Impl {
  std::string cpu;
  std::string features; // feature string the subtarget is created with
  unsigned waveSize = 64;
  const llvm::Target *target = nullptr;
  llvm::Triple triple{kTriple};
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> mri;
  std::unique_ptr<llvm::MCAsmInfo> mai;
  std::unique_ptr<llvm::MCInstrInfo> mii;
  std::unique_ptr<RegisterRuns> registerRuns; // none: every statement parsed (InstructionParsing::EachStatement)

  std::unique_ptr<llvm::MCSubtargetInfo> makeSTI() const {
    return std::unique_ptr<llvm::MCSubtargetInfo>(
        target->createMCSubtargetInfo(kTriple, cpu, features));
  }

  // Everything one parse needs. Owned by a heap object so that, after a
  // fatal error thrown out of the middle of MC, it can be leaked instead of
  // destroyed in an inconsistent state.
  struct Session {
    DiagSink sink;
    // Templates for statements that differ only in registers (before the
    // parsers, which hold it).
    std::unique_ptr<InstructionReuse> reuse;
    // costs(): the target asm streamer writes into the void (declared
    // before the streamer so that it outlives it).
    // A null stream of its own: llvm::nulls() is one global object, and
    // wrapping it re-buffers it, which races between threads.
    std::unique_ptr<llvm::raw_null_ostream> nullOs;
    std::unique_ptr<llvm::formatted_raw_ostream> nullFos;
    std::unique_ptr<llvm::MCSubtargetInfo> sti;
    llvm::SourceMgr srcMgr;
    unsigned sentinel = 0; // the end-of-input buffer (see newSession)
    unsigned bufferId = 0; // the user's text in srcMgr (the latest piece's)
    std::unique_ptr<llvm::MCContext> ctx;
    std::unique_ptr<llvm::MCObjectFileInfo> mofi;
    std::unique_ptr<llvm::MCStreamer> streamer;
    std::unique_ptr<llvm::MCAsmParser> parser;
    std::unique_ptr<llvm::MCTargetAsmParser> tap;
  };

  // inPlace: `text` is NUL-terminated (a std::string's) and outlives the
  // session; it is read where it is when it ends in a newline.
  std::unique_ptr<Session> openSession(std::string_view text, std::vector<McDiagnostic> &diags,
                                       bool inPlace = false) const {
    std::unique_ptr<Session> s = newSession(diags);
    addText(*s, text, inPlace);
    return s;
  }

  // A session with no text yet (PieceAssembly adds its pieces one by one).
  std::unique_ptr<Session> newSession(std::vector<McDiagnostic> &diags) const {
    auto s = std::make_unique<Session>();
    s->sink.diags = &diags;
    if (registerRuns) {
      const size_t *reported = &s->sink.reported;
      s->reuse = std::make_unique<InstructionReuse>(*registerRuns, *mii, *mri, [reported] { return *reported; });
    }
    s->sti = makeSTI();
    // Workaround for an LLVM 19 hang (llvm-mc-19 hangs too): on some bad
    // lines (e.g. `x<"` or `x<\x7f` as the last statement) the AMDGPU parser
    // skips tokens until EndOfStatement, but the lexer only returns Eof
    // forever. So the user's text is parsed as if `.include`d from a
    // sentinel buffer holding one empty line: at the end of the user's
    // buffer the lexer resumes in the sentinel, which yields an
    // EndOfStatement. (In the normal case the asm streamer prints that empty
    // line; assemble() removes it again so the text matches llvm-mc.)
    s->sentinel = s->srcMgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBufferCopy("\n", "<end of input>"), llvm::SMLoc());
    s->sink.srcMgr = &s->srcMgr;
    s->srcMgr.setDiagHandler(&DiagSink::sourceMgrHandler, &s->sink);
    s->ctx = std::make_unique<llvm::MCContext>(triple, mai.get(), mri.get(), s->sti.get(),
                                               &s->srcMgr, &options);
    DiagSink *sink = &s->sink;
    s->ctx->setDiagnosticHandler(
        [sink](const llvm::SMDiagnostic &d, bool, const llvm::SourceMgr &,
               std::vector<const llvm::MDNode *> &) { sink->add(d); });
    s->mofi.reset(target->createMCObjectFileInfo(*s->ctx, /*PIC=*/false));
    s->ctx->setObjectFileInfo(s->mofi.get());
    return s;
  }

  // Adds `text` as the buffer the next parser reads (s.bufferId).
  void addText(Session &session, std::string_view text, bool inPlace) const {
    Session *s = &session;
    llvm::SMLoc includeLoc = llvm::SMLoc::getFromPointer(
        s->srcMgr.getMemoryBuffer(s->sentinel)->getBufferStart());
    // A final newline is added when missing (so that a comment on the last
    // line is kept whole; llvm-mc drops such a comment). In place, the
    // buffer is the caller's string itself; otherwise the one copy of the
    // text (a module's assembly is tens of MB at the peak of its translation).
    const bool addNewline = !text.empty() && text.back() != '\n';
    if (inPlace && !addNewline) {
      s->bufferId = s->srcMgr.AddNewSourceBuffer(
          llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(text.data(), text.size()), "<input>",
                                           /*RequiresNullTerminator=*/true),
          includeLoc);
    } else {
      std::unique_ptr<llvm::WritableMemoryBuffer> buffer =
          llvm::WritableMemoryBuffer::getNewUninitMemBuffer(text.size() + addNewline, "<input>");
      std::copy(text.begin(), text.end(), buffer->getBufferStart());
      if (addNewline)
        buffer->getBufferStart()[text.size()] = '\n';
      s->bufferId = s->srcMgr.AddNewSourceBuffer(std::move(buffer), includeLoc);
    }
    s->sink.bufferId = s->bufferId;
  }

  // Installs the ELF object streamer, writing into `os`.
  bool useObjectStreamer(Session &s, llvm::raw_pwrite_stream &os) const {
    std::unique_ptr<llvm::MCCodeEmitter> ce(target->createMCCodeEmitter(*mii, *s.ctx));
    std::unique_ptr<llvm::MCAsmBackend> mab(target->createMCAsmBackend(*s.sti, *mri, options));
    if (!mab || !ce) {
      s.sink.addError("unable to create the AMDGPU object emitter");
      return false;
    }
    auto ow = mab->createObjectWriter(os);
    s.streamer.reset(
        target->createMCObjectStreamer(triple, *s.ctx, std::move(mab), std::move(ow), std::move(ce), *s.sti));
    return true;
  }

  // Installs a non-printing streamer (costs(), size pass). As llvm-mca
  // does: a target streamer must exist or AMDGPU directives crash.
  void useCollector(Session &s, std::unique_ptr<llvm::MCStreamer> streamer) const {
    s.streamer = std::move(streamer);
    s.nullOs = std::make_unique<llvm::raw_null_ostream>();
    s.nullFos = std::make_unique<llvm::formatted_raw_ostream>(*s.nullOs);
    target->createAsmTargetStreamer(*s.streamer, *s.nullFos, /*InstPrint=*/nullptr);
  }

  // Bytes an object for `text` would need (an upper bound); 0 when the text
  // does not parse (the real run then reports the errors).
  uint64_t objectSizeBound(std::string_view text, bool inPlace) const {
    std::vector<McDiagnostic> ignored;
    auto s = openSession(text, ignored, inPlace);
    auto counter = std::make_unique<SizeCounter>(*s->ctx);
    SizeCounter *c = counter.get();
    useCollector(*s, std::move(counter));
    if (!runParser(*s))
      return 0;
    uint64_t n = c->bytes;
    s->tap.reset();
    s->parser.reset();
    s->streamer.reset();
    return n;
  }

  // Creates the parsers on top of s.streamer and runs them. Returns true on
  // success (no error reported anywhere).
  // A piece after the first continues in the section the one before ended
  // in (`continues`); all but the last leave the streamer open (`!finalize`).
  bool runParser(Session &s, bool continues = false, bool finalize = true) const {
    s.tap.reset(); // (the previous piece's, before a parser of the next is made)
    s.parser.reset();
    s.parser.reset(llvm::createMCAsmParser(s.srcMgr, *s.ctx, *s.streamer, *mai, s.bufferId));
    s.tap.reset(target->createMCAsmParser(*s.sti, *s.parser, *mii, options));
    if (!s.tap) {
      s.sink.addError("LLVM has no AMDGPU assembly parser");
      return false;
    }
    if (s.reuse)
      s.tap = reusingParser(std::move(s.tap), *s.reuse, *mii);
    s.parser->setTargetParser(*s.tap);
    bool failed = s.parser->Run(/*NoInitialTextSection=*/continues, /*NoFinalize=*/!finalize);
    return !failed && !s.ctx->hadError() && !s.sink.hadError;
  }
};

Assembler::Assembler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Assembler::~Assembler() = default;

std::optional<std::vector<Assembler::DecodedInst>> Assembler::disassemble(const uint8_t *code, size_t size,
                                                                          std::string &error) const {
  InsideMcScope inside;
  std::unique_ptr<llvm::MCSubtargetInfo> sti = impl_->makeSTI();
  llvm::MCContext ctx(impl_->triple, impl_->mai.get(), impl_->mri.get(), sti.get());
  std::unique_ptr<llvm::MCDisassembler> dis(impl_->target->createMCDisassembler(*sti, ctx));
  std::unique_ptr<llvm::MCInstPrinter> printer(
      impl_->target->createMCInstPrinter(impl_->triple, 0, *impl_->mai, *impl_->mii, *impl_->mri));
  if (!dis || !printer) {
    error = "no AMDGPU disassembler for " + impl_->cpu;
    return std::nullopt;
  }
  std::vector<DecodedInst> out;
  llvm::ArrayRef<uint8_t> bytes(code, size);
  uint64_t at = 0;
  while (at < size) {
    llvm::MCInst inst;
    uint64_t len = 0;
    llvm::MCDisassembler::DecodeStatus st = dis->getInstruction(inst, len, bytes.slice(at), at, llvm::nulls());
    if (st != llvm::MCDisassembler::Success || len == 0) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "invalid instruction encoding at byte offset 0x%llx",
                    static_cast<unsigned long long>(at));
      error = buf;
      return std::nullopt;
    }
    std::string text;
    llvm::raw_string_ostream os(text);
    printer->printInst(&inst, at, "", *sti, os);
    os.flush();
    // The printer indents with a tab and may separate operands with tabs.
    std::string clean;
    for (char c : text)
      clean += c == '\t' ? ' ' : c;
    size_t b = clean.find_first_not_of(' ');
    clean = b == std::string::npos ? "" : clean.substr(b);
    out.push_back({at, static_cast<unsigned>(len), clean, impl_->mii->getName(inst.getOpcode()).str()});
    at += len;
  }
  return out;
}

const std::string &Assembler::cpu() const { return impl_->cpu; }
unsigned Assembler::waveSize() const { return impl_->waveSize; }

std::unique_ptr<Assembler> Assembler::create(std::string_view cpu, std::string &error, InstructionParsing parsing) {
  initLlvmOnce();
  auto impl = std::make_unique<Impl>();
  impl->cpu = std::string(cpu);

  std::string lookupError;
  impl->target = llvm::TargetRegistry::lookupTarget(kTriple, lookupError);
  if (!impl->target) {
    error = "no LLVM target for " + std::string(kTriple) + ": " + lookupError;
    return nullptr;
  }
  impl->mri.reset(impl->target->createMCRegInfo(kTriple));
  if (!impl->mri) {
    error = "unable to create MCRegisterInfo for " + std::string(kTriple);
    return nullptr;
  }
  // Same as llvm-mc: AsmVerbose on (needed for `; encoding:` comments).
  impl->options.AsmVerbose = true;
  impl->mai.reset(impl->target->createMCAsmInfo(*impl->mri, kTriple, impl->options));
  impl->mii.reset(impl->target->createMCInstrInfo());
  if (!impl->mai || !impl->mii) {
    error = "unable to create MCAsmInfo/MCInstrInfo for " + std::string(kTriple);
    return nullptr;
  }
  if (parsing == InstructionParsing::ReuseShapes)
    impl->registerRuns = std::make_unique<RegisterRuns>(*impl->mri);

  // Validate the CPU without letting MCSubtargetInfo print "'x' is not a
  // recognized processor" to stderr.
  {
    std::unique_ptr<llvm::MCSubtargetInfo> probe(
        impl->target->createMCSubtargetInfo(kTriple, "generic", ""));
    if (cpu.empty() || !probe || !probe->isCPUStringValid(impl->cpu)) {
      error = "unknown AMDGPU processor '" + impl->cpu + "'";
      return nullptr;
    }
  }

  // Wave size: AMDGPU's MCSubtargetInfo factory / AMDGPUAsmParser pick
  // wave32 for GFX10+ when neither wavefrontsize feature is given (GFX9
  // processors carry FeatureWavefrontSize64 in their definition). Make the
  // default explicit so every consumer sees the same subtarget.
  auto sti = impl->makeSTI();
  if (!sti) {
    error = "unable to create MCSubtargetInfo for " + impl->cpu;
    return nullptr;
  }
  bool w32 = sti->checkFeatures("+wavefrontsize32");
  bool w64 = sti->checkFeatures("+wavefrontsize64");
  if (!w32 && !w64) {
    impl->features = "+wavefrontsize32";
    sti = impl->makeSTI();
    w32 = sti->checkFeatures("+wavefrontsize32");
  }
  impl->waveSize = w32 ? 32 : 64;
  return std::unique_ptr<Assembler>(new Assembler(std::move(impl)));
}

AssembleResult Assembler::assemble(std::string_view text, OutputKind kind) const {
  return assembleText(text, /*inPlace=*/false, kind);
}

AssembleResult Assembler::assembleInPlace(const std::string &text, OutputKind kind) const {
  return assembleText(text, /*inPlace=*/true, kind);
}

AssembleResult Assembler::assembleText(std::string_view text, bool inPlace, OutputKind kind) const {
  AssembleResult result;
  const Impl &im = *impl_;
  InsideMcScope inside;
  std::unique_ptr<Impl::Session> session;
  try {
    if (kind == OutputKind::Object && mayExpandWhileParsing(text)) {
      uint64_t bound = im.objectSizeBound(text, inPlace);
      if (bound > kMaxOutputBytes) {
        McDiagnostic d;
        d.message = "object would exceed " + std::to_string(kMaxOutputBytes) + " bytes";
        result.diagnostics.push_back(std::move(d));
        return result;
      }
    }
    session = im.openSession(text, result.diagnostics, inPlace);
    Impl::Session &s = *session;

    std::unique_ptr<llvm::MCCodeEmitter> ce;
    if (kind == OutputKind::AsmWithEncoding)
      ce.reset(im.target->createMCCodeEmitter(*im.mii, *s.ctx));

    CappedStringStream os(result.output, kMaxOutputBytes);
    if (kind == OutputKind::Object) {
      if (!im.useObjectStreamer(s, os)) {
        result.ok = false;
        return result;
      }
    } else {
      llvm::MCInstPrinter *ip = im.target->createMCInstPrinter(
          im.triple, im.mai->getAssemblerDialect(), *im.mai, *im.mii, *im.mri);
      if (!ip) {
        s.sink.addError("unable to create the AMDGPU instruction printer");
        return result;
      }
      std::unique_ptr<llvm::MCAsmBackend> mab;
      if (ce) // fixups in `; fixup` comments need the backend
        mab.reset(im.target->createMCAsmBackend(*s.sti, *im.mri, im.options));
      auto fos = std::make_unique<llvm::formatted_raw_ostream>(os);
      s.streamer.reset(im.target->createAsmStreamer(*s.ctx, std::move(fos), ip, std::move(ce),
                                                    std::move(mab)));
    }

    bool ok = im.runParser(s);
    result.reusedInstructions = s.reuse ? s.reuse->reused() : 0;
    // Destroy streamer (flushes the formatted stream) while `os` is alive.
    s.tap.reset();
    s.parser.reset();
    s.streamer.reset();
    ok = ok && !s.sink.hadError;
    result.ok = ok;
    // Drop the blank line printed for the sentinel's empty line.
    if (kind != OutputKind::Object && result.output.size() >= 2 &&
        result.output.compare(result.output.size() - 2, 2, "\n\n") == 0)
      result.output.pop_back();
    if (!ok && kind == OutputKind::Object)
      result.output.clear();
    return result; // session destroyed normally
  } catch (const McFatalError &e) {
    McDiagnostic d;
    d.message = std::string("LLVM fatal error: ") + e.what();
    result.diagnostics.push_back(std::move(d));
  } catch (const OutputTooLarge &e) {
    McDiagnostic d;
    d.message = e.what();
    result.diagnostics.push_back(std::move(d));
  } catch (const std::bad_alloc &) {
    McDiagnostic d;
    d.message = "out of memory while assembling";
    result.diagnostics.push_back(std::move(d));
  }
  // An exception left MC half-way through: its objects may be inconsistent
  // (and LLVM frames ran no cleanups), so leak them rather than destroy them.
  (void)session.release();
  result.ok = false;
  result.output.clear();
  return result;
}

// ---------------------------------------------------------------------------
// A text in pieces: one session, a parser per piece.

struct PieceAssembly::Impl {
  const Assembler &assembler;
  std::deque<std::string> pieces; // read in place by MC (a deque: they never move)
  AssembleResult result;          // the diagnostics as MC reports them; the object at the end
  std::unique_ptr<llvm::raw_pwrite_stream> os; // into result.output, capped (declared before
                                               // the session, whose streamer writes into it)
  std::unique_ptr<Assembler::Impl::Session> session;
  unsigned lines = 0;     // the pieces' lines so far
  bool deferred = false;  // a piece may expand, or lacks its final newline: assembleInPlace
                          // takes the whole text at the end
  bool hadError = false;  // MC reported an error: the object is not finalized (as in one parse)
  bool stopped = false;   // an exception left MC half-way through: nothing more is parsed

  explicit Impl(const Assembler &a) : assembler(a) {}
  ~Impl() {
    if (stopped)
      (void)session.release(); // see assembleText
  }

  void parse(const std::string &text, unsigned firstLine, bool last) {
    const Assembler::Impl &im = *assembler.impl_;
    InsideMcScope inside;
    try {
      const bool continues = session != nullptr;
      if (!session) {
        session = im.newSession(result.diagnostics);
        os = std::make_unique<CappedStringStream>(result.output, Assembler::kMaxOutputBytes);
        if (!im.useObjectStreamer(*session, *os)) {
          hadError = stopped = true;
          return;
        }
      }
      Assembler::Impl::Session &s = *session;
      im.addText(s, text, /*inPlace=*/true);
      if (s.sink.linesBefore.size() <= s.bufferId)
        s.sink.linesBefore.resize(s.bufferId + 1, DiagSink::kNotText);
      s.sink.linesBefore[s.bufferId] = firstLine;
      // (After an error MC parses on and reports the rest, but finalizes nothing.)
      hadError |= !im.runParser(s, continues, /*finalize=*/last && !hadError);
      result.reusedInstructions = s.reuse ? s.reuse->reused() : 0;
      if (last) {
        s.tap.reset();
        s.parser.reset();
        s.streamer.reset();
      }
      return;
    } catch (const McFatalError &e) {
      diagnose(std::string("LLVM fatal error: ") + e.what());
    } catch (const OutputTooLarge &e) {
      diagnose(e.what());
    } catch (const std::bad_alloc &) {
      diagnose("out of memory while assembling");
    }
    stopped = hadError = true;
  }

  void diagnose(std::string message) {
    McDiagnostic d;
    d.message = std::move(message);
    result.diagnostics.push_back(std::move(d));
  }

  // (A piece but the last without its final newline: the next would
  // continue its last line.)
  void keep(std::string piece, bool last) {
    const std::string &text = pieces.emplace_back(std::move(piece));
    if (!deferred && ((!last && !text.empty() && text.back() != '\n') || mayExpandWhileParsing(text)))
      deferred = true;
  }
};

PieceAssembly::PieceAssembly(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PieceAssembly::~PieceAssembly() = default;

std::unique_ptr<PieceAssembly> Assembler::beginObject() const {
  return std::unique_ptr<PieceAssembly>(new PieceAssembly(std::make_unique<PieceAssembly::Impl>(*this)));
}

void PieceAssembly::add(std::string piece) {
  Impl &p = *impl_;
  const unsigned first = p.lines;
  p.keep(std::move(piece), /*last=*/false);
  const std::string &text = p.pieces.back();
  p.lines += static_cast<unsigned>(std::count(text.begin(), text.end(), '\n'));
  if (!p.deferred && !p.stopped)
    p.parse(text, first, /*last=*/false);
}

unsigned PieceAssembly::lines() const { return impl_->lines; }

AssembleResult PieceAssembly::finish(std::string last, std::vector<std::string> &pieces) {
  Impl &p = *impl_;
  const unsigned first = p.lines;
  p.keep(std::move(last), /*last=*/true);
  pieces.clear();
  if (p.deferred) {
    std::string whole;
    size_t bytes = 0;
    for (const std::string &piece : p.pieces)
      bytes += piece.size();
    whole.reserve(bytes);
    for (std::string &piece : p.pieces) {
      whole += piece;
      piece = std::string();
    }
    if (!p.stopped)
      p.session.reset(); // (a partial parse of the pieces before the deferral)
    AssembleResult r = p.assembler.assembleInPlace(whole, OutputKind::Object);
    pieces.push_back(std::move(whole));
    return r;
  }
  if (!p.stopped)
    p.parse(p.pieces.back(), first, /*last=*/true);
  AssembleResult r;
  r.diagnostics = std::move(p.result.diagnostics);
  r.reusedInstructions = p.result.reusedInstructions;
  r.ok = !p.hadError;
  if (r.ok)
    r.output = std::move(p.result.output);
  for (std::string &piece : p.pieces)
    pieces.push_back(std::move(piece));
  return r;
}

std::optional<std::vector<InstCost>> Assembler::costs(std::string_view text,
                                                      std::vector<McDiagnostic> &diags) const {
  const Impl &im = *impl_;
  InsideMcScope inside;
  std::unique_ptr<Impl::Session> session;
  try {
    session = im.openSession(text, diags);
    Impl::Session &s = *session;
    auto collector = std::make_unique<InstCollector>(*s.ctx);
    InstCollector *col = collector.get();
    im.useCollector(s, std::move(collector));

    if (!im.runParser(s))
      return std::nullopt;

    const llvm::MCSubtargetInfo &sti = s.tap->getSTI();
    const llvm::MCSchedModel &sm = sti.getSchedModel();
    std::vector<InstCost> out;
    out.reserve(col->insts.size());
    for (const llvm::MCInst &inst : col->insts) {
      InstCost c;
      c.opcode_name = im.mii->getName(inst.getOpcode()).str();
      const llvm::MCInstrDesc &desc = im.mii->get(inst.getOpcode());
      if (!sm.hasInstrSchedModel()) {
        c.latency = 1;
        c.rthroughput = 1.0;
        c.num_micro_ops = 1;
        out.push_back(std::move(c));
        continue;
      }
      // llvm-mca InstrBuilder::createInstrDescImpl: resolve variants.
      unsigned schedClass = desc.getSchedClass();
      unsigned cpuId = sm.getProcessorID();
      while (schedClass && sm.getSchedClassDesc(schedClass)->isVariant())
        schedClass = sti.resolveVariantSchedClass(schedClass, &inst, im.mii.get(), cpuId);
      if (!schedClass && sm.getSchedClassDesc(desc.getSchedClass())->isVariant()) {
        McDiagnostic d;
        d.message = "unable to resolve scheduling class for write variant of " + c.opcode_name;
        diags.push_back(std::move(d));
        return std::nullopt;
      }
      const llvm::MCSchedClassDesc &sc = *sm.getSchedClassDesc(schedClass);
      if (sc.NumMicroOps == llvm::MCSchedClassDesc::InvalidNumMicroOps) {
        McDiagnostic d;
        d.message = "invalid scheduling class for " + c.opcode_name;
        diags.push_back(std::move(d));
        return std::nullopt;
      }
      int lat = llvm::MCSchedModel::computeInstrLatency(sti, sc);
      c.latency = lat > 0 ? unsigned(lat) : 0;
      c.rthroughput = llvm::MCSchedModel::getReciprocalThroughput(sti, sc);
      c.num_micro_ops = sc.NumMicroOps;
      out.push_back(std::move(c));
    }
    s.tap.reset();
    s.parser.reset();
    s.streamer.reset();
    return out;
  } catch (const McFatalError &e) {
    McDiagnostic d;
    d.message = std::string("LLVM fatal error: ") + e.what();
    diags.push_back(std::move(d));
  } catch (const std::bad_alloc &) {
    McDiagnostic d;
    d.message = "out of memory while assembling";
    diags.push_back(std::move(d));
  }
  (void)session.release(); // see assemble()
  return std::nullopt;
}

} // namespace p2a::mc
