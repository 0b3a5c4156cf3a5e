#include "isel/selector.hpp"

#include "targets/target_info.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringMap.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace p2a::select {

using rules::OperandReq;
using rules::Part;
using rules::Ref;
using rules::Rule;
using rules::TOperand;
using sem::BV;

namespace {

// Concrete source values for evaluating constraints and immediate functions:
// immediates as they are, registers as 0 (constraints only read immediates).
std::vector<BV> concreteSources(const ptx::Instruction &inst) {
  std::vector<BV> v;
  for (unsigned i = 0; i < inst.srcs.size(); ++i)
    v.push_back(BV::constant(inst.form.srcWidth(i), inst.srcs[i].isImm() ? inst.srcs[i].imm : 0));
  return v;
}

mir::RegClass classOf(unsigned width, bool scalar = false) {
  if (scalar && width != 1)
    return width == 64 ? mir::RegClass::S64 : mir::RegClass::S32;
  return width == 1 ? mir::RegClass::Mask : width == 64 ? mir::RegClass::V64 : mir::RegClass::V32;
}

unsigned newVreg(mir::Function &fn, mir::RegClass cls) {
  fn.vregs.push_back({cls});
  return static_cast<unsigned>(fn.vregs.size() - 1);
}

// fn.pairsOf brought up to fn.pairs (the lowering appends pairs of its own).
void indexPairs(mir::Function &fn) {
  for (; fn.pairsIndexed < fn.pairs.size(); ++fn.pairsIndexed) {
    const auto &[lo, hi] = fn.pairs[fn.pairsIndexed];
    fn.pairsOf[lo].push_back(static_cast<unsigned>(fn.pairsIndexed));
    if (hi != lo)
      fn.pairsOf[hi].push_back(static_cast<unsigned>(fn.pairsIndexed));
  }
}

// rules::pairConsistent(fn.pairs, lo, hi), from the pairs lo and hi are in:
// every pair naming either must be (lo, hi) itself.
bool pairConsistent(mir::Function &fn, unsigned lo, unsigned hi) {
  if (lo == hi)
    return false;
  indexPairs(fn);
  for (unsigned v : {lo, hi})
    if (auto it = fn.pairsOf.find(v); it != fn.pairsOf.end())
      for (unsigned p : it->second)
        if (fn.pairs[p] != std::make_pair(lo, hi))
          return false;
  return true;
}

// Is (lo, hi) one of fn.pairs already?
bool hasPair(mir::Function &fn, unsigned lo, unsigned hi) {
  indexPairs(fn);
  auto it = fn.pairsOf.find(lo);
  if (it == fn.pairsOf.end())
    return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](unsigned p) { return fn.pairs[p] == std::make_pair(lo, hi); });
}

// Drops the pairs from `size` on, and their index entries (each vreg's
// list is in pair order: theirs are at its end).
void truncatePairs(mir::Function &fn, size_t size) {
  for (size_t p = std::min(fn.pairsIndexed, fn.pairs.size()); p-- > size;)
    for (unsigned v : {fn.pairs[p].first, fn.pairs[p].second}) {
      auto it = fn.pairsOf.find(v);
      while (it != fn.pairsOf.end() && !it->second.empty() && it->second.back() >= size)
        it->second.pop_back();
    }
  fn.pairs.resize(size);
  fn.pairsIndexed = std::min(fn.pairsIndexed, size);
}

} // namespace

unsigned vregFor(mir::Function &fn, const std::string &name, unsigned width, bool scalar, mir::VRegRole role) {
  const auto [it, added] = fn.ptxRegs.try_emplace(name, 0u);
  if (!added)
    return it->second;
  const unsigned v = newVreg(fn, classOf(width, scalar));
  it->second = v;
  fn.setPtxName(v, name);
  fn.vregs[v].role = role;
  return v;
}

unsigned homeFor(mir::Function &fn, const std::string &name, unsigned width) {
  auto it = fn.scalarHomes.find(name);
  if (it != fn.scalarHomes.end())
    return it->second;
  unsigned v = newVreg(fn, classOf(width, true));
  fn.setPtxName(v, name);
  fn.vregs[v].role = mir::VRegRole::ScalarHome;
  fn.scalarHomes[name] = v;
  return v;
}

