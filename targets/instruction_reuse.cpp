// Reusing MC's parse of an instruction for statements of the same shape; see
// instruction_reuse.hpp for why this keeps LLVM MC the authority.
#include "targets/instruction_reuse.hpp"
#include "targets/discarding_streamer.hpp"

#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInstrDesc.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCParser/MCAsmLexer.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCParsedAsmOperand.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCStreamer.h>

#include <cctype>
#include <charconv>

namespace p2a::mc {

namespace {

bool identifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '@';
}
bool identifierStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

void appendNumber(llvm::SmallVectorImpl<char> &to, unsigned n) {
  char buf[12];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, n);
  (void)ec;
  to.append(buf, end);
}

// Reads decimal digits at s[i...] into n (false: none, or too many).
bool readNumber(std::string_view s, size_t &i, unsigned &n) {
  const size_t from = i;
  while (i < s.size() && digit(s[i]))
    ++i;
  // (MC reads a bracketed index as an expression: 010 is octal. Never
  // printed so; such a statement is left to MC.)
  if (i == from || i - from > 6 || (s[from] == '0' && i - from > 1))
    return false;
  std::from_chars(s.data() + from, s.data() + i, n);
  return true;
}

// A register run at s[i] (v7, s[4:5], [v6,v7]); `i` moves past it on
// success. `refused`: a list or range of registers that is not one run as
// this reads it (left to MC).
std::optional<RegisterRun> readRun(std::string_view s, size_t &i, bool &refused) {
  const char c = s[i];
  if (c == '[') {
    size_t j = i + 1;
    if (j >= s.size() || (s[j] != 'v' && s[j] != 's'))
      return std::nullopt;
    RegisterRun run{s[j], 0, 0};
    for (;;) {
      if (j >= s.size() || s[j] != run.file)
        return std::nullopt;
      ++j;
      unsigned n = 0;
      if (!readNumber(s, j, n))
        return std::nullopt;
      if (run.count == 0)
        run.first = n;
      else if (n != run.first + run.count) {
        refused = true;
        return std::nullopt;
      }
      ++run.count;
      if (j < s.size() && s[j] == ',') {
        ++j;
        continue;
      }
      if (j < s.size() && s[j] == ']') {
        i = j + 1;
        return run;
      }
      return std::nullopt;
    }
  }
  if ((c != 'v' && c != 's') || (i > 0 && identifierChar(s[i - 1])))
    return std::nullopt;
  size_t j = i + 1;
  unsigned first = 0, last = 0;
  if (j < s.size() && s[j] == '[') { // v[a:b]
    ++j;
    refused = true; // (unless it reads as a run below)
    if (!readNumber(s, j, first) || j >= s.size() || s[j] != ':')
      return std::nullopt;
    ++j;
    if (!readNumber(s, j, last) || j >= s.size() || s[j] != ']' || last < first)
      return std::nullopt;
    refused = false;
    i = j + 1;
    return RegisterRun{c, first, last - first + 1};
  }
  if (!readNumber(s, j, first) || (j < s.size() && identifierChar(s[j])))
    return std::nullopt;
  i = j;
  return RegisterRun{c, first, 1};
}

} // namespace

