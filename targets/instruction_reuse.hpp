// Reusing an instruction MC has parsed and matched for later statements that
// differ from it only in register numbers (mc_backend.cpp's parsers).
//
// Why: LLVM's AMDGPU parser and matcher are a fifth of a big module's
// translation (KeyHunt: 390k instruction lines, of which 3.7k distinct once
// register numbers are abstracted). The statement `v_add_u32 v7, v3, v7` has
// the shape `v_add_u32 v#0, v#1, v#0`; its MCInst is the one of any earlier
// statement of that shape with its registers renamed.
//
// Why that keeps LLVM MC the authority on what is valid:
//   - a shape's first statement is parsed, matched and validated by MC, so
//     the shape's opcode, operand kinds, immediates and modifiers are MC's;
//   - a register a reuse puts in has been in some statement the same
//     parser accepted (target limits such as SGPR102+, the per-register
//     checks, the parser's count of the registers used);
//   - the shape keeps what MC's validation reads beyond single registers:
//     which operands are the same register (constant bus, early-clobber),
//     whether a VGPR tuple starts at an odd register (gfx90a's alignment),
//     whether a VGPR is v128 or above (gfx11's 16-bit VOP1/2/C encodings
//     reach v0-v127), list or range syntax (gfx10's NSA image addresses),
//     and the text of everything else (immediates, modifiers, named
//     registers);
//   - a renamed register must be in the class the opcode asks for that
//     operand (MCInstrDesc);
//   - operands that overlap without being equal, VOPD's register banks
//     (`v_dual_*`), GWS's even VGPR (`ds_gws_*`), comments, strings, symbols
//     and indices MC would read as octal are always parsed.
// Outputs are byte-identical with and without reuse (tests compare both).
#pragma once

#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCRegister.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace llvm {
class MCInstrInfo;
class MCRegisterInfo;
class MCTargetAsmParser;
} // namespace llvm

namespace p2a::mc {

// Consecutive VGPRs or SGPRs as assembly names them: v7, s[4:5], [v6,v7].
struct RegisterRun {
  char file = 'v'; // 'v' or 's'
  unsigned first = 0, count = 1;
  bool operator==(const RegisterRun &) const = default;
  bool overlaps(const RegisterRun &o) const {
    return file == o.file && first < o.first + o.count && o.first < first + count;
  }
};

// A statement with its register runs numbered by first appearance (`key`),
// and those runs. Identifiers other than registers and the mnemonic are
// listed (a symbol of that name makes the statement one to parse).
struct InstructionShape {
  llvm::SmallString<64> key; // (in place: one is made for each statement MC reads)
  llvm::SmallVector<RegisterRun, 6> registers; // distinct, in order of first appearance
  llvm::SmallVector<std::string_view, 4> identifiers;
};

// The shape of `statement` (an instruction from its mnemonic to the end of
// its line, no newline), or nullopt where it is always parsed: comments,
// strings, a register list that is not consecutive, operands that overlap
// without being equal, VOPD, GWS, an index with a leading 0.
std::optional<InstructionShape> shapeOf(std::string_view statement);

// Which MCRegister is which run, from LLVM's register names (VGPR4,
// SGPR4_SGPR5, VGPR0_VGPR1_VGPR2): the registers the AMDGPU parser gives
// for v4, s[4:5], v[0:2].
class RegisterRuns {
public:
  explicit RegisterRuns(const llvm::MCRegisterInfo &mri);
  std::optional<RegisterRun> runOf(llvm::MCRegister r) const;
  llvm::MCRegister registerOf(const RegisterRun &run) const; // NoRegister where none
  unsigned registers() const { return static_cast<unsigned>(byRegister_.size()); }

private:
  static uint64_t keyOf(const RegisterRun &r) {
    return (uint64_t(r.file) << 48) | (uint64_t(r.count) << 32) | r.first;
  }
  std::vector<RegisterRun> byRegister_; // count 0: not a run
  llvm::DenseMap<uint64_t, unsigned> byRun_;
};

// One assembly's templates (a session's: they outlive its parsers, one per
// piece) and the registers MC has accepted in it.
class InstructionReuse {
public:
  // `diagnostics`: how many diagnostics the assembly has reported so far.
  InstructionReuse(const RegisterRuns &runs, const llvm::MCInstrInfo &mii, const llvm::MCRegisterInfo &mri,
                   std::function<size_t()> diagnostics)
      : runs_(runs), mii_(mii), mri_(mri), diagnostics_(std::move(diagnostics)), accepted_(runs.registers()) {}

  // The MCInst for `shape` from an earlier statement, or nullopt (parse it).
  std::optional<llvm::MCInst> instance(const InstructionShape &shape) const;
  // What MC made of a statement of `shape`: its registers are accepted, and
  // it becomes the shape's template if it is the first, can be one, and was
  // `quiet` (no warning: a reused statement would not repeat it).
  void parsed(const InstructionShape &shape, const llvm::MCInst &inst, bool quiet);
  size_t diagnostics() const { return diagnostics_(); }

  // A parser of the next piece starts: registers are accepted again. (Each
  // AMDGPU parser counts the registers it reads into .amdgcn.next_free_vgpr
  // and _sgpr, from 0; a reused statement names only registers that the
  // parser reading it has read.)
  void newParser() { accepted_.reset(); }

  unsigned reused() const { return reused_; }
  unsigned templates() const { return static_cast<unsigned>(templates_.size()); }

private:
  struct Template {
    llvm::MCInst inst;
    // The operands a statement renames: which, the shape register it
    // takes, and the register class the opcode asks there (-1: none).
    struct Renamed {
      unsigned operand, shapeRegister;
      int regClass;
    };
    llvm::SmallVector<Renamed, 6> renamed;
    bool reusable = false;
  };
  const RegisterRuns &runs_;
  const llvm::MCInstrInfo &mii_;
  const llvm::MCRegisterInfo &mri_;
  std::function<size_t()> diagnostics_;
  llvm::BitVector accepted_;
  llvm::StringMap<Template> templates_;
  mutable unsigned reused_ = 0;
};

// A target parser that answers statements with a template where
// InstructionReuse has one and lets `amdgpu` (LLVM's AMDGPU parser, made on
// the same MCAsmParser) do everything else, recording what it matches.
std::unique_ptr<llvm::MCTargetAsmParser> reusingParser(std::unique_ptr<llvm::MCTargetAsmParser> amdgpu,
                                                       InstructionReuse &reuse, const llvm::MCInstrInfo &mii);

} // namespace p2a::mc