namespace {

// ruleMatches() for a rule already known to be of the instruction's form;
// `sources` are the instruction's concrete sources, made on first need and
// kept for the next rule.
bool operandsMatch(const Rule &rule, const ptx::Instruction &inst, const targets::TargetInfo &t,
                   std::optional<std::vector<BV>> &sources) {
  if (!rule.servesTarget(t))
    return false;
  for (unsigned i = 0; i < rule.srcReqs.size(); ++i) {
    if (rule.srcReqs[i] == OperandReq::Reg && !inst.srcs[i].isReg())
      return false;
    if (rule.srcReqs[i] == OperandReq::Imm && !inst.srcs[i].isImm())
      return false;
  }
  for (auto [x, y] : rule.sameReg)
    if (!inst.srcs[x].isReg() || !inst.srcs[y].isReg() || inst.srcs[x].reg != inst.srcs[y].reg)
      return false;
  for (auto [x, y] : rule.distinctReg)
    if (inst.srcs[x].isReg() && inst.srcs[y].isReg() && inst.srcs[x].reg == inst.srcs[y].reg)
      return false;
  if (rule.dstDistinctOn(t))
    for (const ptx::Operand &s : inst.srcs)
      if (s.isReg() && !inst.dsts.empty() && inst.dsts[0].isReg() && s.reg == inst.dsts[0].reg)
        return false;
  if (!rule.constraints.empty()) {
    if (!sources)
      sources = concreteSources(inst);
    for (const rules::ValueConstraint &c : rule.constraints)
      if (c.holds(*sources).value() == 0)
        return false;
  }
  return true;
}

} // namespace

bool ruleMatches(const Rule &rule, const ptx::Instruction &inst, const targets::TargetInfo &t) {
  std::optional<std::vector<BV>> sources;
  return rule.form == inst.form && operandsMatch(rule, inst, t, sources);
}

namespace {

// What operandsMatch reads of an instruction, as a key: the target, the
// unit, the form, each operand's kind, an immediate's bits, and which
// operands name the same register (by first occurrence). (Built in place:
// a key per costing of a statement, millions on a big module.)
using MatchKey = llvm::SmallString<64>;
void matchKey(const ptx::Instruction &inst, const targets::TargetInfo &t, bool scalar, MatchKey &key) {
  auto put = [&key](uint64_t v, size_t bytes) { // (low byte first, whatever the host's order)
    char b[8];
    for (size_t i = 0; i < bytes; ++i)
      b[i] = static_cast<char>((v >> (8 * i)) & 0xff);
    key.append(b, b + bytes); // (one capacity check, not one a byte)
  };
  key.append(t.name);
  key.push_back('\0'); // (targets are made by name: targets/target_info.cpp)
  put(scalar, 1);
  // (The form by its packed fields where it has them: finer than its id,
  // which a thread's table looks up from them, and the same answers.)
  if (const std::optional<uint64_t> packed = inst.form.packed()) {
    put(1, 1);
    put(*packed, 8);
  } else {
    put(0, 1);
    put(inst.form.id(), 4);
  }
  llvm::SmallVector<const std::string *, 4> names;
  auto operand = [&](const ptx::Operand &o) {
    put(static_cast<uint64_t>(o.kind), 1);
    if (o.isImm()) {
      put(o.imm, 8);
    } else if (o.isReg()) {
      size_t i = 0;
      while (i < names.size() && *names[i] != o.reg)
        ++i;
      if (i == names.size())
        names.push_back(&o.reg.str());
      put(i, 2);
    }
  };
  if (!inst.dsts.empty())
    operand(inst.dsts[0]);
  for (const ptx::Operand &o : inst.srcs)
    operand(o);
}

// The rules of the instruction's form and unit that its operands meet on
// `t`, in table order: one answer per distinct key, kept per thread (the
// same shapes recur across a module's statements and the passes that cost
// them).
const std::vector<const Rule *> &matchingRules(const ptx::Instruction &inst, const targets::TargetInfo &t,
                                               bool scalar) {
  thread_local llvm::StringMap<std::vector<const Rule *>> memo;
  constexpr size_t kMemoLimit = 1 << 16; // (a bound on the memory a long batch keeps)
  MatchKey key;
  matchKey(inst, t, scalar, key);
  if (auto it = memo.find(key); it != memo.end())
    return it->second;
  if (memo.size() >= kMemoLimit)
    memo.clear();
  std::vector<const Rule *> found;
  std::optional<std::vector<BV>> sources;
  for (const Rule *r : rules::rulesForForm(inst.form)) // (all of the instruction's form)
    if (r->scalar == scalar && operandsMatch(*r, inst, t, sources))
      found.push_back(r);
  return memo.try_emplace(key, std::move(found)).first->second;
}

} // namespace