std::optional<InstructionShape> shapeOf(std::string_view s) {
  InstructionShape shape;
  size_t i = 0;
  while (i < s.size() && identifierChar(s[i]))
    ++i;
  if (i == 0 || !identifierStart(s[0]))
    return std::nullopt;
  // VOPD's two halves must read registers of different banks (number mod
  // 4); GWS's one VGPR must be even on gfx90a/gfx942.
  const llvm::StringRef mnemonic(s.data(), i);
  if (mnemonic.starts_with_insensitive("v_dual_") || mnemonic.starts_with_insensitive("ds_gws"))
    return std::nullopt;
  shape.key.reserve(s.size() + 8);
  shape.key.append(llvm::StringRef(s.data(), i));
  while (i < s.size()) {
    const char c = s[i];
    // Comments, strings, escapes and division are left to MC whole.
    if (c == ';' || c == '#' || c == '"' || c == '\'' || c == '/' || c == '\\' || c == '\r' || c == '\0')
      return std::nullopt;
    bool refused = false;
    const bool list = c == '[';
    if (std::optional<RegisterRun> run = readRun(s, i, refused)) {
      size_t id = 0;
      for (; id < shape.registers.size(); ++id) {
        if (shape.registers[id] == *run)
          break;
        if (shape.registers[id].overlaps(*run))
          return std::nullopt;
      }
      if (id == shape.registers.size())
        shape.registers.push_back(*run);
      // (A bracket list stays one: on gfx10+ an image address as a list is
      // NSA, another opcode than the same registers as a range.)
      if (list)
        shape.key += '[';
      shape.key += run->file;
      shape.key += '#';
      appendNumber(shape.key, static_cast<unsigned>(id));
      // (Each run is one syntax in a shape's place: its count is the
      // shape's. gfx90a validates that VGPR tuples start even.)
      shape.key += ':';
      appendNumber(shape.key, run->count);
      if (run->file == 'v') {
        if (run->count > 1)
          shape.key += (run->first & 1) ? 'o' : 'e';
        // gfx11+'s 16-bit VOP1/VOP2/VOPC encodings reach v0-v127 only: from
        // v128 on, MC matches the VOP3 opcode instead.
        shape.key += run->first >= 128 ? 'h' : run->first + run->count > 128 ? 'x' : 'l';
      }
      continue;
    }
    if (refused)
      return std::nullopt;
    if (identifierStart(c) && !(i > 0 && identifierChar(s[i - 1]))) {
      const size_t from = i;
      while (i < s.size() && identifierChar(s[i]))
        ++i;
      shape.identifiers.push_back(s.substr(from, i - from));
      shape.key.append(llvm::StringRef(s.data() + from, i - from));
      continue;
    }
    shape.key += c;
    ++i;
  }
  return shape;
}

// ---------------------------------------------------------------------------

RegisterRuns::RegisterRuns(const llvm::MCRegisterInfo &mri) : byRegister_(mri.getNumRegs(), RegisterRun{0, 0, 0}) {
  // Names as TableGen spells AMDGPU's registers: VGPR12, SGPR4_SGPR5.
  for (unsigned r = 1; r < mri.getNumRegs(); ++r) {
    std::string_view name = mri.getName(r);
    RegisterRun run{0, 0, 0};
    bool ok = !name.empty();
    while (ok && !name.empty()) {
      const char file = name.starts_with("VGPR") ? 'v' : name.starts_with("SGPR") ? 's' : 0;
      size_t i = 4;
      unsigned n = 0;
      if (!file || !readNumber(name, i, n) || (run.count && (file != run.file || n != run.first + run.count))) {
        ok = false;
        break;
      }
      if (run.count == 0)
        run = RegisterRun{file, n, 0};
      ++run.count;
      name.remove_prefix(i);
      if (!name.empty()) {
        if (name[0] != '_')
          ok = false;
        name.remove_prefix(1);
      }
    }
    if (!ok || run.count == 0)
      continue;
    byRegister_[r] = run;
    byRun_[keyOf(run)] = r;
  }
}

std::optional<RegisterRun> RegisterRuns::runOf(llvm::MCRegister r) const {
  if (r.id() >= byRegister_.size() || byRegister_[r.id()].count == 0)
    return std::nullopt;
  return byRegister_[r.id()];
}

llvm::MCRegister RegisterRuns::registerOf(const RegisterRun &run) const {
  auto it = byRun_.find(keyOf(run));
  return it == byRun_.end() ? llvm::MCRegister() : llvm::MCRegister(it->second);
}

// ---------------------------------------------------------------------------

