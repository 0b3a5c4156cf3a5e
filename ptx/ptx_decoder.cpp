#include "ptx/ptx_decoder.hpp"

#include "grammar/ast_blocks.hpp"

#include <algorithm>
#include <set>

namespace p2a::ptx {

namespace ast = ::ptx::ast;

namespace {

const std::set<std::string> kFamily = {"and",  "or",  "xor",  "not",  "cnot",  "lop3", "shf", "shl",
                                       "shr",  "prmt", "bfe", "bfi",  "brev",  "popc", "clz", "bfind",
                                       "fns",  "bmsk", "szext", "mov", "add", "sub", "mul",
                                       "mad",  "cvt", "setp", "selp", "min", "max", "abs", "neg", "div", "rem",
                                       "mul24", "mad24", "addc", "subc", "madc", "vshl", "vshr", "vadd", "vsub",
                                       "vabsdiff", "vmin", "vmax", "vset", "vmad"};

// Statements the kernel translation decodes (kernel/kernel_decoder.cpp) but
// a lone instruction cannot: it has no memory, lanes or control flow around it.
const std::set<std::string> kKernelStatements = {"ld",  "ldu",    "st",    "atom", "red",  "cvta", "bra",  "bar",
                                                 "barrier", "membar", "fence", "ret",  "exit", "call", "shfl", "vote",
                                                 "activemask", "redux", "match", "nanosleep", "prefetch",
                                                 "prefetchu"};

std::optional<PrmtMode> prmtModeOf(const std::string &m) {
  static const std::pair<const char *, PrmtMode> modes[] = {{"f4e", PrmtMode::F4e}, {"b4e", PrmtMode::B4e},
                                                             {"rc8", PrmtMode::Rc8}, {"ecl", PrmtMode::Ecl},
                                                             {"ecr", PrmtMode::Ecr}, {"rc16", PrmtMode::Rc16}};
  for (auto &[name, mode] : modes)
    if (m == name)
      return mode;
  return std::nullopt;
}

// PTX floating-point type names (PTX ISA 5.2.1 and the packed/alternate
// formats): valid PTX whose arithmetic is not translated yet.
bool isFloatTypeName(const std::string &m) {
  static const char *names[] = {"f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32", "e4m3", "e5m2", "e4m3x2", "e5m2x2"};
  for (const char *n : names)
    if (m == n)
      return true;
  return false;
}

std::string joinAllowed(std::initializer_list<const char *> xs) {
  std::string s;
  for (const char *x : xs) {
    if (!s.empty())
      s += ", ";
    s += x;
  }
  return s;
}

} // namespace

uint64_t truncatedConstant(const ast::Operand &o, unsigned width, const std::string &operand, Diagnostics &diags) {
  if (!immediateFits(o.imm_bits, width))
    warning(diags, o.loc, "constant-truncated",
            "integer constant " + o.text + " does not fit " + operand + "; its low " + std::to_string(width) +
                " bits are used, as ptxas does");
  return width >= 64 ? o.imm_bits : o.imm_bits & ((1ull << width) - 1);
}

std::vector<ast::Instruction> expandQuarterMove(const ast::Instruction &in, unsigned &counter) {
  const bool pack = in.operands.size() == 2 && in.operands[1].kind == ast::Operand::Kind::Vector;
  const size_t vector = pack ? 1 : 0;
  if (std::string_view(in.opcode) != "mov" || in.modifiers.size() != 1 || in.modifiers[0] != "b64" || in.operands.size() != 2 ||
      in.operands[vector].kind != ast::Operand::Kind::Vector || in.operands[vector].elems.size() != 4 ||
      in.operands[1 - vector].kind != ast::Operand::Kind::Register)
    return {};
  auto fresh = [&](const ast::Operand &like) {
    ast::Operand r = like;
    r.kind = ast::Operand::Kind::Register;
    r.name = r.text = "%__q" + std::to_string(counter++);
    r.elems.clear();
    return r;
  };
  auto move = [&](const char *type, ast::Operand d, ast::Operand a) {
    ast::Instruction m = in;
    m.modifiers = {type};
    m.operands = {std::move(d), std::move(a)};
    return m;
  };
  const ast::Operand &v = in.operands[vector];
  const ast::Operand lo = fresh(v), hi = fresh(v);
  auto halves = [&](size_t first) {
    ast::Operand h = v;
    h.elems = {v.elems[first], v.elems[first + 1]};
    return h;
  };
  ast::Operand both = v;
  both.elems = {lo, hi};
  if (pack) // {a, b, c, d} -> two .b32 values -> the .b64
    return {move("b32", lo, halves(0)), move("b32", hi, halves(2)), move("b64", in.operands[0], both)};
  return {move("b64", both, in.operands[1]), move("b32", halves(0), lo), move("b32", halves(2), hi)};
}

std::vector<ast::Instruction> expandOperandSelectors(const ast::Instruction &in, unsigned &counter) {
  if (std::vector<ast::Instruction> q = expandQuarterMove(in, counter); !q.empty())
    return q;
  const std::string_view op = in.opcode;
  const bool arith = op == "vadd" || op == "vsub" || op == "vabsdiff" || op == "vmin" || op == "vmax" || op == "vmad";
  const bool set = op == "vset", shift = op == "vshl" || op == "vshr";
  if (!arith && !set && !shift)
    return {};
  // The type each of a and b is extended by: .dtype.atype.btype, vset's
  // .atype.btype, the shifts' .dtype.atype.u32.
  const std::vector<std::string> &m = in.modifiers;
  auto typeOf = [&](size_t operand) -> std::string {
    const size_t at = set ? operand - 1 : operand;
    if (shift && operand == 2)
      return "u32";
    return at < m.size() && (m[at] == "u32" || m[at] == "s32") ? m[at] : std::string();
  };
  std::vector<ast::Instruction> out;
  ast::Instruction main = in;
  auto immediate = [](int64_t v, ast::SourceLoc loc) {
    ast::Operand o;
    o.kind = ast::Operand::Kind::Immediate;
    o.loc = loc;
    o.imm_bits = uint64_t(v);
    o.imm_negative = v < 0;
    o.text = std::to_string(v);
    return o;
  };
  auto fresh = [&](const ast::Operand &like) {
    ast::Operand r = like;
    r.name = r.text = "%__sel" + std::to_string(counter++);
    r.selector.clear();
    return r;
  };
  // A selector's bit position and length: .b0-.b3 bytes, .h0/.h1 half-words.
  auto part = [](const std::string &selector) {
    const unsigned len = selector[0] == 'b' ? 8 : 16;
    return std::pair{len * unsigned(selector[1] - '0'), len};
  };
  for (size_t i = 1; i <= 2 && i < main.operands.size(); ++i) {
    ast::Operand &o = main.operands[i];
    const std::string type = typeOf(i);
    if (o.selector.empty() || o.kind != ast::Operand::Kind::Register || type.empty())
      continue;
    const auto [pos, len] = part(o.selector);
    ast::Instruction bfe;
    bfe.loc = bfe.opcode_loc = o.loc;
    bfe.opcode = "bfe";
    bfe.modifiers = {type};
    ast::Operand d = fresh(o), src = o, p = immediate(pos, o.loc), l = immediate(len, o.loc);
    src.selector.clear();
    d.minus = src.minus = false; // (vmad's negation stays on the operand, below)
    src.text = o.name;
    bfe.operands = {d, src, p, l};
    bfe.text = "bfe." + type + " " + d.name + ", " + o.name + ", " + p.text + ", " + l.text + " (" + o.text + ")";
    out.push_back(bfe);
    d.minus = o.minus;
    o = d;
  }
  // The data merge (9.7.18.1, stage 4): `vop d.dsel, a, b, c` puts the
  // result's low byte or half-word into c at the selected place. The
  // operation goes into a fresh register without c. With .sat, optSaturate
  // clamps to the part's range: the same as the 32-bit clamp and then one to
  // the part's range, since the ranges nest (signed by dtype). A bfi into c
  // makes d. With a secondary operation there is no merge (the decoder says
  // so).
  const ast::Operand d = main.operands.empty() ? ast::Operand{} : main.operands[0];
  const bool secondary = std::any_of(m.begin(), m.end(), [](const std::string &x) {
    return x == "add" || x == "min" || x == "max";
  });
  if (!d.selector.empty() && d.kind == ast::Operand::Kind::Register && main.operands.size() == 4 && !secondary &&
      op != "vmad") {
    const auto [pos, len] = part(d.selector);
    const bool byte = len == 8;
    const ast::Operand c = main.operands[3];
    ast::Operand tmp = fresh(d);
    main.operands = {tmp, main.operands[1], main.operands[2]};
    main.text = in.text + " (into " + tmp.name + ")";
    out.push_back(main);
    auto op = [&](const std::string &opcode, const std::string &type, std::vector<ast::Operand> operands) {
      ast::Instruction i = in;
      i.opcode = opcode;
      i.modifiers = {type};
      i.operands = std::move(operands);
      i.text = opcode + "." + type;
      for (size_t k = 0; k < i.operands.size(); ++k)
        i.text += (k ? ", " : " ") + i.operands[k].text;
      i.text += " (" + d.text + ")";
      return i;
    };
    if (std::find(m.begin(), m.end(), "sat") != m.end()) {
      if (!m.empty() && m[0] == "s32") {
        out.push_back(op("max", "s32", {tmp, tmp, immediate(byte ? -128 : -32768, in.loc)}));
        out.push_back(op("min", "s32", {tmp, tmp, immediate(byte ? 127 : 32767, in.loc)}));
      } else {
        out.push_back(op("min", "u32", {tmp, tmp, immediate(byte ? 255 : 65535, in.loc)}));
      }
    }
    ast::Operand whole = d;
    whole.selector.clear();
    whole.text = d.name;
    out.push_back(op("bfi", "b32", {whole, tmp, c, immediate(pos, in.loc), immediate(len, in.loc)}));
    return out;
  }
  out.push_back(main);
  return out;
}

std::optional<Instruction> decodeInstruction(const ast::Instruction &in, Diagnostics &diags) {
  const std::string_view op = in.opcode; // (compared by length first: no strlen, no call)
  const ast::SourceLoc at = in.opcode_loc.line ? in.opcode_loc : in.loc;
  std::string full = in.opcode;
  for (const std::string &m : in.modifiers)
    full += "." + m;
  if (!kFamily.count(in.opcode)) {
    unsupported(diags, at, in.opcode,
                "unsupported PTX instruction '" + full + "'" +
                    (kKernelStatements.count(in.opcode) ? " outside a kernel: it is translated inside an .entry, "
                                                          "where memory, lanes and control flow exist"
                                                        : ""));
    return std::nullopt;
  }
  if (in.guard) {
    error(diags, in.guard->loc, "guard predicates are not supported on '" + full + "' in this translation mode");
    return std::nullopt;
  }

  Form f;
  std::vector<std::string> mods = in.modifiers;
  auto bad = [&](const std::string &msg) {
    error(diags, at, "invalid form '" + full + "': " + msg);
    return std::nullopt;
  };
  // Valid PTX this translator does not translate (yet): an error of the
  // translation, counted by opcode in the summary, but no syntax error.
  auto limit = [&](const std::string &msg) {
    unsupported(diags, at, in.opcode, "unsupported form '" + full + "': " + msg);
    return std::nullopt;
  };
  // prmt.b32{.mode}: the mode follows the type (PTX ISA 9.7.9.7).
  if (op == "prmt" && mods.size() >= 2)
    if (std::optional<PrmtMode> m = prmtModeOf(mods.back())) {
      f.prmt = *m;
      mods.pop_back();
    }
  // cvt.dtype.atype (PTX ISA 9.7.9.21): two types, the source last. Only the
  // integer widenings and narrowings between 32 and 64 bits, without rounding
  // or saturation modifiers.
  // A video instruction's optional secondary operation (.add, .min, .max)
  // from mods[m], then nothing else: an error's text, or none.
  auto videoTail = [](const std::vector<std::string> &mods, size_t m, Form &f) -> std::optional<std::string> {
    if (m < mods.size()) {
      if (mods[m] == "add") f.videoOp2 = Form::VideoOp2::Add;
      else if (mods[m] == "min") f.videoOp2 = Form::VideoOp2::Min;
      else if (mods[m] == "max") f.videoOp2 = Form::VideoOp2::Max;
      else return std::string("the secondary operation must be .add, .min or .max");
      ++m;
    }
    if (m < mods.size())
      return "unexpected modifier '." + mods[m] + "'";
    return std::nullopt;
  };
  // A video instruction's leading operand types (.u32 or .s32), each into
  // its field, or the error's text naming the operand.
  auto videoTypes = [&mods](std::initializer_list<std::pair<const char *, TypeClass *>> types)
      -> std::optional<std::string> {
    size_t i = 0;
    for (auto [operand, cls] : types) {
      if (mods[i] != "u32" && mods[i] != "s32")
        return std::string(operand) + " type must be .u32 or .s32";
      *cls = mods[i++] == "s32" ? TypeClass::S : TypeClass::U;
    }
    return std::nullopt;
  };
  if (op == "cvt") {
    // Rounding and float types are valid PTX this translator does not
    // translate (floating point is out of scope so far).
    bool sat = false;
    std::vector<std::string> types;
    for (const std::string &m : mods) {
      if (isFloatTypeName(m) || m == "rn" || m == "rz" || m == "rm" || m == "rp" || m == "rni" || m == "rzi" ||
          m == "rmi" || m == "rpi" || m == "ftz" || m == "relu" || m == "rna" || m == "satfinite")
        return limit("only integer conversions are supported (floating point is not translated yet)");
      if (m == "sat" && types.empty() && !sat)
        sat = true;
      else
        types.push_back(m);
    }
    if (types.size() != 2)
      return bad("expected cvt{.sat}.dtype.atype with integer types (e.g. cvt.u64.u32)");
    auto to = parseScalarType(types[0], FloatTypes::Reject), from = parseScalarType(types[1], FloatTypes::Reject);
    if (!to || !from || to->cls == TypeClass::Pred || from->cls == TypeClass::Pred)
      return limit("only integer conversions are supported");
    // .bN converts as .uN (PTX ISA 9.7.9.21: bit-size types are unsigned here).
    const TypeClass toCls = to->cls == TypeClass::S ? TypeClass::S : TypeClass::U;
    const TypeClass fromCls = from->cls == TypeClass::S ? TypeClass::S : TypeClass::U;
    f.opcode = Opcode::Cvt;
    f.width = to->bits;
    f.fromWidth = from->bits;
    if (sat) {
      // Clamp to the destination's range (9.7.9.21); ptxas refuses .sat
      // where no value can be clamped ("illegal modifier").
      if (!cvtCanSaturate(toCls, to->bits, fromCls, from->bits))
        return bad(".sat changes no value: every ." + types[1] + " fits in ." + types[0]);
      f.type = toCls;
      f.fromType = fromCls;
      f.saturate = true;
    } else if (to->bits == from->bits && to->bits >= 16) {
      // Between types of one width the bits do not change: a move.
      f.opcode = Opcode::Mov;
      f.type = TypeClass::B;
    } else if (to->bits == 8) {
      // The low byte, extended into the (16-bit or wider) register by the
      // destination's signedness (PTX ISA 5.2.4, relaxed type-checking of
      // destinations); the source's signedness does not matter.
      f.type = toCls;
      f.fromType = TypeClass::U;
      f.fromWidth = std::max(from->bits, 16u);
    } else if (to->bits > from->bits) {
      // Widening extends by the source's signedness (PTX ISA 9.7.9.21).
      f.type = f.fromType = fromCls;
    } else {
      f.type = f.fromType = TypeClass::U; // truncation keeps the low bits whatever the types
    }
    mods.clear();
  } else if (op == "vadd" || op == "vsub" || op == "vabsdiff" || op == "vmin" ||
             op == "vmax") {
    // vop.dtype.atype.btype{.sat}{.add|.min|.max} (PTX ISA 9.7.18.1.1).
    f.opcode = op == "vadd"     ? Opcode::Vadd
               : op == "vsub"   ? Opcode::Vsub
               : op == "vabsdiff" ? Opcode::Vabsdiff
               : op == "vmin"   ? Opcode::Vmin
                                       : Opcode::Vmax;
    if (mods.size() < 3)
      return bad("expected " + in.opcode + ".dtype.atype.btype{.sat}{.add|.min|.max}");
    if (std::optional<std::string> why = videoTypes({{"the destination", &f.type}, {"a's", &f.fromType},
                                                     {"b's", &f.videoBType}}))
      return bad(*why);
    size_t m = 3;
    if (m < mods.size() && mods[m] == "sat") {
      f.saturate = true;
      ++m;
    }
    if (std::optional<std::string> why = videoTail(mods, m, f))
      return bad(*why);
    f.width = 32;
    f = canonicalVideoForm(f);
    mods.clear();
  } else if (op == "vmad") {
    // vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15} d, {-}a, {-}b, {-}c
    // (PTX ISA 9.7.18.1.4). The negations are the operands' (`-a` or `-b`
    // negates the product; both cancel); dtype changes no bit.
    f.opcode = Opcode::Vmad;
    if (mods.size() < 3)
      return bad("expected vmad.dtype.atype.btype{.po}{.sat}{.shr7|.shr15}");
    TypeClass dtype; // (canonicalVideoForm sets the final signedness)
    if (std::optional<std::string> why = videoTypes({{"the destination", &dtype}, {"a's", &f.fromType},
                                                     {"b's", &f.videoBType}}))
      return bad(*why);
    size_t m = 3;
    const bool po = m < mods.size() && mods[m] == "po";
    m += po;
    if (m < mods.size() && mods[m] == "sat") {
      f.saturate = true;
      ++m;
    }
    if (m < mods.size() && (mods[m] == "shr7" || mods[m] == "shr15")) {
      f.vmadShift = mods[m] == "shr7" ? 7 : 15;
      ++m;
    }
    if (m < mods.size())
      return bad("unexpected modifier '." + mods[m] + "' (expected .po, .sat, .shr7 or .shr15, in that order)");
    auto minus = [&](size_t i) { return i < in.operands.size() && in.operands[i].minus; };
    const bool negProduct = minus(1) != minus(2), negC = minus(3);
    if (po && (minus(1) || minus(2) || negC))
      return bad("the sources of vmad.po cannot be negated");
    if (negProduct && negC)
      return bad("vmad negates either the product a*b or c, not both");
    f.vmadMode = po ? Form::VmadMode::PlusOne
                 : negProduct ? Form::VmadMode::NegProduct
                 : negC ? Form::VmadMode::NegC
                        : Form::VmadMode::Plain;
    f.width = 32;
    f = canonicalVideoForm(f);
    mods.clear();
  } else if (op == "vset") {
    // vset.atype.btype.cmp{.add|.min|.max} (PTX ISA 9.7.18.1.3): d and c unsigned.
    f.opcode = Opcode::Vset;
    if (mods.size() < 3)
      return bad("expected vset.atype.btype.cmp{.add|.min|.max}");
    if (std::optional<std::string> why = videoTypes({{"a's", &f.fromType}, {"b's", &f.videoBType}}))
      return bad(*why);
    f.type = TypeClass::U;
    static const std::pair<const char *, CmpOp> cmps[] = {{"eq", CmpOp::Eq}, {"ne", CmpOp::Ne}, {"lt", CmpOp::Lt},
                                                          {"le", CmpOp::Le}, {"gt", CmpOp::Gt}, {"ge", CmpOp::Ge}};
    bool found = false;
    for (auto &[name, c] : cmps)
      if (mods[2] == name) {
        f.cmp = c;
        found = true;
      }
    if (!found)
      return bad("the comparison must be .eq, .ne, .lt, .le, .gt or .ge");
    size_t m = 3;
    if (std::optional<std::string> why = videoTail(mods, m, f))
      return bad(*why);
    f.width = 32;
    mods.clear();
  } else if (op == "vshl" || op == "vshr") {
    // vop.dtype.atype.u32{.sat}.mode{.add|.min|.max} (PTX ISA 9.7.18.1.2).
    f.opcode = op == "vshl" ? Opcode::Vshl : Opcode::Vshr;
    if (mods.size() < 4)
      return bad("expected " + in.opcode + ".dtype.atype.u32{.sat}.mode{.add|.min|.max}");
    if (std::optional<std::string> why = videoTypes({{"the destination", &f.type}, {"a's", &f.fromType}}))
      return bad(*why);
    if (mods[2] != "u32")
      return bad("b's type must be .u32");
    size_t m = 3;
    if (mods[m] == "sat") {
      f.saturate = true;
      ++m;
    }
    if (m >= mods.size() || (mods[m] != "clamp" && mods[m] != "wrap"))
      return bad("expected the mode, .clamp or .wrap, after the types" + std::string(f.saturate ? " and .sat" : ""));
    f.mode = mods[m] == "clamp" ? ShfMode::Clamp : ShfMode::Wrap;
    if (std::optional<std::string> why = videoTail(mods, m + 1, f))
      return bad(*why);
    f.width = 32;
    f = canonicalVideoForm(f);
    mods.clear();
  } else {
  // The type is the last modifier in every other form.
  if (mods.empty())
    return bad("missing type suffix");
  auto ty = parseScalarType(mods.back(), FloatTypes::Reject);
  // (only where PTX has a floating-point form: and.f32, say, is no PTX)
  static const std::set<std::string> floatForms = {"add", "sub", "mul", "mad", "min", "max", "div", "rem",
                                                   "abs", "neg", "setp", "selp", "mov"};
  if (!ty && isFloatTypeName(mods.back()) && floatForms.count(in.opcode))
    return limit("floating-point arithmetic is not translated yet");
  if (!ty)
    return bad("'." + mods.back() + "' is not a type");
  f.type = ty->cls;
  f.width = ty->bits;
  mods.pop_back();
  }

  auto typeOneOf = [&](std::initializer_list<const char *> allowed) {
    std::string spelled = f.type == TypeClass::Pred ? "pred" : std::string(1, "pbus"[int(f.type)]) + std::to_string(f.width);
    for (const char *a : allowed)
      if (spelled == a)
        return true;
    return false;
  };

  if (op == "and" || op == "or" || op == "xor" || op == "not") {
    f.opcode = op == "and" ? Opcode::And : op == "or" ? Opcode::Or : op == "xor" ? Opcode::Xor : Opcode::Not;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"pred", "b16", "b32", "b64"}))
      return bad("type must be one of " + joinAllowed({".pred", ".b16", ".b32", ".b64"}));
  } else if (op == "cnot") {
    f.opcode = Opcode::Cnot;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"b16", "b32", "b64"}))
      return bad("type must be one of .b16, .b32, .b64");
  } else if (op == "lop3") {
    f.opcode = Opcode::Lop3;
    if (mods.size() > 1)
      return bad("at most one of .and/.or");
    if (mods.size() == 1) {
      if (mods[0] == "and")
        f.boolop = BoolOp::And;
      else if (mods[0] == "or")
        f.boolop = BoolOp::Or;
      else
        return bad("unexpected modifier '." + mods[0] + "' (expected .and or .or)");
    }
    if (!typeOneOf({"b32"}))
      return bad("lop3 is .b32 only");
  } else if (op == "shf") {
    f.opcode = Opcode::Shf;
    bool haveDir = false, haveMode = false;
    for (const std::string &m : mods) {
      if ((m == "l" || m == "r") && !haveDir) {
        // PTX ISA 9.7.8.6 spells shf.{l,r}.{wrap,clamp}; ptxas rejects the
        // other order ("Unknown modifier '.l'"), so we do too.
        if (haveMode)
          return bad("the direction comes before the mode: write 'shf." + m + "." +
                     (f.mode == ShfMode::Wrap ? std::string("wrap") : std::string("clamp")) + "'");
        f.dir = m == "l" ? ShfDir::Left : ShfDir::Right;
        haveDir = true;
      } else if ((m == "wrap" || m == "clamp") && !haveMode) {
        f.mode = m == "wrap" ? ShfMode::Wrap : ShfMode::Clamp;
        haveMode = true;
      } else {
        return bad("unexpected modifier '." + m + "'");
      }
    }
    if (!haveDir)
      return bad("shf needs a direction, .l or .r");
    if (!haveMode)
      return bad("shf needs a mode, .wrap or .clamp");
    if (!typeOneOf({"b32"}))
      return bad("shf is .b32 only");
  } else if (op == "shl") {
    f.opcode = Opcode::Shl;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"b16", "b32", "b64"}))
      return bad("shl takes .b16, .b32 or .b64");
  } else if (op == "shr") {
    f.opcode = Opcode::Shr;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"}))
      return bad("shr takes .b, .u or .s with 16, 32 or 64 bits");
  } else if (op == "bmsk" || op == "szext") {
    f.opcode = op == "bmsk" ? Opcode::Bmsk : Opcode::Szext;
    if (mods.size() != 1 || (mods[0] != "clamp" && mods[0] != "wrap"))
      return bad(in.opcode + " needs exactly one mode, .clamp or .wrap");
    f.mode = mods[0] == "clamp" ? ShfMode::Clamp : ShfMode::Wrap;
    if (f.opcode == Opcode::Bmsk ? !typeOneOf({"b32"}) : !typeOneOf({"u32", "s32"}))
      return bad(f.opcode == Opcode::Bmsk ? "bmsk is .b32 only" : "szext takes .u32 or .s32");
  } else if (op == "bfind") {
    f.opcode = Opcode::Bfind;
    for (const std::string &m : mods) {
      if (m != "shiftamt" || f.shiftamt)
        return bad("unexpected modifier '." + m + "' (expected .shiftamt)");
      f.shiftamt = true;
    }
    if (!typeOneOf({"u32", "s32", "u64", "s64"}))
      return bad("bfind takes .u32, .s32, .u64 or .s64");
  } else if (op == "cvt" || op == "vshl" || op == "vshr" || f.isVideoArith() ||
             f.opcode == Opcode::Vset || f.opcode == Opcode::Vmad) {
    // decoded above
  } else if (op == "setp") {
    // setp.CmpOp{.BoolOp}.type (PTX ISA 9.7.3.1), integer types.
    f.opcode = Opcode::Setp;
    static const std::pair<const char *, std::pair<CmpOp, bool>> cmps[] = {
        {"eq", {CmpOp::Eq, false}}, {"ne", {CmpOp::Ne, false}}, {"lt", {CmpOp::Lt, false}},
        {"le", {CmpOp::Le, false}}, {"gt", {CmpOp::Gt, false}}, {"ge", {CmpOp::Ge, false}},
        {"lo", {CmpOp::Lt, true}},  {"ls", {CmpOp::Le, true}},  {"hi", {CmpOp::Gt, true}},
        {"hs", {CmpOp::Ge, true}}};
    if (mods.empty() || mods.size() > 2)
      return bad("expected setp.cmp[.and|.or].type");
    bool found = false, unsignedSpelling = false;
    for (auto &[n, c] : cmps)
      if (mods[0] == n) {
        f.cmp = c.first;
        unsignedSpelling = c.second;
        found = true;
      }
    if (!found)
      return bad("unknown integer comparison '." + mods[0] + "'");
    if (mods.size() == 2) {
      if (mods[1] == "and")
        f.boolop = BoolOp::And;
      else if (mods[1] == "or")
        f.boolop = BoolOp::Or;
      else if (mods[1] == "xor")
        f.boolop = BoolOp::Xor;
      else
        return bad("the combiner must be .and, .or or .xor");
    }
    if (!typeOneOf({"b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"}))
      return limit("integer comparisons of 16, 32 or 64 bits only");
    if (f.type == TypeClass::B && f.cmp != CmpOp::Eq && f.cmp != CmpOp::Ne)
      return bad(".b types allow only eq and ne");
    // Table 22 of 9.7.3.1: lo, ls, hi and hs are the unsigned operators;
    // ptxas refuses them on a signed type ("mismatch between instruction
    // type and comparison qualifier").
    if (f.type == TypeClass::S && unsignedSpelling)
      return bad("." + mods[0] + " compares unsigned values: use it with .u16, .u32 or .u64 (lt, le, gt, ge with .s types)");
    // Equality ignores signedness; lo/ls/hi/hs are unsigned whatever the type.
    if (f.cmp == CmpOp::Eq || f.cmp == CmpOp::Ne || f.type == TypeClass::B || unsignedSpelling)
      f.type = TypeClass::U;
  } else if (op == "min" || op == "max" || op == "abs" || op == "neg") {
    f.opcode = op == "min" ? Opcode::Min : op == "max" ? Opcode::Max : op == "abs" ? Opcode::Abs
                                                                                                       : Opcode::Neg;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    const bool unary = f.opcode == Opcode::Abs || f.opcode == Opcode::Neg;
    if (unary ? !typeOneOf({"s16", "s32", "s64"}) : !typeOneOf({"u16", "s16", "u32", "s32", "u64", "s64"}))
      return limit(in.opcode + (unary ? " is supported for .s16, .s32 and .s64"
                                      : " is supported for .u16, .s16, .u32, .s32, .u64 and .s64"));
  } else if (op == "div" || op == "rem") {
    f.opcode = op == "div" ? Opcode::Div : Opcode::Rem;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"u16", "s16", "u32", "s32", "u64", "s64"}))
      return limit("integer " + in.opcode + " is supported for .u16, .s16, .u32, .s32, .u64 and .s64");
  } else if (op == "selp") {
    f.opcode = Opcode::Selp;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"}))
      return limit("selp is supported for 16-, 32- and 64-bit integer types");
    f.type = TypeClass::B;
  } else if (op == "mov" && in.operands.size() == 2 &&
             (in.operands[0].kind == ast::Operand::Kind::Vector || in.operands[1].kind == ast::Operand::Kind::Vector)) {
    // mov.b64 d, {lo, hi} / mov.b64 {lo, hi}, a (PTX ISA 9.7.9.3): two halves.
    f.opcode = in.operands[1].kind == ast::Operand::Kind::Vector ? Opcode::MovPack : Opcode::MovUnpack;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    if (!typeOneOf({"b32", "b64"}))
      return bad("packing and unpacking moves take .b32 (two .b16 halves) or .b64 (two .b32 halves)");
    if (in.operands[0].kind == ast::Operand::Kind::Vector && in.operands[1].kind == ast::Operand::Kind::Vector)
      return bad("one operand must be a register");
    const ast::Operand &vec = in.operands[f.opcode == Opcode::MovPack ? 1 : 0];
    if (vec.elems.size() != 2)
      return bad("the vector operand needs exactly two halves, {lo, hi}");
  } else if (op == "mov" || op == "add" || op == "sub" || op == "addc" ||
             op == "subc") {
    f.opcode = op == "mov" ? Opcode::Mov : in.opcode.rfind("add", 0) == 0 ? Opcode::Add : Opcode::Sub;
    f.carryIn = op == "addc" || op == "subc";
    if (f.opcode != Opcode::Mov && mods.size() == 1 && mods[0] == "cc") {
      f.carryOut = true;
      mods.clear();
    }
    if (!mods.empty() && mods.front() == "sat" && (op == "add" || op == "sub"))
      return limit(".sat is not supported");
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'");
    const bool pred = f.opcode == Opcode::Mov && typeOneOf({"pred"});
    if ((!typeOneOf({"b16", "u16", "s16", "b32", "u32", "s32", "b64", "u64", "s64"}) && !pred) ||
        (f.opcode != Opcode::Mov && f.type == TypeClass::B))
      return limit(f.opcode == Opcode::Mov ? "mov takes .pred or a 16-, 32- or 64-bit integer type"
                                           : in.opcode + " takes .u16, .s16, .u32, .s32, .u64 or .s64");
    if ((f.carryIn || f.carryOut) && f.width != 32 && f.width != 64)
      return limit("extended-precision (carry) arithmetic is supported for .u32, .s32, .u64 and .s64");
    // One operation whatever the signedness (two's complement); mov of .b/.u/.s is a copy.
    f.type = pred ? TypeClass::Pred : f.opcode == Opcode::Mov ? TypeClass::B : TypeClass::U;
  } else if (op == "mul24" || op == "mad24") {
    // mul24.{lo,hi}.{u32,s32}, mad24.{lo,hi}.{u32,s32} (PTX ISA 9.7.1.5, 9.7.1.6).
    if (mods.size() != 1 || (mods[0] != "lo" && mods[0] != "hi"))
      return bad(in.opcode + " needs exactly one of .lo, .hi (.sat is not supported)");
    if (!typeOneOf({"u32", "s32"}))
      return bad(in.opcode + " takes .u32 or .s32");
    const bool hi = mods[0] == "hi";
    f.opcode = op == "mul24" ? (hi ? Opcode::Mul24Hi : Opcode::Mul24Lo) : (hi ? Opcode::Mad24Hi : Opcode::Mad24Lo);
  } else if ((op == "mad" || op == "madc") && !mods.empty() && (mods[0] == "lo" || mods[0] == "hi") &&
             (op == "madc" || (mods.size() == 2 && mods[1] == "cc"))) {
    // Extended-precision multiply-add (PTX ISA 9.7.2.5 mad.cc, 9.7.2.6 madc):
    // d = (lo or hi of a * b) + c [+ CC.CF], the carry out to CC.CF with .cc.
    f.opcode = mods[0] == "lo" ? Opcode::MadLo : Opcode::MadHi;
    f.carryIn = op == "madc";
    f.carryOut = mods.size() == 2 && mods[1] == "cc";
    if (mods.size() > 2 || (mods.size() == 2 && mods[1] != "cc"))
      return bad("unexpected modifier '." + mods.back() + "'");
    if (!typeOneOf({"u32", "s32", "u64", "s64"}))
      return limit("extended-precision multiply-add is supported for .u32, .s32, .u64 and .s64");
    if (f.opcode == Opcode::MadLo)
      f.type = TypeClass::U; // the low half is the same for either signedness
  } else if (op == "mad" && mods.size() == 1 && (mods[0] == "hi" || mods[0] == "wide")) {
    if (!typeOneOf({"u32", "s32"}))
      return limit("mad." + mods[0] + " is supported for .u32 and .s32");
    f.opcode = mods[0] == "hi" ? Opcode::MadHi : Opcode::MadWide;
  } else if (op == "mul" || op == "mad") {
    if (mods.size() != 1 || (mods[0] != "lo" && mods[0] != "hi" && mods[0] != "wide"))
      return std::find(mods.begin(), mods.end(), "cc") != mods.end() || std::find(mods.begin(), mods.end(), "sat") != mods.end()
                 ? limit("the .cc and .sat forms of " + in.opcode + " are not supported")
                 : bad(in.opcode + " needs exactly one of .lo, .hi, .wide");
    const bool wide16 = op == "mul" && mods[0] == "wide" && typeOneOf({"u16", "s16"});
    const bool lo64 = mods[0] == "lo" && typeOneOf({"u64", "s64"});
    const bool lo16 = op == "mul" && mods[0] == "lo" && typeOneOf({"u16", "s16"});
    const bool hi64 = op == "mul" && mods[0] == "hi" && typeOneOf({"u64", "s64"});
    if (!typeOneOf({"u32", "s32"}) && !wide16 && !lo64 && !hi64 && !lo16)
      return limit(in.opcode + "." + mods[0] + " is supported for .u32 and .s32" +
                 (op == "mul" && mods[0] == "wide" ? " (and .u16, .s16)"
                  : mods[0] == "lo"                        ? " (and .u16, .s16, .u64, .s64)"
                  : op == "mul"                      ? " (and .u64, .s64)"
                                                            : ""));
    if (op == "mad") {
      f.opcode = Opcode::MadLo;
      f.type = TypeClass::U;
    } else if (mods[0] == "lo") {
      f.opcode = Opcode::MulLo;
      f.type = TypeClass::U;
    } else {
      f.opcode = mods[0] == "hi" ? Opcode::MulHi : Opcode::MulWide;
    }
  } else if (op == "madc") {
    return bad("madc needs .lo or .hi (madc.lo[.cc].u32, madc.hi[.cc].u32)");
  } else {
    // prmt bfe bfi brev popc clz fns: no modifiers besides the type (prmt's mode handled above).
    static const std::pair<const char *, Opcode> plain[] = {{"prmt", Opcode::Prmt}, {"bfe", Opcode::Bfe},
                                                            {"bfi", Opcode::Bfi},   {"brev", Opcode::Brev},
                                                            {"popc", Opcode::Popc}, {"clz", Opcode::Clz},
                                                            {"fns", Opcode::Fns}};
    for (auto &[name, opcode] : plain)
      if (op == name)
        f.opcode = opcode;
    if (!mods.empty())
      return bad("unexpected modifier '." + mods.front() + "'" +
                 (f.opcode == Opcode::Prmt ? " (prmt modes: .f4e .b4e .rc8 .ecl .ecr .rc16, after .b32)" : ""));
    bool ok = false;
    switch (f.opcode) {
    case Opcode::Prmt:
      ok = typeOneOf({"b32"});
      break;
    case Opcode::Bfe:
      ok = typeOneOf({"u32", "s32", "u64", "s64"});
      break;
    case Opcode::Fns:
      ok = typeOneOf({"b32"});
      break;
    default:
      ok = typeOneOf({"b32", "b64"});
      break;
    }
    if (!ok)
      return bad(std::string(in.opcode) + (f.opcode == Opcode::Bfe ? " takes .u32, .s32, .u64 or .s64"
                                             : f.opcode == Opcode::Prmt || f.opcode == Opcode::Fns ? " is .b32 only"
                                                                                                   : " takes .b32 or .b64"));
  }

  Instruction out;
  out.form = f;
  out.loc = in.loc;
  out.text = in.text;

  const unsigned nd = f.numDsts(), ns = f.numSrcs();
  // lop3.{and,or} writes "d|p" as one operand.
  // A packing move's vector operand stands for its two halves; the carry
  // flag of extended-precision arithmetic is implicit (not written).
  std::vector<const ast::Operand *> ops;
  for (const ast::Operand &o : in.operands)
    if (o.kind == ast::Operand::Kind::Vector && (f.opcode == Opcode::MovPack || f.opcode == Opcode::MovUnpack))
      for (const ast::Operand &e : o.elems)
        ops.push_back(&e);
    else
      ops.push_back(&o);
  // Byte and half-word selectors (and a selector on d, the data merge)
  // belong to the video instructions (PTX ISA 9.7.18.1).
  for (const ast::Operand *o : ops)
    if (!o->selector.empty()) {
      if (!f.isVideo())
        return bad("the selector '." + o->selector + "' is only valid on video instructions");
      if (o == ops.front() && f.opcode == Opcode::Vmad)
        return bad("vmad has no data merge: its destination takes no selector");
      if (o == ops.front())
        return bad(f.videoOp2 != Form::VideoOp2::None
                       ? "the data merge into d." + o->selector + " takes no secondary operation"
                       : "the data merge into d." + o->selector + " needs c, the value merged into: d.sel, a, b, c");
      return limit("an operand selector (." + o->selector + ") reached the decoder unexpanded "
                   "(ptx::expandOperandSelectors computes it first)");
    }
  const unsigned implicitDst = f.carryOut ? 1 : 0, implicitSrc = f.carryIn ? 1 : 0;
  const unsigned written = (f.opcode == Opcode::Lop3 && f.boolop != BoolOp::None) ? 1 + ns
                                                                                  : nd + ns - implicitDst - implicitSrc;
  if (ops.size() != written) {
    error(diags, at, "'" + full + "' expects " + std::to_string(written) + " operands, got " + std::to_string(ops.size()));
    return std::nullopt;
  }
  size_t k = 0;
  // (Sized once: grown by push_back, three sources took three heap blocks
  // and kept room for four, in every statement of an inlined kernel.)
  out.dsts.reserve(nd);
  out.srcs.reserve(ns);
  if (f.opcode == Opcode::Lop3 && f.boolop != BoolOp::None) {
    const ast::Operand &o = *ops[k++];
    // `!d|p` and `d.x|p` parse as pairs too; neither is a plain d|p.
    if (o.kind != ast::Operand::Kind::Pair || o.negated || o.element) {
      error(diags, o.loc, "expected 'd|p' destination pair for '" + full + "'");
      return std::nullopt;
    }
    Operand d, p;
    d.loc = p.loc = o.loc;
    d.kind = o.name == "_" ? Operand::Kind::Sink : Operand::Kind::Register;
    d.reg = o.name;
    p.reg = o.name2;
    if (p.reg == "_" || p.reg.empty()) {
      error(diags, o.loc, "the predicate destination of '" + full + "' cannot be '_'");
      return std::nullopt;
    }
    out.dsts = {d, p};
  } else {
    for (unsigned i = 0; i < nd - implicitDst; ++i) {
      const ast::Operand &o = *ops[k++];
      if (o.kind != ast::Operand::Kind::Register || o.negated || o.minus || o.element) {
        error(diags, o.loc, "destination of '" + full + "' must be a register");
        return std::nullopt;
      }
      Operand d;
      d.loc = o.loc;
      d.reg = o.name;
      out.dsts.push_back(std::move(d));
    }
  }
  Operand carry;
  carry.kind = Operand::Kind::Register;
  carry.reg = kCarryFlagRegister;
  carry.loc = at;
  if (implicitDst)
    out.dsts.push_back(carry);
  for (unsigned i = 0; i < ns - implicitSrc; ++i) {
    const ast::Operand &o = *ops[k++];
    Operand s;
    s.loc = o.loc;
    const unsigned w = f.srcWidth(i);
    const bool isPredSrc = w == 1;
    if (o.kind == ast::Operand::Kind::Immediate) {
      // A 0f/0d literal is the exact bit pattern of a 32/64-bit float (PTX ISA
      // 4.5.2); a bit-typed mov of the same width takes it as those bits (nvcc
      // moves 64-bit integer constants as `mov.f64 %fd, 0d...`).
      const bool floatBits = (o.imm_kind == ast::Operand::ImmKind::F32Bits && w == 32) ||
                             (o.imm_kind == ast::Operand::ImmKind::F64Bits && w == 64);
      if (o.imm_kind != ast::Operand::ImmKind::Int &&
          !(floatBits && f.opcode == Opcode::Mov && f.type == TypeClass::B)) {
        error(diags, o.loc, "floating-point immediate '" + o.text + "' is not valid for '" + full + "'");
        return std::nullopt;
      }
      if (isPredSrc && f.opcode != Opcode::Mov) {
        error(diags, o.loc, "predicate operand must be a register");
        return std::nullopt;
      }
      const bool immLut = f.opcode == Opcode::Lop3 && i == 3; // checked below, as an error
      s.kind = Operand::Kind::Immediate;
      // mov.pred p, N: any nonzero constant is true (nvcc writes -1).
      s.imm = isPredSrc ? (o.imm_bits != 0)
              : immLut || o.imm_kind != ast::Operand::ImmKind::Int
                  ? (w >= 64 ? o.imm_bits : o.imm_bits & ((1ull << w) - 1))
                  : truncatedConstant(o, w, "the " + std::to_string(w) + "-bit operand of '" + full + "'", diags);
      if (f.opcode == Opcode::Lop3 && i == 3 && o.imm_bits > 255) {
        error(diags, o.loc, "immLut must be in 0..255, got " + o.text);
        return std::nullopt;
      }
    } else if (o.kind == ast::Operand::Kind::Register && !o.negated && !o.element &&
               (!o.minus || f.opcode == Opcode::Vmad)) { // (vmad's negations are in its form)
      if (f.opcode == Opcode::Lop3 && i == 3) {
        error(diags, o.loc, "immLut must be an integer constant");
        return std::nullopt;
      }
      s.kind = Operand::Kind::Register;
      s.reg = o.name;
    } else {
      error(diags, o.loc, "invalid source operand '" + o.text + "' for '" + full + "'");
      return std::nullopt;
    }
    out.srcs.push_back(std::move(s));
  }
  if (implicitSrc)
    out.srcs.push_back(carry);
  return out;
}

