// Typed PTX IR for the instruction forms rules translate: the Logic & Shift
// family (PTX ISA 9.7.8), its bit-manipulation neighbours and integer arithmetic:
// decoded, validated instruction forms. The decoder (ptx_decoder.cpp) builds
// these from the syntactic AST and rejects wrong forms with located errors.
#pragma once

#include "ptx/register_name.hpp"
#include "ptx/sparse_string.hpp"
#include "grammar/ast.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace p2a::ptx {

enum class Opcode : unsigned char {
  // Logic and Shift (PTX ISA 9.7.8)
  And, Or, Xor, Not, Cnot, Lop3, Shf, Shl, Shr,
  // Bit-manipulation neighbours (PTX ISA 9.7.1 integer arithmetic, 9.7.9.7 prmt)
  Prmt, Bfe, Bfi, Brev, Popc, Clz, Bfind, Fns, Bmsk, Szext,
  // Integer arithmetic and moves that kernels need around the family
  // (PTX ISA 9.7.1.1 add, 9.7.1.2 sub, 9.7.1.3 mul, 9.7.1.4 mad, 9.7.9.3 mov,
  // 9.7.9.21 cvt). Two's complement: .s and .u add/sub/mul.lo/mad.lo are one
  // operation, so the decoder canonicalises them to .u.
  Mov, Add, Sub, MulLo, MulHi, MulWide, MadLo, Cvt,
  // Comparison and selection (PTX ISA 9.7.3.1 setp, 9.7.3.3 selp): setp's
  // .b types (eq/ne only) and lo/ls/hi/hs spellings canonicalise to .u.
  Setp, Selp,
  // PTX ISA 9.7.1.10 min, 9.7.1.11 max, 9.7.1.8 abs, 9.7.1.9 neg (32-bit).
  Min, Max, Abs, Neg,
  // PTX ISA 9.7.1.6 div, 9.7.1.7 rem (integer; .u32 and .s32 so far).
  Div, Rem,
  // PTX ISA 9.7.1.5 mul24 / 9.7.1.6 mad24 (24-bit operands, .lo or .hi of
  // the 48-bit product), 9.7.1.4 mad.hi / mad.wide.
  Mul24Lo, Mul24Hi, Mad24Lo, Mad24Hi, MadHi, MadWide,
  // PTX ISA 9.7.9.3 mov with a vector operand: `mov.b64 d, {lo,hi}` packs
  // two halves, `mov.b64 {lo,hi}, a` unpacks (also .b32 from .b16 halves).
  MovPack, MovUnpack,
  // Fused forms: no PTX spelling of their own; kernel/transforms/
  // instruction_fusion.cpp forms them from two PTX instructions so that a
  // rule can map them to one AMD instruction: add3 = (a + b) + c,
  // xad = (a ^ b) + c; rotl.b64 d, a, k = nvcc's 64-bit rotate
  // {shl.b64 l, a, k; shr.b64 r, a, 64-k; add.u64 d, l, r} (two v_alignbit_b32).
  Add3, Xad, Rotl,
  // PTX ISA 9.7.18.1 "Scalar Video Instructions": vshl / vshr
  // .dtype.atype.u32{.sat}.mode{.add|.min|.max}; vadd, vsub, vabsdiff, vmin,
  // vmax .dtype.atype.btype{.sat}{.add|.min|.max}. Operand selectors and the
  // data merge are separate instructions (ptx::expandOperandSelectors).
  Vshl, Vshr, Vadd, Vsub, Vabsdiff, Vmin, Vmax,
  // vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a, {-}b, {-}c
  // (9.7.18.1.4): (a*b) + c with the product or c negated, or + 1 (.po).
  Vmad,
  // vset.atype.btype.cmp{.add|.min|.max} (9.7.18.1.3): d = compare ? 1 : 0, unsigned.
  Vset,
};
// How many opcodes there are (Vset is the last): tables indexed by opcode.
inline constexpr unsigned kOpcodeCount = static_cast<unsigned>(Opcode::Vset) + 1;

// prmt modes (PTX ISA 9.7.9.7); None is the default (generic) mode.
enum class PrmtMode : unsigned char { None, F4e, B4e, Rc8, Ecl, Ecr, Rc16 };

