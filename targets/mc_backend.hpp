// In-process LLVM MC for AMDGPU, as llvm-mc does it: TargetRegistry ->
// MCRegisterInfo/MCAsmInfo/MCSubtargetInfo/MCInstrInfo -> MCContext ->
// MCAsmParser with the AMDGPU target parser -> an MCStreamer (assembly text,
// optionally with encodings, or an ELF object). LLVM is the authority on what
// is valid for a GPU: everything the translator emits goes through here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace p2a::mc {

enum class OutputKind { Asm, AsmWithEncoding, Object };

struct McDiagnostic {
  enum class Kind { Error, Warning, Note, Remark };
  unsigned line = 0;   // 1-based line in the assembled text (0: no location)
  unsigned col = 0;    // 1-based column, as llvm-mc prints it (0: no location)
  std::string message; // LLVM's message, e.g. "literal operands are not supported"
  std::string source_line;
  Kind kind = Kind::Error; // added: MC also reports warnings and notes
};

struct AssembleResult {
  bool ok = false;
  std::string output;                    // assembly text or ELF bytes
  std::vector<McDiagnostic> diagnostics; // errors (and warnings) from MC
  // Statements answered from an earlier statement's parse (InstructionParsing::ReuseShapes).
  unsigned reusedInstructions = 0;
};

// Per-instruction numbers from LLVM's scheduling model for the subtarget
// (MCSubtargetInfo::getSchedModel), the same numbers llvm-mca-19 reports.
struct InstCost {
  std::string opcode_name;   // MCInstrInfo name of the real opcode, e.g. "V_ALIGNBIT_B32_vi" (gfx9), "V_ALIGNBIT_B32_e64_gfx11"
  unsigned latency = 0;      // MCSchedModel::computeInstrLatency
  double rthroughput = 0;    // MCSchedModel::getReciprocalThroughput (issue cycles)
  unsigned num_micro_ops = 0;
};

class PieceAssembly;

// How MC reads instructions: each statement parsed and matched, or a
// statement of the same shape as an earlier one (the same text but for its
// register numbers) answered from that one's MCInst (instruction_reuse.hpp:
// the same objects, text and diagnostics, without parsing most statements).
enum class InstructionParsing { ReuseShapes, EachStatement };

class Assembler {
public:
  // cpu: gfx900, gfx90a, gfx942, gfx1030, gfx1100, gfx1200 (any AMDGPU cpu LLVM knows).
  // Wave size: wave64 on gfx9, wave32 on gfx10+ (LLVM's default for amdhsa).
  static std::unique_ptr<Assembler> create(std::string_view cpu, std::string &error,
                                           InstructionParsing parsing = InstructionParsing::ReuseShapes);
  ~Assembler();

  // Assemble a complete assembly text (may contain directives).
  AssembleResult assemble(std::string_view text, OutputKind kind) const;
  // The same, MC reading the string in place rather than a copy of it (a
  // module's assembly is tens of MB at the peak of its translation): for a
  // text that ends in a newline and stays unchanged until this returns.
  AssembleResult assembleInPlace(const std::string &text, OutputKind kind) const;

  // An object assembled from a text given in pieces (see PieceAssembly).
  std::unique_ptr<PieceAssembly> beginObject() const;

  // Parse instructions (one per line) and return the scheduling-model cost of
  // each. Fails (nullopt, diagnostics filled) if any line does not assemble.
  std::optional<std::vector<InstCost>> costs(std::string_view text,
                                             std::vector<McDiagnostic> &diags) const;

  // One instruction as LLVM's AMDGPU disassembler decodes it and its
  // instruction printer spells it (the canonical syntax for the target).
  struct DecodedInst {
    uint64_t offset = 0; // bytes from the start of `code`
    unsigned size = 0;
    std::string text;    // e.g. "v_alignbit_b32 v2, v1, v0, 20"
    std::string opcodeName; // MCInstrInfo name, e.g. "V_ALIGNBIT_B32_vi"
  };
  // Decode machine code. Fails (nullopt, `error` set) at the first byte
  // sequence that is not a valid instruction for this processor.
  std::optional<std::vector<DecodedInst>> disassemble(const uint8_t *code, size_t size, std::string &error) const;

  const std::string &cpu() const;

  // 32 or 64: the wave size the subtarget was created with (LLVM's default
  // for amdgcn-amd-amdhsa, exactly as llvm-mc-19 picks it).
  unsigned waveSize() const;

  // Output (text or object) larger than this is abandoned with an error
  // instead of exhausting memory (e.g. `.fill 0x7fffffff, 8, 0`).
  static constexpr std::size_t kMaxOutputBytes = std::size_t(256) << 20;

private:
  friend class PieceAssembly;
  AssembleResult assembleText(std::string_view text, bool inPlace, OutputKind kind) const;
  struct Impl;
  explicit Assembler(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

// An object assembled from a text given in pieces, each parsed as it is
// added: a module's kernels are assembled while its later kernels are still
// being translated (driver/module_translation.cpp). The object, and the
// diagnostics with their lines counted in the whole text, are those
// assembleInPlace gives for the pieces' concatenation: one MC context and
// object streamer take every piece, each read by a parser of its own that
// continues in the section the piece before ended in, and the last
// finalizes the object. A piece that may expand while parsed (.fill,
// .rept, ...) defers the whole text to assembleInPlace, with its size
// bound. Used from one thread at a time.
class PieceAssembly {
public:
  ~PieceAssembly();
  PieceAssembly(const PieceAssembly &) = delete;
  PieceAssembly &operator=(const PieceAssembly &) = delete;

  // `piece`: whole lines (each ending in a newline); kept, and read in
  // place, until finish().
  void add(std::string piece);
  // The lines of the pieces added so far.
  unsigned lines() const;
  // Adds the last piece and finishes the object (an error stops it at the
  // piece that had it). `pieces` receives the pieces, in order: the text
  // assembled.
  AssembleResult finish(std::string last, std::vector<std::string> &pieces);

private:
  friend class Assembler;
  struct Impl;
  explicit PieceAssembly(std::unique_ptr<Impl>);
  std::unique_ptr<Impl> impl_;
};

} // namespace p2a::mc
