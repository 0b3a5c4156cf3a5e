#include "proof/integer_proof.hpp"

#include <algorithm>
#include <unordered_map>
#include <vector>

namespace p2a::verify {

namespace {

class Translation {
public:
  Translation(z3::context &ctx, z3::expr_vector &bounds) : ctx_(ctx), bounds_(bounds) {}

  std::string unsupported;

  std::optional<z3::expr> boolean(const z3::expr &e) {
    const Z3_decl_kind k = e.decl().decl_kind();
    std::vector<z3::expr> args;
    const bool compare = k == Z3_OP_EQ || k == Z3_OP_DISTINCT || k == Z3_OP_ULT || k == Z3_OP_ULEQ ||
                         k == Z3_OP_UGT || k == Z3_OP_UGEQ;
    for (unsigned i = 0; i < e.num_args(); ++i) {
      const z3::expr a = e.arg(i);
      std::optional<z3::expr> t = a.is_bool() ? boolean(a) : term(a);
      if (!t)
        return std::nullopt;
      args.push_back(*t);
    }
    switch (k) {
    case Z3_OP_TRUE: return ctx_.bool_val(true);
    case Z3_OP_FALSE: return ctx_.bool_val(false);
    case Z3_OP_NOT: return !args[0];
    case Z3_OP_IMPLIES: return z3::implies(args[0], args[1]);
    case Z3_OP_ITE: return z3::ite(args[0], args[1], args[2]);
    case Z3_OP_AND:
    case Z3_OP_OR: {
      z3::expr_vector v(ctx_);
      for (const z3::expr &a : args)
        v.push_back(a);
      return k == Z3_OP_AND ? z3::mk_and(v) : z3::mk_or(v);
    }
    default: break;
    }
    if (compare) {
      switch (k) {
      case Z3_OP_EQ: return args[0] == args[1];
      case Z3_OP_DISTINCT: return args[0] != args[1];
      case Z3_OP_ULT: return args[0] < args[1];
      case Z3_OP_ULEQ: return args[0] <= args[1];
      case Z3_OP_UGT: return args[0] > args[1];
      default: return args[0] >= args[1];
      }
    }
    unsupported = e.decl().name().str();
    return std::nullopt;
  }

  // The unsigned value of bit-vector term e.
  std::optional<z3::expr> term(const z3::expr &e) {
    if (e.is_bool())
      return boolean(e);
    auto it = memo_.find(e.id());
    if (it != memo_.end())
      return it->second;
    std::optional<z3::expr> r = translate(e);
    if (r)
      memo_.emplace(e.id(), *r);
    return r;
  }

private:
  static constexpr unsigned kLimb = 32;

  // 2^n in decimal, as Z3 prints a numeral.
  std::string pow2String(unsigned n) { return pow2(n).to_string(); }

  // A bit-vector constant as an integer in [0, 2^w); one wider than 32 bits
  // is a sum of 32-bit limbs, so extracting its halves (what the templates
  // do with 64-bit sources) gives the limbs without div/mod.
  z3::expr variable(const z3::expr &e) {
    const unsigned w = e.get_sort().bv_size();
    const std::string name = e.decl().name().str() + "!int";
    if (w <= kLimb || w % kLimb != 0) {
      z3::expr x = ctx_.int_const(name.c_str());
      bounds_.push_back(x >= 0);
      bounds_.push_back(x < pow2(w));
      return known(x, w);
    }
    std::vector<z3::expr> limbs;
    for (unsigned i = 0; i < w / kLimb; ++i) {
      z3::expr l = ctx_.int_const((name + std::to_string(i)).c_str());
      bounds_.push_back(l >= 0);
      bounds_.push_back(l < pow2(kLimb));
      limbs.push_back(l);
    }
    z3::expr acc = limbs.back();
    for (size_t i = limbs.size() - 1; i-- > 0;)
      acc = acc * pow2(kLimb) + limbs[i];
    limbs_.emplace(e.id(), limbs);
    for (const z3::expr &l : limbs)
      known(l, kLimb);
    return known(acc, w);
  }

