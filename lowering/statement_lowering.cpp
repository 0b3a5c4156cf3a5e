// Statements -> machine instructions over virtual registers: rule forms
// through the rule table (vector or scalar rules), special registers, cvta,
// module-variable and aperture addresses.
#include "lowering/cache_maintenance.hpp"
#include "lowering/lowering.hpp"

#include <cassert>

namespace p2a::klower {

namespace {

// A PTX register's vreg width from its declared one (0: undeclared, the
// use's `width`): predicates 1, 64-bit registers 64, anything else 32.
unsigned vregWidth(unsigned declared, unsigned width) {
  return declared == 0 ? width : declared == 64 ? 64 : declared == 1 ? 1 : 32;
}

} // namespace

kernel::UniformValues uniformValuesFor(const kernel::Kernel &k, const targets::TargetInfo &t, const Options &opts,
                                       const kernel::KernelAnalyses &analyses, ScalarRuleAnswers *answers) {
  if (answers)
    answers->known.resize(k.body.size(), -1);
  return kernel::uniformValues(k, [&](const Stmt &st) {
    if (opts.forcedRule)
      return false;
    if (!answers)
      return select::hasMatchingRule(st.inst, t, true);
    const size_t i = static_cast<size_t>(&st - k.body.data());
    signed char &known = answers->known[answers->writtenIndex ? (*answers->writtenIndex)[i] : i];
    if (known < 0)
      known = select::hasMatchingRule(st.inst, t, true) ? 1 : 0;
    return known == 1;
  }, opts.scalarHomeSgprs, kPreloadedParamDwords * 4, analyses);
}

void Lowering::findUniformValues() { uniform_ = uniformValuesFor(k_, t_, opts_, analyses_, scalarRuleAnswers_); }

void Lowering::lowerStatements() {
  before_.reset(k_.body.size());
  after_.reset(k_.body.size());
  // (One LoweredInst per statement: grown by doubling, a big kernel's list
  // was moved at each growth and its capacity up to twice its size.)
  fn_.body.reserve(k_.body.size());
  for (size_t i = 0; i < k_.body.size(); ++i) {
    current_ = i;
    lower(k_.body[i]);
    controlFlow(i);
  }
  if (zeroVgpr_)
    setZeroVgprFirst(*zeroVgpr_);
}

unsigned Lowering::reg(const std::string &name, unsigned width) {
  // (A vreg bound to a name stays bound: select::lowerWith unbinds only
  // the names of vregs made by a rule that failed, none of them reg()'s.)
  const std::optional<unsigned> id = registerIds().find(name);
  if (!id)
    return vregOfDeclared(name, width);
  return numberedReg(*id, name, width);
}

unsigned Lowering::numberedReg(unsigned id, const std::string &name, unsigned width) {
  assert(registerIds().name(id) == name);
  if (vregById_.empty())
    vregById_.assign(registerIds().size(), ~0u);
  unsigned &v = vregById_[id];
  if (v == ~0u) // (the declared width from the arrangement's analyses, not looked up by name)
    v = select::vregFor(fn_, name, vregWidth(analyses_.widths[id], width));
  return v;
}

unsigned Lowering::vregOfDeclared(const std::string &name, unsigned width) {
  return select::vregFor(fn_, name, vregWidth(k_.registerWidth(name), width));
}

unsigned Lowering::newTemp(mir::RegClass cls) {
  fn_.vregs.push_back({cls});
  return static_cast<unsigned>(fn_.vregs.size() - 1);
}

void Lowering::unsupported(const Stmt &s, const std::string &what) {
  error(diags_, s.loc, what + " is not supported by the kernel translation yet");
}

mir::LoweredInst &Lowering::begin() {
  fn_.body.emplace_back(); // (no copy of the PTX: Function::keepsPtx)
  return fn_.body.back();
}

void Lowering::lower(const Stmt &s) {
  switch (s.kind) {
  case Stmt::Kind::Compute: {
    const ptx::Instruction &inst = s.inst;
    // Each register operand's vreg, by its id in the statement's lists of
    // the numbering (in the order forEachWrittenRegister and
    // forEachReadRegister give them: the guard first, then the sources):
    // no name is looked up, here or by the rule's lowering below.
    const llvm::ArrayRef<unsigned> written = registerIds().writes(current_), read = registerIds().reads(current_);
    size_t nextWritten = 0, nextRead = s.guard.empty() ? 0 : 1;
    llvm::SmallVector<unsigned, 2> dstVregs(inst.dsts.size(), ~0u);
    llvm::SmallVector<unsigned, 4> srcVregs(inst.srcs.size(), ~0u);
    for (size_t i = 0; i < inst.dsts.size(); ++i)
      if (inst.dsts[i].isReg())
        dstVregs[i] = numberedReg(written[nextWritten++], inst.dsts[i].reg, inst.form.dstWidth(static_cast<unsigned>(i)));
    for (size_t i = 0; i < inst.srcs.size(); ++i)
      if (inst.srcs[i].isReg())
        srcVregs[i] = numberedReg(read[nextRead++], inst.srcs[i].reg, inst.form.srcWidth(static_cast<unsigned>(i)));
    const select::OperandVregs made{dstVregs, srcVregs};
    if (uniform_.scalarStatements.count(current_))
      return lowerScalar(s);
    if (splitsUniformProduct(s))
      return lowerSplitProduct(s);
    if (!(opts_.forcedRule && select::ruleMatches(*opts_.forcedRule, inst, t_) &&
          select::lowerWith(*opts_.forcedRule, inst, t_, fn_)) &&
        !select::selectAndLower(inst, t_, cost::ruleCostFn(costs_), fn_, diags_, &made)) {
      begin();
      return;
    }
    mergePredicates(s);
    return;
  }
  case Stmt::Kind::ReadSpecial: return lowerSpecial(s);
  case Stmt::Kind::Load:
    if (uniform_.scalarStatements.count(current_))
      return lowerScalarLoad(s);
    lowerMemory(s);
    if (s.ordered) // ld.acquire: the load completes, then the acquire half of a fence (as LLVM's load atomic acquire)
      for (const MInst &mi : acquireHalf(s.scope, t_))
        fn_.body.back().insts.push_back(mi);
    return;
  case Stmt::Kind::Store:
    lowerMemory(s);
    if (s.ordered) { // st.release: everything before completes and is written back, then the store
      std::vector<MInst> &insts = fn_.body.back().insts;
      const std::vector<MInst> release = releaseHalf(s.scope, t_);
      insts.insert(insts.begin(), release.begin(), release.end());
    }
    return;
  case Stmt::Kind::Atomic: return lowerAtomic(s);
  case Stmt::Kind::ArrayLoad:
  case Stmt::Kind::ArrayStore: return lowerArrayAccess(s);
  case Stmt::Kind::WarpShuffle: return lowerWarpShuffle(s);
  case Stmt::Kind::WarpVote: return lowerWarpVote(s);
  case Stmt::Kind::WarpCombine: return lowerWarpCombine(s);
  case Stmt::Kind::Cvta: return lowerCvta(s);
  case Stmt::Kind::Return: begin(); return; // control flow: see controlFlow()
  case Stmt::Kind::Trap: {
    // s_trap is scalar: it would run with no lane active (a guard none
    // passes, or a block entered with an empty mask because it has a barrier).
    mir::LoweredInst &li = begin();
    const std::string skip = ".L" + k_.name + "_trap" + std::to_string(current_);
    li.insts.push_back(branch(amd::Op::S_CBRANCH_EXECZ, skip));
    li.insts.push_back({amd::Op::S_TRAP, noOperand(), {mir::immOperand(2)}});
    li.insts.push_back(labelInst(skip));
    loweringNote_[current_] = "s_trap 2 (LLVM's llvm.trap on AMDHSA): the queue aborts, as CUDA's launch fails";
    return;
  }
  case Stmt::Kind::Nop: begin(); return;
  case Stmt::Kind::AddressOf: {
    if (uniform_.scalarStatements.count(current_))
      return lowerScalarAddress(s);
    mir::LoweredInst &li = begin();
    // A .shared or .local address is the offset in the workgroup's LDS or
    // in the thread's private segment.
    std::optional<unsigned> offset;
    if (auto it = sharedOffset_.find(s.extra().symbol); it != sharedOffset_.end())
      offset = it->second;
    else if (auto lo = localOffset_.find(s.extra().symbol); lo != localOffset_.end())
      offset = lo->second;
    if (const kernel::Param *p = k_.param(s.extra().symbol); !offset && p && s.regWidth == 64) {
      // A parameter's address (CUB and lambdas read a by-value struct
      // through it with ld.param [%rd]): in the kernarg segment.
      const unsigned t = newTemp(mir::RegClass::S64), d = reg(s.extra().dst, 64);
      li.insts.push_back({amd::Op::S_ADD_U32, vregOperand(t, Part::Lo), {mir::sgprs(kKernargPtr), mir::immOperand(p->offset)}});
      li.insts.push_back({amd::Op::S_ADDC_U32, vregOperand(t, Part::Hi), {mir::sgprs(kKernargPtr + 1), mir::immOperand(0)}});
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {vregOperand(t, Part::Lo)}});
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {vregOperand(t, Part::Hi)}});
      loweringNote_[current_] = "a parameter's address: the kernarg segment pointer plus its offset";
      return;
    }
    if (!offset) {
      const kernel::Variable *v = variableNamed(s.extra().symbol);
      if (!v || (v->space != Space::Const && v->space != Space::Global) || s.regWidth != 64)
        return unsupported(s, "taking the address of '" + s.extra().symbol + "'");
      const unsigned d = reg(s.extra().dst, 64), sg = variableAddress(s.extra().symbol);
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {mir::sgprs(sg)}});
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::sgprs(sg + 1)}});
      return;
    }
    const unsigned d = reg(s.extra().dst, s.regWidth);
    if (s.regWidth == 64) {
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {mir::immOperand(*offset)}});
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::immOperand(0)}});
    } else {
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d), {mir::immOperand(*offset)}});
    }
    return;
  }
  case Stmt::Kind::Branch: begin(); return;
  case Stmt::Kind::Barrier:
    if (s.barrierReduce != Stmt::BarrierReduce::None)
      return lowerBarrierReduce(s);
    begin();
    return; // see controlFlow(): waits, then s_barrier
  case Stmt::Kind::WarpSync: begin(); return;  // lanes of a wave are in lockstep (kernel_decoder.cpp)
  case Stmt::Kind::Fence: begin(); return;   // see fence()
  }
}