void collectRegisterDeclaration(const ast::Declaration &decl, RegisterTypes &types, Diagnostics &diags,
                                FloatTypes floats) {
  if (decl.space != "reg")
    return;
  auto ty = parseScalarType(decl.type, floats);
  if (!ty) {
    // Float and other registers are outside this family; remember nothing.
    return;
  }
  // An 8-bit register (`.reg .u8 datum;`, CUB's ThreadLoad inline asm) takes
  // only ld, st and cvt (PTX ISA 5.2.2); it is a 16-bit register here, as
  // a 16-bit one lives in a 32-bit VGPR (its high bits don't-care).
  RegisterType rt{ty->cls, ty->bits == 8 ? 16u : ty->bits};
  for (const ast::Declarator &d : decl.declarators) {
    if (d.range) {
      if (*d.range > kMaxDeclaredRegisters) {
        error(diags, d.loc, "register range " + d.name + "<" + std::to_string(*d.range) + "> is too large");
        continue;
      }
      // Every declared register has an entry, so the declarations of one
      // function are capped in all, not only one by one (200 unused ranges
      // of a million registers exhausted the memory).
      if (types.size() + *d.range > kMaxDeclaredRegisters) {
        error(diags, d.loc, "register range " + d.name + "<" + std::to_string(*d.range) + "> makes more than " +
                                std::to_string(kMaxDeclaredRegisters) + " registers declared in this function");
        continue;
      }
      types.setRange(d.name, *d.range, rt);
    } else {
      if (types.size() >= kMaxDeclaredRegisters && !types.count(d.name)) {
        error(diags, d.loc, "register " + d.name + " makes more than " + std::to_string(kMaxDeclaredRegisters) +
                                " registers declared in this function");
        continue;
      }
      types.set(d.name, rt);
    }
  }
}