  // 2^n as an integer numeral (decimal digits by repeated doubling).
  z3::expr pow2(unsigned n) {
    std::string digits = "1"; // least significant first
    for (unsigned i = 0; i < n; ++i) {
      int carry = 0;
      for (char &c : digits) {
        const int v = (c - '0') * 2 + carry;
        c = static_cast<char>('0' + v % 10);
        carry = v / 10;
      }
      if (carry)
        digits.push_back(static_cast<char>('0' + carry));
    }
    return ctx_.int_val(std::string(digits.rbegin(), digits.rend()).c_str());
  }

  // Range facts about integer terms made here: every term is below
  // 2^bits_, and mod-by-power-of-two terms remember their operand, so a
  // reduction that cannot wrap, or that a wider one already did, is not
  // written at all. Z3's arithmetic does not drop those by itself, and
  // left in, they make the nonlinear problem much harder.
  z3::expr known(z3::expr x, unsigned bits) {
    bits_[x.id()] = bits;
    return x;
  }
  unsigned bitsOf(const z3::expr &x) {
    if (x.is_numeral()) {
      std::string d = x.get_decimal_string(0);
      unsigned b = 0;
      // bit length of the decimal numeral (numerals here are non-negative)
      while (d != "0") {
        int rem = 0;
        std::string q;
        for (char c : d) {
          const int v = rem * 10 + (c - '0');
          if (!q.empty() || v / 2)
            q.push_back(static_cast<char>('0' + v / 2));
          rem = v % 2;
        }
        d = q.empty() ? "0" : q;
        ++b;
      }
      return b;
    }
    auto it = bits_.find(x.id());
    return it == bits_.end() ? ~0u : it->second;
  }
  z3::expr reduce(const z3::expr &x, unsigned w) {
    if (bitsOf(x) <= w)
      return x;
    auto inner = modOf_.find(x.id());
    if (inner != modOf_.end() && inner->second.second >= w)
      return reduce(inner->second.first, w);
    z3::expr r = z3::mod(x, pow2(w));
    modOf_.emplace(r.id(), std::make_pair(x, w));
    return known(r, w);
  }
  // x mod 2^k where the result is only used modulo 2^w, w <= k (added,
  // multiplied, or bits below w extracted): the reduction is redundant.
  z3::expr unreduced(const z3::expr &x, unsigned w) {
    auto inner = modOf_.find(x.id());
    if (inner != modOf_.end() && inner->second.second >= w)
      return unreduced(inner->second.first, w);
    return x;
  }
  static unsigned log2Ceil(size_t n) {
    unsigned b = 0;
    while ((size_t{1} << b) < n)
      ++b;
    return b;
  }