// bar.red (PTX ISA 9.7.13.1) through one LDS word: set to the reduction's
// identity, a barrier, every active lane adds (ands, ors) its predicate as
// 0 or 1 with an LDS atomic, a barrier, every lane reads the result, and a
// barrier so that the next bar.red's reset waits for the slowest reader.
// Three barriers where CUDA's __syncthreads_count has one: rare code, and
// no wave has to know it is the first.
void Lowering::lowerBarrierReduce(const Stmt &s) {
  mir::LoweredInst &li = begin();
  using R = Stmt::BarrierReduce;
  const MOperand addr = materialise(li, sharedOffset_.at(kernel::kBarrierReduceSlot), false);
  const MOperand zero = mir::immOperand(0);
  li.insts.push_back({amd::Op::DS_WRITE_B32, noOperand(),
                      {addr, materialise(li, s.barrierReduce == R::And ? 1 : 0, false), zero}});
  li.insts.push_back({amd::Op::CTA_BARRIER, noOperand(), {}});
  const unsigned bit = newTemp(mir::RegClass::V32);
  li.insts.push_back({amd::Op::V_CNDMASK_B32, vregOperand(bit),
                      {mir::immOperand(s.srcNegated ? 1 : 0), mir::immOperand(s.srcNegated ? 0 : 1),
                       vregOperand(reg(s.extra().srcs[0].reg, 1))}});
  const amd::Op op = s.barrierReduce == R::Popc  ? amd::Op::DS_ADD_RTN_U32
                     : s.barrierReduce == R::And ? amd::Op::DS_AND_RTN_B32
                                                 : amd::Op::DS_OR_RTN_B32;
  li.insts.push_back({op, noOperand(), {addr, vregOperand(bit), zero}});
  li.insts.push_back({amd::Op::CTA_BARRIER, noOperand(), {}});
  const unsigned result = newTemp(mir::RegClass::V32);
  li.insts.push_back({amd::Op::DS_READ_B32, vregOperand(result), {addr, zero}});
  li.insts.push_back({amd::Op::CTA_BARRIER, noOperand(), {}});
  if (s.barrierReduce == R::Popc)
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(reg(s.extra().dst, 32)), {vregOperand(result)}});
  else
    li.insts.push_back({amd::Op::V_CMP_NE_U32, vregOperand(reg(s.extra().dst, 1)), {zero, vregOperand(result)}});
  loweringNote_[current_] = "bar.red: the barrier three times around an LDS word the lanes reduce into";
  mergePredicates(s);
}

