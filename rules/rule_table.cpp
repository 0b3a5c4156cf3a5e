#include "targets/target_info.hpp"
#include "rules/rule.hpp"
#include "rules/rules_builtin.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <mutex>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace p2a::rules {

namespace {

using ptx::Opcode;

// A family of rules: the function that builds it and the opcodes of its
// forms (empty: every opcode), and for lop3's the one boolean combiner of
// their forms (none: any). Table order is this order.
struct RuleFamilyDef {
  const char *name;
  void (*build)(std::vector<Rule> &);
  std::vector<Opcode> opcodes;
  std::optional<ptx::BoolOp> boolop = std::nullopt;
};

const std::vector<Opcode> kVideoOpcodes{Opcode::Vshl,     Opcode::Vshr, Opcode::Vadd, Opcode::Vsub, Opcode::Vabsdiff,
                                        Opcode::Vmin,     Opcode::Vmax, Opcode::Vmad, Opcode::Vset};

// (An array of kRuleFamilyCount: the compiler checks the count.)
using FamilyDefs = std::array<RuleFamilyDef, kRuleFamilyCount>;

const FamilyDefs &familyDefs() {
  static const FamilyDefs &defs = *new FamilyDefs{{
      {"logic", addLogicRules, {Opcode::And, Opcode::Or, Opcode::Xor, Opcode::Not, Opcode::Cnot}},
      {"lop3", addLop3Rules, {Opcode::Lop3}, ptx::BoolOp::None},
      {"lop3.and", addLop3AndRules, {Opcode::Lop3}, ptx::BoolOp::And},
      {"lop3.or", addLop3OrRules, {Opcode::Lop3}, ptx::BoolOp::Or},
      {"shift", addShiftRules, {Opcode::Shf, Opcode::Shl, Opcode::Shr, Opcode::Rotl}},
      {"prmt", addPrmtRules, {Opcode::Prmt}},
      {"bit count", addBitCountRules, {Opcode::Brev, Opcode::Popc, Opcode::Clz, Opcode::Bfind}},
      {"bit field", addBitFieldRules, {Opcode::Bfe, Opcode::Bfi, Opcode::Bmsk, Opcode::Szext}},
      {"fns", addFnsRules, {Opcode::Fns}},
      {"divide", addDivideRules, {Opcode::Div, Opcode::Rem}},
      {"video", addVideoRules, kVideoOpcodes},
      {"arithmetic", addArithRules,
       {Opcode::Mov, Opcode::Add, Opcode::Sub, Opcode::MulLo, Opcode::MulHi, Opcode::MulWide, Opcode::MadLo,
        Opcode::Cvt, Opcode::Mul24Lo, Opcode::Mul24Hi, Opcode::Mad24Lo, Opcode::Mad24Hi, Opcode::MadHi,
        Opcode::MadWide, Opcode::MovPack, Opcode::MovUnpack, Opcode::Add3, Opcode::Xad}},
      {"compare", addCompareRules, {Opcode::Setp, Opcode::Selp, Opcode::Min, Opcode::Max, Opcode::Abs, Opcode::Neg}},
      {"scalar", addScalarRules,
       {Opcode::And, Opcode::Or, Opcode::Xor, Opcode::Not, Opcode::Shl, Opcode::Shr, Opcode::Mov, Opcode::Add,
        Opcode::Sub, Opcode::MulLo, Opcode::MulHi, Opcode::MulWide, Opcode::MadLo, Opcode::Cvt, Opcode::Setp,
        Opcode::Min, Opcode::Max, Opcode::Rotl}},
      {"constant folding", addConstantFoldRules, {}},
      // (A family of its own, after the other folds as the table lists them:
      // 572 of the 762 folds are video forms, which few modules use.)
      {"constant folding, video", addVideoConstantFoldRules, kVideoOpcodes},
  }};
  return defs;
}

// The built families. Never destroyed: freeing thousands of rules at exit
// costs a small file's translation a few percent, and nothing runs after it.
// A built family is published through an atomic pointer (namespace scope:
// no guard to test), so that asking whether a rule is the table's own --
// selection's cost lookup does, per candidate -- is one load.
std::atomic<const std::vector<Rule> *> builtFamily[kRuleFamilyCount];
std::once_flag buildingFamily[kRuleFamilyCount];

// The rules of the forms of one opcode and boolean combiner, by form id,
// in table order.
using OpcodeIndex = std::unordered_map<unsigned, std::vector<const Rule *>>;
constexpr unsigned kBoolOps = 4;
static_assert(static_cast<unsigned>(ptx::BoolOp::Xor) + 1 == kBoolOps);

const OpcodeIndex &opcodeIndex(Opcode op, ptx::BoolOp boolop) {
  // One flag per opcode and combiner (not one lock): kernels translated in
  // parallel build the indexes of different opcodes, and their families, at
  // once.
  struct Slot {
    std::once_flag once;
    OpcodeIndex index;
  };
  static Slot *slots = new Slot[ptx::kOpcodeCount * kBoolOps];
  Slot &slot = slots[static_cast<unsigned>(op) * kBoolOps + static_cast<unsigned>(boolop)];
  std::call_once(slot.once, [&] {
    for (unsigned f = 0; f < kRuleFamilyCount; ++f) {
      const std::optional<ptx::BoolOp> only = familyDefs()[f].boolop;
      if (familyServesOpcode(f, op) && (!only || *only == boolop))
        for (const Rule &r : ruleFamily(f))
          if (r.form.opcode == op && r.form.boolop == boolop)
            slot.index[r.form.id()].push_back(&r);
    }
  });
  return slot.index;
}

} // namespace