std::vector<const Rule *> candidates(const ptx::Instruction &inst, const targets::TargetInfo &t,
                                     const RuleCostFn &cost, bool scalar) {
  std::vector<std::pair<double, const Rule *>> found;
  for (const Rule *r : matchingRules(inst, t, scalar))
    found.push_back({cost(*r, t), r});
  std::stable_sort(found.begin(), found.end(), [](const auto &a, const auto &b) {
    if (a.first != b.first)
      return a.first < b.first;
    return a.second->priority > b.second->priority;
  });
  std::vector<const Rule *> out;
  for (auto &f : found)
    out.push_back(f.second);
  return out;
}

bool hasMatchingRule(const ptx::Instruction &inst, const targets::TargetInfo &t, bool scalar) {
  return !matchingRules(inst, t, scalar).empty();
}

std::optional<double> lowestCost(const ptx::Instruction &inst, const targets::TargetInfo &t, const RuleCostFn &cost,
                                 bool scalar) {
  std::optional<double> lowest;
  for (const Rule *r : matchingRules(inst, t, scalar))
    if (const double c = cost(*r, t); !lowest || c < *lowest)
      lowest = c;
  return lowest;
}

namespace {

// Resolves template refs of one rule instance to machine operands.
struct Binder {
  const Rule &rule;
  const ptx::Instruction &inst;
  mir::Function &fn;
  bool toScalarHomes;
  const OperandVregs *known;
  // (In place: a Binder is made for every statement lowered.)
  llvm::SmallVector<unsigned, 4> temps;
  llvm::SmallVector<unsigned, 2> dstVregs;

  // `made`: the operand's vreg where the caller made it (vregFor's, which
  // a scalar rule's register is too unless it goes to its scalar home).
  unsigned regVreg(const std::string &name, unsigned width, unsigned made = ~0u) {
    return rule.scalar && toScalarHomes ? homeFor(fn, name, width)
           : made != ~0u                 ? made
           : rule.scalar                 ? vregFor(fn, name, width, true)
                                         : vregFor(fn, name, width);
  }
  unsigned madeSrc(size_t i) const { return known && i < known->srcs.size() ? known->srcs[i] : ~0u; }
  unsigned madeDst(size_t i) const { return known && i < known->dsts.size() ? known->dsts[i] : ~0u; }

  mir::MOperand imm(uint64_t v) {
    mir::MOperand o;
    o.kind = mir::MOperand::Kind::Imm;
    o.imm = v;
    return o;
  }

  // A rule's reference to its own destination or temporary (checked: a
  // rule that names one it does not have is a bug in the table).
  static unsigned nth(llvm::ArrayRef<unsigned> vregs, unsigned i) {
    if (i >= vregs.size())
      throw std::out_of_range("a rule names a destination or temporary it does not have");
    return vregs[i];
  }