void Lowering::lowerScalar(const Stmt &s) {
  const ptx::Instruction &inst = s.inst;
  const std::string &d = inst.dsts[0].reg;
  // A predicate's home is its own lane mask, which the scalar rule writes
  // whole (EXEC or 0): no copy.
  const bool predicate = inst.form.dstWidth(0) == 1;
  if (predicate)
    fn_.scalarHomes.emplace(d, reg(d, 1));
  bool lowered = false;
  for (const rules::Rule *r : select::candidates(inst, t_, cost::ruleCostFn(costs_), true))
    if ((lowered = select::lowerWith(*r, inst, t_, fn_, true)))
      break;
  if (!lowered) // cannot happen: the analysis asked for a matching scalar rule
    throw std::logic_error("no scalar rule for a uniform " + inst.form.name());
  std::vector<MInst> &insts = fn_.body.back().insts;
  if (predicate) {
    // The branch right after reads SCC itself; if nothing else reads the
    // predicate, its mask (the rule's s_cselect) is never needed.
    if (sccFromCompare(current_ + 1) && predicateReaders(d) == 1 && insts.back().op == amd::Op::S_CSELECT_MASK) {
      insts.pop_back();
      loweringNote_[current_] = "the branch after it tests SCC: no mask is made";
    }
    return;
  }
  copyHomeToVgpr(insts, d, inst.form.dstWidth(0) == 64 ? 64 : 32);
}

