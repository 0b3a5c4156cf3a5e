#include "lowering/kernel_lowering.hpp"

#include "targets/mc_backend.hpp"
#include "targets/alu_delay.hpp"
#include "targets/memory_model.hpp"
#include "targets/target_info.hpp"
#include "targets/wait_states.hpp"
#include "kernel/analysis/address_spaces.hpp"
#include "kernel/analysis/control_flow_graph.hpp"
#include "kernel/analysis/uniform_values.hpp"
#include "kernel/transforms/constant_operands.hpp"
#include "isel/cost_model.hpp"
#include "kernel/transforms/instruction_fusion.hpp"
#include "isel/printer.hpp"
#include "isel/regalloc.hpp"
#include "isel/selector.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <set>

namespace p2a::klower {

using kernel::Space;
using kernel::Special;
using kernel::Stmt;
using mir::MInst;
using mir::MOperand;
using rules::Part;

namespace {

// The fixed SGPR layout (see the header): kernarg pointer, workgroup IDs,
// the hidden-argument block, then the explicit arguments.
constexpr unsigned kKernargPtr = 0;
constexpr unsigned kWorkgroupId = 2;
constexpr unsigned kHiddenSgprs = 8;  // s[8:15]: block counts, group sizes
constexpr unsigned kParamSgprs = 16;  // s16...: the explicit arguments, dword by dword
const std::string kScalarPrefix = "s:"; // names the SGPR vreg of a uniform register's value
constexpr unsigned kMaxParamDwords = 64;
constexpr unsigned kHeaderLines = 2; // moduleHeader()'s lines

unsigned alignUp(unsigned v, unsigned a) { return (v + a - 1) / a * a; }

// Whether LLVM's metadata reader takes a scalar for a string: its YAML
// reader types scalars by their spelling even when quoted, so `n`, `yes`,
// `off`, `null` or `12` become booleans, nulls or numbers and the metadata is
// rejected. Such an argument name is left out (names are optional).
bool readsAsString(const std::string &v) {
  std::string l;
  for (char c : v)
    l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const char *special[] = {"y", "n", "yes", "no", "true", "false", "on", "off", "null", "~", ""};
  for (const char *x : special)
    if (l == x)
      return false;
  return !std::isdigit(static_cast<unsigned char>(l[0])) && l[0] != '-' && l[0] != '+' && l[0] != '.';
}

MOperand vregOperand(unsigned v, Part part = Part::Whole) {
  MOperand o;
  o.kind = MOperand::Kind::VReg;
  o.vreg = v;
  o.part = part;
  return o;
}

MOperand noOperand() {
  MOperand o;
  o.kind = MOperand::Kind::None;
  return o;
}

class Lowering {
public:
  Lowering(const kernel::Kernel &k, const targets::TargetInfo &t, cost::CostModel &costs, KernelTranslation &out,
           Diagnostics &diags, const Options &opts)
      : k_(k), t_(t), costs_(costs), out_(out), diags_(diags), opts_(opts), fn_(out.function) {}

  bool run() {
    out_.name = k_.name;
    out_.target = t_.name;
    const size_t before = diags_.size();
    const unsigned paramDwords = alignUp(k_.paramBytes, 4) / 4;
    if (paramDwords > kMaxParamDwords) {
      error(diags_, k_.loc,
            "kernel '" + k_.name + "' has " + std::to_string(k_.paramBytes) + " bytes of parameters; at most " +
                std::to_string(kMaxParamDwords * 4) + " are supported");
      return false;
    }
    // .shared variables form the group segment (LDS), .local ones each
    // thread's private segment (scratch), laid out as the interpreter does.
    const kernel::SegmentLayout group = kernel::layoutSegment(k_, Space::Shared);
    const kernel::SegmentLayout priv = kernel::layoutSegment(k_, Space::Local);
    sharedOffset_ = group.offset;
    groupBytes_ = group.bytes;
    localOffset_ = priv.offset;
    privateBytes_ = priv.bytes;
    out_.hiddenArgsOffset = alignUp(k_.paramBytes, 8);
    out_.groupBytes = groupBytes_;
    out_.privateBytes = privateBytes_;
    globalBase_ = kParamSgprs + alignUp(paramDwords, 2);
    out_.kernargBytes = out_.hiddenArgsOffset + kHiddenArgsBytes;
    // Generic addresses are global ones unless the kernel makes generic
    // pointers into shared or local memory; then generic accesses are FLAT
    // instructions, which the apertures route.
    for (const Stmt &st : k_.body)
      genericReachesSegments_ |= st.kind == Stmt::Kind::Cvta && st.toGeneric &&
                                 (st.space == Space::Shared || st.space == Space::Local);
    pointerSpaces_ = kernel::pointerSpaces(k_);


    buildBlocks();
    uniform_ = kernel::uniformValues(k_, [&](const Stmt &st) {
      return !opts_.forcedRule && !select::candidates(st.inst, t_, cost::ruleCostFn(costs_), true).empty();
    }, opts_.scalarHomeSgprs);
    before_.assign(k_.body.size(), {});
    after_.assign(k_.body.size(), {});
    for (size_t i = 0; i < k_.body.size(); ++i) {
      current_ = i;
      lower(k_.body[i]);
      controlFlow(i);
    }
    // On a lowering error what did lower is still assigned registers and
    // printed (the report shows it beside the error), but the caller gets false.
    const bool lowered = diags_.size() == before;
    if (zeroVgpr_ && !k_.body.empty())
      before_[0].insert(before_[0].begin(), inst(amd::Op::V_MOV_B32, vregOperand(*zeroVgpr_), {mir::immOperand(0)}));
    readUniformsInPlace();

    // Keep v0 (packed IDs) or v0..v2 free, and the ABI SGPRs below the masks.
    const unsigned firstVgpr = t_.packed_work_item_ids ? 2 : 4;
    const unsigned firstSgpr = kParamSgprs + alignUp(paramDwords, 2) + 2 * static_cast<unsigned>(globalSgpr_.size());
    const regalloc::LiveIntervals live = liveIntervals();
    out_.allocation = regalloc::allocate(fn_, t_, firstVgpr, firstSgpr, &live);
    out_.numVgprs = out_.allocation.numVgprs;
    out_.numSgprs = out_.allocation.numSgprs;
    if (out_.numVgprs > 256 || out_.numSgprs > 100) {
      outOfSgprsWithHomes_ = out_.numSgprs > 100 && !uniform_.scalarStatements.empty();
      error(diags_, k_.loc,
            "kernel '" + k_.name + "' needs " + std::to_string(out_.numVgprs) + " VGPRs and " +
                std::to_string(out_.numSgprs) + " SGPRs at its peak register pressure, more than " + t_.name +
                " offers (256/100); spilling to scratch is not implemented yet");
      return false;
    }
    for (unsigned v = 0; v < fn_.vregs.size(); ++v) {
      const std::string &name = fn_.vregs[v].ptxName;
      if (name.empty() || name.rfind(kScalarPrefix, 0) == 0)
        continue;
      std::string where;
      if (auto it = inPlace_.find(v); it != inPlace_.end())
        where = it->second.kind == MOperand::Kind::Phys ? sgprText(it->second)
                                                        : printer::physName(it->second.vreg, fn_, out_.allocation, t_);
      else
        where = printer::physName(v, fn_, out_.allocation, t_);
      out_.registers.push_back({name, where});
    }

    emitPrologue(paramDwords);
    emitBody();
    assemble();
    return lowered && diags_.size() == before;
  }

  // Did the kernel run out of SGPRs while uniform values had homes of their own?
  bool outOfSgprsWithHomes() const { return outOfSgprsWithHomes_; }

private:
  // ---- lowering of statements into machine instructions over vregs ----

  // The vreg of a PTX register, created at first use with its declared width
  // (declared but unused registers -- nvcc declares %r<N> generously -- get none).
  unsigned reg(const std::string &name, unsigned width) {
    auto it = k_.registers.find(name);
    if (it != k_.registers.end())
      width = it->second.width == 64 ? 64 : it->second.width == 1 ? 1 : 32;
    return select::vregFor(fn_, name, width);
  }

  unsigned newTemp(mir::RegClass cls) {
    fn_.vregs.push_back({cls, ""});
    return static_cast<unsigned>(fn_.vregs.size() - 1);
  }

  void unsupported(const Stmt &s, const std::string &what) {
    error(diags_, s.loc, what + " is not supported by the kernel translation yet");
  }

  mir::LoweredInst &begin(const Stmt &s) {
    mir::LoweredInst li;
    li.ptx.loc = s.loc;
    li.ptx.text = s.text;
    fn_.body.push_back(std::move(li));
    return fn_.body.back();
  }