  mir::MOperand ref(const Ref &r) {
    mir::MOperand o;
    switch (r.kind) {
    case Ref::Kind::Dst:
      o.kind = mir::MOperand::Kind::VReg;
      o.vreg = nth(dstVregs, r.index);
      o.part = r.part;
      return o;
    case Ref::Kind::Temp:
      o.kind = mir::MOperand::Kind::VReg;
      o.vreg = nth(temps, r.index);
      o.part = r.part;
      return o;
    case Ref::Kind::Src: {
      const ptx::Operand &s = inst.srcs.at(r.index);
      const unsigned w = inst.form.srcWidth(r.index);
      if (s.isImm()) {
        uint64_t v = s.imm;
        if (r.part == Part::Lo)
          v &= 0xffffffffu;
        else if (r.part == Part::Hi)
          v >>= 32;
        return imm(v);
      }
      o.kind = mir::MOperand::Kind::VReg;
      o.vreg = regVreg(s.reg, w, madeSrc(r.index));
      o.part = r.part;
      // A 64-bit register read as a narrower source (PTX's chopping,
      // ptx::typeRegisters): its low half.
      if (w <= 32 && r.part == Part::Whole && mir::registerCount(fn.vregs[o.vreg].cls, 64) == 2 &&
          fn.vregs[o.vreg].cls != mir::RegClass::Mask)
        o.part = Part::Lo;
      return o;
    }
    case Ref::Kind::Imm: return imm(r.imm);
    case Ref::Kind::ImmFn: {
      std::vector<BV> s = concreteSources(inst);
      return imm(rule.immFns.at(r.index).value(s).value());
    }
    case Ref::Kind::Vcc: o.kind = mir::MOperand::Kind::Vcc; return o;
    case Ref::Kind::Exec: o.kind = mir::MOperand::Kind::Exec; return o;
    case Ref::Kind::Scc: o.kind = mir::MOperand::Kind::Scc; return o;
    case Ref::Kind::None: break;
    }
    throw std::logic_error("rule " + rule.name + ": unresolved operand");
  }

  mir::MOperand operand(const TOperand &t) {
    if (!t.isPair())
      return ref(t.lo);
    mir::MOperand lo = ref(t.lo), hi = ref(*t.hi);
    mir::MOperand o;
    o.kind = mir::MOperand::Kind::Pair;
    o.vreg = lo.vreg;
    o.vregHi = hi.vreg;
    return o;
  }
};

mir::MOperand imm32(uint64_t v) { return mir::immOperand(v & 0xffffffffu); }

bool isInline32(uint64_t v) { return amd::isInlineConstant(static_cast<int32_t>(static_cast<uint32_t>(v))); }
bool isInline64(uint64_t v) { return amd::isInlineConstant(static_cast<int64_t>(v)); }

// Make every immediate encodable: inline constants stay; a literal stays only
// where the encoding allows one (one literal value per instruction); others
// move to a VGPR first. VOP2's src1 must be a VGPR, so a commutative op swaps.
// `moved` (one rule's sequence) holds the VGPRs literals were moved into:
// the same literal again reads the same VGPR (nothing else writes it, and
// the sequence is straight-line), so a rule that subtracts a constant
// divisor 64 times moves it once instead of taking 64 VGPRs.
void legalize(mir::MInst mi, const targets::TargetInfo &t, mir::Function &fn, std::vector<mir::MInst> &out,
              std::map<uint64_t, unsigned> *moved = nullptr) {
  const amd::OpDef &def = amd::opDef(mi.op);
  // SDWA and VOPD have fixed encodings: any constant goes to a register.
  const bool fixedEncoding = mi.op == amd::Op::V_LSHRREV_B32_SDWA_W0 || mi.op == amd::Op::V_DUAL_CNDMASK_PAIR;
  // A scalar op takes one 32-bit literal (Vega ISA 12.2 SOP2); another is
  // moved into an SGPR first, as is a 64-bit source that is not inline.
  if (amd::isScalarValueOp(mi.op)) {
    std::optional<uint64_t> literal;
    for (unsigned i = 0; i < mi.srcs.size(); ++i) {
      mir::MOperand &o = mi.srcs[i];
      if (o.kind != mir::MOperand::Kind::Imm)
        continue;
      const bool wide = def.srcs[i] == amd::Slot::V64;
      if (wide ? isInline64(o.imm) : isInline32(o.imm))
        continue;
      if (!wide && (!literal || *literal == o.imm)) {
        literal = o.imm;
        continue;
      }
      const unsigned v = newVreg(fn, wide ? mir::RegClass::S64 : mir::RegClass::S32);
      if (wide) {
        out.push_back({amd::Op::S_MOV_B32, mir::vregOperand(v, Part::Lo), {imm32(o.imm)}});
        out.push_back({amd::Op::S_MOV_B32, mir::vregOperand(v, Part::Hi), {imm32(o.imm >> 32)}});
      } else {
        out.push_back({amd::Op::S_MOV_B32, mir::vregOperand(v, Part::Whole), {o}});
      }
      o = mir::vregOperand(v, Part::Whole);
    }
    out.push_back(std::move(mi));
    return;
  }
  auto isLiteral = [&](const mir::MOperand &o, unsigned idx) {
    if (o.kind != mir::MOperand::Kind::Imm)
      return false;
    if (fixedEncoding)
      return mi.op != amd::Op::V_DUAL_CNDMASK_PAIR || idx == 1; // VOPD's src0 takes inline constants
    return def.srcs[idx] == amd::Slot::V64 ? !isInline64(o.imm) : !isInline32(o.imm);
  };
  if (def.commutative && mi.srcs.size() >= 2 && isLiteral(mi.srcs[1], 1) && !isLiteral(mi.srcs[0], 0) &&
      mi.srcs[0].kind != mir::MOperand::Kind::Imm)
    std::swap(mi.srcs[0], mi.srcs[1]);
  // A constant in src1 of a VOP2/VOPC op (even an inline one) forces the VOP3
  // encoding, and then VOP3's literal rules apply to every operand.
  // So does a compare writing an SGPR mask rather than VCC (VOPC's only
  // destination is VCC).
  const bool promotedToVop3 =
      !fixedEncoding &&
      (((def.encoding == amd::Encoding::VOP2 || def.encoding == amd::Encoding::VOPC) && mi.srcs.size() >= 2 &&
        mi.srcs[1].kind == mir::MOperand::Kind::Imm) ||
       (def.encoding == amd::Encoding::VOPC && mi.dst.kind != mir::MOperand::Kind::Vcc));
  std::optional<uint64_t> literal;
  for (unsigned i = 0; i < mi.srcs.size(); ++i) {
    mir::MOperand &o = mi.srcs[i];
    if (!isLiteral(o, i))
      continue;
    const bool allowed = promotedToVop3 ? t.has_literal_in_vop3 && def.srcs[i] == amd::Slot::V32
                                        : amd::literalAllowed(mi.op, i, t);
    if (allowed && (!literal || *literal == o.imm) && (def.srcs[i] != amd::Slot::V64 || o.imm <= 0xffffffffull)) {
      literal = o.imm;
      continue;
    }
    if (def.srcs[i] == amd::Slot::V64) {
      unsigned v = newVreg(fn, mir::RegClass::V64);
      mir::MOperand lo = mir::vregOperand(v, Part::Lo);
      mir::MOperand hi = mir::vregOperand(v, Part::Hi);
      legalize({amd::Op::V_MOV_B32, lo, {mir::immOperand(o.imm & 0xffffffffu)}}, t, fn, out);
      legalize({amd::Op::V_MOV_B32, hi, {mir::immOperand(o.imm >> 32)}}, t, fn, out);
      o = mir::vregOperand(v, Part::Whole);
    } else if (moved && moved->count(o.imm)) {
      o = mir::vregOperand(moved->at(o.imm), Part::Whole);
    } else {
      unsigned v = newVreg(fn, mir::RegClass::V32);
      mir::MOperand dst = mir::vregOperand(v, Part::Whole);
      out.push_back({amd::Op::V_MOV_B32, dst, {o}});
      if (moved)
        moved->emplace(o.imm, v);
      o = dst;
    }
  }
  out.push_back(std::move(mi));
}

} // namespace