// Type class of the form's type suffix: .pred, .bN, .uN, .sN.
enum class TypeClass : unsigned char { Pred, B, U, S };

// A scalar type name without its dot (PTX ISA 5.2.2): pred, b/u/s 8..64.
// Floating-point types are read as bits of their width (FloatTypes::AsBits:
// f16, f32, f64) where only moves, loads, stores and declarations use them.
struct ScalarType {
  TypeClass cls = TypeClass::B;
  unsigned bits = 32;
};
enum class FloatTypes { Reject, AsBits };
std::optional<ScalarType> parseScalarType(const std::string &name, FloatTypes floats);

enum class ShfDir : unsigned char { Left, Right };
enum class ShfMode : unsigned char { Wrap, Clamp }; // also bmsk's and szext's .wrap/.clamp
enum class BoolOp : unsigned char { None, And, Or, Xor }; // lop3.{and,or} (PTX 8.2), setp's .and/.or/.xor combiner
enum class CmpOp : unsigned char { Eq, Ne, Lt, Le, Gt, Ge };  // setp (PTX ISA 9.7.3.1)

// A form is the opcode plus all modifiers: everything about an instruction but
// its operands. Rules match on forms.
struct Form {
  Opcode opcode = Opcode::And;
  TypeClass type = TypeClass::B;
  unsigned width = 32;           // 1 for .pred
  ShfDir dir = ShfDir::Left;     // shf only
  ShfMode mode = ShfMode::Wrap;  // shf only
  BoolOp boolop = BoolOp::None;  // lop3 only
  PrmtMode prmt = PrmtMode::None; // prmt only
  bool shiftamt = false;          // bfind.shiftamt
  TypeClass fromType = TypeClass::U; // cvt only: the source type
  unsigned fromWidth = 32;           // cvt only (an 8-bit destination: width 8, in a 16-bit register)
  CmpOp cmp = CmpOp::Eq;             // setp only (boolop: its .and/.or/.xor combiner)
  // add/sub only: the condition code's carry (PTX ISA 9.7.2, extended
  // precision: add.cc / addc / addc.cc, sub.cc / subc / subc.cc). The flag
  // CC.CF is an implicit 1-bit operand: a destination after d with
  // carryOut, a source after b with carryIn.
  bool carryIn = false, carryOut = false;
  // Video instructions (9.7.18.1): `type` is the destination type,
  // `fromType` a's, `videoBType` b's; `saturate` clamps the wide
  // intermediate to the destination type; the secondary operation with c
  // (.add, .min, .max) follows. vshl/vshr: `mode`. cvt.sat also sets
  // `saturate`: the source value clamped to the destination type's range.
  enum class VideoOp2 : unsigned char { None, Add, Min, Max };
  TypeClass videoBType = TypeClass::U;
  bool saturate = false;
  VideoOp2 videoOp2 = VideoOp2::None;
  bool videoAdd() const { return videoOp2 == VideoOp2::Add; }
  // vmad: which operand is negated (written `-a` or `-b`: the product; `-c`),
  // or .po's + 1; the .shr7/.shr15 scale (0: none). `type` is S where the
  // final result is signed (the ISA's signedFinal; dtype itself changes no
  // bit). Names show the negation as a suffix: vmad.s32.u32.u32.neg_ab.
  enum class VmadMode : unsigned char { Plain, NegProduct, NegC, PlusOne };
  VmadMode vmadMode = VmadMode::Plain;
  unsigned vmadShift = 0;
  bool isVideoArith() const; // vadd vsub vabsdiff vmin vmax
  bool isVideoShift() const; // vshl vshr
  bool isVideo() const;      // those, vmad and vset (PTX ISA 9.7.18)

