#include "semantics/bitvec.hpp"

#include <cassert>
#include <sstream>
#include <stdexcept>

namespace p2a::sem {

BV BV::constant(unsigned width, uint64_t value) {
  if (width == 0 || width > 64)
    throw std::logic_error("BV: concrete width must be 1..64");
  return BV(width, value & maskOf(width));
}

BV BV::symbol(z3::context &ctx, const std::string &name, unsigned width) {
  return BV(ctx.bv_const(name.c_str(), width));
}

BV BV::fromExpr(const z3::expr &e) { return BV(e); }

BV::BV(const z3::expr &e) : width_(e.get_sort().bv_size()), sym_(e) {}

uint64_t BV::value() const {
  if (sym_)
    throw std::logic_error("BV::value on a symbolic value");
  return val_;
}

z3::expr BV::toExpr(z3::context &ctx) const {
  if (sym_)
    return *sym_;
  return ctx.bv_val(static_cast<uint64_t>(val_), width_);
}

z3::context *BV::ctxOf(const BV &o) const {
  if (sym_)
    return &sym_->ctx();
  if (o.sym_)
    return &o.sym_->ctx();
  return nullptr;
}

static void checkWidths(const BV &a, const BV &b) {
  if (a.width() != b.width())
    throw std::logic_error("BV: width mismatch " + std::to_string(a.width()) + " vs " +
                           std::to_string(b.width()));
}

static uint64_t signExtend(uint64_t v, unsigned w) {
  if (w >= 64)
    return v;
  uint64_t sign = 1ull << (w - 1);
  return (v ^ sign) - sign;
}

// Binary operation helper: concrete fast path, Z3 otherwise.
#define P2A_BINOP(NAME, CONCRETE, SYMBOLIC)                                                        \
  BV BV::NAME(const BV &o) const {                                                                 \
    checkWidths(*this, o);                                                                         \
    if (z3::context *c = ctxOf(o)) {                                                               \
      z3::expr a = toExpr(*c), b = o.toExpr(*c);                                                   \
      return BV(SYMBOLIC);                                                                         \
    }                                                                                              \
    const uint64_t a = val_, b = o.val_;                                                           \
    const unsigned w = width_;                                                                     \
    (void)w;                                                                                       \
    return BV::constant(width_, CONCRETE);                                                         \
  }

P2A_BINOP(andRaw, a &b, a &b)
P2A_BINOP(orRaw, a | b, a | b)
P2A_BINOP(xorRaw, a ^ b, a ^ b)
P2A_BINOP(operator+, a + b, a + b)
P2A_BINOP(operator-, a - b, a - b)
P2A_BINOP(operator*, a *b, a *b)
P2A_BINOP(shl, b >= w ? 0 : a << b, z3::shl(a, b))
P2A_BINOP(lshr, b >= w ? 0 : a >> b, z3::lshr(a, b))
P2A_BINOP(ashr,
          static_cast<uint64_t>(static_cast<int64_t>(signExtend(a, w)) >> (b >= w ? w - 1 : b)),
          z3::ashr(a, b))
P2A_BINOP(umin, a < b ? a : b, z3::ite(z3::ult(a, b), a, b))
#undef P2A_BINOP

#define P2A_CMP(NAME, CONCRETE, SYMBOLIC)                                                          \
  BV BV::NAME(const BV &o) const {                                                                 \
    checkWidths(*this, o);                                                                         \
    if (z3::context *c = ctxOf(o)) {                                                               \
      z3::expr a = toExpr(*c), b = o.toExpr(*c);                                                   \
      return BV(z3::ite(SYMBOLIC, c->bv_val(1, 1), c->bv_val(0, 1)));                              \
    }                                                                                              \
    const uint64_t a = val_, b = o.val_;                                                           \
    return BV::constant(1, (CONCRETE) ? 1 : 0);                                                    \
  }

P2A_CMP(eq, a == b, a == b)
P2A_CMP(ne, a != b, a != b)
P2A_CMP(ult, a < b, z3::ult(a, b))
P2A_CMP(ule, a <= b, z3::ule(a, b))
#undef P2A_CMP

// Identities with all-zero / all-one constants keep symbolic formulas small
// (the lop3 minterm expansion with a constant LUT collapses to its terms).
static bool isZero(const BV &v) { return v.isConcrete() && v.value() == 0; }
static bool isOnes(const BV &v) { return v.isConcrete() && v.value() == maskOf(v.width()); }

BV BV::operator&(const BV &o) const {
  if (width_ == o.width_) {
    if (isZero(*this) || isOnes(o))
      return *this;
    if (isZero(o) || isOnes(*this))
      return o;
  }
  return andRaw(o);
}

BV BV::operator|(const BV &o) const {
  if (width_ == o.width_) {
    if (isZero(*this) || isOnes(o))
      return o;
    if (isZero(o) || isOnes(*this))
      return *this;
  }
  return orRaw(o);
}

BV BV::operator^(const BV &o) const {
  if (width_ == o.width_) {
    if (isZero(*this))
      return o;
    if (isZero(o))
      return *this;
  }
  return xorRaw(o);
}

BV BV::operator~() const {
  if (sym_)
    return BV(~*sym_);
  return constant(width_, ~val_);
}

BV BV::extract(unsigned hi, unsigned lo) const {
  if (hi < lo || hi >= width_)
    throw std::logic_error("BV::extract out of range");
  if (sym_)
    return BV(sym_->extract(hi, lo));
  return constant(hi - lo + 1, val_ >> lo);
}

BV BV::zext(unsigned to) const {
  if (to < width_)
    throw std::logic_error("BV::zext narrows");
  if (to == width_)
    return *this;
  if (sym_)
    return BV(z3::zext(*sym_, to - width_));
  return constant(to, val_);
}

BV BV::sext(unsigned to) const {
  if (to < width_)
    throw std::logic_error("BV::sext narrows");
  if (to == width_)
    return *this;
  if (sym_)
    return BV(z3::sext(*sym_, to - width_));
  return constant(to, signExtend(val_, width_));
}

BV BV::concat(const BV &hi, const BV &lo) {
  if (hi.width_ + lo.width_ > 64 && hi.isConcrete() && lo.isConcrete())
    throw std::logic_error("BV::concat: concrete values are limited to 64 bits");
  if (z3::context *c = hi.ctxOf(lo))
    return BV(z3::concat(hi.toExpr(*c), lo.toExpr(*c)));
  return constant(hi.width_ + lo.width_, (hi.val_ << lo.width_) | lo.val_);
}

BV BV::ite(const BV &cond, const BV &then_v, const BV &else_v) {
  checkWidths(then_v, else_v);
  if (cond.width() != 1)
    throw std::logic_error("BV::ite: condition must be 1 bit");
  z3::context *c = cond.ctxOf(then_v);
  if (!c)
    c = then_v.ctxOf(else_v);
  if (c)
    return BV(z3::ite(cond.toExpr(*c) == c->bv_val(1, 1), then_v.toExpr(*c), else_v.toExpr(*c)));
  return cond.val_ ? then_v : else_v;
}

std::string BV::str() const {
  if (sym_)
    return sym_->to_string();
  std::ostringstream os;
  os << "0x" << std::hex << val_ << ":" << std::dec << width_;
  return os.str();
}

BV popcount(const BV &v) {
  BV sum = BV::constant(7, 0);
  for (unsigned i = 0; i < v.width(); ++i)
    sum = sum + v.extract(i, i).zext(7);
  return sum.zext(32);
}

} // namespace p2a::sem