bool lowerWith(const Rule &rule, const ptx::Instruction &inst, const targets::TargetInfo &t, mir::Function &fn,
               bool toScalarHomes, const OperandVregs *known) {
  // Lowered in place, and undone if the rule's register pairs conflict with
  // those already required: new vregs, pairs and PTX register bindings are
  // only ever appended, so a checkpoint of their sizes is enough. (Copying
  // the function per attempt made translation quadratic in its length.)
  mir::Function &trial = fn;
  const size_t vregsBefore = fn.vregs.size(), pairsBefore = fn.pairs.size();
  auto rollback = [&] {
    // The bindings made since the checkpoint are those of its new vregs
    // (vregFor and homeFor bind a new vreg's own PTX name): found by name,
    // not by a walk of every binding the kernel has.
    for (unsigned v = static_cast<unsigned>(vregsBefore); v < fn.vregs.size(); ++v) {
      const std::string &name = fn.ptxName(v);
      if (name.empty())
        continue;
      if (auto it = fn.ptxRegs.find(name); it != fn.ptxRegs.end() && it->second == v)
        fn.ptxRegs.erase(it);
      if (auto it = fn.scalarHomes.find(name); it != fn.scalarHomes.end() && it->second == v)
        fn.scalarHomes.erase(it);
    }
    fn.vregs.resize(vregsBefore);
    truncatePairs(fn, pairsBefore);
    return false;
  };
  Binder b{rule, inst, trial, toScalarHomes, known, {}, {}};
  for (unsigned i = 0; i < inst.dsts.size(); ++i) {
    const ptx::Operand &d = inst.dsts[i];
    const unsigned w = inst.form.dstWidth(i);
    if (d.kind == ptx::Operand::Kind::Sink)
      b.dstVregs.push_back(newVreg(trial, classOf(w, rule.scalar)));
    else
      b.dstVregs.push_back(b.regVreg(d.reg, w, b.madeDst(i)));
  }
  for (rules::TempKind k : rule.temps)
    b.temps.push_back(newVreg(trial, k == rules::TempKind::V64    ? mir::RegClass::V64
                                     : k == rules::TempKind::Mask ? mir::RegClass::Mask
                                     : k == rules::TempKind::S32  ? mir::RegClass::S32
                                                                  : mir::RegClass::V32));
  mir::LoweredInst lowered;
  lowered.insts.reserve(rule.seq.size()); // (legalize may add a few literal moves)
  if (fn.keepsPtx)
    lowered.ptx = std::make_shared<const ptx::Instruction>(inst);
  lowered.rule = &rule;
  std::map<uint64_t, unsigned> movedLiterals;
  for (const rules::TInst &ti : rule.seq) {
    mir::MInst mi{ti.op, b.operand(ti.dst), {}};
    mi.srcs.reserve(ti.srcs.size());
    for (const TOperand &s : ti.srcs)
      mi.srcs.push_back(b.operand(s));
    // (The destination, then the sources; no list of them made per instruction.)
    for (size_t k = 0; k <= mi.srcs.size(); ++k) {
      const mir::MOperand *o = k == 0 ? &mi.dst : &mi.srcs[k - 1];
      if (o->kind != mir::MOperand::Kind::Pair)
        continue;
      if (o->vreg >= trial.vregs.size() || trial.vregs[o->vreg].cls != mir::RegClass::V32 ||
          trial.vregs[o->vregHi].cls != mir::RegClass::V32)
        return rollback(); // an immediate or a wide register cannot be half of a pair
      if (!pairConsistent(trial, o->vreg, o->vregHi))
        return rollback();
      if (!hasPair(trial, o->vreg, o->vregHi))
        trial.pairs.push_back({o->vreg, o->vregHi});
    }
    legalize(std::move(mi), t, trial, lowered.insts, &movedLiterals);
  }
  if (!rule.scalar && !rule.dstDistinctOn(t) && !inst.dsts.empty() && inst.dsts[0].isReg()) {
    const unsigned d = b.dstVregs[0];
    for (size_t i = 0; i < inst.srcs.size(); ++i) {
      const ptx::Operand &s = inst.srcs[i];
      if (!s.isReg() || inst.form.srcWidth(static_cast<unsigned>(i)) != inst.form.dstWidth(0))
        continue;
      // (Looked up, not made: a source the template does not read gets no vreg here.)
      unsigned v = b.madeSrc(i);
      if (v == ~0u)
        if (auto it = trial.ptxRegs.find(s.reg.str()); it != trial.ptxRegs.end())
          v = it->second;
      if (v != ~0u && v != d && trial.vregs[v].cls == trial.vregs[d].cls)
        lowered.aliasSrcs.push_back(v);
    }
    if (!lowered.aliasSrcs.empty())
      lowered.aliasDst = d;
  }
  trial.body.push_back(std::move(lowered));
  return true;
}

bool selectAndLower(const ptx::Instruction &inst, const targets::TargetInfo &t, const RuleCostFn &cost,
                    mir::Function &fn, Diagnostics &diags, const OperandVregs *known) {
  std::vector<const Rule *> cands = candidates(inst, t, cost);
  for (const Rule *r : cands)
    if (lowerWith(*r, inst, t, fn, false, known))
      return true;
  error(diags, inst.loc,
        cands.empty() ? "no rule translates '" + inst.form.name() + "' with these operands on " + t.name
                      : "no rule for '" + inst.form.name() + "' fits the register pairs already required on " + t.name);
  return false;
}

} // namespace p2a::select
