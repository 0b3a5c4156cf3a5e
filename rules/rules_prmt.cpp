// Rules for prmt (PTX ISA 9.7.9.7).
//
// AMD's byte permute is v_perm_b32 D, S0, S1, sel (AMD Vega / CDNA3 / RDNA
// ISA, VOP3 "V_PERM_B32"): the data bytes are {S0,S1} with S1 as bytes 0-3,
// so PTX's {b,a} is S0 = b, S1 = a and a selector byte 0-7 means the same
// byte in both. The restrictions the rules handle:
//  * v_perm's sign-replicating selectors 8-11 exist for the odd bytes 1, 3, 5,
//    7 only, while PTX's default mode may ask for the sign of any byte;
//  * the selector is bytes, PTX's is nibbles (default mode) or a row number
//    c[1:0] of a fixed table (the other modes);
//  * gfx9/CDNA VOP3 take no literal, so a constant selector outside -16..64
//    costs a v_mov there (the legaliser adds it).
// A constant c makes every mode one fixed byte permutation: one v_perm_b32
// whose selector is computed from c (ImmFn). A register c needs a sequence.
// The selectors (and the odd-bytes condition) are built byte by byte from c's
// nibbles or a mode's table: written as formulas they would be unreadable, so
// the rules name them with opaque() (rule_expr.hpp) and compute them below.
#include "semantics/ptx_semantics_bits.hpp"
#include "rules/rule_dsl.hpp"
#include "rules/rules_builtin.hpp"

namespace p2a::rules {

using namespace dsl;
using ptx::PrmtMode;

namespace {

ptx::Form prmtForm(PrmtMode m) {
  ptx::Form f{ptx::Opcode::Prmt, ptx::TypeClass::B, 32};
  f.prmt = m;
  return f;
}

Rule base(PrmtMode m, const std::string &suffix, std::vector<OperandReq> reqs) {
  return makeRule(prmtForm(m), suffix, std::move(reqs));
}

BV concatBytes(const BV (&b)[4]) { return BV::concat(BV::concat(b[3], b[2]), BV::concat(b[1], b[0])); }

// Nibble i of c (default mode): bits 4i+3..4i.
BV nibble(const BV &c, unsigned i) { return c.extract(4 * i + 3, 4 * i); }

// v_perm selector of a constant default-mode c whose sign requests all name
// odd bytes: byte k -> k, sign of byte 2m+1 -> 8+m.
BV defaultSelector(const std::vector<BV> &s) {
  BV out[4] = {BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0)};
  for (unsigned i = 0; i < 4; ++i) {
    BV n = nibble(s[2], i);
    BV idx = n.extract(2, 0).zext(8);
    BV signSel = idx.lit(8) + idx.lshr(idx.lit(1));
    out[i] = BV::ite(n.extract(3, 3), signSel, idx);
  }
  return concatBytes(out);
}

// The byte index part only (nibble & 7 per byte).
BV indexSelector(const std::vector<BV> &s) {
  BV out[4] = {BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0)};
  for (unsigned i = 0; i < 4; ++i)
    out[i] = nibble(s[2], i).extract(2, 0).zext(8);
  return concatBytes(out);
}

// Second stage of the general constant rule: over the pool {data << 8, data},
// result byte i is data byte i (selector i) or its sign, found at byte 5, 1, 7,
// 3 for i = 0..3 (selectors 10, 8, 11, 9).
BV signStageSelector(const std::vector<BV> &s) {
  static const unsigned signSel[4] = {10, 8, 11, 9};
  BV out[4] = {BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0)};
  for (unsigned i = 0; i < 4; ++i)
    out[i] = BV::ite(nibble(s[2], i).extract(3, 3), BV::constant(8, signSel[i]), BV::constant(8, i));
  return concatBytes(out);
}

// Constraint: every nibble with bit 3 set names an odd byte.
BV signsOdd(const std::vector<BV> &s) {
  BV ok = BV::constant(1, 1);
  for (unsigned i = 0; i < 4; ++i) {
    BV n = nibble(s[2], i);
    ok = ok & (~n.extract(3, 3) | n.extract(0, 0));
  }
  return ok;
}