static std::string typeName(const RegisterType &t) {
  if (t.cls == TypeClass::Pred)
    return ".pred";
  return std::string(".") + "pbus"[int(t.cls)] + std::to_string(t.width);
}

bool typeRegisters(const Instruction &inst, RegisterTypes &types, Diagnostics &diags) {
  bool ok = true;
  auto check = [&](const Operand &o, unsigned width, bool source) {
    if (!o.isReg())
      return;
    RegisterType want{width == 1 ? TypeClass::Pred : TypeClass::B, width};
    const RegisterType *known = types.find(o.reg);
    if (!known) {
      types.set(o.reg, want);
      return;
    }
    // PTX allows a register of any bit-size-compatible type (b/u/s of the same width).
    const RegisterType have = *known;
    // PTX ISA 5.4.x "Operand size exceeding instruction-type size": a wider
    // source register is chopped to the instruction type. Accepted for a
    // 32-bit register read as 16 bits, which lives in the same VGPR (the
    // rules treat a 16-bit value's high half as don't-care), and for a
    // 64-bit one read as a 32- or 16-bit cvt source (the rule that permits
    // wider operands names ld, st and cvt): the selector binds its low half
    // (nvcc writes `cvt.s64.s32 %rd5, %rd1` so).
    const bool chopped = source && have.cls != TypeClass::Pred && want.cls != TypeClass::Pred &&
                         ((have.width == 32 && want.width == 16) ||
                          (have.width == 64 && want.width <= 32 && inst.form.opcode == Opcode::Cvt));
    const bool compatible =
        chopped || ((have.cls == TypeClass::Pred) == (want.cls == TypeClass::Pred) && have.width == want.width);
    if (!compatible) {
      error(diags, o.loc,
            "register " + o.reg + " is " + typeName(have) + " but '" + inst.form.name() + "' needs " +
                (want.cls == TypeClass::Pred ? std::string(".pred") : std::to_string(width) + "-bit") + " here");
      ok = false;
    }
  };
  for (unsigned i = 0; i < inst.dsts.size(); ++i)
    check(inst.dsts[i], inst.form.dstWidth(i), false);
  for (unsigned i = 0; i < inst.srcs.size(); ++i)
    check(inst.srcs[i], inst.form.srcWidth(i), true);
  return ok;
}