  std::optional<z3::expr> translate(const z3::expr &e) {
    const unsigned w = e.get_sort().bv_size();
    if (e.is_numeral())
      return ctx_.int_val(Z3_get_numeral_string(ctx_, e));
    const Z3_decl_kind k = e.decl().decl_kind();
    if (k == Z3_OP_UNINTERPRETED && e.num_args() == 0)
      return variable(e);
    if (k == Z3_OP_ITE) {
      std::optional<z3::expr> c = boolean(e.arg(0)), a = term(e.arg(1)), b = term(e.arg(2));
      if (!c || !a || !b)
        return std::nullopt;
      return known(z3::ite(*c, *a, *b), std::max(bitsOf(*a), bitsOf(*b)));
    }
    std::vector<z3::expr> args;
    for (unsigned i = 0; i < e.num_args(); ++i) {
      std::optional<z3::expr> t = term(e.arg(i));
      if (!t)
        return std::nullopt;
      args.push_back(*t);
    }
    auto width = [&](unsigned i) { return e.arg(i).get_sort().bv_size(); };
    switch (k) {
    case Z3_OP_BADD: {
      std::optional<z3::expr> acc;
      unsigned widest = 0;
      size_t terms = 0;
      for (const z3::expr &reduced : args) {
        const z3::expr a = unreduced(reduced, w);
        const unsigned b = bitsOf(a);
        if (b == 0)
          continue; // + 0
        widest = std::max(widest, b);
        ++terms;
        acc = acc ? *acc + a : a;
      }
      if (!acc)
        return ctx_.int_val(0);
      return reduce(known(*acc, std::min(widest + log2Ceil(terms), 4 * w)), w);
    }
    case Z3_OP_BMUL: {
      z3::expr acc = unreduced(args[0], w);
      unsigned bits = bitsOf(acc);
      for (size_t i = 1; i < args.size(); ++i) {
        const z3::expr a = unreduced(args[i], w);
        acc = acc * a;
        bits = std::min(bits + bitsOf(a), 4 * w);
      }
      return reduce(known(acc, bits), w);
    }
    case Z3_OP_BSUB: return reduce(args[0] - args[1] + pow2(w), w); // (stays non-negative)
    case Z3_OP_BNEG: return reduce(pow2(w) - args[0], w);
    case Z3_OP_CONCAT: {
      z3::expr acc = args[0];
      for (size_t i = 1; i < args.size(); ++i)
        acc = acc * pow2(width(i)) + args[i];
      return known(acc, w);
    }
    case Z3_OP_EXTRACT: {
      const unsigned hi = Z3_get_decl_int_parameter(ctx_, e.decl(), 0);
      const unsigned lo = Z3_get_decl_int_parameter(ctx_, e.decl(), 1);
      // Whole limbs of a variable are the limbs themselves (see variable()).
      auto limbs = limbs_.find(e.arg(0).id());
      if (limbs != limbs_.end() && lo % kLimb == 0 && (hi + 1) % kLimb == 0) {
        z3::expr acc = limbs->second[hi / kLimb];
        for (unsigned l = hi / kLimb; l-- > lo / kLimb;)
          acc = acc * pow2(kLimb) + limbs->second[l];
        return known(acc, w);
      }
      const z3::expr x = unreduced(args[0], hi + 1); // bits hi..lo of (u mod 2^k), k > hi, are u's
      const unsigned below = bitsOf(x);
      z3::expr shifted = lo ? known(x / pow2(lo), below > lo ? below - lo : 0) : x;
      return reduce(shifted, hi - lo + 1);
    }
    case Z3_OP_ZERO_EXT: return args[0];
    case Z3_OP_SIGN_EXT: {
      const unsigned from = width(0);
      return known(z3::ite(args[0] >= pow2(from - 1), args[0] + pow2(w) - pow2(from), args[0]), w);
    }
    // One-bit logic (lane bits, carries) as arithmetic on 0/1.
    case Z3_OP_BAND:
    case Z3_OP_BOR:
    case Z3_OP_BXOR:
    case Z3_OP_BNOT: {
      // x ^ 2^(w-1) flips the sign bit (a signed compare as an unsigned
      // one): adding 2^(w-1) modulo 2^w does the same.
      if (k == Z3_OP_BXOR && w > 1 && args.size() == 2)
        for (unsigned i = 0; i < 2; ++i)
          if (e.arg(i).is_numeral() && Z3_get_numeral_string(ctx_, e.arg(i)) == pow2String(w - 1))
            return reduce(args[1 - i] + pow2(w - 1), w);
      if (w != 1)
        break;
      z3::expr acc = k == Z3_OP_BNOT ? 1 - args[0] : args[0];
      for (size_t i = 1; i < args.size(); ++i) {
        if (k == Z3_OP_BAND)
          acc = acc * args[i];
        else if (k == Z3_OP_BOR)
          acc = acc + args[i] - acc * args[i];
        else
          acc = acc + args[i] - 2 * acc * args[i];
      }
      return known(acc, 1);
    }
    default: break;
    }
    unsupported = e.decl().name().str() + " (" + std::to_string(w) + " bits)";
    return std::nullopt;
  }

  z3::context &ctx_;
  z3::expr_vector &bounds_;
  std::unordered_map<unsigned, z3::expr> memo_;
  std::unordered_map<unsigned, std::vector<z3::expr>> limbs_;
  std::unordered_map<unsigned, unsigned> bits_;
  std::unordered_map<unsigned, std::pair<z3::expr, unsigned>> modOf_;
};

} // namespace

std::optional<z3::expr> toIntegerFormula(const z3::expr &boolean, z3::expr_vector &bounds, std::string &unsupported) {
  Translation t(boolean.ctx(), bounds);
  std::optional<z3::expr> r = t.boolean(boolean);
  if (!r)
    unsupported = t.unsupported;
  return r;
}

} // namespace p2a::verify