void Lowering::copyHomeToVgpr(std::vector<MInst> &insts, const std::string &name, unsigned width) {
  const unsigned v = reg(name, width), home = scalarHome(name, width);
  if (width == 64) {
    insts.push_back({amd::Op::V_MOV_B32, vregOperand(v, Part::Lo), {vregOperand(home, Part::Lo)}});
    insts.push_back({amd::Op::V_MOV_B32, vregOperand(v, Part::Hi), {vregOperand(home, Part::Hi)}});
  } else {
    insts.push_back({amd::Op::V_MOV_B32, vregOperand(v), {vregOperand(home)}});
  }
}

void Lowering::lowerScalarLoad(const Stmt &s) {
  mir::LoweredInst &li = begin();
  const std::string &d = s.extra().values[0].reg;
  const unsigned w = s.elemBits;
  // (A parameter past the preloaded ones: from the kernarg segment.)
  const kernel::Param *param = s.space == Space::Param ? k_.param(s.extra().base) : nullptr;
  const MOperand base = param            ? mir::sgprs(kKernargPtr, 2)
                        : s.baseIsSymbol ? mir::sgprs(variableAddress(s.extra().base), 2)
                                         : homeOf(uniform_.registers.at(s.extra().base));
  const int64_t offset = (param ? int64_t(param->offset) : 0) + s.offset;
  li.insts.push_back({w == 64 ? amd::Op::S_LOAD_B64 : amd::Op::S_LOAD_B32, vregOperand(scalarHome(d, w)),
                      {base, mir::immOperand(static_cast<uint64_t>(offset))}});
  copyHomeToVgpr(li.insts, d, w);
  loweringNote_[current_] = "a uniform address in read-only memory: one scalar load for the wave";
}

void Lowering::lowerScalarAddress(const Stmt &s) {
  mir::LoweredInst &li = begin();
  const unsigned sg = variableAddress(s.extra().symbol), home = scalarHome(s.extra().dst, 64);
  li.insts.push_back({amd::Op::S_MOV_B32, vregOperand(home, Part::Lo), {mir::sgprs(sg)}});
  li.insts.push_back({amd::Op::S_MOV_B32, vregOperand(home, Part::Hi), {mir::sgprs(sg + 1)}});
  copyHomeToVgpr(li.insts, s.extra().dst, 64);
}

