#include "validation/mir_eval.hpp"

#include "targets/target_info.hpp"

#include <stdexcept>

namespace p2a::mireval {

using mir::MOperand;
using rules::Part;
using sem::BV;

namespace {

struct LaneState {
  std::map<unsigned, uint32_t> vgpr;
  std::map<unsigned, uint32_t> sgprBit; // lane bit of a mask register (by first SGPR)
  uint32_t vcc = 0;
  uint32_t scc = 0;
  uint32_t junk = 0x9e3779b9u;

  uint32_t nextJunk() {
    junk = junk * 1664525u + 1013904223u;
    return junk;
  }
  uint32_t readV(unsigned r) {
    auto it = vgpr.find(r);
    return it == vgpr.end() ? (vgpr[r] = nextJunk()) : it->second;
  }
};

} // namespace

Values run(const translate::Translation &tr, const targets::TargetInfo &t, const Values &inputs) {
  const mir::Function &fn = tr.function;
  const mir::Allocation &a = tr.allocation;
  LaneState st;
  // One lane's view: a scalar register (S32/S64) is the value every lane
  // sees, kept apart from VGPR numbers by an offset.
  constexpr unsigned kScalarBase = 1u << 20;
  auto physKey = [&](unsigned v) {
    const mir::RegClass c = fn.vregs[v].cls;
    return a.phys[v] + (c == mir::RegClass::S32 || c == mir::RegClass::S64 ? kScalarBase : 0);
  };
  for (unsigned v = 0; v < fn.vregs.size(); ++v) {
    const mir::VReg &vr = fn.vregs[v];
    const std::string &name = fn.ptxName(v);
    auto in = inputs.find(name);
    if (name.empty() || in == inputs.end())
      continue;
    const unsigned p = a.phys[v] + (mir::isSgprClass(vr.cls) && vr.cls != mir::RegClass::Mask ? kScalarBase : 0);
    switch (vr.cls) {
    case mir::RegClass::Mask: st.sgprBit[p] = in->second & 1; break;
    case mir::RegClass::S64:
    case mir::RegClass::V64:
      st.vgpr[p] = static_cast<uint32_t>(in->second);
      st.vgpr[p + 1] = static_cast<uint32_t>(in->second >> 32);
      break;
    case mir::RegClass::S32:
    case mir::RegClass::V32:
      st.vgpr[p] = static_cast<uint32_t>(in->second);
      break;
    }
  }

  amd::EvalContext ec;
  ec.exec = BV::constant(1, 1);
  ec.high16_zeroed = t.generation <= targets::Generation::GFX9;
  ec.unspecified = [&st](unsigned w) { return BV::constant(w, st.nextJunk()); };

  auto read = [&](const MOperand &o, amd::Slot slot) -> BV {
    switch (o.kind) {
    case MOperand::Kind::Imm:
      if (slot == amd::Slot::Mask) // the lane's bit of a constant mask (0 or all ones)
        return BV::constant(1, o.imm != 0);
      if (slot == amd::Slot::V64)
        return BV::constant(64, o.imm);
      return BV::constant(32, o.imm);
    case MOperand::Kind::Vcc: return BV::constant(1, st.vcc);
    case MOperand::Kind::Scc: return BV::constant(1, st.scc);
    case MOperand::Kind::Exec: return BV::constant(1, 1);
    case MOperand::Kind::Pair:
      return BV::constant(64, (uint64_t(st.readV(a.phys[o.vregHi])) << 32) | st.readV(a.phys[o.vreg]));
    case MOperand::Kind::VReg: break;
    default: throw std::logic_error("mir_eval: read of a non-register"); // (no rule's code has one)
    }
    const mir::VReg &vr = fn.vregs[o.vreg];
    const unsigned p = physKey(o.vreg);
    if (vr.cls == mir::RegClass::Mask)
      return BV::constant(1, st.sgprBit.count(p) ? st.sgprBit[p] : 0);
    if (vr.cls == mir::RegClass::V64 || vr.cls == mir::RegClass::S64) {
      if (o.part == Part::Lo)
        return BV::constant(32, st.readV(p));
      if (o.part == Part::Hi)
        return BV::constant(32, st.readV(p + 1));
      return BV::constant(64, (uint64_t(st.readV(p + 1)) << 32) | st.readV(p));
    }
    return BV::constant(32, st.readV(p));
  };
  auto write = [&](const MOperand &o, const BV &v) {
    switch (o.kind) {
    case MOperand::Kind::Vcc: st.vcc = static_cast<uint32_t>(v.value()); return;
    case MOperand::Kind::Scc: st.scc = static_cast<uint32_t>(v.value()); return;
    case MOperand::Kind::Pair:
      st.vgpr[a.phys[o.vreg]] = static_cast<uint32_t>(v.value());
      st.vgpr[a.phys[o.vregHi]] = static_cast<uint32_t>(v.value() >> 32);
      return;
    case MOperand::Kind::VReg: break;
    default: throw std::logic_error("mir_eval: write to a non-register");
    }
    const mir::VReg &vr = fn.vregs[o.vreg];
    const unsigned p = physKey(o.vreg);
    if (vr.cls == mir::RegClass::Mask) {
      st.sgprBit[p] = static_cast<uint32_t>(v.value());
    } else if ((vr.cls == mir::RegClass::V64 || vr.cls == mir::RegClass::S64) && o.part == Part::Whole) {
      st.vgpr[p] = static_cast<uint32_t>(v.value());
      st.vgpr[p + 1] = static_cast<uint32_t>(v.value() >> 32);
    } else {
      st.vgpr[o.part == Part::Hi ? p + 1 : p] = static_cast<uint32_t>(v.value());
    }
  };

  for (const mir::LoweredInst &li : fn.body)
    for (const mir::MInst &mi : li.insts) {
      const amd::OpDef &def = amd::opDef(mi.op);
      std::vector<BV> in;
      for (size_t i = 0; i < mi.srcs.size(); ++i)
        in.push_back(read(mi.srcs[i], def.srcs[i]));
      const amd::Effect e = amd::execute(mi.op, in, ec);
      if (e.vcc)
        st.vcc = static_cast<uint32_t>(e.vcc->value());
      if (e.scc)
        st.scc = static_cast<uint32_t>(e.scc->value());
      write(mi.dst, e.dst);
    }

  Values out;
  for (unsigned v = 0; v < fn.vregs.size(); ++v) {
    const std::string &name = fn.ptxName(v);
    if (name.empty())
      continue;
    out[name] = read(mir::vregOperand(v), mir::slotOf(fn.vregs[v].cls)).value();
  }
  return out;
}

} // namespace p2a::mireval
