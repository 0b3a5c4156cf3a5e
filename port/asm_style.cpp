#include "port/asm_style.hpp"

#include "driver/translate.hpp"
#include "isel/printer.hpp"
#include "port/cxx_from_mir.hpp"
#include "port/site_proof.hpp"
#include "targets/target_info.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <regex>

namespace p2a::port {

using mir::MOperand;

namespace {

// Virtual registers are printed as these fake VGPRs (unique per value, so
// that a reused physical register cannot stand for two operands), then
// replaced by %N.
constexpr unsigned kFakeBase = 300;
unsigned fakeOf(unsigned vreg) { return kFakeBase + 2 * vreg; }

struct Variant {
  std::string text;
  std::vector<std::string> targets;
};

// One target's statement: declarations, the asm, and what follows it.
std::string variantFor(const translate::Translation &tr, const AsmStatement &st, const AsmSnippet &sn,
                       const targets::TargetInfo &t, std::string &error) {
  const mir::Function &fn = tr.function;
  // Every value an instruction names must be a whole VGPR value.
  bool clobbersVcc = false;
  std::vector<unsigned> used;
  auto refuse = [&](const std::string &why) {
    error = why + " on " + t.name + ", which inline asm constraints cannot name; use --style=builtin";
    return std::string();
  };
  auto visit = [&](const MOperand &o) -> bool {
    switch (o.kind) {
    case MOperand::Kind::Vcc: clobbersVcc = true; return true;
    case MOperand::Kind::Imm:
    case MOperand::Kind::Exec:
    case MOperand::Kind::None: return true;
    case MOperand::Kind::Pair: error = "a register pair built of two values"; return false;
    case MOperand::Kind::VReg: break;
    default: error = "an operand of its own kind"; return false;
    }
    const mir::VReg &vr = fn.vregs[o.vreg];
    if (mir::isSgprClass(vr.cls)) {
      error = "a lane mask (a predicate or the carry flag) in SGPRs";
      return false;
    }
    if (vr.cls == mir::RegClass::V64 && o.part != rules::Part::Whole) {
      error = "one half of a 64-bit value";
      return false;
    }
    used.push_back(o.vreg);
    return true;
  };
  for (const mir::LoweredInst &li : fn.body)
    for (const mir::MInst &mi : li.insts) {
      if (amd::opDef(mi.op).writesVcc())
        clobbersVcc = true;
      if (!visit(mi.dst))
        return refuse(error);
      for (const MOperand &o : mi.srcs)
        if (!visit(o))
          return refuse(error);
    }

  // Operands: the statement's outputs and the rules' temporaries (outputs
  // too, early-clobbered), then its inputs.
  std::map<unsigned, unsigned> operandOf; // vreg -> %N
  std::vector<std::string> outputs, inputs, before, after, decls;
  auto vregOf = [&](const SnippetOperand &o) -> std::optional<unsigned> {
    auto it = fn.ptxRegs.find(o.ptxRegister());
    return it == fn.ptxRegs.end() ? std::nullopt : std::optional<unsigned>(it->second);
  };
  auto cType = [&](unsigned vreg) { return fn.vregs[vreg].cls == mir::RegClass::V64 ? "uint64_t" : "uint32_t"; };
  for (const SnippetOperand &o : sn.operands) {
    if (!o.output)
      continue;
    const std::optional<unsigned> v = vregOf(o);
    if (!v)
      continue;
    std::string lvalue = o.expr;
    if (o.width == 16) { // a 16-bit output goes through a 32-bit VGPR value
      lvalue = "p2a_o" + std::to_string(o.index);
      decls.push_back(std::string("uint32_t ") + lvalue + (o.input ? " = (uint32_t)(uint16_t)(" + o.inputExpr + ")" : "") + ";");
      after.push_back(o.expr + " = (uint16_t)" + lvalue + ";");
    } else if (o.input && o.inputExpr != o.expr) {
      before.push_back(o.expr + " = (" + std::string(cType(*v)) + ")(" + o.inputExpr + ");");
    }
    operandOf[*v] = static_cast<unsigned>(outputs.size());
    outputs.push_back(std::string(o.input ? "\"+v\"(" : "\"=&v\"(") + lvalue + ")");
  }
  unsigned temps = 0;
  for (unsigned v : used) {
    bool isOperand = false;
    for (const SnippetOperand &o : sn.operands)
      if (vregOf(o) == v)
        isOperand = true;
    if (isOperand || operandOf.count(v))
      continue;
    const std::string name = "p2a_t" + std::to_string(temps++);
    decls.push_back(std::string(cType(v)) + " " + name + ";");
    operandOf[v] = static_cast<unsigned>(outputs.size());
    outputs.push_back("\"=&v\"(" + name + ")");
  }
  for (const SnippetOperand &o : sn.operands) {
    if (o.output || !o.input)
      continue;
    const std::optional<unsigned> v = vregOf(o);
    if (!v)
      continue;
    operandOf[*v] = static_cast<unsigned>(outputs.size() + inputs.size());
    const std::string cast = o.width == 16 ? "(uint32_t)(uint16_t)(" : "(" + std::string(cType(*v)) + ")(";
    inputs.push_back("\"v\"(" + cast + o.expr + "))");
  }

  // The instructions, printed with fake registers, each replaced by its operand.
  mir::Allocation fake = tr.allocation;
  for (unsigned v = 0; v < fn.vregs.size(); ++v)
    fake.phys[v] = fakeOf(v);
  static const std::regex reg(R"(v\[(\d+):\d+\]|\bv(\d+)\b)");
  std::string lines;
  for (const mir::LoweredInst &li : fn.body)
    for (const mir::MInst &mi : li.insts) {
      const std::string text = printer::printInst(mi, fn, fake, t);
      std::string out;
      size_t last = 0;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), reg); it != std::sregex_iterator(); ++it) {
        const unsigned n = static_cast<unsigned>(std::stoul((*it)[1].matched ? (*it)[1].str() : (*it)[2].str()));
        out += text.substr(last, size_t(it->position()) - last);
        last = size_t(it->position() + it->length());
        if (n < kFakeBase || (n - kFakeBase) % 2 || !operandOf.count((n - kFakeBase) / 2)) {
          out += it->str();
          continue;
        }
        out += "%" + std::to_string(operandOf[(n - kFakeBase) / 2]);
      }
      out += text.substr(last);
      lines += (lines.empty() ? "" : "\\n\\t") + out;
    }
  auto join = [](const std::vector<std::string> &v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i)
      s += (i ? ", " : "") + v[i];
    return s;
  };
  std::string text;
  for (const std::string &d : decls)
    text += d + "\n";
  for (const std::string &b : before)
    text += b + "\n";
  bool memory = false;
  for (const std::string &c : st.clobbers)
    memory |= c == "memory";
  std::string clobbers = clobbersVcc ? "\"vcc\"" : "";
  if (memory)
    clobbers += std::string(clobbers.empty() ? "" : ", ") + "\"memory\"";
  text += std::string(st.isVolatile || memory ? "asm volatile(\"" : "asm(\"") + lines + "\"\n    : " + join(outputs) +
          "\n    : " + join(inputs) + (clobbers.empty() ? "" : "\n    : " + clobbers) + ");\n";
  for (const std::string &a : after)
    text += a + "\n";
  return text;
}