const char *ruleFamilyName(unsigned family) { return familyDefs().at(family).name; }

bool familyServesOpcode(unsigned family, ptx::Opcode op) {
  const std::vector<Opcode> &ops = familyDefs().at(family).opcodes;
  return ops.empty() || std::find(ops.begin(), ops.end(), op) != ops.end();
}

const std::vector<Rule> &ruleFamily(unsigned family) {
  if (const std::vector<Rule> *built = builtFamily[family].load(std::memory_order_acquire))
    return *built;
  std::call_once(buildingFamily[family], [&] {
    auto *rules = new std::vector<Rule>;
    familyDefs()[family].build(*rules);
    for (size_t i = 0; i < rules->size(); ++i) {
      (*rules)[i].family = family;
      (*rules)[i].familyIndex = static_cast<unsigned>(i);
    }
    builtFamily[family].store(rules, std::memory_order_release);
  });
  return *builtFamily[family].load(std::memory_order_acquire);
}

bool inRuleTable(const Rule &r) {
  // (A family not yet built has no rules: r is a copy made elsewhere.)
  const std::vector<Rule> *rules =
      r.family < kRuleFamilyCount ? builtFamily[r.family].load(std::memory_order_acquire) : nullptr;
  return rules && r.familyIndex < rules->size() && &(*rules)[r.familyIndex] == &r;
}

RuleList ruleTable() {
  static const std::vector<const Rule *> &all = *new std::vector<const Rule *>([] {
    std::vector<const Rule *> t;
    for (unsigned f = 0; f < kRuleFamilyCount; ++f)
      for (const Rule &r : ruleFamily(f))
        t.push_back(&r);
    return t;
  }());
  return RuleList(all);
}

const std::vector<const Rule *> &rulesForForm(const ptx::Form &form) {
  static const std::vector<const Rule *> none;
  const OpcodeIndex &ix = opcodeIndex(form.opcode, form.boolop);
  auto it = ix.find(form.id());
  return it == ix.end() ? none : it->second;
}

const char *sourceName(unsigned i, const ptx::Form &f) {
  static const char *lop3[] = {"a", "b", "c", "immLut", "q"};
  static const char *bfe[] = {"a", "pos", "len"};
  static const char *bfi[] = {"a", "b", "pos", "len"};
  static const char *fns[] = {"mask", "base", "offset"};
  static const char *other[] = {"a", "b", "c", "cf"}; // (madc: the carry flag last)
  switch (f.opcode) {
  case ptx::Opcode::Lop3: return lop3[i];
  case ptx::Opcode::Bfe: return bfe[i];
  case ptx::Opcode::Bfi: return bfi[i];
  case ptx::Opcode::Fns: return fns[i];
  default: return other[i];
  }
}