  void lower(const Stmt &s) {
    switch (s.kind) {
    case Stmt::Kind::Compute: {
      const ptx::Instruction &inst = s.inst;
      for (size_t i = 0; i < inst.dsts.size(); ++i)
        if (inst.dsts[i].isReg())
          reg(inst.dsts[i].reg, inst.form.dstWidth(static_cast<unsigned>(i)));
      for (size_t i = 0; i < inst.srcs.size(); ++i)
        if (inst.srcs[i].isReg())
          reg(inst.srcs[i].reg, inst.form.srcWidth(static_cast<unsigned>(i)));
      if (uniform_.scalarStatements.count(current_))
        return lowerScalar(s);
      if (splitsUniformProduct(s))
        return lowerSplitProduct(s);
      if (!(opts_.forcedRule && select::ruleMatches(*opts_.forcedRule, inst, t_) &&
            select::lowerWith(*opts_.forcedRule, inst, t_, fn_)) &&
          !select::selectAndLower(inst, t_, cost::ruleCostFn(costs_), fn_, diags_)) {
        begin(s);
        return;
      }
      mergePredicates(s);
      return;
    }
    case Stmt::Kind::ReadSpecial: return lowerSpecial(s);
    case Stmt::Kind::Load:
      if (uniform_.scalarStatements.count(current_))
        return lowerScalarLoad(s);
      return lowerMemory(s);
    case Stmt::Kind::Store: return lowerMemory(s);
    case Stmt::Kind::Cvta: return lowerCvta(s);
    case Stmt::Kind::Return: begin(s); return; // control flow: see controlFlow()
    case Stmt::Kind::Nop: begin(s); return;
    case Stmt::Kind::AddressOf: {
      if (uniform_.scalarStatements.count(current_))
        return lowerScalarAddress(s);
      mir::LoweredInst &li = begin(s);
      // A .shared or .local address is the offset in the workgroup's LDS or
      // in the thread's private segment.
      std::optional<unsigned> offset;
      if (auto it = sharedOffset_.find(s.symbol); it != sharedOffset_.end())
        offset = it->second;
      else if (auto lo = localOffset_.find(s.symbol); lo != localOffset_.end())
        offset = lo->second;
      if (!offset) {
        const kernel::Variable *v = k_.variable(s.symbol);
        if (!v || (v->space != Space::Const && v->space != Space::Global) || s.regWidth != 64)
          return unsupported(s, "taking the address of '" + s.symbol + "'");
        const unsigned d = reg(s.dst, 64), sg = variableAddress(s.symbol);
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {mir::physReg(true, sg)}});
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::physReg(true, sg + 1)}});
        return;
      }
      const unsigned d = reg(s.dst, s.regWidth);
      if (s.regWidth == 64) {
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {mir::immOperand(*offset)}});
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::immOperand(0)}});
      } else {
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d), {mir::immOperand(*offset)}});
      }
      return;
    }
    case Stmt::Kind::Branch: begin(s); return;
    case Stmt::Kind::Barrier: begin(s); return; // see controlFlow(): waits, then s_barrier
    case Stmt::Kind::Fence: begin(s); return;   // see fence()
    }
  }

  // A uniform value computed once by the scalar ALU (uniform_values.hpp)
  // into its SGPR home, then copied into its VGPR; readUniformsInPlace()
  // later points readers at the home and drops the copy where none is left.
  void lowerScalar(const Stmt &s) {
    const ptx::Instruction &inst = s.inst;
    const std::string &d = inst.dsts[0].reg;
    // A predicate's home is its own lane mask, which the scalar rule writes
    // whole (EXEC or 0): no copy.
    const bool predicate = inst.form.dstWidth(0) == 1;
    if (predicate)
      fn_.ptxRegs.emplace(kScalarPrefix + d, reg(d, 1));
    bool lowered = false;
    for (const rules::Rule *r : select::candidates(inst, t_, cost::ruleCostFn(costs_), true))
      if ((lowered = select::lowerWith(*r, inst, t_, fn_, kScalarPrefix)))
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

  // A uniform register's home, then its VGPR copy of it (for readers that
  // cannot take the SGPR; readUniformsInPlace() drops what none reads).
  void copyHomeToVgpr(std::vector<MInst> &insts, const std::string &name, unsigned width) {
    const unsigned v = reg(name, width), home = scalarHome(name, width);
    if (width == 64) {
      insts.push_back({amd::Op::V_MOV_B32, vregOperand(v, Part::Lo), {vregOperand(home, Part::Lo)}});
      insts.push_back({amd::Op::V_MOV_B32, vregOperand(v, Part::Hi), {vregOperand(home, Part::Hi)}});
    } else {
      insts.push_back({amd::Op::V_MOV_B32, vregOperand(v), {vregOperand(home)}});
    }
  }

  // A uniform load (uniform_values.hpp): s_load into the register's home,
  // from a module variable's SGPR pair or the base register's home. The
  // waits treat it as any SMEM load (lgkmcnt / kmcnt, out of order).
  void lowerScalarLoad(const Stmt &s) {
    mir::LoweredInst &li = begin(s);
    const std::string &d = s.values[0].reg;
    const unsigned w = s.elemBits;
    const MOperand base = s.baseIsSymbol ? mir::physReg(true, variableAddress(s.base), 2)
                                         : homeOf(uniform_.registers.at(s.base));
    li.insts.push_back({w == 64 ? amd::Op::S_LOAD_B64 : amd::Op::S_LOAD_B32, vregOperand(scalarHome(d, w)),
                        {base, mir::immOperand(static_cast<uint64_t>(s.offset))}});
    copyHomeToVgpr(li.insts, d, w);
    loweringNote_[current_] = "a uniform address in read-only memory: one scalar load for the wave";
  }

  // The address of a module variable into a changing uniform register's home.
  void lowerScalarAddress(const Stmt &s) {
    mir::LoweredInst &li = begin(s);
    const unsigned sg = variableAddress(s.symbol), home = scalarHome(s.dst, 64);
    li.insts.push_back({amd::Op::S_MOV_B32, vregOperand(home, Part::Lo), {mir::physReg(true, sg)}});
    li.insts.push_back({amd::Op::S_MOV_B32, vregOperand(home, Part::Hi), {mir::physReg(true, sg + 1)}});
    copyHomeToVgpr(li.insts, s.dst, 64);
  }

  // mad.lo.u32 d, a, b, c with a and b uniform and c not -- nvcc's
  // %ctaid * %ntid + %tid in nearly every kernel -- is the uniform product on
  // the scalar ALU (mul.lo.u32/salu) and one VALU add reading it in place,
  // instead of a quarter-rate v_mul_lo_u32 and an add.
  bool splitsUniformProduct(const Stmt &s) const {
    const ptx::Instruction &inst = s.inst;
    if (!(inst.form == ptx::Form{ptx::Opcode::MadLo, ptx::TypeClass::U, 32}) || !s.guard.empty() || opts_.forcedRule ||
        opts_.scalarHomeSgprs == 0) // (its product has a home of its own)
      return false;
    auto uniform = [&](const ptx::Operand &o) { return !o.isReg() || uniform_.registers.count(o.reg); };
    return (inst.srcs[0].isReg() || inst.srcs[1].isReg()) && uniform(inst.srcs[0]) && uniform(inst.srcs[1]) &&
           !uniform(inst.srcs[2]);
  }
  void lowerSplitProduct(const Stmt &s) {
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
    fn_.body[at].ptx = s.inst;
    fn_.body.pop_back();
    loweringNote_[current_] = "a and b are uniform: a*b on the scalar ALU (" + fn_.body[at].rule->name + "), then " +
                              addRule->name + " reading it in place";
  }

  // How many statements read predicate `p` (guards included), counted once
  // for the kernel.
  size_t predicateReaders(const std::string &p) {
    if (readCounts_.empty())
      for (const Stmt &st : k_.body)
        for (const std::string &r : kernel::readRegisters(st))
          ++readCounts_[r];
    auto it = readCounts_.find(p);
    return it == readCounts_.end() ? 0 : it->second;
  }

  // The SGPR vreg (S32/S64) holding a uniform register's value.
  unsigned scalarHome(const std::string &name, unsigned width) {
    return select::vregFor(fn_, kScalarPrefix + name, width, true);
  }

  void lowerSpecial(const Stmt &s) {
    mir::LoweredInst &li = begin(s);
    const MOperand d = vregOperand(reg(s.dst, 32));
    switch (s.special) {
    case Special::Tid:
      if (!t_.packed_work_item_ids)
        li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::physReg(false, s.dim)}});
      else if (s.dim == 0)
        li.insts.push_back({amd::Op::V_AND_B32, d, {mir::immOperand(0x3ff), mir::physReg(false, 0)}});
      else
        li.insts.push_back(
            {amd::Op::V_BFE_U32, d, {mir::physReg(false, 0), mir::immOperand(10 * s.dim), mir::immOperand(10)}});
      return;
    case Special::Ctaid: li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::physReg(true, kWorkgroupId + s.dim)}}); return;
    case Special::Nctaid:
      usesHidden_ = true;
      li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::physReg(true, kHiddenSgprs + s.dim)}});
      return;
    case Special::Ntid: {
      // hidden_group_size_x|y share the dword at +12, z is the low half at +16.
      usesHidden_ = true;
      const unsigned sg = kHiddenSgprs + (s.dim == 2 ? 4 : 3);
      if (uniform_.scalarStatements.count(current_)) { // once, on the scalar ALU
        const MOperand home = vregOperand(scalarHome(s.dst, 32));
        if (s.dim == 1)
          li.insts.push_back({amd::Op::S_LSHR_B32, home, {mir::physReg(true, sg), mir::immOperand(16)}});
        else
          li.insts.push_back({amd::Op::S_AND_B32, home, {mir::physReg(true, sg), mir::immOperand(0xffff)}});
        li.insts.push_back({amd::Op::V_MOV_B32, d, {home}});
        return;
      }
      li.insts.push_back({amd::Op::V_BFE_U32, d,
                          {mir::physReg(true, sg), mir::immOperand(s.dim == 1 ? 16 : 0), mir::immOperand(16)}});
      return;
    }
    case Special::WarpSize: li.insts.push_back({amd::Op::V_MOV_B32, d, {mir::immOperand(32)}}); return;
    default: return lowerWarpSpecial(s, li, d);
    }
  }

  // cvta (PTX ISA 9.7.9.17). Global and const addresses are generic
  // addresses on AMDGPU: a copy. A generic address of shared or local
  // memory is the segment offset under that segment's aperture (the high
  // half src_shared_base / src_private_base give, read once in the
  // prologue), so cvta.shared sets the high half and cvta.to.shared keeps
  // the low one, as LLVM lowers addrspacecast.
  void lowerCvta(const Stmt &s) {
    mir::LoweredInst &li = begin(s);
    const unsigned d = reg(s.dst, 64);
    const bool segment = s.space == Space::Shared || s.space == Space::Local;
    if (!segment && s.space != Space::Global && s.space != Space::Const)
      return unsupported(s, "cvta for the ." + std::string(kernel::spaceName(s.space)) + " space");
    MOperand lo, hi;
    if (!s.symbol.empty()) {
      const std::map<std::string, unsigned> &offsets = s.space == Space::Shared ? sharedOffset_ : localOffset_;
      if (segment) {
        auto it = offsets.find(s.symbol);
        if (it == offsets.end())
          return unsupported(s, "cvta of '" + s.symbol + "', which is not a ." + kernel::spaceName(s.space) + " variable");
        lo = mir::immOperand(it->second);
        hi = mir::immOperand(0);
      } else {
        const kernel::Variable *v = k_.variable(s.symbol);
        if (!v || (v->space != Space::Const && v->space != Space::Global))
          return unsupported(s, "cvta of '" + s.symbol + "'");
        const unsigned sg = variableAddress(s.symbol);
        lo = mir::physReg(true, sg);
        hi = mir::physReg(true, sg + 1);
      }
    } else {
      const unsigned a = reg(s.srcs[0].reg, 64);
      lo = vregOperand(a, Part::Lo);
      hi = vregOperand(a, Part::Hi);
    }
    if (segment)
      hi = s.toGeneric ? mir::physReg(true, apertureAddress(s.space) + 1) : mir::immOperand(0);
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {lo}});
    li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {hi}});
  }

  // The SGPR pair holding an aperture base (src_shared_base or
  // src_private_base), read once in the prologue. It shares the module
  // variables' SGPR range; its key cannot be a PTX identifier.
  unsigned apertureAddress(Space space) {
    const std::string key = space == Space::Shared ? "src_shared_base" : "src_private_base";
    return globalSgpr_.try_emplace(" " + key, globalBase_ + 2 * static_cast<unsigned>(globalSgpr_.size()))
        .first->second;
  }

  // The SGPR pair that holds a module variable's address (set up once in
  // the prologue, PC-relative: see emitPrologue).
  unsigned variableAddress(const std::string &name) {
    auto [it, fresh] = globalSgpr_.try_emplace(name, globalBase_ + 2 * static_cast<unsigned>(globalSgpr_.size()));
    if (fresh)
      out_.variables.push_back(*k_.variable(name));
    return it->second;
  }

  // One VGPR holding 0 for the whole kernel, the offset of every SGPR-based
  // access that needs none (sha256 reads its 64 round constants so), set
  // before the first statement. Being no PTX register it has no liveness
  // interval: the allocator gives it a register of its own from its first
  // use on, which nothing before that use held either.
  unsigned zeroVgpr() {
    if (!zeroVgpr_)
      zeroVgpr_ = select::vregFor(fn_, "%__zero", 32);
    return *zeroVgpr_;
  }

  // Stores take their data from VGPRs: a constant is moved into a temporary.
  MOperand materialise(mir::LoweredInst &li, uint64_t imm, bool wide) {
    const unsigned tmp = newTemp(wide ? mir::RegClass::V64 : mir::RegClass::V32);
    if (wide) {
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp, Part::Lo), {mir::immOperand(imm & 0xffffffffu)}});
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp, Part::Hi), {mir::immOperand(imm >> 32)}});
    } else {
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp), {mir::immOperand(imm & 0xffffffffu)}});
    }
    return vregOperand(tmp);
  }

  // A PTX warp is 32 consecutive threads of the block, whatever the wave
  // size (on wave64 a wave holds two): %laneid, %warpid and the lane masks
  // come from the linear thread id (x fastest), so code indexing by them
  // computes what it did on NVIDIA hardware.
  void lowerWarpSpecial(const Stmt &s, mir::LoweredInst &li, const MOperand &d) {
    usesHidden_ = true;
    auto temp = [&] { return vregOperand(newTemp(mir::RegClass::V32)); };
    auto groupSize = [&](unsigned dim) { // hidden_group_size_{x,y,z}
      const MOperand t = temp();
      li.insts.push_back({amd::Op::V_BFE_U32, t,
                          {mir::physReg(true, kHiddenSgprs + (dim == 2 ? 4 : 3)), mir::immOperand(dim == 1 ? 16 : 0),
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
        li.insts.push_back({amd::Op::V_MOV_B32, id[dim], {mir::physReg(false, dim)}});
      else
        li.insts.push_back({amd::Op::V_BFE_U32, id[dim],
                            {mir::physReg(false, 0), mir::immOperand(10 * dim), mir::immOperand(10)}});
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

  void lowerMemory(const Stmt &s) {
    mir::LoweredInst &li = begin(s);
    const unsigned bytes = s.elemBits / 8;
    if (s.space == Space::Param) {
      if (s.kind == Stmt::Kind::Store)
        return unsupported(s, "st.param");
      const kernel::Param *p = k_.param(s.base);
      for (size_t e = 0; e < s.values.size(); ++e) {
        const int64_t off = int64_t(p->offset) + s.offset + int64_t(e * bytes);
        if (off < 0 || off % 4 || bytes < 4 || uint64_t(off) + bytes > alignUp(k_.paramBytes, 4)) {
          unsupported(s, "a sub-dword or unaligned kernel parameter read");
          return;
        }
        const unsigned sg = kParamSgprs + static_cast<unsigned>(off / 4);
        const unsigned w = bytes == 8 ? 64 : 32;
        const unsigned d = reg(s.values[e].reg, w);
        if (w == 64) {
          li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Lo), {mir::physReg(true, sg)}});
          li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::physReg(true, sg + 1)}});
        } else {
          li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d), {mir::physReg(true, sg)}});
        }
      }
      return;
    }
    // A generic access through a pointer known to point into one space is an
    // access to that space (address_spaces.hpp): a shared or local generic
    // address holds the segment offset in its low half.
    Space space = s.space;
    if (space == Space::Generic && !s.baseIsSymbol)
      if (auto it = pointerSpaces_.find(s.base); it != pointerSpaces_.end())
        space = it->second;
    if (space == Space::Shared)
      return lowerShared(s, li);
    if (space == Space::Local)
      return lowerLocal(s, li);
    if (s.space != Space::Global && s.space != Space::Generic && s.space != Space::Const)
      return unsupported(s, std::string(s.kind == Stmt::Kind::Load ? "ld." : "st.") + kernel::spaceName(s.space));
    const int64_t limit = int64_t(1) << (t_.global_offset_bits - 1);
    const kernel::Variable *var = s.baseIsSymbol ? k_.variable(s.base) : nullptr;
    if (s.baseIsSymbol && (!var || (var->space != Space::Const && var->space != Space::Global)))
      return unsupported(s, "addressing the variable '" + s.base + "'");
    if (s.baseIsSymbol && s.offset >= 0) {
      // A module variable: its address is in an SGPR pair (set up in the
      // prologue), so the access takes it as the SGPR base (the saddr form)
      // with the kernel's VGPR holding 0 -- or the element's offset
      // (unsigned, added to the base) when it does not fit the immediate field.
      const MOperand sbase = mir::physReg(true, variableAddress(s.base), 2);
      for (size_t e = 0; e < s.values.size(); ++e) {
        const int64_t off = s.offset + int64_t(e * bytes);
        const bool fits = off < limit; // (off >= 0: the statement's offset is)
        unsigned vOff;
        if (fits) {
          vOff = zeroVgpr();
        } else {
          vOff = newTemp(mir::RegClass::V32);
          li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(vOff), {mir::immOperand(uint64_t(off) & 0xffffffffu)}});
        }
        if (!emitElement(s, e, li, kGlobalSaddrOps, vregOperand(vOff), mir::immOperand(fits ? uint64_t(off) : 0), &sbase))
          return;
      }
      return;
    }
    const bool flat = space == Space::Generic && genericReachesSegments_;
    const int64_t flatLimit = 2048; // FLAT's offset is unsigned, 12 bits (11 on gfx10): 0..2047 everywhere
    unsigned base;
    if (s.baseIsSymbol) { // a negative offset from a variable: its address into a VGPR pair
      const unsigned sg = variableAddress(s.base);
      base = newTemp(mir::RegClass::V64);
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(base, Part::Lo), {mir::physReg(true, sg)}});
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(base, Part::Hi), {mir::physReg(true, sg + 1)}});
    } else {
      base = reg(s.base, 64);
    }
    for (size_t e = 0; e < s.values.size(); ++e) {
      const int64_t off = s.offset + int64_t(e * bytes);
      MOperand addr = vregOperand(base);
      int64_t field = off;
      if (flat ? (off < 0 || off >= flatLimit) : (off < -limit || off >= limit)) {
        // Out of the instruction's offset range: add it to the address first.
        const unsigned tmp = newTemp(mir::RegClass::V64);
        const uint64_t u = static_cast<uint64_t>(off);
        li.insts.push_back({amd::Op::V_ADD_CO_U32, vregOperand(tmp, Part::Lo),
                            {mir::immOperand(u & 0xffffffffu), vregOperand(base, Part::Lo)}});
        const unsigned hiTmp = newTemp(mir::RegClass::V32);
        li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(hiTmp), {mir::immOperand(u >> 32)}});
        MOperand vcc;
        vcc.kind = MOperand::Kind::Vcc;
        li.insts.push_back({amd::Op::V_ADDC_CO_U32, vregOperand(tmp, Part::Hi),
                            {vregOperand(hiTmp), vregOperand(base, Part::Hi), vcc}});
        addr = vregOperand(tmp);
        field = 0;
      }
      const MOperand offset = mir::immOperand(static_cast<uint64_t>(field) & 0xffffffffu);
      if (!emitElement(s, e, li, flat ? kFlatOps : kGlobalOps, addr, offset))
        return;
    }
  }

  // The load and store instructions of one memory kind, by element size.
  struct MemoryOps {
    amd::Op loadU8, loadI8, loadU16, loadI16, load32, load64, store8, store16, store32, store64;
  };
  static constexpr MemoryOps kGlobalOps{amd::Op::GLOBAL_LOAD_U8,    amd::Op::GLOBAL_LOAD_I8,   amd::Op::GLOBAL_LOAD_U16,
                                        amd::Op::GLOBAL_LOAD_I16,   amd::Op::GLOBAL_LOAD_B32,  amd::Op::GLOBAL_LOAD_B64,
                                        amd::Op::GLOBAL_STORE_B8,   amd::Op::GLOBAL_STORE_B16, amd::Op::GLOBAL_STORE_B32,
                                        amd::Op::GLOBAL_STORE_B64};
  static constexpr MemoryOps kGlobalSaddrOps{
      amd::Op::GLOBAL_LOAD_U8_SADDR,   amd::Op::GLOBAL_LOAD_I8_SADDR,   amd::Op::GLOBAL_LOAD_U16_SADDR,
      amd::Op::GLOBAL_LOAD_I16_SADDR,  amd::Op::GLOBAL_LOAD_B32_SADDR,  amd::Op::GLOBAL_LOAD_B64_SADDR,
      amd::Op::GLOBAL_STORE_B8_SADDR,  amd::Op::GLOBAL_STORE_B16_SADDR, amd::Op::GLOBAL_STORE_B32_SADDR,
      amd::Op::GLOBAL_STORE_B64_SADDR};
  static constexpr MemoryOps kFlatOps{amd::Op::FLAT_LOAD_U8,    amd::Op::FLAT_LOAD_I8,    amd::Op::FLAT_LOAD_U16,
                                      amd::Op::FLAT_LOAD_I16,   amd::Op::FLAT_LOAD_B32,   amd::Op::FLAT_LOAD_B64,
                                      amd::Op::FLAT_STORE_B8,   amd::Op::FLAT_STORE_B16,  amd::Op::FLAT_STORE_B32,
                                      amd::Op::FLAT_STORE_B64};
  static constexpr MemoryOps kLdsOps{amd::Op::DS_READ_U8,   amd::Op::DS_READ_I8,   amd::Op::DS_READ_U16,  amd::Op::DS_READ_I16,
                                     amd::Op::DS_READ_B32,  amd::Op::DS_READ_B64,  amd::Op::DS_WRITE_B8,  amd::Op::DS_WRITE_B16,
                                     amd::Op::DS_WRITE_B32, amd::Op::DS_WRITE_B64};
  static constexpr MemoryOps kScratchOps{
      amd::Op::SCRATCH_LOAD_U8,  amd::Op::SCRATCH_LOAD_I8,  amd::Op::SCRATCH_LOAD_U16,  amd::Op::SCRATCH_LOAD_I16,
      amd::Op::SCRATCH_LOAD_B32, amd::Op::SCRATCH_LOAD_B64, amd::Op::SCRATCH_STORE_B8,  amd::Op::SCRATCH_STORE_B16,
      amd::Op::SCRATCH_STORE_B32, amd::Op::SCRATCH_STORE_B64};

  // Element e of a load or store at `addr` + `offset`. A register wider than
  // the element type is allowed (PTX ISA 5.4.x): a load fills its low half
  // and extends by the type, a store takes its low bits. False (with an
  // error) for a 64-bit store from a narrower register.
  bool emitElement(const Stmt &s, size_t e, mir::LoweredInst &li, const MemoryOps &ops, const MOperand &addr,
                   const MOperand &offset, const MOperand *sbase = nullptr) {
    // The address operands: a VGPR (pair), or with an SGPR base a VGPR offset and the base.
    std::vector<MOperand> loadSrcs{addr};
    if (sbase)
      loadSrcs.push_back(*sbase);
    loadSrcs.push_back(offset);
    const unsigned bytes = s.elemBits / 8;
    const ptx::Operand &v = s.values[e];
    const unsigned width = v.isReg() && k_.registers.count(v.reg) ? k_.registers.at(v.reg).width : 32;
    if (s.kind == Stmt::Kind::Load) {
      const bool sgn = s.elemType == ptx::TypeClass::S;
      const amd::Op op = bytes == 1 ? (sgn ? ops.loadI8 : ops.loadU8)
                         : bytes == 2 ? (sgn ? ops.loadI16 : ops.loadU16)
                         : bytes == 4 ? ops.load32
                                      : ops.load64;
      if (bytes < 8 && width == 64) {
        const unsigned d = reg(v.reg, 64);
        li.insts.push_back({op, vregOperand(d, Part::Lo), loadSrcs});
        if (sgn)
          li.insts.push_back({amd::Op::V_ASHRREV_I32, vregOperand(d, Part::Hi), {mir::immOperand(31), vregOperand(d, Part::Lo)}});
        else
          li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(d, Part::Hi), {mir::immOperand(0)}});
        return true;
      }
      li.insts.push_back({op, vregOperand(reg(v.reg, bytes == 8 ? 64 : 32)), loadSrcs});
      return true;
    }
    const amd::Op op = bytes == 1 ? ops.store8 : bytes == 2 ? ops.store16 : bytes == 4 ? ops.store32 : ops.store64;
    MOperand data;
    if (v.isImm()) {
      data = materialise(li, v.imm, bytes == 8);
    } else {
      if (bytes == 8 && width != 64) {
        unsupported(s, "a 64-bit store from a narrower register");
        return false;
      }
      data = width == 64 && bytes < 8 ? vregOperand(reg(v.reg, 64), Part::Lo)
                                      : vregOperand(reg(v.reg, width == 64 ? 64 : 32));
    }
    std::vector<MOperand> storeSrcs{addr, data};
    if (sbase)
      storeSrcs.push_back(*sbase);
    storeSrcs.push_back(offset);
    li.insts.push_back({op, noOperand(), storeSrcs});
    return true;
  }

  // The address of element e in the group or private segment: a 32-bit
  // offset (a variable's, or the low half of a 64-bit register) and the
  // constant part for the instruction's offset field when it is within
  // 0..maxField, else added first.
  std::optional<std::pair<MOperand, int64_t>> segmentAddress(const Stmt &s, size_t e, mir::LoweredInst &li,
                                                             const std::map<std::string, unsigned> &offsets,
                                                             int64_t maxField, const char *space) {
    int64_t off = s.offset + int64_t(e * (s.elemBits / 8));
    if (s.baseIsSymbol) {
      auto it = offsets.find(s.base);
      if (it == offsets.end()) {
        unsupported(s, "addressing '" + s.base + "' as " + space + " memory");
        return std::nullopt;
      }
      const unsigned tmp = newTemp(mir::RegClass::V32);
      li.insts.push_back({amd::Op::V_MOV_B32, vregOperand(tmp), {mir::immOperand(uint64_t(it->second + off) & 0xffffffffu)}});
      return std::make_pair(vregOperand(tmp), int64_t(0));
    }
    const unsigned width = k_.registers.count(s.base) ? k_.registers.at(s.base).width : 64;
    const unsigned b = reg(s.base, width == 32 ? 32 : 64);
    MOperand addr = vregOperand(b, width == 32 ? Part::Whole : Part::Lo);
    if (off < 0 || off > maxField) {
      const unsigned tmp = newTemp(mir::RegClass::V32);
      li.insts.push_back({amd::Op::V_ADD_U32, vregOperand(tmp), {mir::immOperand(uint64_t(off) & 0xffffffffu), addr}});
      return std::make_pair(vregOperand(tmp), int64_t(0));
    }
    return std::make_pair(addr, off);
  }

  // ---- uniform values read in place (uniform_values.hpp) ----
  //
  // A uniform register's value lives in SGPRs: the arguments and IDs the
  // prologue put there, or the home a scalar rule computed it into. A VALU
  // instruction reads it from there where its encoding takes an SGPR and the
  // constant bus has room (one scalar value per instruction on gfx9/CDNA,
  // two from gfx10 on; literals, VCC and masks count); the register's VGPR
  // copy is made only if some reader still needs it (a memory address, a
  // store's data, a full constant bus).

  // The SGPRs holding a uniform register's value: fixed ones, or the
  // S32/S64 home vreg of the register that computes it.
  MOperand homeOf(const kernel::UniformSource &u) {
    using K = kernel::UniformSource::Kind;
    switch (u.kind) {
    case K::Argument: return mir::physReg(true, kParamSgprs + u.offset / 4, u.bits / 32);
    case K::WorkgroupId: return mir::physReg(true, kWorkgroupId + u.dim);
    case K::GridSize: return mir::physReg(true, kHiddenSgprs + u.dim);
    case K::VariableAddress: return mir::physReg(true, variableAddress(u.variable), 2);
    case K::Computed: break;
    }
    return vregOperand(scalarHome(u.computedBy, u.bits));
  }
  unsigned homeWords(const MOperand &h) const {
    return h.kind == MOperand::Kind::Phys ? h.physCount : fn_.vregs[h.vreg].cls == mir::RegClass::S64 ? 2 : 1;
  }
  static MOperand homeHalf(const MOperand &h, Part p) {
    if (p == Part::Whole)
      return h;
    if (h.kind == MOperand::Kind::Phys)
      return mir::physReg(true, h.physIndex + (p == Part::Hi ? 1 : 0));
    return vregOperand(h.vreg, p);
  }

  // Scalar rules name their register sources by home vreg ("s:%r1"); those
  // of registers whose home is elsewhere (fixed SGPRs, or the register a
  // copy was made from) are pointed there, and need no SGPRs of their own.
  void bindScalarSources() {
    std::map<unsigned, MOperand> alias;
    for (const auto &[name, v] : fn_.ptxRegs) {
      if (name.rfind(kScalarPrefix, 0) != 0)
        continue;
      auto it = uniform_.registers.find(name.substr(kScalarPrefix.size()));
      if (it == uniform_.registers.end())
        continue;
      const MOperand home = homeOf(it->second);
      if (home.kind == MOperand::Kind::VReg && home.vreg == v)
        continue;
      alias.emplace(v, home);
      fn_.vregs[v].readInPlace = true;
    }
    for (mir::LoweredInst &li : fn_.body)
      for (MInst &mi : li.insts)
        for (MOperand &o : mi.srcs)
          if (auto it = o.kind == MOperand::Kind::VReg ? alias.find(o.vreg) : alias.end(); it != alias.end())
            o = homeHalf(it->second, o.part);
  }

  // Does `mi` take an SGPR in source `index` (VALU encodings; not SDWA or
  // VOPD, whose operand rules differ), and what scalar values does it read?
  static bool valuTakesSgpr(const MInst &mi) {
    const amd::OpDef &def = amd::opDef(mi.op);
    const bool valu = def.encoding == amd::Encoding::VOP1 || def.encoding == amd::Encoding::VOP2 ||
                      def.encoding == amd::Encoding::VOP3 || def.encoding == amd::Encoding::VOPC;
    return valu && mi.op != amd::Op::V_LSHRREV_B32_SDWA_W0 && mi.op != amd::Op::V_DUAL_CNDMASK_PAIR;
  }
  std::set<std::string> scalarReads(const MInst &mi) const {
    std::set<std::string> reads;
    const amd::OpDef &def = amd::opDef(mi.op);
    for (size_t i = 0; i < mi.srcs.size(); ++i) {
      const MOperand &o = mi.srcs[i];
      if (o.kind == MOperand::Kind::Phys && o.physSgpr)
        reads.insert("s" + std::to_string(o.physIndex));
      else if (o.kind == MOperand::Kind::Vcc || o.kind == MOperand::Kind::Exec)
        reads.insert(o.kind == MOperand::Kind::Vcc ? "vcc" : "exec");
      else if (o.kind == MOperand::Kind::VReg && fn_.vregs[o.vreg].cls == mir::RegClass::Mask)
        reads.insert("mask" + std::to_string(o.vreg));
      else if (o.kind == MOperand::Kind::VReg && mir::isSgprClass(fn_.vregs[o.vreg].cls))
        reads.insert("home" + std::to_string(o.vreg) + (o.part == Part::Hi ? ".hi" : ".lo"));
      else if (o.kind == MOperand::Kind::Imm) {
        const bool wide = i < def.srcs.size() && def.srcs[i] == amd::Slot::V64;
        const int64_t v = wide ? static_cast<int64_t>(o.imm) : static_cast<int32_t>(static_cast<uint32_t>(o.imm));
        if (!amd::isInlineConstant(v))
          reads.insert("literal");
      }
    }
    return reads;
  }

  void readUniformsInPlace() {
    bindScalarSources();
    std::map<unsigned, MOperand> byVreg;
    for (const auto &[name, u] : uniform_.registers)
      if (auto it = fn_.ptxRegs.find(name); it != fn_.ptxRegs.end() && u.bits != 1) // (a predicate is its home)
        byVreg.emplace(it->second, homeOf(u));
    if (byVreg.empty())
      return;
    const size_t limit = t_.isGfx10Plus() ? 2 : 1;
    for (mir::LoweredInst &li : fn_.body)
      for (MInst &mi : li.insts) {
        if (!valuTakesSgpr(mi))
          continue;
        const amd::OpDef &def = amd::opDef(mi.op);
        for (size_t i = 0; i < mi.srcs.size() && i < def.srcs.size(); ++i) {
          MOperand &o = mi.srcs[i];
          auto it = o.kind == MOperand::Kind::VReg ? byVreg.find(o.vreg) : byVreg.end();
          if (it == byVreg.end())
            continue;
          const MOperand &sg = it->second;
          const unsigned words = homeWords(sg);
          MOperand repl;
          if (o.part == Part::Whole && words == 1 && def.srcs[i] == amd::Slot::V32)
            repl = sg;
          else if (o.part == Part::Whole && words == 2 && def.srcs[i] == amd::Slot::V64)
            repl = sg;
          else if (o.part != Part::Whole && words == 2 && def.srcs[i] == amd::Slot::V32)
            repl = homeHalf(sg, o.part);
          else
            continue;
          const MOperand before = o;
          o = repl;
          if (scalarReads(mi).size() > limit)
            o = before;
        }
      }
    // A register (or half of one) no instruction reads any more needs no
    // VGPR copy: the moves that made it go.
    std::set<std::pair<unsigned, Part>> stillRead;
    auto read = [&](unsigned v, Part p) {
      if (p == Part::Whole) {
        stillRead.insert({v, Part::Lo});
        stillRead.insert({v, Part::Hi});
      }
      stillRead.insert({v, p});
    };
    for (const mir::LoweredInst &li : fn_.body)
      for (const MInst &mi : li.insts)
        for (const MOperand &o : mi.srcs)
          if (o.kind == MOperand::Kind::VReg) {
            read(o.vreg, o.part);
          } else if (o.kind == MOperand::Kind::Pair) {
            read(o.vreg, Part::Whole);
            read(o.vregHi, Part::Whole);
          }
    for (const auto &[v, sg] : byVreg) {
      const bool none = !stillRead.count({v, Part::Lo}) && !stillRead.count({v, Part::Hi}) &&
                        !stillRead.count({v, Part::Whole});
      if (none) {
        inPlace_.emplace(v, sg);
        fn_.vregs[v].readInPlace = true;
      }
      for (size_t i = 0; i < fn_.body.size(); ++i) {
        std::vector<MInst> &insts = fn_.body[i].insts;
        const size_t n = insts.size();
        insts.erase(std::remove_if(insts.begin(), insts.end(),
                                   [&](const MInst &mi) {
                                     return mi.dst.kind == MOperand::Kind::VReg && mi.dst.vreg == v &&
                                            (none || (mi.dst.part != Part::Whole && !stillRead.count({v, mi.dst.part})));
                                   }),
                    insts.end());
        if (insts.size() != n)
          loweringNote_.try_emplace(i, none ? "read in place from " + homeText(sg) + " (a uniform value: no VGPR copy)"
                                     : "partly read in place from " + homeText(sg));
      }
    }
  }

  // Before register assignment a computed home has no number yet.
  std::string homeText(const MOperand &h) const {
    return h.kind == MOperand::Kind::Phys ? sgprText(h) : "its scalar-ALU SGPR" + std::string(homeWords(h) == 2 ? " pair" : "");
  }
  static std::string sgprText(const MOperand &sg) {
    return sg.physCount == 1 ? "s" + std::to_string(sg.physIndex)
                             : "s[" + std::to_string(sg.physIndex) + ":" + std::to_string(sg.physIndex + 1) + "]";
  }

  // ---- liveness (see regalloc.hpp) ----
  //
  // Per-lane CFG liveness over PTX registers held in VGPRs and predicates, by
  // statement. A register's interval is the span of statements (in layout
  // order) from the first to the last where it is live, so one spanning a
  // loop covers the loop. Reusing a VGPR after an interval ends is safe under
  // EXEC masking too: a block run for some lanes writes only their VGPR
  // lanes, so lanes waiting elsewhere keep theirs. SGPRs are written for
  // every lane (a predicate's lane mask by SALU and VOPC results, a uniform
  // value's home by the scalar unit), so the interval of a predicate or a
  // home also covers every block that may run while lanes needing it wait
  // elsewhere (it is live on entry to a block where lanes may wait meanwhile:
  // kernel::waitingBlocks): nothing else shares its SGPRs then.
  regalloc::LiveIntervals liveIntervals() {
    const size_t n = k_.body.size();
    const unsigned nv = static_cast<unsigned>(fn_.vregs.size());
    regalloc::LiveIntervals iv{std::vector<long>(nv, -1), std::vector<long>(nv, -1)};
    auto vregOf = [&](const std::string &r) -> long {
      auto it = fn_.ptxRegs.find(r);
      if (it == fn_.ptxRegs.end() || inPlace_.count(it->second))
        return -1;
      return it->second;
    };
    // A uniform register's SGPR home holds its value wherever the register
    // does: the same liveness (scalar writers are unguarded).
    auto homeVreg = [&](const std::string &r) -> long {
      auto it = fn_.ptxRegs.find(kScalarPrefix + r);
      return it == fn_.ptxRegs.end() || fn_.vregs[it->second].cls == mir::RegClass::Mask ? -1 : long(it->second);
    };
    std::vector<std::vector<unsigned>> use(n), def(n);
    for (size_t i = 0; i < n; ++i) {
      const Stmt &st = k_.body[i];
      for (const std::string &r : kernel::readRegisters(st))
        for (long v : {vregOf(r), homeVreg(r)})
          if (v >= 0)
            use[i].push_back(static_cast<unsigned>(v));
      for (const std::string &r : kernel::writtenRegisters(st))
        for (long v : {vregOf(r), homeVreg(r)})
          if (v >= 0) {
            def[i].push_back(static_cast<unsigned>(v));
            if (!st.guard.empty()) // a guarded write keeps the old value in other lanes
              use[i].push_back(static_cast<unsigned>(v));
          }
    }
    auto mark = [&](unsigned v, size_t i) {
      const long p = static_cast<long>(i);
      iv.start[v] = iv.start[v] < 0 ? p : std::min(iv.start[v], p);
      iv.end[v] = std::max(iv.end[v], p);
    };
    const unsigned nb = numBlocks_;
    const std::vector<std::vector<unsigned>> &succ = cfg_.succ;
    std::vector<std::vector<bool>> liveIn(nb, std::vector<bool>(nv, false)), liveOut = liveIn;
    // Backward through a block from `live` (its live-out); `visit` sees each
    // statement with the values live across it.
    auto walk = [&](unsigned b, std::vector<bool> live, bool record) {
      const size_t first = blockStart_[b], end = b + 1 < nb ? blockStart_[b + 1] : n;
      for (size_t i = end; i-- > first;) {
        if (record) {
          for (unsigned v = 0; v < nv; ++v)
            if (live[v])
              mark(v, i);
          for (unsigned v : def[i])
            mark(v, i);
          for (unsigned v : use[i])
            mark(v, i);
        }
        for (unsigned v : def[i])
          live[v] = false;
        for (unsigned v : use[i])
          live[v] = true;
      }
      return live;
    };
    for (bool changed = true; changed && n;) {
      changed = false;
      for (unsigned b = nb; b-- > 0;) {
        std::vector<bool> out(nv, false);
        for (unsigned s2 : succ[b])
          for (unsigned v = 0; v < nv; ++v)
            out[v] = out[v] || liveIn[s2][v];
        std::vector<bool> in = walk(b, out, false);
        if (in != liveIn[b] || out != liveOut[b]) {
          liveIn[b] = std::move(in);
          liveOut[b] = std::move(out);
          changed = true;
        }
      }
    }
    for (unsigned b = 0; b < nb && n; ++b) {
      walk(b, liveOut[b], true);
      for (unsigned v = 0; v < nv; ++v) // live on entry: held from the block's first statement
        if (liveIn[b][v])
          mark(v, blockStart_[b]);
    }
    // A predicate or home needed by lanes waiting in block z is held through
    // every block x that may run meanwhile.
    std::vector<bool> uniformEnd(nb, false);
    for (unsigned b = 0; b < nb && n; ++b)
      uniformEnd[b] = uniform_.uniformBranches.count(cfg_.blockEnd(b) - 1) > 0;
    const std::vector<std::vector<bool>> waiting = kernel::waitingBlocks(cfg_, uniformEnd);
    for (unsigned v = 0; v < nv && n; ++v) {
      if (!mir::isSgprClass(fn_.vregs[v].cls))
        continue;
      for (unsigned z = 0; z < nb; ++z) {
        if (!liveIn[z][v])
          continue;
        for (unsigned x = 0; x < nb; ++x)
          if (waiting[x][z]) {
            mark(v, blockStart_[x]);
            mark(v, cfg_.blockEnd(x) - 1);
          }
      }
    }
    return iv;
  }

  // ---- control flow (see docs/architecture.md, "Control flow") ----
  //
  // Every basic block B > 0 owns a lane mask M_B: the lanes waiting to run
  // it. Blocks run in source order; a block starts with EXEC = M_B, M_B = 0
  // and is skipped when that is empty; its end adds the lanes leaving it to
  // its successors' masks (a conditional branch splits EXEC by the
  // predicate). A successor earlier in the order (a loop's back edge) that
  // received lanes is jumped to; the blocks in between then run again for
  // whatever lanes wait there. So the next block run is always the first one
  // with waiting lanes, which is correct for any CFG, reducible or not, and
  // for `ret` in the middle (returning lanes join no mask). One block (no
  // control flow) emits none of this.

  struct Piece {
    enum class Kind { Inst, Raw, Label, Drain } kind = Kind::Inst;
    MInst mi{amd::Op::V_MOV_B32, {}, {}};
    std::string raw;            // "%0" is replaced by the physical name of args[0]
    std::vector<unsigned> args; // vregs
  };

  void buildBlocks() {
    const size_t n = k_.body.size();
    cfg_ = kernel::controlFlowGraph(k_);
    blockOf_ = cfg_.blockOf;
    blockStart_ = cfg_.blockStart;
    numBlocks_ = cfg_.numBlocks;
    for (size_t i = 0; i < n; ++i) // blocks a back edge enters (see controlFlow)
      if (k_.body[i].kind == Stmt::Kind::Branch && blockOf_[k_.body[i].target] <= blockOf_[i] &&
          blockOf_[k_.body[i].target] >= 1 && !blockHasBarrier(blockOf_[i]))
        loopHeads_.insert(blockOf_[k_.body[i].target]);
    if (numBlocks_ > 1) {
      for (unsigned blk = 1; blk < numBlocks_; ++blk)
        maskVreg_.push_back(persistentMask("%__lanes_bb" + std::to_string(blk)));
      tmpA_ = persistentMask("%__cf_a");
    }
  }

  // Can no block strictly between b and target hold waiting lanes when b
  // ends? True if each of them is entered only from blocks after b (and
  // before itself), none leaves back to b or earlier, and none has a barrier
  // (skipping it would skip the barrier). Then lanes put in one of them were
  // run before control could return to b: blocks run in order, and only a
  // back edge from the target or beyond leads back, after they have run.
  bool forwardJumpSafe(unsigned b, unsigned target) const {
    if (blockHasBarrier(b))
      return false;
    for (unsigned x = b + 1; x < target; ++x) {
      if (blockHasBarrier(x))
        return false;
      for (unsigned s : cfg_.succ[x])
        if (s <= b)
          return false;
      for (unsigned p = 0; p < numBlocks_; ++p)
        for (unsigned s : cfg_.succ[p])
          if (s == x && (p < b || p >= x))
            return false;
    }
    return true;
  }

  bool blockHasBarrier(unsigned b) const { return kernel::blockHasBarrier(k_, cfg_, b); }
  std::string bodyLabel(unsigned block) const { return label(block) + "_body"; }

  unsigned persistentMask(const std::string &name) { return select::vregFor(fn_, name, 1); }
  unsigned mask(unsigned block) const { return maskVreg_.at(block - 1); }
  std::string label(unsigned block, bool end = false) const {
    return ".L" + k_.name + "_bb" + std::to_string(block) + (end ? "_end" : "");
  }

  static MOperand execOperand() {
    MOperand o;
    o.kind = MOperand::Kind::Exec;
    return o;
  }
  Piece inst(amd::Op op, MOperand d, std::vector<MOperand> srcs) {
    Piece p;
    p.mi = MInst{op, d, std::move(srcs)};
    return p;
  }
  Piece raw(std::string text, std::vector<unsigned> args = {}) {
    Piece p;
    p.kind = Piece::Kind::Raw;
    p.raw = std::move(text);
    p.args = std::move(args);
    return p;
  }
  Piece labelPiece(std::string name) {
    Piece p;
    p.kind = Piece::Kind::Label;
    p.raw = std::move(name);
    return p;
  }
  Piece drain() {
    Piece p;
    p.kind = Piece::Kind::Drain;
    return p;
  }

  // dst |= EXEC & (p or ~p), or dst |= EXEC without a predicate.
  void addLanes(std::vector<Piece> &out, unsigned dstMask, const std::string &pred, bool negated) {
    const MOperand d = vregOperand(dstMask);
    if (pred.empty()) {
      out.push_back(inst(amd::Op::S_OR_MASK, d, {d, execOperand()}));
      return;
    }
    const MOperand p = vregOperand(reg(pred, 1)), a = vregOperand(tmpA_);
    out.push_back(inst(amd::Op::S_AND_MASK, a, {execOperand(), p}));
    if (negated) // EXEC & ~p = EXEC ^ (EXEC & p)
      out.push_back(inst(amd::Op::S_XOR_MASK, a, {execOperand(), a}));
    out.push_back(inst(amd::Op::S_OR_MASK, d, {d, a}));
  }

  void controlFlow(size_t i) {
    const Stmt &st = k_.body[i];
    const unsigned b = blockOf_[i];
    const bool control = st.kind == Stmt::Kind::Branch || st.kind == Stmt::Kind::Return;
    // A guard on anything else narrows EXEC around the statement.
    if (!st.guard.empty() && !control) {
      const MOperand p = vregOperand(reg(st.guard, 1)), save = vregOperand(persistentMask("%__exec_save"));
      before_[i].push_back(inst(amd::Op::S_MOV_MASK, save, {execOperand()}));
      before_[i].push_back(inst(amd::Op::S_AND_MASK, execOperand(), {execOperand(), p}));
      if (st.guardNegated) // EXEC = saved & ~p = saved ^ (saved & p)
        before_[i].push_back(inst(amd::Op::S_XOR_MASK, execOperand(), {save, execOperand()}));
      after_[i].insert(after_[i].begin(), inst(amd::Op::S_MOV_MASK, execOperand(), {save}));
    }
    if (numBlocks_ == 1)
      return;
    if (i == 0) // no lanes wait anywhere yet
      for (unsigned blk = 1; blk < numBlocks_; ++blk)
        before_[0].push_back(inst(amd::Op::S_MOV_MASK, vregOperand(mask(blk)), {mir::immOperand(0)}));
    const std::string cmp = t_.wave_size == 64 ? "s_cmp_lg_u64 %0, 0" : "s_cmp_lg_u32 %0, 0";
    if (blockStart_[b] == i && b > 0) {
      std::vector<Piece> head;
      head.push_back(drain());
      head.push_back(labelPiece(label(b)));
      head.push_back(inst(amd::Op::S_MOV_MASK, execOperand(), {vregOperand(mask(b))}));
      head.push_back(inst(amd::Op::S_MOV_MASK, vregOperand(mask(b)), {mir::immOperand(0)}));
      // A block with a barrier is never skipped: every wave must reach it.
      const bool hasBarrier = blockHasBarrier(b);
      if (!hasBarrier)
        head.push_back(raw("s_cbranch_execz " + label(b, true)));
      if (loopHeads_.count(b)) // where a uniformly taken back edge enters (see below)
        head.push_back(labelPiece(bodyLabel(b)));
      before_[i].insert(before_[i].begin(), head.begin(), head.end());
    }
    const bool last = i + 1 == k_.body.size() || blockOf_[i + 1] != b;
    if (!last)
      return;
    std::vector<Piece> &tail = after_[i];
    tail.push_back(drain());
    const unsigned next = b + 1;
    const bool hasNext = next < numBlocks_;
    std::vector<unsigned> backTargets;
    if (st.kind == Stmt::Kind::Branch && uniform_.uniformBranches.count(i) && blockOf_[st.target] >= 1) {
      uniformBranch(tail, st, i);
    } else if (st.kind == Stmt::Kind::Branch) {
      const unsigned target = blockOf_[st.target];
      // A back edge every active lane takes (checked at run time) jumps
      // into the loop head's body with EXEC as it is. That is what the
      // general path below would do: at a block's end no block at or before
      // it has waiting lanes (the code would have jumped back to it), so the
      // head would set EXEC to exactly these lanes and clear its mask. A
      // uniform loop then costs two SALU instructions per iteration instead
      // of the mask bookkeeping. (Not in a block with a barrier: that block
      // runs even with no lanes, and an empty EXEC must not loop.)
      if (target >= 1 && target <= b && target < numBlocks_ && !blockHasBarrier(b)) {
        if (st.guard.empty()) {
          tail.push_back(raw("s_branch " + bodyLabel(target)));
        } else {
          lanesNotTaking(tail, st);
          tail.push_back(raw("s_cbranch_scc0 " + bodyLabel(target))); // (SCC: the result is not 0)
        }
      }
      // A forward branch every active lane takes (checked at run time, as
      // above) over blocks that cannot hold waiting lanes now jumps to its
      // target, its lanes joining the target's mask, instead of leaving an
      // empty mask for each block in between to test.
      if (!st.guard.empty() && target > next && target < numBlocks_ && forwardJumpSafe(b, target)) {
        const std::string general = label(b) + "_divergent";
        lanesNotTaking(tail, st);
        tail.push_back(raw("s_cbranch_scc1 " + general)); // some lane does not take it
        tail.push_back(inst(amd::Op::S_OR_MASK, vregOperand(mask(target)), {vregOperand(mask(target)), execOperand()}));
        tail.push_back(raw("s_branch " + label(target)));
        tail.push_back(labelPiece(general));
      }
      if (target < numBlocks_) {
        addLanes(tail, mask(std::max(target, 1u)), st.guard, st.guardNegated);
        if (target <= b)
          backTargets.push_back(target);
      }
      if (!st.guard.empty() && hasNext) // the lanes not taking the branch fall through
        addLanes(tail, mask(next), st.guard, !st.guardNegated);
    } else if (st.kind == Stmt::Kind::Return) {
      if (!st.guard.empty() && hasNext) // lanes that do not return fall through
        addLanes(tail, mask(next), st.guard, !st.guardNegated);
    } else if (hasNext) {
      addLanes(tail, mask(next), "", false);
    }
    tail.push_back(labelPiece(label(b, true)));
    std::sort(backTargets.begin(), backTargets.end());
    for (unsigned target : backTargets) {
      tail.push_back(raw(cmp, {mask(std::max(target, 1u))}));
      tail.push_back(raw("s_cbranch_scc1 " + label(std::max(target, 1u))));
    }
    if (std::find(backTargets.begin(), backTargets.end(), 0u) != backTargets.end())
      error(diags_, st.loc, "a branch back to the kernel's first statement is not supported; add a label after the entry code");
  }

  // A branch on a uniform predicate (uniform_values.hpp): every active lane
  // takes it or none does, so one scalar test decides for the wave, and its
  // lanes all go one way. A back edge jumps into the loop head's body with
  // EXEC as it is (as the run-time fast path above, which this is without
  // the test of the lanes); a forward one joins the target's mask and jumps
  // there when no block in between can hold waiting lanes; not taken, every
  // lane falls through.
  void uniformBranch(std::vector<Piece> &tail, const Stmt &st, size_t i) {
    const unsigned b = blockOf_[i], target = blockOf_[st.target], next = b + 1;
    // SCC: the active lanes' predicate bits are not all 0 (EXEC & p is EXEC
    // or 0), unless the compare just before left its SCC (sccFromCompare).
    if (!sccFromCompare(i))
      tail.push_back(inst(amd::Op::S_AND_MASK, vregOperand(tmpA_), {execOperand(), vregOperand(reg(st.guard, 1))}));
    const std::string ifTaken = st.guardNegated ? "s_cbranch_scc0 " : "s_cbranch_scc1 ";
    const std::string ifNotTaken = st.guardNegated ? "s_cbranch_scc1 " : "s_cbranch_scc0 ";
    if (target < numBlocks_ && target <= b) {
      tail.push_back(raw(ifTaken + bodyLabel(target)));
    } else if (target >= numBlocks_) { // to the end of the body: the lanes are done
      tail.push_back(raw(ifTaken + label(b, true)));
    } else if (target != next) {
      const std::string notTaken = label(b) + "_not_taken";
      const bool jump = forwardJumpSafe(b, target);
      tail.push_back(raw(ifNotTaken + notTaken));
      tail.push_back(inst(amd::Op::S_OR_MASK, vregOperand(mask(target)), {vregOperand(mask(target)), execOperand()}));
      tail.push_back(raw("s_branch " + (jump ? label(target) : label(b, true))));
      tail.push_back(labelPiece(notTaken));
    }
    if (next < numBlocks_) // not taken (or taken to the next block): every lane falls through
      addLanes(tail, mask(next), "", false);
  }

  // Is statement i a uniform branch right after the scalar compare of its
  // predicate in the same block? Then SCC still holds that compare when the
  // branch tests it: nothing in between writes SCC (s_cselect, waits and
  // hazard padding do not).
  bool sccFromCompare(size_t i) const {
    if (i == 0 || !uniform_.uniformBranches.count(i) || blockOf_[i - 1] != blockOf_[i] ||
        !uniform_.scalarStatements.count(i - 1))
      return false;
    const Stmt &cmp = k_.body[i - 1];
    return cmp.kind == Stmt::Kind::Compute && cmp.inst.form.opcode == ptx::Opcode::Setp &&
           cmp.inst.dsts[0].reg == k_.body[i].guard;
  }

  // The active lanes a guarded branch does not take, into the control-flow
  // temporary: EXEC & ~p (EXEC & p for @!p); SCC says whether there are any.
  void lanesNotTaking(std::vector<Piece> &out, const Stmt &st) {
    const MOperand p = vregOperand(reg(st.guard, 1)), a = vregOperand(tmpA_);
    out.push_back(inst(amd::Op::S_AND_MASK, a, {execOperand(), p}));
    if (!st.guardNegated)
      out.push_back(inst(amd::Op::S_XOR_MASK, a, {execOperand(), a}));
  }

  // In a divergent region a predicate write must leave the bits of inactive
  // lanes alone (a VOPC or SALU result covers every lane): the rule writes
  // a temporary, then p = p ^ ((p ^ new) & EXEC).
  void mergePredicates(const Stmt &s) {
    if (numBlocks_ == 1 && s.guard.empty())
      return;
    if (numBlocks_ > 1 && blockOf_[current_] == 0 && s.guard.empty())
      return; // block 0 runs with every live lane
    mir::LoweredInst &li = fn_.body.back();
    for (size_t d = 0; d < s.inst.dsts.size(); ++d) {
      if (!s.inst.dsts[d].isReg() || s.inst.form.dstWidth(static_cast<unsigned>(d)) != 1)
        continue;
      const unsigned vp = reg(s.inst.dsts[d].reg, 1);
      const unsigned fresh = persistentMask("%__pred_new");
      bool written = false;
      for (MInst &mi : li.insts) {
        if (written)
          for (MOperand &o : mi.srcs)
            if (o.kind == MOperand::Kind::VReg && o.vreg == vp)
              o.vreg = fresh;
        if (mi.dst.kind == MOperand::Kind::VReg && mi.dst.vreg == vp) {
          mi.dst.vreg = fresh;
          written = true;
        }
      }
      const MOperand p = vregOperand(vp), f = vregOperand(fresh), a = vregOperand(persistentMask("%__cf_a"));
      li.insts.push_back({amd::Op::S_XOR_MASK, a, {p, f}});
      li.insts.push_back({amd::Op::S_AND_MASK, a, {a, execOperand()}});
      li.insts.push_back({amd::Op::S_XOR_MASK, p, {p, a}});
    }
  }

  void emitPieces(const std::vector<Piece> &pieces, std::vector<std::string> &lines, int stmt) {
    for (const Piece &p : pieces) {
      switch (p.kind) {
      case Piece::Kind::Inst: emitWithWaits(p.mi, lines, stmt); break;
      case Piece::Kind::Raw: {
        std::string text = p.raw;
        std::vector<unsigned> reads;
        if (!p.args.empty()) {
          const size_t at = text.find("%0");
          text.replace(at, 2, printer::physName(p.args[0], fn_, out_.allocation, t_));
          reads = keys(vregOperand(p.args[0]));
        }
        push(text, lines, stmt, reads);
        break;
      }
      case Piece::Kind::Label:
        labels_[out_.code.size()].push_back(p.raw);
        delays_.blockBoundary(); // (a branch may arrive here from elsewhere)
        openDelay_.reset();
        break;
      case Piece::Kind::Drain: drainWaits(lines, stmt); break;
      }
    }
  }

  // At block boundaries every outstanding load is waited for: the waits
  // are exact within a block and conservative across blocks.
  void drainWaits(std::vector<std::string> &lines, int stmt) {
    bool loads = false;
    for (const Pending &p : vmem_)
      loads |= p.counter == targets::Counter::VmLoad;
    if (loads)
      push(targets::waitInstruction(targets::Counter::VmLoad, 0, t_), lines, stmt);
    const bool lgkm = t_.counters != targets::TargetInfo::Counters::Gfx12; // SMEM and LDS share lgkmcnt
    if (!smem_.empty() || (lgkm && !lds_.empty()))
      push(targets::waitInstruction(targets::Counter::Scalar, 0, t_), lines, stmt);
    if (!lgkm && !lds_.empty())
      push(targets::waitInstruction(targets::Counter::Lds, 0, t_), lines, stmt);
    vmem_.clear();
    smem_.clear();
    lds_.clear();
  }

  // Every memory access of the wave completes: loads and stores, global
  // and LDS.
  void drainAll(std::vector<std::string> &lines, int stmt) {
    bool stores = false;
    for (const Pending &p : vmem_)
      stores |= p.counter == targets::Counter::VmStore;
    drainWaits(lines, stmt);
    if (stores && t_.counters != targets::TargetInfo::Counters::Gfx9)
      push(targets::waitInstruction(targets::Counter::VmStore, 0, t_), lines, stmt);
    else if (stores)
      push(targets::waitInstruction(targets::Counter::VmLoad, 0, t_), lines, stmt);
  }

  void pushAll(const std::vector<std::string> &seq, std::vector<std::string> &lines, int stmt) {
    for (const std::string &l : seq)
      push(l, lines, stmt);
  }

  // bar.sync: the wave's memory accesses complete and are released at the
  // workgroup's scope, the waves meet (gfx12 splits the barrier into signal
  // and wait), then stale cached data is dropped (gfx10+: the workgroup's
  // waves may sit on two CUs with their own L0).
  void barrier(std::vector<std::string> &lines, int stmt) {
    drainAll(lines, stmt);
    pushAll(targets::releaseSequence(targets::FenceScope::Cta, t_), lines, stmt);
    if (t_.generation >= targets::Generation::GFX12) {
      push("s_barrier_signal -1", lines, stmt);
      push("s_barrier_wait -1", lines, stmt);
    } else {
      push("s_barrier", lines, stmt);
    }
    pushAll(targets::acquireSequence(targets::FenceScope::Cta, t_), lines, stmt);
  }

  // membar / fence: release, then acquire, at the fence's scope.
  void fence(targets::FenceScope scope, std::vector<std::string> &lines, int stmt) {
    drainAll(lines, stmt);
    pushAll(targets::releaseSequence(scope, t_), lines, stmt);
    pushAll(targets::acquireSequence(scope, t_), lines, stmt);
  }

  // ld.shared / st.shared -> ds_read / ds_write: the address is the offset
  // in the group segment (the low 32 bits of a 64-bit register), the 16-bit
  // unsigned offset field takes the constant part when it fits.
  void lowerShared(const Stmt &s, mir::LoweredInst &li) {
    for (size_t e = 0; e < s.values.size(); ++e) {
      std::optional<std::pair<MOperand, int64_t>> a = segmentAddress(s, e, li, sharedOffset_, 0xffff, "shared");
      if (!a || !emitElement(s, e, li, kLdsOps, a->first, mir::immOperand(static_cast<uint64_t>(a->second))))
        return;
    }
  }

  // ld.local / st.local -> scratch_load / scratch_store: the address is the
  // offset in the thread's private segment (the hardware interleaves the
  // lanes' segments); the immediate offset field takes the constant part
  // when it is in 0..2047, which every target's field holds.
  void lowerLocal(const Stmt &s, mir::LoweredInst &li) {
    for (size_t e = 0; e < s.values.size(); ++e) {
      std::optional<std::pair<MOperand, int64_t>> a = segmentAddress(s, e, li, localOffset_, 2047, "local");
      if (!a || !emitElement(s, e, li, kScratchOps, a->first, mir::immOperand(static_cast<uint64_t>(a->second))))
        return;
    }
  }

  // Scratch set up by the kernel itself (gfx900, gfx90a, gfx1030): the
  // descriptor asks for the flat-scratch base in s[2:3] and the wave's
  // offset in the last system SGPR (after the workgroup IDs, s4..s6).
  bool kernelInitialisesScratch() const { return privateBytes_ > 0 && !t_.architected_flat_scratch; }

  // ---- output: prologue, waits, descriptor ----

  // Register "keys" an operand touches: VGPR n -> n, SGPR n -> 1000 + n, VCC -> 2000.
  std::vector<unsigned> keys(const MOperand &o) const {
    std::vector<unsigned> k;
    const mir::Allocation &a = out_.allocation;
    switch (o.kind) {
    case MOperand::Kind::Vcc: k.push_back(2000); break;
    case MOperand::Kind::Phys:
      for (unsigned i = 0; i < o.physCount; ++i)
        k.push_back((o.physSgpr ? 1000 : 0) + o.physIndex + i);
      break;
    case MOperand::Kind::Pair:
      k.push_back(a.phys[o.vreg]);
      k.push_back(a.phys[o.vregHi]);
      break;
    case MOperand::Kind::VReg: {
      const mir::VReg &v = fn_.vregs[o.vreg];
      // (S32/S64 homes are SGPRs: keyed apart from the VGPR of the same number)
      const unsigned p = a.phys[o.vreg] + (mir::isSgprClass(v.cls) ? 1000 : 0);
      if (v.cls == mir::RegClass::Mask) {
        for (unsigned i = 0; i < (t_.wave_size == 64 ? 2u : 1u); ++i)
          k.push_back(p + i);
      } else if ((v.cls == mir::RegClass::V64 || v.cls == mir::RegClass::S64) && o.part == Part::Whole) {
        k.push_back(p);
        k.push_back(p + 1);
      } else {
        k.push_back(o.part == Part::Hi ? p + 1 : p);
      }
      break;
    }
    default: break;
    }
    return k;
  }

  struct Pending {
    targets::Counter counter;
    std::vector<unsigned> regs; // registers a load will write
  };

  // Emits the waits `mi` needs, then `mi`: a register a load has not yet
  // written is neither read nor overwritten before its counter says so.
  // VMEM loads return in order, so waiting for the newest conflicting load
  // leaves the later ones in flight (counter value = how many came after it);
  // SMEM loads may return out of order, so those wait for zero.
  void emitWithWaits(const MInst &mi, std::vector<std::string> &lines, int stmt) {
    std::vector<unsigned> touched = keys(mi.dst);
    for (const MOperand &s : mi.srcs)
      for (unsigned k : keys(s))
        touched.push_back(k);
    const bool shared = targets::storesShareLoadCounter(t_);
    auto conflicts = [&](const Pending &p) {
      for (unsigned r : p.regs)
        if (std::find(touched.begin(), touched.end(), r) != touched.end())
          return true;
      return false;
    };
    // Vector memory: the queue of loads (and, on gfx9, stores) in issue order.
    long newest = -1;
    for (size_t i = 0; i < vmem_.size(); ++i)
      if (vmem_[i].counter == targets::Counter::VmLoad && conflicts(vmem_[i]))
        newest = static_cast<long>(i);
    if (newest >= 0) {
      unsigned after = 0;
      for (size_t i = static_cast<size_t>(newest) + 1; i < vmem_.size(); ++i)
        after += shared || vmem_[i].counter == targets::Counter::VmLoad;
      push(targets::waitInstruction(targets::Counter::VmLoad, after, t_), lines, stmt);
      // Everything up to the waited-for load (in its counter) has completed.
      std::vector<Pending> rest;
      for (size_t i = 0; i < vmem_.size(); ++i)
        if (i > static_cast<size_t>(newest) || (!shared && vmem_[i].counter != targets::Counter::VmLoad))
          rest.push_back(vmem_[i]);
      vmem_ = std::move(rest);
    }
    bool scalarConflict = false, ldsConflict = false;
    for (const Pending &p : smem_)
      scalarConflict |= conflicts(p);
    for (const Pending &p : lds_)
      ldsConflict |= conflicts(p);
    // gfx9-11 count SMEM and LDS in one lgkmcnt (SMEM out of order): a wait
    // for zero there covers both. gfx12 has kmcnt and dscnt apart.
    const bool lgkm = t_.counters != targets::TargetInfo::Counters::Gfx12;
    if (scalarConflict || (ldsConflict && lgkm)) {
      push(targets::waitInstruction(targets::Counter::Scalar, 0, t_), lines, stmt);
      smem_.clear();
      if (lgkm)
        lds_.clear();
    }
    if (ldsConflict && !lds_.empty()) {
      push(targets::waitInstruction(targets::Counter::Lds, 0, t_), lines, stmt);
      lds_.clear();
    }
    targets::InstFacts facts;
    targets::AluInstr alu;
    describe(mi, facts, alu);
    issue(printer::printInst(mi, fn_, out_.allocation, t_), facts, alu, lines, stmt);
    const amd::OpDef &def = amd::opDef(mi.op);
    if (def.encoding == amd::Encoding::VMEM) {
      if (def.dst == amd::Slot::None)
        vmem_.push_back({targets::Counter::VmStore, {}});
      else
        vmem_.push_back({targets::Counter::VmLoad, keys(mi.dst)});
      // A FLAT load may read LDS: its result also waits for lgkmcnt (dscnt).
      if (amd::isFlat(mi.op) && def.dst != amd::Slot::None)
        lds_.push_back({targets::Counter::Lds, keys(mi.dst)});
    } else if (def.encoding == amd::Encoding::SMEM) {
      smem_.push_back({targets::Counter::Scalar, keys(mi.dst)});
    } else if (def.encoding == amd::Encoding::DS && def.dst != amd::Slot::None) {
      lds_.push_back({targets::Counter::Lds, keys(mi.dst)});
    }
  }

  // ---- issue: wait states for hazards, s_delay_alu hints ----

  void append(const std::string &line, std::vector<std::string> &lines, int stmt) {
    lines.push_back(line);
    out_.code.push_back(line);
    out_.codeStmt.push_back(stmt);
  }

  // Every instruction goes out through here, in issue order: first the wait
  // states the target's hazard table requires after what came before
  // (s_nop, or a v_nop where only a VALU instruction clears the hazard),
  // then on gfx11+ the s_delay_alu hint for its ALU dependencies.
  void issue(const std::string &line, targets::InstFacts facts, const targets::AluInstr &alu,
             std::vector<std::string> &lines, int stmt) {
    while (std::optional<targets::HazardHit> h = targets::findHazard(history_, facts, t_)) {
      if (h->needsValu) {
        targets::InstFacts nopFacts;
        nopFacts.cls = targets::InstClass::Valu;
        nopFacts.mnemonic = "v_nop";
        record("v_nop", nopFacts, targets::AluInstr{targets::AluInstr::Kind::Valu, targets::kValuLatency, 1, {}, {}},
               lines, stmt);
      } else {
        const unsigned n = std::min(h->missingStates, 16u);
        targets::InstFacts nopFacts;
        nopFacts.mnemonic = "s_nop";
        record("s_nop " + std::to_string(n - 1), nopFacts,
               targets::AluInstr{targets::AluInstr::Kind::Salu, targets::kSaluLatency, n, {}, {}}, lines, stmt);
      }
    }
    facts.mnemonic = line.substr(0, line.find(' '));
    record(line, facts, alu, lines, stmt);
  }

  // Emits `line` (after its s_delay_alu hint) and remembers it for hazard
  // checks; its issue cycles (s_nop N: N + 1) are its wait states.
  void record(const std::string &line, const targets::InstFacts &facts, const targets::AluInstr &alu,
              std::vector<std::string> &lines, int stmt) {
    if (t_.generation >= targets::Generation::GFX11)
      if (std::optional<targets::AluDelayTracker::Hint> hint = delays_.issue(alu)) {
        if (hint->patchOpen && openDelay_) {
          (*openDelay_->lines)[openDelay_->line] = hint->text;
          out_.code[openDelay_->code] = hint->text;
          openDelay_.reset();
        } else {
          append(hint->text, lines, stmt);
          openDelay_.reset();
          if (hint->leavesOpen)
            openDelay_ = OpenDelay{&lines, lines.size() - 1, out_.code.size() - 1};
        }
      }
    append(line, lines, stmt);
    history_.push_back({facts, alu.cycles, static_cast<long>(out_.code.size() - 1)});
    if (history_.size() > 16)
      history_.pop_front();
  }

  // A line of ABI, wait or control-flow code, classified by its mnemonic.
  void push(const std::string &line, std::vector<std::string> &lines, int stmt,
            const std::vector<unsigned> &readKeys = {}) {
    const std::string m = line.substr(0, line.find(' '));
    targets::InstFacts f;
    targets::AluInstr a;
    a.latency = targets::kSaluLatency;
    if (m.rfind("s_load", 0) == 0) {
      f.cls = targets::InstClass::Smem;
      a.kind = targets::AluInstr::Kind::Other;
    } else if (targets::isCacheMaintenance(m)) {
      f.cls = targets::InstClass::Vmem;
      a.kind = targets::AluInstr::Kind::Reset;
    } else if (m == "s_branch" || m.rfind("s_cbranch", 0) == 0) {
      f.cls = targets::InstClass::Branch;
    } else if (m.rfind("s_wait", 0) == 0 || m == "s_nop" || m.rfind("s_barrier", 0) == 0 || m == "s_endpgm") {
      f.cls = targets::InstClass::Other;
    } else {
      f.cls = targets::InstClass::Salu;
    }
    for (unsigned k : readKeys)
      if (k >= 1000 && k < 2000) {
        f.sgprReads.push_back(k - 1000);
        a.reads.push_back(k);
      }
    issue(line, f, a, lines, stmt);
  }

  // What hazards and delays need to know about one of our instructions.
  void describe(const MInst &mi, targets::InstFacts &f, targets::AluInstr &a) const {
    const amd::OpDef &def = amd::opDef(mi.op);
    switch (def.encoding) {
    case amd::Encoding::SOP1:
    case amd::Encoding::SOP2:
    case amd::Encoding::SOPC:
      f.cls = targets::InstClass::Salu;
      a.kind = targets::AluInstr::Kind::Salu;
      a.latency = targets::kSaluLatency;
      break;
    case amd::Encoding::VMEM:
      f.cls = targets::InstClass::Vmem;
      a.kind = targets::AluInstr::Kind::Reset;
      break;
    case amd::Encoding::DS:
      f.cls = targets::InstClass::Lds;
      a.kind = targets::AluInstr::Kind::Reset;
      break;
    case amd::Encoding::SMEM:
      f.cls = targets::InstClass::Smem;
      a.kind = targets::AluInstr::Kind::Other;
      break;
    default:
      f.cls = targets::InstClass::Valu;
      a.kind = targets::AluInstr::Kind::Valu;
      switch (mi.op) {
      case amd::Op::V_MUL_LO_U32:
      case amd::Op::V_MUL_HI_U32:
      case amd::Op::V_MUL_HI_I32:
      case amd::Op::V_MAD_U64_U32:
      case amd::Op::V_MAD_I64_I32: a.latency = targets::kQuarterRateLatency; break;
      case amd::Op::V_LSHLREV_B64:
      case amd::Op::V_LSHRREV_B64:
      case amd::Op::V_ASHRREV_I64: a.latency = targets::kValu64ShiftLatency; break;
      default: a.latency = targets::kValuLatency; break;
      }
    }
    // Hazard facts number SGPRs as the hardware does (VCC = 106/107);
    // delays track explicit registers only, so VCC (implicit in the VOP2
    // carry forms) is left out there.
    auto add = [&](const MOperand &o, bool write) {
      for (unsigned k : keys(o)) {
        if (k >= 2000) {
          for (unsigned i = 0; i < (t_.wave_size == 64 ? 2u : 1u); ++i)
            (write ? f.sgprWrites : f.sgprReads).push_back(106 + i);
          continue;
        }
        if (k >= 1000)
          (write ? f.sgprWrites : f.sgprReads).push_back(k - 1000);
        else
          (write ? f.vgprWrites : f.vgprReads).push_back(k);
        (write ? a.writes : a.reads).push_back(k);
      }
    };
    add(mi.dst, true);
    for (const MOperand &o : mi.srcs)
      add(o, false);
    if (def.writesVcc())
      add(MOperand{MOperand::Kind::Vcc, 0, 0, Part::Whole, 0}, true);
    if (def.encoding == amd::Encoding::VMEM && def.dst == amd::Slot::None)
      f.storeDataBytes = def.srcs[1] == amd::Slot::V64 ? 8 : 4;
  }

  void emitPrologue(unsigned paramDwords) {
    // The workgroup IDs into s2..s4 from where this target delivers them,
    // before any scalar load may write the registers they arrive in.
    if (kernelInitialisesScratch()) {
      // FLAT_SCRATCH = flat_scratch_init + the wave's offset (AMDGPUUsage
      // "Flat Scratch"); gfx10 writes it through s_setreg. Then the IDs
      // move down from s4..s6.
      if (t_.generation == targets::Generation::GFX9) {
        push("s_add_u32 flat_scratch_lo, s2, s7", out_.prologue, -1);
        push("s_addc_u32 flat_scratch_hi, s3, 0", out_.prologue, -1);
      } else {
        push("s_add_u32 s2, s2, s7", out_.prologue, -1);
        push("s_addc_u32 s3, s3, 0", out_.prologue, -1);
        push("s_setreg_b32 hwreg(HW_REG_FLAT_SCR_LO), s2", out_.prologue, -1);
        push("s_setreg_b32 hwreg(HW_REG_FLAT_SCR_HI), s3", out_.prologue, -1);
      }
      for (unsigned d = 0; d < 3; ++d)
        push("s_mov_b32 s" + std::to_string(kWorkgroupId + d) + ", s" + std::to_string(4 + d), out_.prologue, -1);
    } else if (t_.architected_workgroup_ids) {
      push("s_mov_b32 s" + std::to_string(kWorkgroupId) + ", ttmp9", out_.prologue, -1);
      push("s_and_b32 s" + std::to_string(kWorkgroupId + 1) + ", ttmp7, 0xffff", out_.prologue, -1);
      push("s_lshr_b32 s" + std::to_string(kWorkgroupId + 2) + ", ttmp7, 16", out_.prologue, -1);
    } else if (t_.min_user_sgpr_count > 2) {
      for (unsigned d = 0; d < 3; ++d)
        push("s_mov_b32 s" + std::to_string(kWorkgroupId + d) + ", s" + std::to_string(t_.min_user_sgpr_count + d),
             out_.prologue, -1);
    }
    MOperand kernarg = mir::physReg(true, kKernargPtr, 2);
    std::vector<MInst> loads;
    auto sload = [&](unsigned sgpr, unsigned dwords, unsigned byteOffset) {
      amd::Op op = dwords == 1 ? amd::Op::S_LOAD_B32 : dwords == 2 ? amd::Op::S_LOAD_B64
                   : dwords == 4 ? amd::Op::S_LOAD_B128 : amd::Op::S_LOAD_B256;
      loads.push_back({op, mir::physReg(true, sgpr, dwords), {kernarg, mir::immOperand(byteOffset)}});
    };
    if (usesHidden_)
      sload(kHiddenSgprs, 8, out_.hiddenArgsOffset);
    // The explicit arguments, in aligned chunks (x8 and x4 tuples start at a
    // multiple of 4 SGPRs, x2 at an even one).
    unsigned done = 0;
    while (done < paramDwords) {
      const unsigned left = paramDwords - done;
      const unsigned n = left >= 8 ? 8 : left >= 4 ? 4 : left >= 2 ? 2 : 1;
      sload(kParamSgprs + done, n, done * 4);
      done += n;
    }
    for (const MInst &mi : loads) {
      emitWithWaits(mi, out_.prologue, -1);
    }
    // Module variables: their addresses, PC-relative as LLVM's code model
    // for AMDHSA does it (s_getpc_b64 gives the next instruction's address;
    // the +4/+12 addends account for where each literal sits after it).
    for (const auto &[name, sg] : globalSgpr_) {
      const std::string lo = "s" + std::to_string(sg), hi = "s" + std::to_string(sg + 1);
      const std::string pair = "s[" + std::to_string(sg) + ":" + std::to_string(sg + 1) + "]";
      if (name.front() == ' ') { // an aperture (see apertureAddress)
        push("s_mov_b64 " + pair + ", " + name.substr(1), out_.prologue, -1);
        continue;
      }
      push("s_getpc_b64 " + pair, out_.prologue, -1);
      push("s_add_u32 " + lo + ", " + lo + ", " + name + "@rel32@lo+4", out_.prologue, -1);
      push("s_addc_u32 " + hi + ", " + hi + ", " + name + "@rel32@hi+12", out_.prologue, -1);
    }
  }

  void emitBody() {
    out_.statements.resize(k_.body.size());
    for (size_t i = 0; i < k_.body.size(); ++i) {
      const Stmt &s = k_.body[i];
      const mir::LoweredInst &li = fn_.body[i];
      mir::TranslatedInstruction &ti = out_.statements[i];
      ti.ptxText = s.text;
      ti.loc = s.loc;
      ti.rule = li.rule;
      ti.note = s.note; // folded or fused statements (see constant_operands, instruction_fusion)
      if (ti.note.empty() && loweringNote_.count(i))
        ti.note = loweringNote_.at(i);
      ti.cycles = li.rule ? costs_.cost(*li.rule, t_).cycles : 0;
      emitPieces(before_[i], ti.gcn, static_cast<int>(i));
      for (const MInst &mi : li.insts)
        emitWithWaits(mi, ti.gcn, static_cast<int>(i));
      if (s.kind == Stmt::Kind::Barrier)
        barrier(ti.gcn, static_cast<int>(i));
      if (s.kind == Stmt::Kind::Fence)
        fence(s.scope, ti.gcn, static_cast<int>(i));
      emitPieces(after_[i], ti.gcn, static_cast<int>(i));
      // The kernel's last statement, an unguarded ret, ends the program itself.
      if (s.kind == Stmt::Kind::Return && s.guard.empty() && i + 1 == k_.body.size())
        push("s_endpgm", ti.gcn, static_cast<int>(i));
    }
    if (k_.body.empty() || k_.body.back().kind != Stmt::Kind::Return || !k_.body.back().guard.empty()) {
      push("s_endpgm", out_.epilogue, -1); // falling off the end of a kernel returns
    }
  }

  void assemble() {
    std::string a;
    a += "\t.text\n\t.globl " + k_.name + "\n\t.p2align 8\n\t.type " + k_.name + ",@function\n" + k_.name + ":\n";
    unsigned lines = 5; // (counted as the text grows: recounting it per line was quadratic)
    for (size_t i = 0; i <= out_.code.size(); ++i) {
      if (auto it = labels_.find(i); it != labels_.end())
        for (const std::string &l : it->second) {
          a += l + ":\n";
          ++lines;
        }
      if (i < out_.code.size()) {
        out_.codeAsmLine.push_back(kHeaderLines + 1 + lines);
        a += "\t" + out_.code[i] + "\n";
        lines += 1 + static_cast<unsigned>(std::count(out_.code[i].begin(), out_.code[i].end(), '\n'));
      }
    }
    a += ".Lfunc_end_" + k_.name + ":\n\t.size " + k_.name + ", .Lfunc_end_" + k_.name + "-" + k_.name + "\n";
    // The descriptor (AMDGPUUsage "Kernel Descriptor"): the hardware sets up
    // exactly the registers the code above reads.
    const unsigned nv = std::max(out_.numVgprs, 1u);
    a += "\t.rodata\n\t.p2align 6\n\t.amdhsa_kernel " + k_.name + "\n";
    a += "\t\t.amdhsa_group_segment_fixed_size " + std::to_string(groupBytes_) + "\n";
    a += "\t\t.amdhsa_private_segment_fixed_size " + std::to_string(privateBytes_) + "\n";
    a += "\t\t.amdhsa_kernarg_size " + std::to_string(out_.kernargBytes) + "\n";
    a += "\t\t.amdhsa_user_sgpr_count " +
         std::to_string(std::max(kernelInitialisesScratch() ? 4u : 2u, t_.min_user_sgpr_count)) + "\n";
    a += "\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1\n";
    if (kernelInitialisesScratch())
      a += "\t\t.amdhsa_user_sgpr_flat_scratch_init 1\n\t\t.amdhsa_system_sgpr_private_segment_wavefront_offset 1\n";
    else if (privateBytes_)
      a += "\t\t.amdhsa_enable_private_segment 1\n";
    a += "\t\t.amdhsa_system_sgpr_workgroup_id_x 1\n";
    a += "\t\t.amdhsa_system_sgpr_workgroup_id_y 1\n";
    a += "\t\t.amdhsa_system_sgpr_workgroup_id_z 1\n";
    a += "\t\t.amdhsa_system_vgpr_workitem_id 2\n";
    a += "\t\t.amdhsa_next_free_vgpr " + std::to_string(nv) + "\n";
    a += "\t\t.amdhsa_next_free_sgpr " + std::to_string(out_.numSgprs) + "\n";
    if (t_.is_cdna)
      a += "\t\t.amdhsa_accum_offset " + std::to_string(alignUp(nv, 4)) + "\n";
    if (t_.wave32())
      a += "\t\t.amdhsa_wavefront_size32 1\n";
    a += "\t.end_amdhsa_kernel\n";
    out_.assembly = a;
    out_.metadata = metadataEntry(nv);
  }

  // One `amdhsa.kernels` item: the explicit arguments at their offsets
  // (8-byte ones as global buffers: nvcc writes pointers as .u64), then the
  // hidden arguments the code reads, at the offsets it reads them.
  std::string metadataEntry(unsigned nv) const {
    std::string m = "  - .args:\n";
    auto arg = [&](const std::string &name, unsigned offset, unsigned size, const char *kind, bool global) {
      m += "      - ";
      if (global)
        m += ".address_space: global\n        ";
      if (!name.empty() && readsAsString(name))
        m += ".name: " + name + "\n        ";
      m += ".offset: " + std::to_string(offset) + "\n        .size: " + std::to_string(size) +
           "\n        .value_kind: " + kind + "\n";
    };
    for (const kernel::Param &p : k_.params)
      arg(p.name, p.offset, p.size, p.pointerSized ? "global_buffer" : "by_value", p.pointerSized);
    const unsigned h = out_.hiddenArgsOffset;
    static const std::pair<const char *, unsigned> hidden[] = {
        {"hidden_block_count_x", 4}, {"hidden_block_count_y", 4}, {"hidden_block_count_z", 4},
        {"hidden_group_size_x", 2},  {"hidden_group_size_y", 2},  {"hidden_group_size_z", 2},
        {"hidden_remainder_x", 2},   {"hidden_remainder_y", 2},   {"hidden_remainder_z", 2}};
    unsigned off = h;
    for (const auto &[kind, size] : hidden) {
      arg("", off, size, kind, false);
      off += size;
    }
    m += "    .group_segment_fixed_size: " + std::to_string(groupBytes_) + "\n";
    m += "    .kernarg_segment_align: 8\n";
    m += "    .kernarg_segment_size: " + std::to_string(out_.kernargBytes) + "\n";
    m += "    .max_flat_workgroup_size: 1024\n";
    m += "    .name: " + k_.name + "\n";
    m += "    .private_segment_fixed_size: " + std::to_string(privateBytes_) + "\n";
    m += "    .sgpr_count: " + std::to_string(out_.numSgprs) + "\n";
    m += "    .symbol: " + k_.name + ".kd\n";
    m += "    .vgpr_count: " + std::to_string(nv) + "\n";
    m += "    .wavefront_size: " + std::to_string(t_.wave_size) + "\n";
    return m;
  }

  const kernel::Kernel &k_;
  const targets::TargetInfo &t_;
  cost::CostModel &costs_;
  KernelTranslation &out_;
  Diagnostics &diags_;
  const Options &opts_;
  mir::Function &fn_;
  bool usesHidden_ = false;
  std::vector<Pending> vmem_, smem_, lds_;
  std::map<std::string, unsigned> sharedOffset_; // .shared variable -> offset in the group segment
  std::map<std::string, unsigned> localOffset_;  // .local variable -> offset in the private segment
  unsigned privateBytes_ = 0;
  std::map<std::string, unsigned> globalSgpr_;   // .const/.global variable (or " aperture") -> SGPR pair with its address
  std::map<std::string, Space> pointerSpaces_;   // generic pointers known to point into one space
  std::set<unsigned> loopHeads_;                 // blocks entered by a back edge's uniform fast path
  std::optional<unsigned> zeroVgpr_;             // see zeroVgpr()
  std::map<unsigned, MOperand> inPlace_;          // vreg read from fixed SGPRs everywhere (no VGPR copy)
  std::map<size_t, std::string> loweringNote_;    // statement -> how it was lowered, where the rule does not say
  bool outOfSgprsWithHomes_ = false;
  bool genericReachesSegments_ = false;          // generic pointers into shared/local exist: generic accesses are FLAT
  unsigned globalBase_ = 0;
  unsigned groupBytes_ = 0;
  // Control flow.
  kernel::ControlFlowGraph cfg_;
  kernel::UniformValues uniform_;               // registers with one value per wave (uniform_values.hpp)
  std::map<std::string, size_t> readCounts_;    // register -> statements reading it (predicateReaders)
  std::vector<unsigned> blockOf_, blockStart_, maskVreg_;
  unsigned numBlocks_ = 1;
  unsigned tmpA_ = 0;
  size_t current_ = 0;
  std::vector<std::vector<Piece>> before_, after_;
  std::map<size_t, std::vector<std::string>> labels_; // code index -> labels before it
  // Issue order: hazard history and s_delay_alu state.
  std::deque<targets::IssuedInstruction> history_;
  targets::AluDelayTracker delays_;
  struct OpenDelay {
    std::vector<std::string> *lines;
    size_t line, code;
  };
  std::optional<OpenDelay> openDelay_;
};

} // namespace