// A mode's selector for the row c[1:0] (bytes of {b,a}).
std::function<BV(const std::vector<BV> &)> modeSelector(PrmtMode m) {
  const auto &table = sem::bits::prmtModeRows(m);
  return [&table](const std::vector<BV> &s) {
    BV row = s[2].extract(1, 0);
    BV out[4] = {BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0), BV::constant(8, 0)};
    for (unsigned i = 0; i < 4; ++i) {
      BV v = BV::constant(8, table[3][3 - i]);
      for (int r = 2; r >= 0; --r)
        v = BV::ite(row.eq(row.lit(r)), BV::constant(8, table[r][3 - i]), v);
      out[i] = v;
    }
    return concatBytes(out);
  };
}

void addDefaultMode(std::vector<Rule> &out) {
  {
    Rule r = base(PrmtMode::None, "imm-perm", {A, A, Im});
    r.constraints = {when(opaque("sign requests name odd bytes", signsOdd))};
    r.immFns = {opaque("perm-sel(c)", defaultSelector)};
    r.seq = {inst(Op::V_PERM_B32, D(), {S(1), S(0), F(0)})};
    r.priority = 2;
    r.restriction = "a constant selector is one v_perm_b32 (S0 = b, S1 = a); its sign selectors 8-11 "
                    "cover the odd bytes, which is all this c asks for";
    out.push_back(std::move(r));
  }
  {
    Rule r = base(PrmtMode::None, "imm-perm-sign", {A, A, Im});
    r.temps = {TempKind::V32, TempKind::V32};
    r.immFns = {opaque("perm-idx(c)", indexSelector), opaque("sign-sel(c)", signStageSelector)};
    r.seq = {inst(Op::V_PERM_B32, T(0), {S(1), S(0), F(0)}), inst(Op::V_LSHLREV_B32, T(1), {I(8), T(0)}),
             inst(Op::V_PERM_B32, D(), {T(1), T(0), F(1)})};
    r.priority = 1;
    r.restriction = "v_perm replicates the sign of odd bytes only: select the bytes first, then over "
                    "{data << 8, data} every selected byte sits at an odd position for its sign";
    out.push_back(std::move(r));
  }
  {
    // Register selector: spread the nibbles of c into bytes, select the data
    // bytes, build the per-byte sign fill, and let bit 3 of each nibble pick
    // data or sign in a last v_perm.
    Rule r = base(PrmtMode::None, "spread-perm", {A, A, R});
    r.temps = std::vector<TempKind>(9, TempKind::V32);
    r.seq = {
        inst(Op::V_LSHRREV_B32, T(0), {I(4), S(2)}),              // c >> 4
        inst(Op::V_PERM_B32, T(1), {T(0), S(2), I(0x05010400)}),  // byte i low nibble = c nibble i
        inst(Op::V_AND_B32, T(2), {I(0x07070707), T(1)}),         // byte indices
        inst(Op::V_PERM_B32, T(3), {S(1), S(0), T(2)}),           // data bytes
        inst(Op::V_LSHLREV_B32, T(4), {I(8), T(3)}),              // even data bytes to odd positions
        inst(Op::V_PERM_B32, T(5), {T(4), T(3), I(0x090b080a)}),  // sign fill of each data byte
        inst(Op::V_LSHRREV_B32, T(6), {I(1), T(1)}),              // nibble bit 3 -> byte bit 2
        inst(Op::V_AND_B32, T(7), {I(0x04040404), T(6)}),
        inst(Op::V_OR_B32, T(8), {I(0x03020100), T(7)}),          // i or 4+i
        inst(Op::V_PERM_B32, D(), {T(5), T(3), T(8)}),
    };
    r.restriction = "a register selector: nibbles become v_perm byte indices at run time; v_perm's sign "
                    "selectors cover odd bytes only, so the sign fill of every selected byte is built "
                    "over {data << 8, data} and chosen per byte by nibble bit 3";
    out.push_back(std::move(r));
  }
}

