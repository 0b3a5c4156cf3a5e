#include "targets/target_info.hpp"
#include "rules/rule.hpp"
#include "rules/rules_builtin.hpp"

#include <sstream>
#include <unordered_map>

namespace p2a::rules {

const std::vector<Rule> &ruleTable() {
  // (Never destroyed: freeing thousands of rules at exit costs a small file's
  // translation a few percent, and nothing runs after it.)
  static const std::vector<Rule> &table = *new std::vector<Rule>([] {
    std::vector<Rule> t;
    t.reserve(4096); // (no reallocation: it would copy every rule built so far)
    addLogicRules(t);
    addLop3Rules(t);
    addShiftRules(t);
    addPrmtRules(t);
    addBitCountRules(t);
    addBitFieldRules(t);
    addFnsRules(t);
    addDivideRules(t);
    addVideoRules(t);
    addArithRules(t);
    addCompareRules(t);
    addScalarRules(t);
    addConstantFoldRules(t);
    return t;
  }());
  return table;
}

const std::vector<const Rule *> &rulesForForm(const ptx::Form &form) {
  static const std::unordered_map<unsigned, std::vector<const Rule *>> byForm = [] {
    std::unordered_map<unsigned, std::vector<const Rule *>> m;
    for (const Rule &r : ruleTable())
      m[r.form.id()].push_back(&r);
    return m;
  }();
  static const std::vector<const Rule *> none;
  auto it = byForm.find(form.id());
  return it == byForm.end() ? none : it->second;
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
  if (dstDistinct)
    for (unsigned i = 0; i < srcReqs.size(); ++i)
      if (srcReqs[i] != OperandReq::Imm) {
        os << sep << "d!=" << sourceName(i, form);
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