std::string indented(const std::string &text, const std::string &indent) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    out += indent + text.substr(at, nl - at) + "\n";
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  return out;
}

} // namespace

AsmStyleResult asmStyleFor(const AsmStatement &st, const AsmSnippet &sn, const ::ptx::ast::Block &body,
                           cost::CostModel &costs) {
  AsmStyleResult r;
  std::vector<Variant> variants;
  for (const targets::TargetInfo &t : targets::allTargets()) {
    translate::Translation tr;
    Diagnostics diags;
    if (!translate::translateBody(body, t, costs, tr, diags)) {
      r.error = "the PTX does not translate for " + t.name;
      return r;
    }
    // The target's own sequence is proved like the C++: spelled as C++, its
    // instructions evaluate as their semantics.
    const CxxSite site = cxxFromMir(tr, sn);
    if (!site.error.empty()) {
      r.error = site.error;
      return r;
    }
    if (site.readsCarry || site.exportsCarry) {
      r.error = "the carry flag CC.CF between statements lives in VCC, which one inline asm statement cannot hand "
                "to the next; use --style=builtin";
      return r;
    }
    const SiteProof proof = proveSite(tr, sn, site);
    if (!proof.proved) {
      r.error = "the " + t.name + " sequence is not proved equal to the PTX: " + proof.counterexample;
      return r;
    }
    std::string error;
    const std::string text = variantFor(tr, st, sn, t, error);
    if (!error.empty()) {
      r.error = error;
      return r;
    }
    auto same = std::find_if(variants.begin(), variants.end(), [&](const Variant &v) { return v.text == text; });
    if (same == variants.end())
      variants.push_back({text, {t.name}});
    else
      same->targets.push_back(t.name);
  }
  r.perTarget = variants.size() > 1;
  r.block = "{\n";
  if (!r.perTarget) {
    r.block += indented(variants[0].text, "  ");
  } else {
    for (size_t i = 0; i < variants.size(); ++i) {
      std::string cond;
      for (const std::string &t : variants[i].targets)
        cond += (cond.empty() ? "" : " || ") + std::string("defined(__") + t + "__)";
      r.block += std::string(i ? "#elif " : "#if ") + cond + "\n" + indented(variants[i].text, "  ");
    }
    r.block += "#else\n#error \"port-asm --style=asm: no AMDGPU assembly for this target; port with --style=builtin\"\n"
               "#endif\n";
  }
  r.block += "}";
  return r;
}

} // namespace p2a::port
