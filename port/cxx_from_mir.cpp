#include "port/cxx_from_mir.hpp"

#include "port/amd_op_cxx.hpp"
#include "port/form_cxx.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace p2a::port {

using mir::MOperand;
using rules::Part;

CxxType localType(unsigned width) { return width == 64 ? kU64 : kU32; }

namespace {

CxxType classType(mir::RegClass c) {
  switch (c) {
  case mir::RegClass::V64:
  case mir::RegClass::S64: return kU64;
  case mir::RegClass::Mask: return kBool;
  default: return kU32;
  }
}

struct Builder {
  const mir::Function &fn;
  CxxSite site;
  std::map<unsigned, Expr> value; // vreg -> its current value
  Expr vcc;
  unsigned temps = 0;
  bool carryPending = false; // CC.CF was set and not read since

  // `merging`: the old value a partial write (one half of a pair) keeps.
  Expr current(unsigned v, bool merging = false) {
    auto it = value.find(v);
    if (it != value.end()) {
      if (fn.ptxName(v) == ptx::kCarryFlagRegister)
        carryPending = false;
      return it->second;
    }
    // Never written: PTX's carry flag comes from an earlier statement. A
    // PTX register the statement reads before writing it holds nothing a
    // port can give it (a special register such as %laneid, an output's
    // old value); a rule's own temporary is never read so (the proofs
    // check it), and the half a partial write keeps is taken as 0.
    const mir::VReg &vr = fn.vregs[v];
    const std::string &name = fn.ptxName(v);
    if (name == ptx::kCarryFlagRegister) {
      carryPending = false;
      site.readsCarry = true;
      return value[v] = var(kCarryVariable, kBool);
    }
    if (vr.role == mir::VRegRole::PtxRegister && !merging)
      throw std::runtime_error(name.rfind("%p2a_", 0) == 0
                                   ? "it reads output operand %" + name.substr(5) + " before writing it"
                                   : "it reads " + name +
                                         ", which nothing in the statement sets (special registers are not ported)");
    return value[v] = lit(classType(vr.cls), 0);
  }

  // A value that is neither a variable nor a constant gets a local.
  Expr materialize(Expr e) {
    if (e->kind == CxxExpr::Kind::Var || e->kind == CxxExpr::Kind::Const)
      return e;
    const std::string name = "p2a_t" + std::to_string(temps++);
    site.locals.push_back({name, e});
    return var(name, e->type);
  }

  Expr read(const MOperand &o, amd::Slot slot) {
    const CxxType t = cxxTypeOf(slot);
    switch (o.kind) {
    case MOperand::Kind::Imm: return t == kBool ? lit(kBool, o.imm != 0) : lit(t, o.imm);
    case MOperand::Kind::Exec: return lit(kBool, 1); // the thread runs: its lane's EXEC bit
    case MOperand::Kind::Vcc:
      if (!vcc)
        throw std::runtime_error("VCC is read without a value");
      return vcc;
    case MOperand::Kind::Pair:
      return binary(CxxOp::Shl, convert(kU64, current(o.vregHi)), lit(kU64, 32)) | convert(kU64, current(o.vreg));
    case MOperand::Kind::VReg: break;
    default: throw std::runtime_error("an operand with no C++ value");
    }
    Expr v = current(o.vreg);
    if (v->type == kU64 && o.part == Part::Lo)
      return convert(kU32, v);
    if (v->type == kU64 && o.part == Part::Hi)
      return convert(kU32, binary(CxxOp::Shr, v, lit(kU64, 32)));
    if (v->type != t)
      return convert(t, v);
    return v;
  }

