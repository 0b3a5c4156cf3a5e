#include "kernel/transforms/logic_splitting.hpp"

#include "kernel/analysis/control_flow_graph.hpp"
#include "kernel/transforms/statement_building.hpp"

#include <array>
#include <optional>
#include <unordered_map>

namespace p2a::kernel {

namespace {

// Truth tables over the lop3's eight input rows (PTX ISA 9.7.8.6: row
// (a << 2) | (b << 1) | c): bit `row` of each source's mask is its value.
constexpr std::array<unsigned, 3> kSourceMasks{0xF0, 0xCC, 0xAA};

unsigned bitAt(unsigned table, unsigned row) { return (table >> row) & 1u; }

// The 2-input step t = G(x, y) (G's bit (x << 1) | y) as a truth table over the rows.
unsigned stepTable(unsigned g, unsigned x, unsigned y) {
  unsigned t = 0;
  for (unsigned row = 0; row < 8; ++row)
    t |= bitAt(g, (bitAt(x, row) << 1) | bitAt(y, row)) << row;
  return t;
}

// The LUT h with lut(row) = h(t(row), z(row), w(row)) on every row, or
// nullopt where two rows ask different values of one (t, z, w); rows no
// input reaches are 0.
std::optional<unsigned> composedLut(unsigned lut, unsigned t, unsigned z, unsigned w) {
  unsigned h = 0, known = 0;
  for (unsigned row = 0; row < 8; ++row) {
    const unsigned idx = (bitAt(t, row) << 2) | (bitAt(z, row) << 1) | bitAt(w, row);
    if (bitAt(known, idx) && bitAt(h, idx) != bitAt(lut, row))
      return std::nullopt;
    known |= 1u << idx;
    h |= bitAt(lut, row) << idx;
  }
  return h;
}

// The first step as a statement: a plain and/or/xor where G is one, else a
// lop3 whose third source (repeating x) its LUT ignores.
ptx::Instruction stepInstruction(const ptx::Instruction &at, unsigned g, const ptx::Operand &x, const ptx::Operand &y,
                                 const std::string &t) {
  const ptx::Opcode plain = g == 0x8 ? ptx::Opcode::And : g == 0xE ? ptx::Opcode::Or : ptx::Opcode::Xor;
  if (g == 0x8 || g == 0xE || g == 0x6)
    return replacing(at, ptx::Form{plain, ptx::TypeClass::B, 32}, {registerOperand(t)}, {x, y});
  const unsigned lut = stepTable(g, kSourceMasks[0], kSourceMasks[1]);
  return replacing(at, ptx::Form{ptx::Opcode::Lop3, ptx::TypeClass::B, 32}, {registerOperand(t)},
                   {x, y, x, immediate(lut)});
}

bool isThreeInputLop3(const Stmt &s) {
  if (!isPlain(s, ptx::Opcode::Lop3, 32) || s.inst.form.boolop != ptx::BoolOp::None || !writesOneRegister(s) ||
      s.inst.srcs.size() != 4 || !s.inst.srcs[3].isImm())
    return false;
  const std::vector<ptx::Operand> &in = s.inst.srcs;
  return in[0].isReg() && in[1].isReg() && in[2].isReg() && in[0].reg != in[1].reg && in[0].reg != in[2].reg &&
         in[1].reg != in[2].reg;
}

} // namespace

Kernel splitLogicForLatency(Kernel k, const targets::TargetInfo &t, const select::RuleCostFn &cost) {
  if (t.wave_size != 32)
    return k;
  const size_t n = k.body.size();
  const ControlFlowGraph g = controlFlowGraph(k); // (only which block each statement is in)
  unsigned freshCount = 0;
  auto fresh = [&] {
    std::string name;
    do
      name = "%__split" + std::to_string(freshCount++);
    while (k.registers.count(name));
    k.registers.set(name, ptx::RegisterType{ptx::TypeClass::B, 32});
    return name;
  };
  // The first steps, each to go just before its lop3 (which reads the same
  // x and y there: the scheduler moves it up to where they are ready).
  std::vector<std::vector<Stmt>> before(n), after(n);
  std::unordered_map<std::string, size_t> lastWrite; // in the current block
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 && g.blockOf[i] != g.blockOf[i - 1])
      lastWrite.clear();
    const Stmt &s = k.body[i];
    if (isThreeInputLop3(s)) {
      const std::vector<ptx::Operand> &in = s.inst.srcs;
      // The youngest input: written in this block after the other two.
      std::array<long, 3> written{};
      for (unsigned j = 0; j < 3; ++j) {
        auto it = lastWrite.find(in[j].reg);
        written[j] = it == lastWrite.end() ? -1 : static_cast<long>(it->second);
      }
      const unsigned z = static_cast<unsigned>(std::max_element(written.begin(), written.end()) - written.begin());
      const unsigned p = z == 0 ? 1 : 0, q = z == 2 ? 1 : 2;
      if (written[z] >= 0 && written[z] > written[p] && written[z] > written[q]) {
        const unsigned lut = static_cast<unsigned>(in[3].imm & 0xFF);
        const double whole = bestCost(s.inst, t, cost);
        std::optional<std::pair<ptx::Instruction, ptx::Instruction>> best;
        for (unsigned g = 1; g < 15 && !best; ++g) {
          const unsigned step = stepTable(g, kSourceMasks[p], kSourceMasks[q]);
          if (step == kSourceMasks[p] || step == kSourceMasks[q] || step == (~kSourceMasks[p] & 0xFF) ||
              step == (~kSourceMasks[q] & 0xFF))
            continue; // (a step of one input: nothing to do early)
          // The second step reads the step, the youngest input and one of
          // the older ones (or the youngest again, where it needs neither).
          for (unsigned w : {z, p, q}) {
            const std::optional<unsigned> h = composedLut(lut, step, kSourceMasks[z], kSourceMasks[w]);
            if (!h)
              continue;
            const std::string tmp = "%__split?"; // (named once the split is made)
            ptx::Instruction first = stepInstruction(s.inst, g, in[p], in[q], tmp);
            ptx::Instruction second = replacing(s.inst, s.inst.form, s.inst.dsts,
                                                {registerOperand(tmp), in[z], in[w], immediate(*h)});
            if (bestCost(first, t, cost) + bestCost(second, t, cost) <= whole) {
              best = {std::move(first), std::move(second)};
              break;
            }
          }
        }
        if (best) {
          const std::string tmp = fresh();
          best->first.dsts[0].reg = tmp;
          best->second.srcs[0].reg = tmp;
          Stmt step = s;
          step.inserted = true;
          step.inst = best->first;
          step.note = "split from the lop3 at line " + std::to_string(s.loc.line) + ": its inputs' step, ready early";
          before[i].push_back(std::move(step));
          // (the note first: `s` and `in` are the statement being edited)
          std::string note = (s.note.empty() ? "" : s.note + "; then ") + "split in two: " + in[p].reg + " and " +
                             in[q].reg + " first, so that " + in[z].reg + " waits for one instruction";
          Stmt &root = k.body[i];
          root.inst = best->second;
          root.note = std::move(note);
        }
      }
    }
    forEachWrittenRegister(s, [&](const std::string &r) { lastWrite[r] = i; });
  }
  // (a label of the lop3 moves to its step: the block starts with it)
  return withInsertedStatements(std::move(k), std::move(before), std::move(after));
}

} // namespace p2a::kernel