std::optional<llvm::MCInst> InstructionReuse::instance(const InstructionShape &shape) const {
  auto it = templates_.find(shape.key);
  if (it == templates_.end() || !it->second.reusable)
    return std::nullopt;
  llvm::MCInst inst = it->second.inst;
  for (const Template::Renamed &n : it->second.renamed) {
    const llvm::MCRegister r = runs_.registerOf(shape.registers[n.shapeRegister]);
    if (!r || !accepted_.test(r.id()) || (n.regClass >= 0 && !mri_.getRegClass(n.regClass).contains(r)))
      return std::nullopt;
    inst.getOperand(n.operand).setReg(r);
  }
  ++reused_;
  return inst;
}

void InstructionReuse::parsed(const InstructionShape &shape, const llvm::MCInst &inst, bool quiet) {
  for (const llvm::MCOperand &op : inst)
    if (op.isReg() && op.getReg() && op.getReg() < accepted_.size())
      accepted_.set(op.getReg());
  auto [it, fresh] = templates_.try_emplace(shape.key);
  if (!fresh)
    return;
  // A statement that drew a warning is parsed each time (each warns).
  if (!quiet)
    return;
  Template &t = it->second;
  t.inst = inst;
  const llvm::MCInstrDesc &desc = mii_.get(inst.getOpcode());
  llvm::SmallVector<bool, 6> renamed(shape.registers.size(), false);
  for (unsigned i = 0; i < inst.getNumOperands(); ++i) {
    const llvm::MCOperand &op = inst.getOperand(i);
    if (op.isImm() || op.isSFPImm() || op.isDFPImm())
      continue;
    if (!op.isReg()) // an expression (a symbol, a label): parsed each time
      return;
    if (!op.getReg())
      continue;
    std::optional<RegisterRun> run = runs_.runOf(op.getReg());
      if (!run) // a named register (vcc, exec, m0, ...): the same text each time
      continue;
    unsigned id = 0;
    while (id < shape.registers.size() && !(shape.registers[id] == *run))
      ++id;
    if (id == shape.registers.size()) // not a register the statement names
      return;
    const int regClass = i < desc.getNumOperands() ? desc.operands()[i].RegClass : -1;
    if (regClass >= 0 && !mri_.getRegClass(regClass).contains(op.getReg()))
      return; // (a class this does not know how to read)
    t.renamed.push_back({i, id, regClass});
    renamed[id] = true;
  }
  for (bool r : renamed)
    if (!r) // a register the statement names that MC did not keep as one
      return;
  t.reusable = true;
}

// ---------------------------------------------------------------------------

namespace {

// Records the instruction LLVM's matcher emits.
class InstructionRecorder final : public DiscardingStreamer {
public:
  explicit InstructionRecorder(llvm::MCContext &ctx) : DiscardingStreamer(ctx) {}
  std::optional<llvm::MCInst> inst;
  const llvm::MCSubtargetInfo *sti = nullptr;
  void emitInstruction(const llvm::MCInst &i, const llvm::MCSubtargetInfo &s) override {
    inst = i;
    sti = &s;
  }
};

// Stands in the operand list for a statement answered from a template.
class ReusedOperand final : public llvm::MCParsedAsmOperand {
public:
  explicit ReusedOperand(llvm::SMLoc loc) : loc_(loc) {}
  bool isToken() const override { return true; }
  bool isImm() const override { return false; }
  bool isReg() const override { return false; }
  llvm::MCRegister getReg() const override { return llvm::MCRegister(); }
  bool isMem() const override { return false; }
  llvm::SMLoc getStartLoc() const override { return loc_; }
  llvm::SMLoc getEndLoc() const override { return loc_; }
  void print(llvm::raw_ostream &os) const override { os << "<reused instruction>"; }

private:
  llvm::SMLoc loc_;
};

// Everything but instructions goes to LLVM's AMDGPU parser as it is.
class ReusingParser final : public llvm::MCTargetAsmParser {
public:
  ReusingParser(std::unique_ptr<llvm::MCTargetAsmParser> amdgpu, InstructionReuse &reuse,
                const llvm::MCInstrInfo &mii)
      : MCTargetAsmParser(amdgpu->getTargetOptions(), amdgpu->getSTI(), mii), amdgpu_(std::move(amdgpu)),
        reuse_(reuse) {
    BracketExpressionsSupported = amdgpu_->HasBracketExpressions();
    reuse_.newParser();
  }

