#include "ptx/ptx_ir.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

namespace p2a::ptx {

static const char *typePrefix(TypeClass t) {
  switch (t) {
  case TypeClass::Pred: return "pred";
  case TypeClass::B: return "b";
  case TypeClass::U: return "u";
  case TypeClass::S: return "s";
  }
  return "?";
}

std::string Form::name() const {
  std::string ty = type == TypeClass::Pred ? "pred" : typePrefix(type) + std::to_string(width);
  switch (opcode) {
  case Opcode::And: return "and." + ty;
  case Opcode::Or: return "or." + ty;
  case Opcode::Xor: return "xor." + ty;
  case Opcode::Not: return "not." + ty;
  case Opcode::Cnot: return "cnot." + ty;
  case Opcode::Lop3:
    return std::string("lop3.") + (boolop == BoolOp::And ? "and." : boolop == BoolOp::Or ? "or." : "") + ty;
  case Opcode::Shf:
    return std::string("shf.") + (dir == ShfDir::Left ? "l." : "r.") +
           (mode == ShfMode::Wrap ? "wrap." : "clamp.") + ty;
  case Opcode::Shl: return "shl." + ty;
  case Opcode::Shr: return "shr." + ty;
  case Opcode::Prmt: {
    static const char *modes[] = {"", ".f4e", ".b4e", ".rc8", ".ecl", ".ecr", ".rc16"};
    return "prmt." + ty + modes[static_cast<int>(prmt)];
  }
  case Opcode::Bfe: return "bfe." + ty;
  case Opcode::Bfi: return "bfi." + ty;
  case Opcode::Brev: return "brev." + ty;
  case Opcode::Popc: return "popc." + ty;
  case Opcode::Clz: return "clz." + ty;
  case Opcode::Bfind: return std::string("bfind.") + (shiftamt ? "shiftamt." : "") + ty;
  case Opcode::Fns: return "fns." + ty;
  case Opcode::Bmsk: return std::string("bmsk.") + (mode == ShfMode::Clamp ? "clamp." : "wrap.") + ty;
  case Opcode::Szext: return std::string("szext.") + (mode == ShfMode::Clamp ? "clamp." : "wrap.") + ty;
  case Opcode::Mov: return "mov." + ty;
  case Opcode::Add:
  case Opcode::Sub:
    return std::string(opcode == Opcode::Add ? "add" : "sub") + (carryIn ? "c" : "") + (carryOut ? ".cc." : ".") + ty;
  case Opcode::MulLo: return "mul.lo." + ty;
  case Opcode::MulHi: return "mul.hi." + ty;
  case Opcode::MulWide: return "mul.wide." + ty;
  case Opcode::MadLo:
  case Opcode::MadHi:
    return std::string(carryIn ? "madc" : "mad") + (opcode == Opcode::MadLo ? ".lo" : ".hi") +
           (carryOut ? ".cc." : ".") + ty;
  case Opcode::MadWide: return "mad.wide." + ty;
  case Opcode::Mul24Lo: return "mul24.lo." + ty;
  case Opcode::Mul24Hi: return "mul24.hi." + ty;
  case Opcode::Mad24Lo: return "mad24.lo." + ty;
  case Opcode::Mad24Hi: return "mad24.hi." + ty;
  case Opcode::MovPack: return "mov.pack." + ty;     // mov.bN d, {lo, hi}
  case Opcode::MovUnpack: return "mov.unpack." + ty; // mov.bN {lo, hi}, a
  case Opcode::Add3: return "add3." + ty;            // fused: add of an add
  case Opcode::Xad: return "xad." + ty;              // fused: add of a xor
  case Opcode::Rotl: return "rotl." + ty;            // fused: nvcc's shl/shr/add rotate
  case Opcode::Cvt:
    return std::string(saturate ? "cvt.sat." : "cvt.") + ty + "." + typePrefix(fromType) + std::to_string(fromWidth);
  case Opcode::Setp: {
    static const char *cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    return std::string("setp.") + cmps[static_cast<int>(cmp)] + "." +
           (boolop == BoolOp::And ? "and." : boolop == BoolOp::Or ? "or." : boolop == BoolOp::Xor ? "xor." : "") +
           ty;
  }
  case Opcode::Selp: return "selp." + ty;
  case Opcode::Min: return "min." + ty;
  case Opcode::Div: return "div." + ty;
  case Opcode::Rem: return "rem." + ty;
  case Opcode::Max: return "max." + ty;
  case Opcode::Abs: return "abs." + ty;
  case Opcode::Neg: return "neg." + ty;
  case Opcode::Vshl:
  case Opcode::Vshr:
  {
    static const char *op2s[] = {"", ".add", ".min", ".max"};
    return std::string(opcode == Opcode::Vshl ? "vshl." : "vshr.") + ty + "." + typePrefix(fromType) + "32.u32." +
           (saturate ? "sat." : "") + (mode == ShfMode::Clamp ? "clamp" : "wrap") + op2s[int(videoOp2)];
  }
  case Opcode::Vmad:
    return "vmad." + ty + "." + typePrefix(fromType) + "32." + typePrefix(videoBType) + "32" +
           (vmadMode == VmadMode::PlusOne ? ".po" : "") + (saturate ? ".sat" : "") +
           (vmadShift ? ".shr" + std::to_string(vmadShift) : "") +
           (vmadMode == VmadMode::NegProduct ? ".neg_ab" : vmadMode == VmadMode::NegC ? ".neg_c" : "");
  case Opcode::Vset: {
    static const char *cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
    static const char *op2s[] = {"", ".add", ".min", ".max"};
    return std::string("vset.") + typePrefix(fromType) + "32." + typePrefix(videoBType) + "32." + cmps[int(cmp)] +
           op2s[int(videoOp2)];
  }
  case Opcode::Vadd:
  case Opcode::Vsub:
  case Opcode::Vabsdiff:
  case Opcode::Vmin:
  case Opcode::Vmax: {
    static const char *names[] = {"vadd", "vsub", "vabsdiff", "vmin", "vmax"};
    static const char *op2s[] = {"", ".add", ".min", ".max"};
    return std::string(names[int(opcode) - int(Opcode::Vadd)]) + "." + ty + "." + typePrefix(fromType) + "32." +
           typePrefix(videoBType) + "32" + (saturate ? ".sat" : "") + op2s[int(videoOp2)];
  }
  }
  return "?";
}

namespace {

// Every field of a form, packed (nullopt: a width too large to pack). Equal
// packings are equal forms, so equal names; different packings may still
// share a name (a field the opcode does not use), which the id settles.
std::optional<uint64_t> packedFields(const Form &f) {
  if (f.width > 0xff || f.fromWidth > 0xff || f.vmadShift > 0xff)
    return std::nullopt;
  uint64_t k = static_cast<uint64_t>(f.opcode);
  auto put = [&k](uint64_t v, unsigned bits) { k = (k << bits) | v; };
  put(static_cast<uint64_t>(f.type), 2);
  put(f.width, 8);
  put(static_cast<uint64_t>(f.dir), 1);
  put(static_cast<uint64_t>(f.mode), 1);
  put(static_cast<uint64_t>(f.boolop), 2);
  put(static_cast<uint64_t>(f.prmt), 3);
  put(f.shiftamt, 1);
  put(static_cast<uint64_t>(f.fromType), 2);
  put(f.fromWidth, 8);
  put(static_cast<uint64_t>(f.cmp), 3);
  put(f.carryIn, 1);
  put(f.carryOut, 1);
  put(static_cast<uint64_t>(f.videoBType), 2);
  put(f.saturate, 1);
  put(static_cast<uint64_t>(f.videoOp2), 2);
  put(static_cast<uint64_t>(f.vmadMode), 2);
  put(f.vmadShift, 8);
  return k; // 7 bits of opcode + 48
}

// The process's interned form names; never freed (forms are compared until exit).
struct InternedNames {
  std::mutex lock;
  std::unordered_map<std::string, unsigned> ids;
};
InternedNames &internedNames() {
  static InternedNames *names = new InternedNames;
  return *names;
}

unsigned internName(const std::string &name) {
  InternedNames &n = internedNames();
  std::lock_guard<std::mutex> hold(n.lock);
  return n.ids.try_emplace(name, static_cast<unsigned>(n.ids.size())).first->second;
}

} // namespace

std::optional<uint64_t> Form::packed() const { return packedFields(*this); }

unsigned Form::id() const {
  const std::optional<uint64_t> key = packedFields(*this);
  if (!key)
    return internName(name());
  thread_local std::unordered_map<uint64_t, unsigned> memo;
  auto it = memo.find(*key);
  if (it != memo.end())
    return it->second;
  const unsigned id = internName(name());
  memo.emplace(*key, id);
  return id;
}

std::string Form::mnemonic() const {
  std::string n = name();
  if (opcode == Opcode::Vmad && vmadMode != VmadMode::Plain && vmadMode != VmadMode::PlusOne)
    n.erase(n.rfind(".neg_"));
  return n;
}

unsigned Form::numDsts() const {
  if (opcode == Opcode::Setp)
    return 1;
  if (opcode == Opcode::MovUnpack ||
      ((opcode == Opcode::Add || opcode == Opcode::Sub || opcode == Opcode::MadLo || opcode == Opcode::MadHi) &&
       carryOut))
    return 2;
  return opcode == Opcode::Lop3 && boolop != BoolOp::None ? 2 : 1;
}

unsigned Form::numSrcs() const {
  switch (opcode) {
  case Opcode::Not:
  case Opcode::Cnot:
  case Opcode::Brev:
  case Opcode::Popc:
  case Opcode::Clz:
  case Opcode::Bfind:
  case Opcode::Mov:
  case Opcode::Cvt:
  case Opcode::Abs:
  case Opcode::Neg:
  case Opcode::MovUnpack: return 1;
  case Opcode::Add:
  case Opcode::Sub: return carryIn ? 3 : 2;
  case Opcode::MadLo:
  case Opcode::MadHi: return carryIn ? 4 : 3;
  case Opcode::Add3:
  case Opcode::Xad:
  case Opcode::Vmad:
  case Opcode::MadWide:
  case Opcode::Mad24Lo:
  case Opcode::Mad24Hi:
  case Opcode::Selp: return 3;
  case Opcode::Setp: return boolop == BoolOp::None ? 2 : 3;
  case Opcode::Prmt:
  case Opcode::Bfe:
  case Opcode::Fns: return 3;
  case Opcode::Bfi: return 4;
  case Opcode::Bmsk:
  case Opcode::Szext: return 2;
  case Opcode::Lop3: return boolop == BoolOp::None ? 4 : 5; // a b c immLut [q]
  case Opcode::Shf: return 3;
  case Opcode::Vshl:
  case Opcode::Vshr:
  case Opcode::Vadd:
  case Opcode::Vsub:
  case Opcode::Vabsdiff:
  case Opcode::Vmin:
  case Opcode::Vmax:
  case Opcode::Vset: return videoOp2 == VideoOp2::None ? 2 : 3;
  default: return 2;
  }
}

unsigned Form::srcWidth(unsigned i) const {
  switch (opcode) {
  case Opcode::Prmt:
  case Opcode::Fns:
  case Opcode::Bmsk:
  case Opcode::Szext:
  case Opcode::Vshl:
  case Opcode::Vshr:
  case Opcode::Vadd:
  case Opcode::Vsub:
  case Opcode::Vabsdiff:
  case Opcode::Vmin:
  case Opcode::Vmax:
  case Opcode::Vmad:
  case Opcode::Vset: return 32;
  case Opcode::Bfe: return i == 0 ? width : 32;  // pos and len are .u32
  case Opcode::Bfi: return i < 2 ? width : 32;   // a, b have the type; pos, len are .u32
  case Opcode::Lop3: return i < 3 ? 32 : i == 3 ? 8 : 1;
  case Opcode::Shf: return 32;
  case Opcode::Shl:
  case Opcode::Shr:
  case Opcode::Rotl: return i == 1 ? 32 : width; // PTX 9.7.8.7/8: the amount is .u32
  case Opcode::Cvt: return std::max(fromWidth, 16u); // an 8-bit value sits in a 16-bit register
  case Opcode::MovPack: return width / 2;
  case Opcode::MadWide: return i == 2 ? 2 * width : width; // c is as wide as d
  case Opcode::Add:
  case Opcode::Sub: return i == 2 ? 1 : width;            // the carry flag
  case Opcode::MadLo:
  case Opcode::MadHi: return i == 3 ? 1 : width;          // madc: the carry flag
  case Opcode::Setp:
  case Opcode::Selp: return i == 2 ? 1 : width; // the combiner / selector is a predicate
  default: return width;
  }
}

unsigned Form::dstWidth(unsigned i) const {
  if (opcode == Opcode::MovUnpack)
    return width / 2;
  if (i == 1 || opcode == Opcode::Setp)
    return 1;
  switch (opcode) {
  case Opcode::Popc:
  case Opcode::Clz:
  case Opcode::Bfind: return 32; // .u32 destination whatever the source type
  case Opcode::MulWide:
  case Opcode::MadWide: return 2 * width; // mul.wide.u32 writes 64 bits
  case Opcode::Cvt: return std::max(width, 16u); // an 8-bit result fills a 16-bit register, extended by its type
  default: return width;
  }
}

IntegerRange integerRange(TypeClass type, unsigned width) {
  const uint64_t signBit = uint64_t(1) << (width - 1);
  if (type == TypeClass::S)
    return {~(signBit - 1), signBit - 1};
  return {0, signBit | (signBit - 1)};
}

bool cvtCanSaturate(TypeClass to, unsigned toWidth, TypeClass from, unsigned fromWidth) {
  auto range = [](TypeClass t, unsigned w) -> std::pair<__int128, __int128> {
    const IntegerRange r = integerRange(t, w);
    return t == TypeClass::S ? std::pair<__int128, __int128>{int64_t(r.min), int64_t(r.max)}
                             : std::pair<__int128, __int128>{r.min, r.max};
  };
  const auto [toMin, toMax] = range(to, toWidth);
  const auto [fromMin, fromMax] = range(from, fromWidth);
  return fromMin < toMin || fromMax > toMax;
}

const std::vector<Form> &allForms() {
  static const std::vector<Form> forms = [] {
    std::vector<Form> v;
    auto add = [&](Form f) { v.push_back(f); };
    for (Opcode op : {Opcode::And, Opcode::Or, Opcode::Xor, Opcode::Not}) {
      add(Form{op, TypeClass::Pred, 1});
      for (unsigned w : {16u, 32u, 64u})
        add(Form{op, TypeClass::B, w});
    }
    for (unsigned w : {16u, 32u, 64u})
      add(Form{Opcode::Cnot, TypeClass::B, w});
    for (BoolOp b : {BoolOp::None, BoolOp::And, BoolOp::Or}) {
      Form f{Opcode::Lop3, TypeClass::B, 32};
      f.boolop = b;
      add(f);
    }
    for (ShfDir d : {ShfDir::Left, ShfDir::Right})
      for (ShfMode m : {ShfMode::Wrap, ShfMode::Clamp}) {
        Form f{Opcode::Shf, TypeClass::B, 32};
        f.dir = d;
        f.mode = m;
        add(f);
      }
    for (unsigned w : {16u, 32u, 64u})
      add(Form{Opcode::Shl, TypeClass::B, w});
    for (TypeClass t : {TypeClass::B, TypeClass::U, TypeClass::S})
      for (unsigned w : {16u, 32u, 64u})
        add(Form{Opcode::Shr, t, w});
    // Neighbours.
    for (PrmtMode m : {PrmtMode::None, PrmtMode::F4e, PrmtMode::B4e, PrmtMode::Rc8, PrmtMode::Ecl, PrmtMode::Ecr,
                       PrmtMode::Rc16}) {
      Form f{Opcode::Prmt, TypeClass::B, 32};
      f.prmt = m;
      add(f);
    }
    for (TypeClass t : {TypeClass::U, TypeClass::S})
      for (unsigned w : {32u, 64u})
        add(Form{Opcode::Bfe, t, w});
    for (unsigned w : {32u, 64u}) {
      add(Form{Opcode::Bfi, TypeClass::B, w});
      add(Form{Opcode::Brev, TypeClass::B, w});
      add(Form{Opcode::Popc, TypeClass::B, w});
      add(Form{Opcode::Clz, TypeClass::B, w});
    }
    for (bool sa : {false, true})
      for (TypeClass t : {TypeClass::U, TypeClass::S})
        for (unsigned w : {32u, 64u}) {
          Form f{Opcode::Bfind, t, w};
          f.shiftamt = sa;
          add(f);
        }
    add(Form{Opcode::Fns, TypeClass::B, 32});
    for (ShfMode m : {ShfMode::Clamp, ShfMode::Wrap}) {
      Form b{Opcode::Bmsk, TypeClass::B, 32};
      b.mode = m;
      add(b);
      for (TypeClass t : {TypeClass::U, TypeClass::S}) {
        Form z{Opcode::Szext, t, 32};
        z.mode = m;
        add(z);
      }
    }
    // Arithmetic around the family (canonical .u for sign-agnostic forms).
    add(Form{Opcode::Mov, TypeClass::Pred, 1});
    for (unsigned w : {16u, 32u, 64u}) {
      add(Form{Opcode::Mov, TypeClass::B, w});
      add(Form{Opcode::Add, TypeClass::U, w});
      add(Form{Opcode::Sub, TypeClass::U, w});
    }
    add(Form{Opcode::MulLo, TypeClass::U, 16});
    for (unsigned w : {32u, 64u}) {
      add(Form{Opcode::MulLo, TypeClass::U, w});
      add(Form{Opcode::MadLo, TypeClass::U, w});
    }
    add(Form{Opcode::MulHi, TypeClass::U, 64});
    add(Form{Opcode::MulHi, TypeClass::S, 64});
    for (TypeClass t : {TypeClass::U, TypeClass::S}) {
      add(Form{Opcode::MulHi, t, 32});
      add(Form{Opcode::MulWide, t, 32});
      add(Form{Opcode::MadHi, t, 32});
      add(Form{Opcode::MadWide, t, 32});
      for (Opcode op : {Opcode::Mul24Lo, Opcode::Mul24Hi, Opcode::Mad24Lo, Opcode::Mad24Hi})
        add(Form{op, t, 32});
    }
    // Extended precision: the carry flag in, out, or both.
    for (unsigned w : {32u, 64u})
      for (Opcode op : {Opcode::Add, Opcode::Sub})
        for (auto [in, outFlag] : {std::pair{false, true}, std::pair{true, false}, std::pair{true, true}}) {
          Form f{op, TypeClass::U, w};
          f.carryIn = in;
          f.carryOut = outFlag;
          add(f);
        }
    // ... and the 64-bit product forms secp256k1 field arithmetic and
    // cuda-fixnum's multi-word products use (.lo sign-agnostic).
    for (auto [in, outFlag] : {std::pair{false, true}, std::pair{true, false}, std::pair{true, true}}) {
      for (TypeClass t : {TypeClass::U, TypeClass::S}) {
        Form hi{Opcode::MadHi, t, 64};
        hi.carryIn = in;
        hi.carryOut = outFlag;
        add(hi);
      }
      Form lo{Opcode::MadLo, TypeClass::U, 64};
      lo.carryIn = in;
      lo.carryOut = outFlag;
      add(lo);
    }
    // Extended-precision multiply-add (32-bit): .lo sign-agnostic, .hi by type.
    for (auto [in, outFlag] : {std::pair{false, true}, std::pair{true, false}, std::pair{true, true}}) {
      Form lo{Opcode::MadLo, TypeClass::U, 32};
      lo.carryIn = in;
      lo.carryOut = outFlag;
      add(lo);
      for (TypeClass t : {TypeClass::U, TypeClass::S}) {
        Form hi{Opcode::MadHi, t, 32};
        hi.carryIn = in;
        hi.carryOut = outFlag;
        add(hi);
      }
    }
    for (unsigned w : {32u, 64u}) {
      add(Form{Opcode::MovPack, TypeClass::B, w});
      add(Form{Opcode::MovUnpack, TypeClass::B, w});
    }
    add(Form{Opcode::Add3, TypeClass::U, 32});
    add(Form{Opcode::Xad, TypeClass::U, 32});
    add(Form{Opcode::Rotl, TypeClass::B, 64});
    auto cvt = [&](TypeClass to, unsigned tw, TypeClass from, unsigned fw) {
      Form f{Opcode::Cvt, to, tw};
      f.fromType = from;
      f.fromWidth = fw;
      add(f);
    };
    // Widening by the source's signedness, narrowing by truncation. An
    // 8-bit source is the low byte of a 16-bit (or wider) register.
    for (unsigned to : {16u, 32u, 64u}) {
      cvt(TypeClass::U, to, TypeClass::U, 8);
      cvt(TypeClass::S, to, TypeClass::S, 8);
    }
    for (unsigned from : {16u, 32u, 64u})
      for (unsigned to : {16u, 32u, 64u}) {
        if (to > from) {
          cvt(TypeClass::U, to, TypeClass::U, from);
          cvt(TypeClass::S, to, TypeClass::S, from);
        } else if (to < from) {
          cvt(TypeClass::U, to, TypeClass::U, from);
        }
      }
    // Narrowing to 8 bits: the low byte, extended into the 16-bit register by
    // the destination's signedness (the source's does not matter).
    for (unsigned from : {16u, 32u, 64u}) {
      cvt(TypeClass::U, 8, TypeClass::U, from);
      cvt(TypeClass::S, 8, TypeClass::U, from);
    }
    // cvt.sat: every pair of types where clamping can change the value.
    for (unsigned from : {8u, 16u, 32u, 64u})
      for (TypeClass fromType : {TypeClass::U, TypeClass::S})
        for (unsigned to : {8u, 16u, 32u, 64u})
          for (TypeClass toType : {TypeClass::U, TypeClass::S})
            if (cvtCanSaturate(toType, to, fromType, from)) {
              Form f{Opcode::Cvt, toType, to};
              f.fromType = fromType;
              f.fromWidth = from;
              f.saturate = true;
              add(f);
            }
    add(Form{Opcode::MulWide, TypeClass::U, 16});
    add(Form{Opcode::MulWide, TypeClass::S, 16});
    for (unsigned w : {16u, 32u, 64u})
      for (TypeClass t : {TypeClass::U, TypeClass::S})
        for (CmpOp c : {CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge})
          for (BoolOp b : {BoolOp::None, BoolOp::And, BoolOp::Or, BoolOp::Xor}) {
            if (t == TypeClass::S && (c == CmpOp::Eq || c == CmpOp::Ne))
              continue; // equality ignores signedness: one form (.u)
            Form f{Opcode::Setp, t, w};
            f.cmp = c;
            f.boolop = b;
            add(f);
          }
    for (unsigned w : {16u, 32u, 64u})
      add(Form{Opcode::Selp, TypeClass::B, w});
    for (unsigned w : {16u, 32u, 64u})
      for (TypeClass t : {TypeClass::U, TypeClass::S}) {
        add(Form{Opcode::Min, t, w});
        add(Form{Opcode::Max, t, w});
      }
    for (unsigned w : {16u, 32u, 64u})
      for (TypeClass t : {TypeClass::U, TypeClass::S}) {
        add(Form{Opcode::Div, t, w});
        add(Form{Opcode::Rem, t, w});
      }
    add(Form{Opcode::Abs, TypeClass::S, 16});
    add(Form{Opcode::Abs, TypeClass::S, 32});
    add(Form{Opcode::Abs, TypeClass::S, 64});
    add(Form{Opcode::Neg, TypeClass::S, 16});
    add(Form{Opcode::Neg, TypeClass::S, 32});
    add(Form{Opcode::Neg, TypeClass::S, 64});
    // Video shifts and arithmetic, canonical forms only (canonicalVideoForm);
    // the shifts' b is .u32 and they have a mode.
    for (Opcode op : {Opcode::Vshl, Opcode::Vshr, Opcode::Vadd, Opcode::Vsub, Opcode::Vabsdiff, Opcode::Vmin,
                      Opcode::Vmax}) {
      const bool shift = op == Opcode::Vshl || op == Opcode::Vshr;
      for (TypeClass d : {TypeClass::U, TypeClass::S})
        for (TypeClass a : {TypeClass::U, TypeClass::S})
          for (TypeClass b : {TypeClass::U, TypeClass::S})
            for (bool sat : {false, true})
              for (ShfMode m : {ShfMode::Clamp, ShfMode::Wrap})
                for (Form::VideoOp2 op2 :
                     {Form::VideoOp2::None, Form::VideoOp2::Add, Form::VideoOp2::Min, Form::VideoOp2::Max}) {
                  if ((shift && b == TypeClass::S) || (!shift && m == ShfMode::Clamp))
                    continue;
                  Form f{op, d, 32};
                  f.fromType = a;
                  f.videoBType = b;
                  f.saturate = sat;
                  f.mode = m;
                  f.videoOp2 = op2;
                  if (canonicalVideoForm(f) == f)
                    add(f);
                }
    }
    for (TypeClass a : {TypeClass::U, TypeClass::S})
      for (TypeClass b : {TypeClass::U, TypeClass::S})
        for (Form::VmadMode mode : {Form::VmadMode::Plain, Form::VmadMode::NegProduct, Form::VmadMode::NegC,
                                    Form::VmadMode::PlusOne})
          for (bool sat : {false, true})
            for (unsigned shift : {0u, 7u, 15u}) {
              Form f{Opcode::Vmad, TypeClass::U, 32};
              f.fromType = a;
              f.videoBType = b;
              f.vmadMode = mode;
              f.saturate = sat;
              f.vmadShift = shift;
              add(canonicalVideoForm(f));
            }
    for (TypeClass a : {TypeClass::U, TypeClass::S})
      for (TypeClass b : {TypeClass::U, TypeClass::S})
        for (CmpOp c : {CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge})
          for (Form::VideoOp2 op2 :
               {Form::VideoOp2::None, Form::VideoOp2::Add, Form::VideoOp2::Min, Form::VideoOp2::Max}) {
            Form f{Opcode::Vset, TypeClass::U, 32};
            f.fromType = a;
            f.videoBType = b;
            f.cmp = c;
            f.videoOp2 = op2;
            add(f);
          }
    return v;
  }();
  return forms;
}

bool Form::isVideoShift() const { return opcode == Opcode::Vshl || opcode == Opcode::Vshr; }

bool Form::isVideoArith() const {
  return opcode == Opcode::Vadd || opcode == Opcode::Vsub || opcode == Opcode::Vabsdiff || opcode == Opcode::Vmin ||
         opcode == Opcode::Vmax;
}

bool Form::isVideo() const { return isVideoArith() || isVideoShift() || opcode == Opcode::Vmad || opcode == Opcode::Vset; }

Form canonicalVideoForm(Form f) {
  if (f.opcode == Opcode::Vmad) { // signedFinal (PTX ISA 9.7.18.1.4)
    const bool signedFinal = f.fromType == TypeClass::S || f.videoBType == TypeClass::S ||
                             f.vmadMode == Form::VmadMode::NegProduct || f.vmadMode == Form::VmadMode::NegC;
    f.type = signedFinal ? TypeClass::S : TypeClass::U;
    return f;
  }
  const bool comparesWithC = f.videoOp2 == Form::VideoOp2::Min || f.videoOp2 == Form::VideoOp2::Max;
  if (!f.saturate && !comparesWithC) {
    f.type = TypeClass::U;
    if (f.opcode == Opcode::Vadd || f.opcode == Opcode::Vsub || f.opcode == Opcode::Vshl)
      f.fromType = TypeClass::U;
    if (f.opcode == Opcode::Vadd || f.opcode == Opcode::Vsub)
      f.videoBType = TypeClass::U;
  }
  return f;
}

std::optional<Form> formByName(const std::string &name) {
  // (Indexed once: a scan built every form's name per lookup, which was most
  // of the semantics tests' time under the sanitizers.)
  static const std::unordered_map<std::string, Form> byName = [] {
    std::unordered_map<std::string, Form> m;
    for (const Form &f : allForms())
      m.try_emplace(f.name(), f); // the first form of a name, as the scan found
    return m;
  }();
  if (auto it = byName.find(name); it != byName.end())
    return it->second;
  return std::nullopt;
}

std::optional<ScalarType> parseScalarType(const std::string &name, FloatTypes floats) {
  if (name == "pred")
    return ScalarType{TypeClass::Pred, 1};
  if (name.size() < 2)
    return std::nullopt;
  const std::string digits = name.substr(1);
  TypeClass cls;
  switch (name[0]) {
  case 'b': cls = TypeClass::B; break;
  case 'u': cls = TypeClass::U; break;
  case 's': cls = TypeClass::S; break;
  case 'f':
    if (floats == FloatTypes::Reject || digits == "8")
      return std::nullopt;
    cls = TypeClass::B;
    break;
  default: return std::nullopt;
  }
  if (digits != "8" && digits != "16" && digits != "32" && digits != "64")
    return std::nullopt;
  return ScalarType{cls, static_cast<unsigned>(std::stoul(digits))};
}

} // namespace p2a::ptx