bool Lowering::splitsUniformProduct(const Stmt &s) const {
  const ptx::Instruction &inst = s.inst;
  if (!(inst.form == ptx::Form{ptx::Opcode::MadLo, ptx::TypeClass::U, 32}) || !s.guard.empty() || opts_.forcedRule ||
      opts_.scalarHomeSgprs == 0) // (its product has a home of its own)
    return false;
  auto uniform = [&](const ptx::Operand &o) { return !o.isReg() || uniform_.registers.count(o.reg); };
  return (inst.srcs[0].isReg() || inst.srcs[1].isReg()) && uniform(inst.srcs[0]) && uniform(inst.srcs[1]) &&
         !uniform(inst.srcs[2]);
}

void Lowering::lowerSplitProduct(const Stmt &s) {
  const std::string product = "%__uniform_product" + std::to_string(current_);
  ptx::Operand p;
  p.reg = product;
  ptx::Instruction mul = s.inst, add = s.inst;
  mul.form = ptx::Form{ptx::Opcode::MulLo, ptx::TypeClass::U, 32};
  mul.dsts = {p};
  mul.srcs = {s.inst.srcs[0], s.inst.srcs[1]};
  add.form = ptx::Form{ptx::Opcode::Add, ptx::TypeClass::U, 32};
  add.srcs = {p, s.inst.srcs[2]};
  uniform_.registers.emplace(product, kernel::UniformSource{kernel::UniformSource::Kind::Computed, 0, 0, 32, product});
  Stmt scalarPart = s;
  scalarPart.inst = mul;
  reg(product, 32);
  lowerScalar(scalarPart);
  const size_t at = fn_.body.size() - 1;
  if (!select::selectAndLower(add, t_, cost::ruleCostFn(costs_), fn_, diags_))
    return;
  const rules::Rule *addRule = fn_.body.back().rule;
  std::vector<MInst> &insts = fn_.body[at].insts;
  insts.insert(insts.end(), fn_.body.back().insts.begin(), fn_.body.back().insts.end());
  fn_.body.pop_back();
  loweringNote_[current_] = "a and b are uniform: a*b on the scalar ALU (" + fn_.body[at].rule->name + "), then " +
                            addRule->name + " reading it in place";
}

size_t Lowering::predicateReaders(const std::string &p) {
  const kernel::RegisterNumbering &ids = registerIds();
  if (readCounts_.empty()) {
    readCounts_.assign(ids.size(), 0);
    for (size_t i = 0; i < k_.body.size(); ++i)
      for (unsigned r : ids.reads(i))
        ++readCounts_[r];
  }
  const std::optional<unsigned> id = ids.find(p);
  return id ? readCounts_[*id] : 0;
}

unsigned Lowering::scalarHome(const std::string &name, unsigned width) {
  return select::homeFor(fn_, name, width);
}

void Lowering::lowerSpecial(const Stmt &s) {
  mir::LoweredInst &li = begin();
  const MOperand d = vregOperand(reg(s.extra().dst, 32));
  switch (s.special) {
  case Special::Tid:
    if (!t_.packed_work_item_ids)
      li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::vgprs(s.dim)}});
    else if (s.dim == 0)
      li.insts.push_back({amd::Op::V_AND_B32, d, {mir::immOperand(0x3ff), mir::vgprs(0)}});
    else
      li.insts.push_back(
          {amd::Op::V_BFE_U32, d, {mir::vgprs(0), mir::immOperand(10 * s.dim), mir::immOperand(10)}});
    return;
  case Special::Ctaid: li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::sgprs(kWorkgroupId + s.dim)}}); return;
  case Special::Nctaid:
    usesHidden_ = true;
    li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::sgprs(kHiddenSgprs + s.dim)}});
    return;
  case Special::Ntid: {
    // hidden_group_size_x|y share the dword at +12, z is the low half at +16.
    usesHidden_ = true;
    const unsigned sg = kHiddenSgprs + (s.dim == 2 ? 4 : 3);
    if (uniform_.scalarStatements.count(current_)) { // once, on the scalar ALU
      const MOperand home = vregOperand(scalarHome(s.extra().dst, 32));
      if (s.dim == 1)
        li.insts.push_back({amd::Op::S_LSHR_B32, home, {mir::sgprs(sg), mir::immOperand(16)}});
      else
        li.insts.push_back({amd::Op::S_AND_B32, home, {mir::sgprs(sg), mir::immOperand(0xffff)}});
      li.insts.push_back({amd::Op::V_MOV_B32, d, {home}});
      return;
    }
    li.insts.push_back({amd::Op::V_BFE_U32, d,
                        {mir::sgprs(sg), mir::immOperand(s.dim == 1 ? 16 : 0), mir::immOperand(16)}});
    return;
  }
  case Special::WarpSize: li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::immOperand(32)}}); return;
  default: return lowerWarpSpecial(s, li, d);
  }
}