void checkModuleStructure(const ast::Module &m, Diagnostics &diags, const std::vector<bool> &deferredBody) {
  if (m.version.empty())
    error(diags, {1, 1}, "missing '.version' directive: a PTX module starts with one (e.g. '.version 8.5'), as ptxas requires");
  if (m.target.empty())
    error(diags, {1, 1}, "missing '.target' directive: a PTX module names its target after '.version' (e.g. '.target sm_80')");
  // One definition per function and per label in a function, as ptxas
  // requires ("Duplicate definition of ..."): two would be two symbols of
  // one name in the code object, or a branch with two targets.
  std::set<std::string> defined;
  for (size_t i = 0; i < m.functions.size(); ++i) {
    const ast::Function &f = m.functions[i];
    if (!f.body && !(i < deferredBody.size() && deferredBody[i]))
      continue;
    if (!defined.insert(f.name).second)
      error(diags, f.name_loc.line ? f.name_loc : f.loc, "duplicate definition of function '" + f.name + "'");
    if (f.body)
      checkLabels(f, diags);
  }
}

void checkLabels(const ast::Function &f, Diagnostics &diags) {
  if (!f.body)
    return;
  // (A label is local to its { } block, so one name may label a statement
  // in each of two blocks: inline-asm helpers repeat their labels so.)
  std::vector<const ast::Block *> blocks{&*f.body};
  while (!blocks.empty()) {
    const ast::Block *b = blocks.back();
    blocks.pop_back();
    std::set<std::string> labels;
    for (const ast::Statement &s : b->statements) {
      if (const ast::Label *l = std::get_if<ast::Label>(&s); l && !labels.insert(l->name).second)
        error(diags, l->loc, "duplicate definition of label '" + l->name + "' in '" + f.name + "'");
      if (const ast::Block *inner = std::get_if<ast::Block>(&s))
        blocks.push_back(inner);
    }
  }
}

bool isFormError(const Diagnostic &d) {
  return d.severity == Diagnostic::Severity::Error && d.message.rfind("invalid form '", 0) == 0;
}

} // namespace p2a::ptx
