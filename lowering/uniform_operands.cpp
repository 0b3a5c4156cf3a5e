// Bank assignment for uniform values (uniform_values.hpp): VALU readers take
// a uniform value from its SGPRs in place, within the constant bus limit,
// and VGPR copies nothing reads any more are dropped.
#include "lowering/lowering.hpp"
#include "isel/mir_printer.hpp"

namespace p2a::klower {

MOperand Lowering::homeOf(const kernel::UniformSource &u) {
  using K = kernel::UniformSource::Kind;
  switch (u.kind) {
  case K::Argument: return mir::sgprs(kParamSgprs + u.offset / 4, u.bits / 32);
  case K::WorkgroupId: return mir::sgprs(kWorkgroupId + u.dim);
  case K::GridSize: return mir::sgprs(kHiddenSgprs + u.dim);
  case K::VariableAddress: return mir::sgprs(variableAddress(u.variable), 2);
  case K::Computed: break;
  }
  return vregOperand(scalarHome(u.computedBy, u.bits));
}

unsigned Lowering::homeWords(const MOperand &h) const {
  return h.kind == MOperand::Kind::Phys ? h.physCount : fn_.vregs[h.vreg].cls == mir::RegClass::S64 ? 2 : 1;
}

MOperand Lowering::homeHalf(const MOperand &h, Part p) {
  if (p == Part::Whole)
    return h;
  if (h.kind == MOperand::Kind::Phys)
    return mir::sgprs(h.physIndex + (p == Part::Hi ? 1 : 0));
  return vregOperand(h.vreg, p);
}

void Lowering::bindScalarSources() {
  std::map<unsigned, MOperand> alias;
  for (const auto &[name, v] : fn_.scalarHomes) {
    auto it = uniform_.registers.find(name);
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

bool Lowering::valuTakesSgpr(const MInst &mi) {
  const amd::OpDef &def = amd::opDef(mi.op);
  const bool valu = def.encoding == amd::Encoding::VOP1 || def.encoding == amd::Encoding::VOP2 ||
                    def.encoding == amd::Encoding::VOP3 || def.encoding == amd::Encoding::VOPC;
  return valu && mi.op != amd::Op::V_LSHRREV_B32_SDWA_W0 && mi.op != amd::Op::V_DUAL_CNDMASK_PAIR;
}

std::set<std::string> Lowering::scalarReads(const MInst &mi) const {
  std::set<std::string> reads;
  const amd::OpDef &def = amd::opDef(mi.op);
  for (size_t i = 0; i < mi.srcs.size(); ++i) {
    const MOperand &o = mi.srcs[i];
    if (o.kind == MOperand::Kind::Phys && o.file == mir::RegFile::Sgpr)
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

size_t Lowering::constantBusLimit(const MInst &mi) const {
  const bool shift64 = mi.op == amd::Op::V_LSHLREV_B64 || mi.op == amd::Op::V_LSHRREV_B64 || mi.op == amd::Op::V_ASHRREV_I64;
  return shift64 ? t_.constant_bus_limit_64bit_shift : t_.constant_bus_limit;
}

void Lowering::readUniformsInPlace() {
  bindScalarSources();
  // Per vreg, the index of its home in `homes` (-1: none); `withHome` the
  // vregs that have one, ascending. (Vectors: a tree by vreg was searched
  // for every operand of every VALU instruction.)
  std::vector<int> homeIndex(fn_.vregs.size(), -1);
  std::vector<MOperand> homes;
  std::vector<unsigned> withHome;
  for (const auto &[name, u] : uniform_.registers)
    if (auto it = fn_.ptxRegs.find(name); it != fn_.ptxRegs.end() && u.bits != 1) // (a predicate is its home)
      if (int &h = homeIndex[it->second]; h < 0) {
        h = static_cast<int>(homes.size());
        homes.push_back(homeOf(u));
        withHome.push_back(it->second);
      }
  if (homes.empty())
    return;
  std::sort(withHome.begin(), withHome.end());
  auto homeOfVreg = [&](unsigned v) -> const MOperand & { return homes[static_cast<size_t>(homeIndex[v])]; };
  for (mir::LoweredInst &li : fn_.body)
    for (MInst &mi : li.insts) {
      if (!valuTakesSgpr(mi))
        continue;
      const amd::OpDef &def = amd::opDef(mi.op);
      for (size_t i = 0; i < mi.srcs.size() && i < def.srcs.size(); ++i) {
        MOperand &o = mi.srcs[i];
        if (o.kind != MOperand::Kind::VReg || homeIndex[o.vreg] < 0)
          continue;
        const MOperand &sg = homeOfVreg(o.vreg);
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
        if (scalarReads(mi).size() > constantBusLimit(mi))
          o = before;
      }
    }
  // A register (or half of one) no instruction reads any more needs no
  // VGPR copy: the moves that made it go.
  // (Per vreg, a bit per part read: the body's every operand is visited.)
  std::vector<unsigned char> partsRead(fn_.vregs.size(), 0);
  auto bit = [](Part p) { return static_cast<unsigned char>(1u << static_cast<unsigned>(p)); };
  auto read = [&](unsigned v, Part p) {
    if (p == Part::Whole)
      partsRead[v] |= bit(Part::Lo) | bit(Part::Hi);
    partsRead[v] |= bit(p);
  };
  auto stillRead = [&](unsigned v, Part p) { return (partsRead[v] & bit(p)) != 0; };
  for (const mir::LoweredInst &li : fn_.body)
    for (const MInst &mi : li.insts)
      for (const MOperand &o : mi.srcs)
        if (o.kind == MOperand::Kind::VReg) {
          read(o.vreg, o.part);
        } else if (o.kind == MOperand::Kind::Pair) {
          read(o.vreg, Part::Whole);
          read(o.vregHi, Part::Whole);
        }
  // Per vreg with a home: whether nothing reads its VGPR copy any more (1),
  // or something still does (0); -1 for the others.
  std::vector<signed char> unread(fn_.vregs.size(), -1);
  for (unsigned v : withHome) {
    const bool none = !stillRead(v, Part::Lo) && !stillRead(v, Part::Hi) && !stillRead(v, Part::Whole);
    unread[v] = none ? 1 : 0;
    if (none) {
      inPlace_.emplace(v, homeOfVreg(v));
      fn_.vregs[v].readInPlace = true;
    }
  }
  // One pass over the body (per register, a pass each was quadratic in
  // kernels with thousands of uniform registers); a statement's note names
  // the lowest register whose copy it lost.
  for (size_t i = 0; i < fn_.body.size(); ++i) {
    std::vector<MInst> &insts = fn_.body[i].insts;
    std::optional<unsigned> first;
    insts.erase(std::remove_if(insts.begin(), insts.end(),
                               [&](const MInst &mi) {
                                 if (mi.dst.kind != MOperand::Kind::VReg)
                                   return false;
                                 const unsigned v = mi.dst.vreg;
                                 if (unread[v] < 0 ||
                                     !(unread[v] == 1 || (mi.dst.part != Part::Whole && !stillRead(v, mi.dst.part))))
                                   return false;
                                 first = first ? std::min(*first, v) : v;
                                 return true;
                               }),
                insts.end());
    if (first)
      loweringNote_.try_emplace(i, unread[*first] == 1 ? "read in place from " + homeText(homeOfVreg(*first)) +
                                                             " (a uniform value: no VGPR copy)"
                                                       : "partly read in place from " + homeText(homeOfVreg(*first)));
  }
}

void Lowering::readLiteralsFromSgprs() {
  if (t_.has_literal_in_vop3 || opts_.scalarHomeSgprs == 0) // (no homes: a retry short of SGPRs)
    return;
  // The moves legalisation made: `v_mov_b32 tN, literal` into a temporary
  // read only by the statement's other instructions.
  struct Move {
    size_t stmt, index;
  };
  std::map<uint32_t, std::vector<Move>> moves;
  for (size_t i = 0; i < fn_.body.size(); ++i) {
    const std::vector<MInst> &insts = fn_.body[i].insts;
    for (size_t j = 0; j < insts.size(); ++j) {
      const MInst &mi = insts[j];
      if (mi.op != amd::Op::V_MOV_B32 || mi.dst.kind != MOperand::Kind::VReg || mi.srcs.size() != 1 ||
          mi.srcs[0].kind != MOperand::Kind::Imm || fn_.vregs[mi.dst.vreg].role != mir::VRegRole::Temporary ||
          fn_.vregs[mi.dst.vreg].cls != mir::RegClass::V32 ||
          amd::isInlineConstant(static_cast<int32_t>(static_cast<uint32_t>(mi.srcs[0].imm))))
        continue;
      moves[static_cast<uint32_t>(mi.srcs[0].imm)].push_back({i, j});
    }
  }
  // The most used literals (one used once still moves its v_mov_b32 to the
  // SALU, as clang sets them: s_mov_b32 once per wave).
  std::vector<std::pair<size_t, uint32_t>> byUses;
  for (const auto &[value, at] : moves)
    byUses.push_back({at.size(), value});
  std::sort(byUses.begin(), byUses.end(), [](const auto &a, const auto &b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  if (byUses.size() > kLiteralSgprs)
    byUses.resize(kLiteralSgprs);
  std::vector<std::pair<size_t, size_t>> dropped; // moves made unnecessary, removed at the end (indices stay valid)
  for (const auto &[uses, value] : byUses) {
    const unsigned sgpr = select::vregFor(fn_, "%__literal_" + std::to_string(value), 32, true, mir::VRegRole::Lowering);
    bool used = false;
    for (const Move &m : moves.at(value)) {
      std::vector<MInst> &insts = fn_.body[m.stmt].insts;
      const unsigned temp = insts[m.index].dst.vreg;
      // Every reader of the temporary takes the SGPR, or the move stays.
      std::vector<std::pair<size_t, size_t>> readers;
      bool all = true;
      for (size_t j = 0; j < insts.size() && all; ++j) {
        if (j == m.index)
          continue;
        if (insts[j].dst.kind == MOperand::Kind::VReg && insts[j].dst.vreg == temp)
          all = false; // written again: not a plain constant
        for (size_t k = 0; k < insts[j].srcs.size(); ++k)
          if (insts[j].srcs[k].kind == MOperand::Kind::Pair &&
              (insts[j].srcs[k].vreg == temp || insts[j].srcs[k].vregHi == temp))
            all = false;
          else if (insts[j].srcs[k].kind == MOperand::Kind::VReg && insts[j].srcs[k].vreg == temp)
            readers.push_back({j, k});
      }
      for (const auto &[j, k] : readers) {
        MInst trial = insts[j];
        const amd::OpDef &def = amd::opDef(trial.op);
        if (!all || !valuTakesSgpr(trial) || k >= def.srcs.size() || def.srcs[k] != amd::Slot::V32) {
          all = false;
          break;
        }
        trial.srcs[k] = vregOperand(sgpr);
        all = scalarReads(trial).size() <= constantBusLimit(trial);
      }
      if (!all || readers.empty())
        continue;
      for (const auto &[j, k] : readers)
        insts[j].srcs[k] = vregOperand(sgpr);
      dropped.push_back({m.stmt, m.index});
      loweringNote_.try_emplace(m.stmt, "the literal read from the SGPR set once in the prologue");
      used = true;
    }
    if (used)
      literalSgprs_.push_back({sgpr, value});
  }
  std::sort(dropped.rbegin(), dropped.rend()); // (later instructions of a statement first)
  for (const auto &[stmt, index] : dropped)
    fn_.body[stmt].insts.erase(fn_.body[stmt].insts.begin() + static_cast<long>(index));
}

std::string Lowering::homeText(const MOperand &h) const {
  return h.kind == MOperand::Kind::Phys ? sgprText(h) : "its scalar-ALU SGPR" + std::string(homeWords(h) == 2 ? " pair" : "");
}

std::string Lowering::sgprText(const MOperand &sg) { return mir::physicalRegText(sg); }

} // namespace p2a::klower