void Lowering::lowerCvta(const Stmt &s) {
  mir::LoweredInst &li = begin();
  const unsigned d = reg(s.extra().dst, 64);
  const bool segment = s.space == Space::Shared || s.space == Space::Local;
  if (!segment && s.space != Space::Global && s.space != Space::Const)
    return unsupported(s, "cvta for the ." + std::string(kernel::spaceName(s.space)) + " space");
  MOperand lo, hi;
  if (!s.extra().symbol.empty()) {
    const std::map<std::string, unsigned> &offsets = s.space == Space::Shared ? sharedOffset_ : localOffset_;
    if (segment) {
      auto it = offsets.find(s.extra().symbol);
      if (it == offsets.end())
        return unsupported(s, "cvta of '" + s.extra().symbol + "', which is not a ." + kernel::spaceName(s.space) + " variable");
      lo = mir::immOperand(it->second);
      hi = mir::immOperand(0);
    } else {
      const kernel::Variable *v = variableNamed(s.extra().symbol);
      if (!v || (v->space != Space::Const && v->space != Space::Global))
        return unsupported(s, "cvta of '" + s.extra().symbol + "'");
      const unsigned sg = variableAddress(s.extra().symbol);
      lo = mir::sgprs(sg);
      hi = mir::sgprs(sg + 1);
    }
  } else {
    const unsigned a = reg(s.extra().srcs[0].reg, 64);
    lo = vregOperand(a, Part::Lo);
    hi = vregOperand(a, Part::Hi);
  }
  if (segment)
    hi = s.toGeneric ? mir::sgprs(apertureAddress(s.space) + 1) : mir::immOperand(0);
  li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {lo}});
  li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {hi}});
}

unsigned Lowering::apertureAddress(Space space) {
  const std::string key = space == Space::Shared ? "src_shared_base" : "src_private_base";
  return globalSgpr_.try_emplace(" " + key, globalBase_ + 2 * static_cast<unsigned>(globalSgpr_.size()))
      .first->second;
}

unsigned Lowering::variableAddress(const std::string &name) {
  auto [it, fresh] = globalSgpr_.try_emplace(name, globalBase_ + 2 * static_cast<unsigned>(globalSgpr_.size()));
  if (fresh)
    emitVariable(name);
  return it->second;
}

void Lowering::emitVariable(const std::string &name) {
  if (!emittedVariables_.insert(name).second)
    return;
  const kernel::Variable &v = *variableNamed(name);
  out_.variables.push_back(v);
  for (const kernel::Variable::Address &a : v.addresses) // what its initializer points to comes along
    emitVariable(a.symbol);
}

const kernel::Variable *Lowering::variableNamed(const std::string &name) {
  if (!variablesByName_)
    variablesByName_.emplace(k_.variables);
  return variablesByName_->find(name);
}

unsigned Lowering::zeroVgpr() {
  if (!zeroVgpr_)
    zeroVgpr_ = select::vregFor(fn_, "%__zero", 32, false, mir::VRegRole::Lowering);
  return *zeroVgpr_;
}

void Lowering::setZeroVgprFirst(unsigned z) {
  if (k_.body.empty())
    return;
  std::vector<MInst> &entry = before_.toWrite(0);
  entry.insert(entry.begin(), MInst{amd::Op::V_MOV_B32, vregOperand(z), {mir::immOperand(0)}});
}

MOperand Lowering::materialise(mir::LoweredInst &li, uint64_t imm, bool wide) {
  const unsigned tmp = newTemp(wide ? mir::RegClass::V64 : mir::RegClass::V32);
  if (wide) {
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp, Part::Lo), {mir::immOperand(imm & 0xffffffffu)}});
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp, Part::Hi), {mir::immOperand(imm >> 32)}});
  } else {
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp), {mir::immOperand(imm & 0xffffffffu)}});
  }
  return vregOperand(tmp);
}