  void Initialize(llvm::MCAsmParser &parser) override {
    MCTargetAsmParser::Initialize(parser);
    amdgpu_->Initialize(parser);
  }

  bool ParseInstruction(llvm::ParseInstructionInfo &info, llvm::StringRef name, llvm::SMLoc nameLoc,
                        llvm::OperandVector &operands) override {
    return parseInstruction(nameLoc, operands,
                            [&] { return amdgpu_->ParseInstruction(info, name, nameLoc, operands); });
  }
  bool ParseInstruction(llvm::ParseInstructionInfo &info, llvm::StringRef name, llvm::AsmToken token,
                        llvm::OperandVector &operands) override {
    return parseInstruction(token.getLoc(), operands,
                            [&] { return amdgpu_->ParseInstruction(info, name, token, operands); });
  }

  bool MatchAndEmitInstruction(llvm::SMLoc idLoc, unsigned &opcode, llvm::OperandVector &operands,
                               llvm::MCStreamer &out, uint64_t &errorInfo, bool matchingInlineAsm) override {
    if (reused_) {
      reused_->setLoc(idLoc);
      out.emitInstruction(*reused_, amdgpu_->getSTI());
      reused_.reset();
      return false;
    }
    if (!shape_)
      return amdgpu_->MatchAndEmitInstruction(idLoc, opcode, operands, out, errorInfo, matchingInlineAsm);
    const InstructionShape shape = std::move(*shape_);
    shape_.reset();
    InstructionRecorder recorder(getContext());
    const bool failed =
        amdgpu_->MatchAndEmitInstruction(idLoc, opcode, operands, recorder, errorInfo, matchingInlineAsm);
    if (failed || !recorder.inst)
      return failed;
    reuse_.parsed(shape, *recorder.inst, reuse_.diagnostics() == diagnosticsBefore_);
    out.emitInstruction(*recorder.inst, *recorder.sti);
    return false;
  }