  // A form C++ states directly (form_cxx.hpp): its PTX operands read and
  // written through their registers' values, the rule's instructions unused.
  bool spellForm(const ptx::Instruction &in) {
    std::vector<Expr> srcs;
    for (unsigned i = 0; i < in.srcs.size(); ++i) {
      const unsigned w = in.form.srcWidth(i);
      const CxxType t = w == 1 ? kBool : w == 64 ? kU64 : kU32;
      if (in.srcs[i].isImm()) {
        srcs.push_back(lit(t, in.srcs[i].imm));
        continue;
      }
      auto it = fn.ptxRegs.find(in.srcs[i].reg);
      if (it == fn.ptxRegs.end())
        return false;
      Expr v = current(it->second);
      srcs.push_back(v->type == t ? v : convert(t, v));
    }
    std::optional<std::vector<Expr>> out =
        cxxForForm(in.form, srcs, [this](Expr e) { return materialize(std::move(e)); });
    if (!out)
      return false;
    for (size_t i = 0; i < out->size() && i < in.dsts.size(); ++i) {
      if (!in.dsts[i].isReg())
        continue;
      auto it = fn.ptxRegs.find(in.dsts[i].reg);
      if (it == fn.ptxRegs.end())
        continue;
      if (in.dsts[i].reg == ptx::kCarryFlagRegister)
        carryPending = true;
      const CxxType t = classType(fn.vregs[it->second].cls);
      value[it->second] = materialize((*out)[i]->type == t ? (*out)[i] : convert(t, (*out)[i]));
    }
    vcc = nullptr; // (the rule's instructions, which set VCC, did not run)
    return true;
  }