bool Rule::dstDistinctOn(const targets::TargetInfo &t) const {
  return dstDistinct || (dstDistinctOnMadHazard && t.mad64_overlap_hazard);
}

bool Rule::servesTarget(const targets::TargetInfo &t) const {
  if (!target.holds(t))
    return false;
  for (const TInst &in : seq)
    if (!amd::available(in.op, t))
      return false;
  return true;
}

std::string Rule::constraintText() const {
  std::ostringstream os;
  const char *sep = "";
  for (unsigned i = 0; i < srcReqs.size(); ++i) {
    if (srcReqs[i] == OperandReq::Any)
      continue;
    os << sep << sourceName(i, form) << (srcReqs[i] == OperandReq::Reg ? ":reg" : ":imm");
    sep = ", ";
  }
  for (auto [x, y] : sameReg) {
    os << sep << sourceName(x, form) << "==" << sourceName(y, form) << " (same register)";
    sep = ", ";
  }
  for (auto [x, y] : distinctReg) {
    os << sep << sourceName(x, form) << "!=" << sourceName(y, form);
    sep = ", ";
  }
  if (dstDistinct || dstDistinctOnMadHazard)
    for (unsigned i = 0; i < srcReqs.size(); ++i)
      if (srcReqs[i] != OperandReq::Imm && (dstDistinct || form.srcWidth(i) == form.dstWidth(0))) {
        os << sep << "d!=" << sourceName(i, form) << (dstDistinct ? "" : " on gfx11");
        sep = ", ";
      }
  for (const ValueConstraint &c : constraints) {
    os << sep << c.text();
    sep = ", ";
  }
  return os.str();
}

static std::string refText(const Ref &r, const Rule &rule, const targets::TargetInfo &t) {
  std::string base;
  switch (r.kind) {
  case Ref::Kind::Dst: base = r.index == 0 ? "d" : "p"; break;
  case Ref::Kind::Src: base = sourceName(r.index, rule.form); break;
  case Ref::Kind::Temp: base = "t" + std::to_string(r.index); break;
  case Ref::Kind::Imm: {
    int64_t v = static_cast<int32_t>(static_cast<uint32_t>(r.imm));
    return std::to_string(v);
  }
  case Ref::Kind::ImmFn: return rule.immFns.at(r.index).text();
  case Ref::Kind::Vcc: return t.wave_size == 32 ? "vcc_lo" : "vcc";
  case Ref::Kind::Exec: return t.wave_size == 32 ? "exec_lo" : "exec";
  case Ref::Kind::Scc: return "scc";
  case Ref::Kind::None: return "?";
  }
  if (r.part == Part::Lo)
    base += ".lo";
  else if (r.part == Part::Hi)
    base += ".hi";
  return base;
}

std::string Rule::templateText(const targets::TargetInfo &t) const {
  std::ostringstream os;
  for (size_t i = 0; i < seq.size(); ++i) {
    const TInst &in = seq[i];
    if (i)
      os << "; ";
    os << amd::mnemonic(in.op, t);
    auto opText = [&](const TOperand &o) {
      if (o.isPair())
        return "{" + refText(o.lo, *this, t) + "," + refText(*o.hi, *this, t) + "}";
      return refText(o.lo, *this, t);
    };
    // SCC is implicit, as in the assembly: a compare shows its sources only.
    const char *sep = " ";
    for (const TOperand *o : [&] {
           std::vector<const TOperand *> all{&in.dst};
           for (const TOperand &s : in.srcs)
             all.push_back(&s);
           return all;
         }())
      if (o->lo.kind != Ref::Kind::Scc) {
        os << sep << opText(*o);
        sep = ", ";
      }
    os << amd::opDef(in.op).suffix;
  }
  return os.str();
}

} // namespace p2a::rules