std::string moduleHeader(const targets::TargetInfo &t) {
  return "\t.amdgcn_target \"amdgcn-amd-amdhsa--" + t.name + "\"\n\t.amdhsa_code_object_version 5\n";
}

std::string variablesAssembly(const std::vector<kernel::Variable> &variables) {
  std::string a;
  for (const kernel::Variable &var : variables) {
    const kernel::Variable *v = &var;
    const std::string &n = v->name;
    // .const data is read-only; .global data is writable.
    a += v->space == kernel::Space::Const ? "\t.section .rodata." + n + ",\"a\",@progbits\n"
                                          : "\t.section .data." + n + ",\"aw\",@progbits\n";
    unsigned log2 = 0;
    while ((1u << log2) < std::max(v->align, 1u))
      ++log2;
    a += "\t.p2align " + std::to_string(log2) + "\n\t.type " + n + ",@object\n" + n + ":\n";
    std::vector<uint8_t> bytes = v->init;
    bytes.resize(v->size, 0);
    for (size_t i = 0; i < bytes.size(); i += 16) {
      a += "\t.byte ";
      for (size_t j = i; j < std::min(bytes.size(), i + 16); ++j)
        a += (j > i ? "," : "") + std::to_string(bytes[j]);
      a += "\n";
    }
    a += "\t.size " + n + ", " + std::to_string(v->size) + "\n";
  }
  return a;
}