void addModes(std::vector<Rule> &out) {
  for (PrmtMode m : {PrmtMode::F4e, PrmtMode::B4e, PrmtMode::Rc8, PrmtMode::Ecl, PrmtMode::Ecr, PrmtMode::Rc16}) {
    Rule r = base(m, "imm-perm", {A, A, Im});
    r.immFns = {opaque("row-sel(c&3)", modeSelector(m))};
    r.seq = {inst(Op::V_PERM_B32, D(), {S(1), S(0), F(0)})};
    r.priority = 1;
    r.restriction = "a constant row is a fixed byte permutation: one v_perm_b32 with the row's selector";
    out.push_back(std::move(r));
  }
  {
    Rule r = base(PrmtMode::F4e, "alignbit", {A, A, R});
    r.temps = {TempKind::V32};
    r.seq = {inst(Op::V_LSHLREV_B32, T(0), {I(3), S(2)}), inst(Op::V_ALIGNBIT_B32, D(), {S(1), S(0), T(0)})};
    r.restriction = "f4e row r is bytes r..r+3 of {b,a}: v_alignbit_b32 by 8r (it reads (c << 3)[4:0] = 8*(c&3))";
    out.push_back(std::move(r));
  }
  {
    Rule r = base(PrmtMode::B4e, "bcast-add-perm", {A, A, R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_AND_B32, T(0), {I(3), S(2)}), inst(Op::V_PERM_B32, T(1), {T(0), T(0), I(0)}),
             inst(Op::V_ADD_U32, T(2), {I(0x01020304), T(1)}), inst(Op::V_PERM_B32, D(), {S(0), S(1), T(2)})};
    r.restriction = "b4e byte i is byte r+4-i of {a,b} (v_perm S0 = a, S1 = b): selector "
                    "r*0x01010101 + 0x01020304, the broadcast done by v_perm with selector 0";
    out.push_back(std::move(r));
  }
  {
    Rule r = base(PrmtMode::Rc8, "shift-bcast", {A, A, R});
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_LSHLREV_B32, T(0), {I(3), S(2)}), inst(Op::V_LSHRREV_B32, T(1), {T(0), S(0)}),
             inst(Op::V_PERM_B32, D(), {T(1), T(1), I(0)})};
    r.restriction = "rc8 broadcasts byte c&3 of a: shift it down by 8*(c&3) (5-bit amount of c << 3), "
                    "v_perm with selector 0 replicates byte 0";
    out.push_back(std::move(r));
  }
  for (PrmtMode m : {PrmtMode::Ecl, PrmtMode::Ecr}) {
    const bool left = m == PrmtMode::Ecl;
    Rule r = base(m, "bfm-bfi", {A, A, R});
    r.temps = {TempKind::V32, TempKind::V32, TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_LSHLREV_B32, T(0), {I(3), S(2)}), inst(Op::V_BFM_B32, T(1), {T(0), I(0)}),
             inst(Op::V_LSHRREV_B32, T(2), {T(0), S(0)}), inst(Op::V_PERM_B32, T(3), {T(2), T(2), I(0)}),
             left ? inst(Op::V_BFI_B32, D(), {T(1), T(3), S(0)}) : inst(Op::V_BFI_B32, D(), {T(1), S(0), T(3)})};
    r.restriction = left ? "ecl byte i is a's byte max(i, r): bytes below r (v_bfm mask) take the broadcast byte r"
                         : "ecr byte i is a's byte min(i, r): bytes below r (v_bfm mask) keep a, the rest "
                           "take the broadcast byte r";
    out.push_back(std::move(r));
  }
  {
    Rule r = base(PrmtMode::Rc16, "bfe-lshl-or", {A, A, R});
    r.temps = {TempKind::V32, TempKind::V32};
    r.seq = {inst(Op::V_LSHLREV_B32, T(0), {I(4), S(2)}), inst(Op::V_BFE_U32, T(1), {S(0), T(0), I(16)}),
             inst(Op::V_LSHL_OR_B32, D(), {T(1), I(16), T(1)})};
    r.restriction = "rc16 repeats half c&1 of a: v_bfe_u32 at 16*(c&1) (5-bit amount of c << 4) "
                    "zero-extends it, v_lshl_or_b32 copies it up";
    out.push_back(std::move(r));
  }
}

} // namespace

void addPrmtRules(std::vector<Rule> &out) {
  addDefaultMode(out);
  addModes(out);
}

} // namespace p2a::rules