  void write(const MOperand &o, Expr e) {
    switch (o.kind) {
    case MOperand::Kind::Vcc: vcc = materialize(e); return;
    case MOperand::Kind::None: return;
    case MOperand::Kind::Pair: {
      Expr w = materialize(e);
      value[o.vreg] = materialize(convert(kU32, w));
      value[o.vregHi] = materialize(convert(kU32, binary(CxxOp::Shr, w, lit(kU64, 32))));
      return;
    }
    case MOperand::Kind::VReg: break;
    default: throw std::runtime_error("a destination with no C++ variable");
    }
    if (fn.ptxName(o.vreg) == ptx::kCarryFlagRegister)
      carryPending = true;
    const CxxType t = classType(fn.vregs[o.vreg].cls);
    if (t == kU64 && o.part != Part::Whole) {
      Expr old = current(o.vreg, true), half = convert(kU64, e);
      value[o.vreg] = materialize(o.part == Part::Lo ? (old & lit(kU64, 0xffffffff00000000ull)) | half
                                                     : (old & lit(kU64, 0xffffffffull)) |
                                                           binary(CxxOp::Shl, half, lit(kU64, 32)));
      return;
    }
    value[o.vreg] = materialize(convert(t, e));
  }
};

void collectVars(const Expr &e, std::set<std::string> &used) {
  if (e->kind == CxxExpr::Kind::Var)
    used.insert(e->name);
  for (const Expr &a : e->args)
    collectVars(a, used);
}

// Locals nothing reads (a carry no instruction consumes, a rule's unused
// half) are dropped, and so are inputs that are plain names nothing reads:
// an input with any other expression is still evaluated once, as the asm
// statement evaluated it.
void pruneUnused(CxxSite &site) {
  std::set<std::string> used;
  for (const CxxOutput &o : site.outputs)
    collectVars(o.value, used);
  if (site.carryOut)
    collectVars(site.carryOut, used);
  std::vector<CxxLocal> kept;
  for (auto it = site.locals.rbegin(); it != site.locals.rend(); ++it)
    if (used.count(it->name)) {
      collectVars(it->value, used);
      kept.push_back(*it);
    }
  site.locals.assign(kept.rbegin(), kept.rend());
  for (size_t i = site.inputs.size(); i-- > 0;) {
    const std::string &text = site.inputText[i];
    const size_t open = text.rfind('(');
    const std::string inner = text.substr(open + 1, text.size() - open - 2);
    const bool plainName = !inner.empty() && std::all_of(inner.begin(), inner.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
    if (!used.count(site.inputs[i].name) && plainName) {
      site.inputs.erase(site.inputs.begin() + static_cast<long>(i));
      site.inputText.erase(site.inputText.begin() + static_cast<long>(i));
    }
  }
}

} // namespace

CxxSite cxxFromMir(const translate::Translation &tr, const AsmSnippet &sn) {
  Builder b{tr.function, {}, {}, nullptr, 0};
  const mir::Function &fn = tr.function;
  auto vregOf = [&](const SnippetOperand &o) -> const unsigned * {
    auto it = fn.ptxRegs.find(o.ptxRegister());
    return it == fn.ptxRegs.end() ? nullptr : &it->second;
  };
  for (const SnippetOperand &o : sn.operands) {
    if (!o.input)
      continue;
    const std::string name = "p2a_" + std::to_string(o.index);
    const std::string &expr = o.output ? o.inputExpr : o.expr;
    const std::string cast = o.width == 16 ? "(uint32_t)(uint16_t)(" : "(" + typeName(localType(o.width)) + ")(";
    Expr v = var(name, localType(o.width));
    b.site.inputs.push_back({name, v});
    b.site.inputText.push_back(cast + expr + ")");
    if (const unsigned *vr = vregOf(o))
      b.value[*vr] = v;
  }
  try {
    for (const mir::LoweredInst &li : fn.body) {
      b.site.statedDirectly.push_back(b.spellForm(*li.ptx));
      if (b.site.statedDirectly.back())
        continue;
      for (const mir::MInst &mi : li.insts) {
        const amd::OpDef &def = amd::opDef(mi.op);
        std::vector<Expr> srcs;
        for (size_t i = 0; i < mi.srcs.size(); ++i)
          srcs.push_back(b.read(mi.srcs[i], def.srcs[i]));
        std::optional<OpCxx> c = cxxForOp(mi.op, srcs);
        if (!c) {
          b.site.error = std::string(def.name) + " (rule " + (li.rule ? li.rule->name : "?") +
                         ") has no C++ spelling; use --style=asm for this statement";
          return b.site;
        }
        b.write(mi.dst, c->dst);
        if (c->carry)
          b.vcc = b.materialize(c->carry);
        else if (c->clobbersVcc)
          b.vcc = nullptr;
      }
    }
    for (const SnippetOperand &o : sn.operands) {
      if (!o.output)
        continue;
      const unsigned *vr = vregOf(o);
      Expr v = vr ? b.current(*vr, !o.input) : lit(localType(o.width), 0);
      b.site.outputs.push_back({o.expr, o.width, v});
    }
    b.site.exportsCarry = b.carryPending;
    auto cc = fn.ptxRegs.find(ptx::kCarryFlagRegister);
    if (cc != fn.ptxRegs.end() && b.value.count(cc->second)) {
      Expr v = b.value[cc->second];
      if (!(v->kind == CxxExpr::Kind::Var && v->name == kCarryVariable))
        b.site.carryOut = v;
    }
  } catch (const std::runtime_error &e) {
    b.site.error = e.what();
    return b.site;
  }
  pruneUnused(b.site);
  return b.site;
}

std::string printSite(const CxxSite &site, const std::string &indent, bool compilerBarrier) {
  std::string s = indent + "{\n";
  if (compilerBarrier)
    s += indent + "  __atomic_signal_fence(__ATOMIC_SEQ_CST);\n";
  for (size_t i = 0; i < site.inputs.size(); ++i)
    s += indent + "  const " + typeName(site.inputs[i].value->type) + " " + site.inputs[i].name + " = " +
         site.inputText[i] + ";\n";
  for (const CxxLocal &l : site.locals)
    s += indent + "  const " + typeName(l.value->type) + " " + l.name + " = " + print(l.value) + ";\n";
  for (const CxxOutput &o : site.outputs)
    s += indent + "  " + o.lvalue + " = " + (o.width == 16 ? "(uint16_t)" : "") + print(o.value) + ";\n";
  if (site.carryOut)
    s += indent + "  " + kCarryVariable + " = " + print(site.carryOut) + ";\n";
  return s + indent + "}";
}

} // namespace p2a::port