void Lowering::lowerWarpSpecial(const Stmt &s, mir::LoweredInst &li, const MOperand &d) {
  usesHidden_ = true;
  auto temp = [&] { return vregOperand(newTemp(mir::RegClass::V32)); };
  auto groupSize = [&](unsigned dim) { // hidden_group_size_{x,y,z}
    const MOperand t = temp();
    li.insts.push_back({amd::Op::V_BFE_U32, t,
                        {mir::sgprs(kHiddenSgprs + (dim == 2 ? 4 : 3)), mir::immOperand(dim == 1 ? 16 : 0),
                         mir::immOperand(16)}});
    return t;
  };
  if (s.special == Special::Nwarpid) { // (threads in the block + 31) / 32
    const MOperand n = groupSize(0), ny = groupSize(1), nz = groupSize(2), sum = temp();
    li.insts.push_back({amd::Op::V_MUL_LO_U32, n, {n, ny}});
    li.insts.push_back({amd::Op::V_MUL_LO_U32, n, {n, nz}});
    li.insts.push_back({amd::Op::V_ADD_U32, sum, {mir::immOperand(31), n}});
    li.insts.push_back({amd::Op::V_LSHRREV_B32, d, {mir::immOperand(5), sum}});
    return;
  }
  MOperand id[3];
  for (unsigned dim = 0; dim < 3; ++dim) {
    id[dim] = temp();
    if (!t_.packed_work_item_ids)
      li.insts.push_back({amd::Op::V_MOV_B32, id[dim], {mir::vgprs(dim)}});
    else
      li.insts.push_back({amd::Op::V_BFE_U32, id[dim],
                          {mir::vgprs(0), mir::immOperand(10 * dim), mir::immOperand(10)}});
  }
  // linear = (tid.z * ntid.y + tid.y) * ntid.x + tid.x
  const MOperand linear = temp();
  li.insts.push_back({amd::Op::V_MUL_LO_U32, linear, {id[2], groupSize(1)}});
  li.insts.push_back({amd::Op::V_ADD_U32, linear, {linear, id[1]}});
  li.insts.push_back({amd::Op::V_MUL_LO_U32, linear, {linear, groupSize(0)}});
  li.insts.push_back({amd::Op::V_ADD_U32, linear, {linear, id[0]}});
  if (s.special == Special::Warpid) {
    li.insts.push_back({amd::Op::V_LSHRREV_B32, d, {mir::immOperand(5), linear}});
    return;
  }
  const MOperand lane = temp();
  li.insts.push_back({amd::Op::V_AND_B32, lane, {mir::immOperand(31), linear}});
  switch (s.special) {
  case Special::Laneid: li.insts.push_back({amd::Op::V_MOV_B32, d, {lane}}); return;
  // v_bfm_b32: ((1 << S0) - 1) << S1 (Vega ISA 12.7).
  case Special::LanemaskEq: li.insts.push_back({amd::Op::V_BFM_B32, d, {mir::immOperand(1), lane}}); return;
  case Special::LanemaskLt: li.insts.push_back({amd::Op::V_BFM_B32, d, {lane, mir::immOperand(0)}}); return;
  case Special::LanemaskGe: {
    const MOperand lt = temp();
    li.insts.push_back({amd::Op::V_BFM_B32, lt, {lane, mir::immOperand(0)}});
    li.insts.push_back({amd::Op::V_NOT_B32, d, {lt}});
    return;
  }
  default: { // le = lt | eq, gt = ~le
    const MOperand lt = temp(), eq = temp();
    li.insts.push_back({amd::Op::V_BFM_B32, lt, {lane, mir::immOperand(0)}});
    li.insts.push_back({amd::Op::V_BFM_B32, eq, {mir::immOperand(1), lane}});
    if (s.special == Special::LanemaskLe) {
      li.insts.push_back({amd::Op::V_OR_B32, d, {lt, eq}});
    } else {
      li.insts.push_back({amd::Op::V_OR_B32, lt, {lt, eq}});
      li.insts.push_back({amd::Op::V_NOT_B32, d, {lt}});
    }
    return;
  }
  }
}

} // namespace p2a::klower