  // The rest: LLVM's AMDGPU parser.
  bool parsePrimaryExpr(const llvm::MCExpr *&res, llvm::SMLoc &endLoc) override {
    return amdgpu_->parsePrimaryExpr(res, endLoc);
  }
  bool parseRegister(llvm::MCRegister &reg, llvm::SMLoc &startLoc, llvm::SMLoc &endLoc) override {
    return amdgpu_->parseRegister(reg, startLoc, endLoc);
  }
  llvm::ParseStatus tryParseRegister(llvm::MCRegister &reg, llvm::SMLoc &startLoc, llvm::SMLoc &endLoc) override {
    return amdgpu_->tryParseRegister(reg, startLoc, endLoc);
  }
  bool ParseDirective(llvm::AsmToken id) override { return amdgpu_->ParseDirective(id); }
  llvm::ParseStatus parseDirective(llvm::AsmToken id) override { return amdgpu_->parseDirective(id); }
  bool OmitRegisterFromClobberLists(unsigned reg) override { return amdgpu_->OmitRegisterFromClobberLists(reg); }
  unsigned validateTargetOperandClass(llvm::MCParsedAsmOperand &op, unsigned kind) override {
    return amdgpu_->validateTargetOperandClass(op, kind);
  }
  unsigned checkEarlyTargetMatchPredicate(llvm::MCInst &inst, const llvm::OperandVector &operands) override {
    return amdgpu_->checkEarlyTargetMatchPredicate(inst, operands);
  }
  unsigned checkTargetMatchPredicate(llvm::MCInst &inst) override { return amdgpu_->checkTargetMatchPredicate(inst); }
  void convertToMapAndConstraints(unsigned kind, const llvm::OperandVector &operands) override {
    amdgpu_->convertToMapAndConstraints(kind, operands);
  }
  bool areEqualRegs(const llvm::MCParsedAsmOperand &a, const llvm::MCParsedAsmOperand &b) const override {
    return amdgpu_->areEqualRegs(a, b);
  }
  bool equalIsAsmAssignment() override { return amdgpu_->equalIsAsmAssignment(); }
  bool isLabel(llvm::AsmToken &token) override { return amdgpu_->isLabel(token); }
  bool starIsStartOfStatement() override { return amdgpu_->starIsStartOfStatement(); }
  llvm::MCSymbolRefExpr::VariantKind getVariantKindForName(llvm::StringRef name) const override {
    return amdgpu_->getVariantKindForName(name);
  }
  const llvm::MCExpr *applyModifierToExpr(const llvm::MCExpr *e, llvm::MCSymbolRefExpr::VariantKind kind,
                                          llvm::MCContext &ctx) override {
    return amdgpu_->applyModifierToExpr(e, kind, ctx);
  }
  void doBeforeLabelEmit(llvm::MCSymbol *symbol, llvm::SMLoc loc) override { amdgpu_->doBeforeLabelEmit(symbol, loc); }
  void onLabelParsed(llvm::MCSymbol *symbol) override { amdgpu_->onLabelParsed(symbol); }
  void flushPendingInstructions(llvm::MCStreamer &out) override { amdgpu_->flushPendingInstructions(out); }
  const llvm::MCExpr *createTargetUnaryExpr(const llvm::MCExpr *e, llvm::AsmToken::TokenKind op,
                                            llvm::MCContext &ctx) override {
    return amdgpu_->createTargetUnaryExpr(e, op, ctx);
  }
  void onBeginOfFile() override { amdgpu_->onBeginOfFile(); }
  void onEndOfFile() override { amdgpu_->onEndOfFile(); }

private:
  // A statement whose shape has a template is read past and answered with
  // it; any other is LLVM's to parse (`parse`), and recorded if it has a shape.
  template <typename Parse>
  bool parseInstruction(llvm::SMLoc nameLoc, llvm::OperandVector &operands, Parse parse) {
    reused_.reset();
    shape_.reset();
    // (Every SourceMgr buffer ends in a NUL.)
    const char *start = nameLoc.getPointer(), *end = start;
    while (*end && *end != '\n')
      ++end;
    if (*end == '\n')
      if (std::optional<InstructionShape> shape = shapeOf(std::string_view(start, size_t(end - start))))
        if (namesNoSymbol(*shape)) {
          if (std::optional<llvm::MCInst> inst = reuse_.instance(*shape)) {
            llvm::MCAsmParser &parser = getParser();
            while (parser.getTok().isNot(llvm::AsmToken::EndOfStatement) &&
                   parser.getTok().isNot(llvm::AsmToken::Eof))
              parser.Lex();
            if (parser.getTok().is(llvm::AsmToken::EndOfStatement))
              parser.Lex();
            operands.push_back(std::make_unique<ReusedOperand>(nameLoc));
            reused_ = std::move(inst);
            return false;
          }
          shape_ = std::move(shape);
          diagnosticsBefore_ = reuse_.diagnostics();
        }
    return parse();
  }

  // An identifier that names a symbol (a label, a `.set` value) is an
  // expression MC evaluates where it stands.
  bool namesNoSymbol(const InstructionShape &shape) {
    for (std::string_view id : shape.identifiers)
      if (getContext().lookupSymbol(llvm::StringRef(id.data(), id.size())))
        return false;
    return true;
  }

  std::unique_ptr<llvm::MCTargetAsmParser> amdgpu_;
  InstructionReuse &reuse_;
  std::optional<llvm::MCInst> reused_;      // the statement just read, answered from a template
  std::optional<InstructionShape> shape_;   // the statement just parsed by LLVM, if it has a shape
  size_t diagnosticsBefore_ = 0;
};

} // namespace

std::unique_ptr<llvm::MCTargetAsmParser> reusingParser(std::unique_ptr<llvm::MCTargetAsmParser> amdgpu,
                                                       InstructionReuse &reuse, const llvm::MCInstrInfo &mii) {
  return std::make_unique<ReusingParser>(std::move(amdgpu), reuse, mii);
}

} // namespace p2a::mc