std::string moduleMetadata(const targets::TargetInfo &t, const std::vector<std::string> &kernelEntries) {
  std::string m = "\t.amdgpu_metadata\n---\namdhsa.kernels:\n";
  for (const std::string &e : kernelEntries)
    m += e;
  m += "amdhsa.target: amdgcn-amd-amdhsa--" + t.name + "\namdhsa.version:\n  - 1\n  - 2\n...\n\t.end_amdgpu_metadata\n";
  return m;
}

bool translateKernel(const kernel::Kernel &source, const targets::TargetInfo &t, cost::CostModel &costs,
                     KernelTranslation &out, Diagnostics &diags, const Options &options) {
  // A forced rule (tests) applies to the statements as written.
  const select::RuleCostFn cost = cost::ruleCostFn(costs);
  const kernel::Kernel k =
      options.forcedRule ? source
                         : kernel::fuseAdds(kernel::fuseLogicTrees(kernel::substituteConstantOperands(source, t, cost), t, cost),
                                            t, cost);
  const size_t diagsBefore = diags.size();
  bool lowered;
  {
    Lowering l(k, t, costs, out, diags, options);
    lowered = l.run();
    if (!lowered && l.outOfSgprsWithHomes()) {
      // Again without SGPR homes for computed uniform values (see Options).
      diags.resize(diagsBefore);
      out = KernelTranslation{};
      Options withoutHomes = options;
      withoutHomes.scalarHomeSgprs = 0;
      Lowering again(k, t, costs, out, diags, withoutHomes);
      lowered = again.run();
    }
  }
  if (!lowered)
    return false;
  // LLVM MC is the authority: the kernel must assemble for the target.
  mc::AssembleResult r = costs.assembler(t).assemble(moduleHeader(t) + out.assembly, mc::OutputKind::Asm);
  if (!r.ok) {
    for (const mc::McDiagnostic &d : r.diagnostics) {
      long codeLine = -1;
      for (size_t i = 0; i < out.codeAsmLine.size(); ++i)
        if (out.codeAsmLine[i] == d.line)
          codeLine = static_cast<long>(i);
      ::ptx::ast::SourceLoc loc = k.loc;
      std::string from = "the kernel's ABI code";
      if (codeLine >= 0 && size_t(codeLine) < out.code.size() && out.codeStmt[size_t(codeLine)] >= 0) {
        const mir::TranslatedInstruction &ti = out.statements[size_t(out.codeStmt[size_t(codeLine)])];
        loc = ti.loc;
        from = ti.rule ? "rule '" + ti.rule->name + "'" : "the lowering of '" + ti.ptxText + "'";
      }
      error(diags, loc,
            "internal error: LLVM MC rejected '" + d.source_line + "' from " + from + " on " + t.name + ": " + d.message);
    }
    return false;
  }
  return true;
}

} // namespace p2a::klower
