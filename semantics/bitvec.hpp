// A bit-vector value that is either concrete (up to 64 bits) or symbolic (a Z3
// expression). Every semantics function in the project -- PTX forms and AMD
// instructions alike -- is written once against this type, so the same code
// runs concrete test vectors and builds the Z3 formulas the rule proofs check.
// Operations follow SMT-LIB bit-vector semantics (shifts by >= width give 0 or
// the sign fill), which is also what the concrete path computes.
#pragma once

#include <array>
#include <z3++.h>

#include <cstdint>
#include <optional>
#include <string>

namespace p2a::sem {

class BV {
public:
  static BV constant(unsigned width, uint64_t value);
  static BV symbol(z3::context &ctx, const std::string &name, unsigned width);
  static BV fromExpr(const z3::expr &e);

  unsigned width() const { return width_; }
  bool isConcrete() const { return !sym_.has_value(); }
  uint64_t value() const; // concrete only
  // The Z3 form; a concrete value becomes a numeral in `ctx`.
  z3::expr toExpr(z3::context &ctx) const;

  // Bitwise / arithmetic; both operands must have the same width.
  BV operator&(const BV &o) const;
  BV operator|(const BV &o) const;
  BV operator^(const BV &o) const;
  BV operator~() const;
  BV operator+(const BV &o) const;
  BV operator-(const BV &o) const;
  BV operator*(const BV &o) const; // low `width` bits of the product
  BV shl(const BV &amount) const;  // amount same width; >= width gives 0
  BV lshr(const BV &amount) const; // >= width gives 0
  BV ashr(const BV &amount) const; // >= width gives the sign fill
  BV umin(const BV &o) const;

  // Comparisons give 1-bit values.
  BV eq(const BV &o) const;
  BV ne(const BV &o) const;
  BV ult(const BV &o) const;
  BV ule(const BV &o) const;

  BV extract(unsigned hi, unsigned lo) const;
  BV zext(unsigned to) const;
  BV sext(unsigned to) const;
  BV trunc(unsigned to) const { return extract(to - 1, 0); }
  static BV concat(const BV &hi, const BV &lo);
  // cond is 1 bit.
  static BV ite(const BV &cond, const BV &then_v, const BV &else_v);

  BV lit(uint64_t v) const { return constant(width_, v); } // same width constant
  std::string str() const;

private:
  BV(unsigned w, uint64_t v) : width_(w), val_(v) {}
  BV andRaw(const BV &o) const;
  BV orRaw(const BV &o) const;
  BV xorRaw(const BV &o) const;
  explicit BV(const z3::expr &e);
  z3::context *ctxOf(const BV &o) const;

  unsigned width_ = 0;
  uint64_t val_ = 0;
  std::optional<z3::expr> sym_;
};

inline uint64_t maskOf(unsigned width) { return width >= 64 ? ~0ull : ((1ull << width) - 1); }

// The number of set bits of v, as a 32-bit value. One definition for PTX popc
// and AMD v_bcnt_u32_b32, so that the proofs of rules built from v_bcnt see
// the same terms on both sides. Summed in 7 bits (enough for 64) and widened
// once: bit-blasting 32-bit adders for 1-bit addends made proofs slow.
BV popcount(const BV &v);

// The full double-width product of two same-width values (sign- or
// zero-extended first). One definition for PTX mul.{lo,hi,wide}/mad.lo and
// AMD v_mul_lo_u32/v_mul_hi_{u32,i32}: each side takes the bits it keeps from
// the same product, so the proofs compare equal terms instead of asking the
// solver to relate two different multipliers.
BV mulWide(const BV &a, const BV &b, bool isSigned);

// Unsigned division of n by d (d != 0): the quotient and the remainder.
// Defined as restoring division, one quotient bit per step -- shift the
// remainder and the next dividend bit left, subtract d where it fits -- with
// each step written as the AMD instructions of the div/rem rules compute it
// (rules/rules_divide.cpp: v_alignbit_b32, v_lshlrev_b32, v_sub_co_u32,
// v_cndmask_b32, v_subb_co_u32), so that their proofs compare like terms.
// The steps need the remainder to stay below 2^(w-1), i.e. d <= 2^(w-1);
// a larger d divides at most once (quotient n >= d). semantics_test checks
// the definition against the machine's own division.
struct UnsignedDivision {
  BV quotient, remainder;
};
UnsignedDivision divideUnsigned(const BV &n, const BV &d);
// n / d for n, d < 2^16 + 1 held in 32 bits (zero-extended values, or the
// magnitudes of sign-extended 16-bit ones): n shifted to the top of a 32-bit
// register, 16 of the 32-bit steps; the remainder stays below d. 32-bit results.
UnsignedDivision divideUnsigned16In32(const BV &n, const BV &d);
// 16-bit values are divided as the 16-bit rules do it: divideUnsigned16In32.
// The 64-bit case, on 32-bit halves as the 64-bit rules compute it: per
// step the remainder:quotient pair shifts left by v_alignbit_b32 (three
// halves) and v_lshlrev_b32, d is subtracted by v_sub_co_u32 and
// v_subb_co_u32, and the borrow selects (v_cndmask_b32) and sets the
// quotient bit (v_subb_co_u32). divideUnsigned calls it for 64-bit values.
UnsignedDivision divideUnsignedHalves(const BV &nLo, const BV &nHi, const BV &dLo, const BV &dHi);
// |x| of a 64-bit x given as halves, as the signed 64-bit rules compute it:
// m = hi >> 31 (arithmetic), then (x ^ m) - m with a borrow between the
// halves. Returns {lo, hi, m}.
std::array<BV, 3> magnitudeHalves(const BV &lo, const BV &hi);
// The low and high halves of the double-width product of two equal-width
// values. Concrete values are at most 64 bits wide, so a 64x64 product is
// computed here as 128-bit arithmetic instead of through mulWide.
BV mulLow(const BV &a, const BV &b);
BV mulHigh(const BV &a, const BV &b, bool isSigned);

} // namespace p2a::sem