  // Canonical PTX spelling, e.g. "shf.l.wrap.b32", "shr.s16", "lop3.and.b32".
  // vmad's negations are PTX operands (`-a`, `-c`): its names add them as
  // a suffix (".neg_ab", ".neg_c") that `mnemonic` leaves out.
  std::string name() const;
  std::string mnemonic() const;
  // Whether PTX writes source i with a '-' (vmad: a for the product, c).
  bool negatesSource(unsigned i) const {
    return opcode == Opcode::Vmad &&
           ((vmadMode == VmadMode::NegProduct && i == 0) || (vmadMode == VmadMode::NegC && i == 2));
  }
  // A fused form (add3, xad, rotl): not in PTX source, made by
  // kernel/transforms/instruction_fusion.cpp.
  bool fused() const { return opcode == Opcode::Add3 || opcode == Opcode::Xad || opcode == Opcode::Rotl; }
  // Number of destination / source operands (lop3: immLut counts as a source).
  unsigned numDsts() const;
  unsigned numSrcs() const;
  // Width in bits of source operand i (shift amounts are .u32; lop3's immLut is 8).
  unsigned srcWidth(unsigned i) const;
  unsigned dstWidth(unsigned i) const;
  // The form's number among the distinct names seen by this process: equal
  // ids exactly when the names are equal. A thread's memo answers by the
  // packed fields, so rule lookup and comparison build no string.
  unsigned id() const;
  // Every field packed into one number (nullopt: a width too large to
  // pack): equal packings are equal forms, though equal forms may pack
  // differently (a field the opcode does not use). A key made without the
  // id's lookup.
  std::optional<uint64_t> packed() const;
  bool operator==(const Form &o) const { return id() == o.id(); }
};

// A video arithmetic or shift form with the types that change no bit set to
// .u32: without .sat or a secondary .min/.max, the destination type; for
// vadd and vsub then a's and b's too (d is the low 32 bits of the sum either
// way), for vshl a's (the low 32 bits of a left shift do not see a's sign).
Form canonicalVideoForm(Form f);

// Every form of the family, in a stable order (for tables and tests).
const std::vector<Form> &allForms();
// The values of an integer type of `width` bits (.sN: [-2^(N-1), 2^(N-1) - 1],
// else [0, 2^N - 1]), as two's-complement bits.
struct IntegerRange {
  uint64_t min, max;
};
IntegerRange integerRange(TypeClass type, unsigned width);
// Whether cvt.sat.to.from can change a value: the source type's range is not
// inside the destination's (ptxas refuses .sat otherwise; PTX ISA 9.7.9.21).
bool cvtCanSaturate(TypeClass to, unsigned toWidth, TypeClass from, unsigned fromWidth);
std::optional<Form> formByName(const std::string &name);

// Whether an integer constant (PTX ISA 4.5.1: a 64-bit value; a negative one
// is its two's complement) fits a `width`-bit operand, read as signed or as
// unsigned. One that fits neither way (0x100000000 for .b32) loses bits: ptxas
// 13 truncates it without a word, and so does the translation, with a
// warning (-Wconstant-truncated).
inline bool immediateFits(uint64_t bits, unsigned width) {
  if (width >= 64)
    return true;
  const uint64_t high = bits >> (width - 1); // the sign bit and everything above it
  return (bits >> width) == 0 || high == (~0ull >> (width - 1));
}

struct Operand {
  enum class Kind : unsigned char { Register, Immediate, Sink };
  // Register name for Kind::Register. (First, and without a unique address:
  // `kind` takes the padding after its id, and an operand stays 56 bytes.)
  [[no_unique_address]] RegisterName reg;
  Kind kind = Kind::Register;
  uint64_t imm = 0;  // immediate bits (already truncated to the operand width)
  ::ptx::ast::SourceLoc loc;
  bool isReg() const { return kind == Kind::Register; }
  bool isImm() const { return kind == Kind::Immediate; }
};
static_assert(sizeof(Operand) <= 56, "a large kernel holds hundreds of thousands of operands");

struct Instruction {
  Form form;
  std::vector<Operand> dsts; // d (and p for lop3.{and,or})
  std::vector<Operand> srcs; // a, b, c, ... in PTX order
  ::ptx::ast::SourceLoc loc;
  SparseString text; // source text for listings (ptx/sparse_string.hpp)
};

// The register that carries PTX's condition code CC.CF between add.cc and
// addc (and the sub forms): an implicit 1-bit operand, a lane mask like a
// predicate once translated.
inline constexpr const char *kCarryFlagRegister = "%__cc";

// The type PTX registers get: by `.reg` declaration or by use.
struct RegisterType {
  TypeClass cls = TypeClass::B;
  unsigned width = 32;
};

} // namespace p2a::ptx