namespace p2a::sem {

BV mulWide(const BV &a, const BV &b, bool isSigned) {
  const unsigned w = 2 * a.width();
  return isSigned ? a.sext(w) * b.sext(w) : a.zext(w) * b.zext(w);
}

namespace {

// (aHi:aLo) - (bHi:bLo) as v_sub_co_u32 then v_subb_co_u32 compute it: the
// difference's halves and the borrow out of the high half.
struct HalvesDifference {
  BV lo, hi, borrow;
};
HalvesDifference subtractHalves(const BV &aLo, const BV &aHi, const BV &bLo, const BV &bHi) {
  const BV lo = aLo.zext(33) - bLo.zext(33);
  const BV hi = aHi.zext(33) - bHi.zext(33) - lo.extract(32, 32).zext(33);
  return {lo.extract(31, 0), hi.extract(31, 0), hi.extract(32, 32)};
}

} // namespace

UnsignedDivision divideUnsignedHalves(const BV &nLo, const BV &nHi, const BV &dLo, const BV &dHi) {
  const BV zero = nLo.lit(0), one = nLo.lit(1), ones = nLo.lit(0xffffffffu);
  const BV topBit = BV::constant(64, 31);
  // (the big-divisor case below reads the 64-bit values)
  const BV n = BV::concat(nHi, nLo), d = BV::concat(dHi, dLo);
  BV rLo = zero, rHi = zero, qLo = nLo, qHi = nHi;
  for (unsigned i = 0; i < 64; ++i) {
    rHi = BV::concat(rHi, rLo).lshr(topBit).extract(31, 0);
    rLo = BV::concat(rLo, qHi).lshr(topBit).extract(31, 0);
    qHi = BV::concat(qHi, qLo).lshr(topBit).extract(31, 0);
    qLo = qLo.shl(one);
    const HalvesDifference diff = subtractHalves(rLo, rHi, dLo, dHi); // borrow: r < d
    rLo = BV::ite(diff.borrow, rLo, diff.lo);
    rHi = BV::ite(diff.borrow, rHi, diff.hi);
    qLo = (qLo.zext(33) - ones.zext(33) - diff.borrow.zext(33)).extract(31, 0);
  }
  const BV big = dHi.extract(31, 31);
  const BV fits = d.ule(n);
  const BV q = BV::concat(qHi, qLo), r = BV::concat(rHi, rLo);
  return {BV::ite(big, BV::ite(fits, n.lit(1), n.lit(0)), q), BV::ite(big, BV::ite(fits, n - d, n), r)};
}

std::array<BV, 3> magnitudeHalves(const BV &lo, const BV &hi) {
  const BV m = hi.ashr(hi.lit(31));
  const HalvesDifference magnitude = subtractHalves(lo ^ m, hi ^ m, m, m);
  return {magnitude.lo, magnitude.hi, m};
}

UnsignedDivision divideUnsigned16In32(const BV &n, const BV &d) {
  const BV zero = BV::constant(32, 0), one = BV::constant(32, 1), topBit = BV::constant(64, 31);
  BV r = zero, q = n.shl(BV::constant(32, 16));
  for (unsigned i = 0; i < 16; ++i) {
    r = BV::concat(r, q).lshr(topBit).extract(31, 0); // v_alignbit_b32 r, r, q, 31
    q = q.shl(one);
    const BV diff = r.zext(33) - d.zext(33);
    const BV borrow = diff.extract(32, 32);
    r = BV::ite(borrow, r, diff.extract(31, 0));
    q = (q.zext(33) - BV::constant(33, 0xffffffffu) - borrow.zext(33)).extract(31, 0);
  }
  return {q, r};
}

UnsignedDivision divideUnsigned(const BV &n, const BV &d) {
  const unsigned w = n.width();
  if (w == 64)
    return divideUnsignedHalves(n.extract(31, 0), n.extract(63, 32), d.extract(31, 0), d.extract(63, 32));
  if (w == 16) {
    const UnsignedDivision qr = divideUnsigned16In32(n.zext(32), d.zext(32));
    return {qr.quotient.extract(15, 0), qr.remainder.extract(15, 0)};
  }
  const BV zero = n.lit(0), one = n.lit(1);
  const BV topBit = BV::constant(2 * w, w - 1);
  BV r = zero, q = n;
  for (unsigned i = 0; i < w; ++i) {
    r = BV::concat(r, q).lshr(topBit).extract(w - 1, 0); // (r << 1) | the dividend's next bit
    q = q.shl(one);
    const BV diff = r.zext(w + 1) - d.zext(w + 1);
    const BV borrow = diff.extract(w, w); // r < d
    r = BV::ite(borrow, r, diff.extract(w - 1, 0));
    // q + 1 - borrow, as q - (-1) - borrow
    q = (q.zext(w + 1) - n.lit(maskOf(w)).zext(w + 1) - borrow.zext(w + 1)).extract(w - 1, 0);
  }
  const BV big = d.extract(w - 1, w - 1);
  const BV fits = d.ule(n);
  return {BV::ite(big, BV::ite(fits, one, zero), q), BV::ite(big, BV::ite(fits, n - d, n), r)};
}

BV mulLow(const BV &a, const BV &b) {
  if (a.width() == 64)
    return a * b; // (the low half of any product is the product mod 2^64)
  return mulWide(a, b, false).trunc(a.width());
}

BV mulHigh(const BV &a, const BV &b, bool isSigned) {
  if (a.width() == 64 && a.isConcrete() && b.isConcrete()) {
    const __int128 p = isSigned ? static_cast<__int128>(static_cast<int64_t>(a.value())) *
                                      static_cast<__int128>(static_cast<int64_t>(b.value()))
                                : static_cast<__int128>(static_cast<unsigned __int128>(a.value()) *
                                                        static_cast<unsigned __int128>(b.value()));
    return BV::constant(64, static_cast<uint64_t>(static_cast<unsigned __int128>(p) >> 64));
  }
  return mulWide(a, b, isSigned).extract(2 * a.width() - 1, a.width());
}

} // namespace p2a::sem
