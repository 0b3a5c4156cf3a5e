#include "proof/verifier.hpp"

#include "proof/proved_queries.hpp"
#include "proof/solver_context.hpp"

#include "targets/target_info.hpp"
#include "proof/integer_proof.hpp"
#include "semantics/ptx_semantics.hpp"

#include <algorithm>
#include <stdexcept>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>
#include <sstream>

namespace p2a::verify {

using rules::OperandReq;
using rules::Part;
using rules::Ref;
using rules::Rule;
using rules::TOperand;
using sem::BV;

namespace {

// A constant in a lane-mask operand, as one lane sees it: 0 (no lane) or
// all ones (every lane) are lane-independent; other masks are not
// expressible in the one-lane model, and no rule may use them.
sem::BV laneBitOfMaskConstant(uint64_t imm) {
  if (imm == 0)
    return sem::BV::constant(1, 0);
  if (imm == ~0ull || imm == 0xffffffffull)
    return sem::BV::constant(1, 1);
  throw std::logic_error("a lane-mask constant other than 0 or -1 depends on the lane");
}

// One proof scenario: which sources are immediates (only visible for 16-bit
// values) and which source, if any, the destination register aliases.
struct Scenario {
  std::vector<bool> srcIsImm;
  int dstAlias = -1;
};

// Storage of the lane being modelled: 32-bit words per (kind, index, half).
// Symbolic with a Z3 context (proofs); concrete without one (test vectors),
// where unspecified bits are a fixed junk pattern and the lane is active.
class Machine {
public:
  // `activeLane`: model the lane as active (EXEC's bit a constant 1), for
  // rules whose every result matters only in active lanes (see
  // proveScenarios).
  Machine(z3::context *ctx, const Rule &rule, const Scenario &sc, const std::vector<BV> &srcs, bool high16Zeroed,
          bool activeLane = false)
      : ctx_(ctx), rule_(rule), sc_(sc), srcs_(srcs) {
    exec_ = ctx && !activeLane ? BV::symbol(*ctx, "exec", 1) : BV::constant(1, 1);
    ec_.exec = exec_;
    ec_.high16_zeroed = high16Zeroed;
    ec_.unspecified = [this](unsigned w) { return fresh(w); };
    // Register sources start with their values.
    for (unsigned i = 0; i < srcs.size(); ++i) {
      if (sc.srcIsImm[i])
        continue;
      std::string key = srcKey(i);
      const unsigned w = rule.form.srcWidth(i);
      if (w == 1)
        store_.insert_or_assign(key + ".m", srcs[i]);
      else if (w == 64) {
        store_.insert_or_assign(key + ".0", srcs[i].extract(31, 0));
        store_.insert_or_assign(key + ".1", srcs[i].extract(63, 32));
      } else if (w == 32)
        store_.insert_or_assign(key + ".0", srcs[i]);
      else
        store_.insert_or_assign(key + ".0", BV::concat(fresh(32 - w), srcs[i]));
    }
  }

  BV exec() const { return exec_; }

  std::string srcKey(unsigned i) const {
    for (auto [x, y] : rule_.sameReg)
      if (y == i)
        return "s" + std::to_string(x);
    return "s" + std::to_string(i);
  }
  std::string dstKey(unsigned i) const {
    if (i == 0 && sc_.dstAlias >= 0)
      return srcKey(static_cast<unsigned>(sc_.dstAlias));
    return "d" + std::to_string(i);
  }

  BV fresh(unsigned w) {
    if (!ctx_)
      return BV::constant(w, 0xa5c3e1f00f1e3c5aull * ++counter_);
    return BV::symbol(*ctx_, "undef" + std::to_string(counter_++), w);
  }

  BV word(const std::string &key) {
    auto it = store_.find(key);
    if (it == store_.end())
      it = store_.emplace(key, fresh(key.back() == 'm' ? 1 : 32)).first;
    return it->second;
  }

  // Storage key prefix of a register ref (no immediates).
  std::string regKey(const Ref &r) const {
    switch (r.kind) {
    case Ref::Kind::Dst: return dstKey(r.index);
    case Ref::Kind::Src: return srcKey(r.index);
    case Ref::Kind::Temp: return "t" + std::to_string(r.index);
    case Ref::Kind::Vcc: return "vcc";
    case Ref::Kind::Exec: return "exec";
    case Ref::Kind::Scc: return "scc";
    default: return "";
    }
  }

  bool isImmRef(const Ref &r) const {
    return r.kind == Ref::Kind::Imm || r.kind == Ref::Kind::ImmFn ||
           (r.kind == Ref::Kind::Src && sc_.srcIsImm[r.index]);
  }

  BV immValue(const Ref &r, amd::Slot slot) {
    if (r.kind == Ref::Kind::Imm && slot == amd::Slot::Mask)
      return laneBitOfMaskConstant(r.imm);
    if (r.kind == Ref::Kind::Imm) {
      BV v32 = BV::constant(32, r.imm);
      return slot == amd::Slot::V64 ? v32.sext(64) : v32;
    }
    if (r.kind == Ref::Kind::ImmFn)
      return rule_.immFns.at(r.index).value(srcs_);
    BV v = srcs_.at(r.index);
    const unsigned w = rule_.form.srcWidth(r.index);
    if (r.part == Part::Lo)
      return v.extract(31, 0);
    if (r.part == Part::Hi)
      return v.extract(63, 32);
    if (slot == amd::Slot::V64)
      return w == 64 ? v : v.zext(64);
    return w < 32 ? v.zext(32) : v;
  }

  BV read1(const Ref &r, amd::Slot slot) {
    if (isImmRef(r))
      return immValue(r, slot);
    std::string key = regKey(r);
    if (r.kind == Ref::Kind::Exec)
      return exec_;
    if (slot == amd::Slot::Mask || slot == amd::Slot::Scc)
      return word(key + ".m");
    if (slot == amd::Slot::V64)
      return BV::concat(word(key + ".1"), word(key + ".0"));
    return word(key + (r.part == Part::Hi ? ".1" : ".0"));
  }

  BV read(const TOperand &o, amd::Slot slot) {
    if (!o.isPair())
      return read1(o.lo, slot);
    return BV::concat(read1(*o.hi, amd::Slot::V32), read1(o.lo, amd::Slot::V32));
  }

  void write(const TOperand &o, amd::Slot slot, const BV &v) {
    if (o.isPair()) {
      store_.insert_or_assign(regKey(o.lo) + (o.lo.part == Part::Hi ? ".1" : ".0"), v.extract(31, 0));
      store_.insert_or_assign(regKey(*o.hi) + (o.hi->part == Part::Hi ? ".1" : ".0"), v.extract(63, 32));
      return;
    }
    std::string key = regKey(o.lo);
    if (slot == amd::Slot::Mask || slot == amd::Slot::Scc)
      store_.insert_or_assign(key + ".m", v);
    else if (slot == amd::Slot::V64) {
      store_.insert_or_assign(key + ".0", v.extract(31, 0));
      store_.insert_or_assign(key + ".1", v.extract(63, 32));
    } else
      store_.insert_or_assign(key + (o.lo.part == Part::Hi ? ".1" : ".0"), v);
  }

  // The lemma rule a proof may take the template's prefix from (nullptr
  // when the prefix does not match it: then the proof fails).
  static const Rule *lemmaRule(const Rule &rule) {
    const Rule::Lemma &l = *rule.lemma;
    for (const Rule &r : rules::ruleTable()) {
      if (r.name != l.rule || r.seq.size() != l.length || l.length > rule.seq.size() ||
          r.form.numSrcs() > rule.form.numSrcs() || r.temps.size() > rule.temps.size())
        continue;
      auto rename = [&](Ref x) {
        if (x.kind == Ref::Kind::Dst)
          x = Ref{Ref::Kind::Temp, l.into, x.part, 0};
        return x;
      };
      auto same = [](const Ref &x, const Ref &y) {
        return x.kind == y.kind && x.index == y.index && x.part == y.part && x.imm == y.imm;
      };
      auto sameOperand = [&](const TOperand &x, const TOperand &y) {
        return same(rename(x.lo), y.lo) && x.hi.has_value() == y.hi.has_value() && (!x.hi || same(rename(*x.hi), *y.hi));
      };
      bool match = true;
      for (size_t i = 0; i < l.length && match; ++i) {
        const rules::TInst &a = r.seq[i], &b = rule.seq[i];
        match = a.op == b.op && a.srcs.size() == b.srcs.size() && sameOperand(a.dst, b.dst);
        for (size_t j = 0; j < a.srcs.size() && match; ++j)
          match = sameOperand(a.srcs[j], b.srcs[j]);
      }
      for (size_t t = 0; t < r.temps.size() && match; ++t)
        match = r.temps[t] == rule.temps[t] && t != l.into;
      if (match)
        return &r;
    }
    return nullptr;
  }

  // Symbolically, a lemma prefix is its rule's meaning written to `into`;
  // what else it wrote (its temporaries, VCC) is left unknown.
  bool runLemma() {
    const Rule *l = lemmaRule(rule_);
    if (!l)
      return false;
    for (size_t t = 0; t < l->temps.size(); ++t)
      for (const char *half : {".0", ".1", ".m"})
        store_.insert_or_assign("t" + std::to_string(t) + half, fresh(half[1] == 'm' ? 1 : 32));
    store_.insert_or_assign("vcc.m", fresh(1));
    for (size_t i = 0; i < rule_.lemma->length; ++i)
      written_.push_back(fresh(32));
    // (The lemma's sources are the rule's first ones: mul.hi.u64's a and b in madc.hi.u64.)
    const std::vector<BV> lemmaSrcs(srcs_.begin(), srcs_.begin() + l->form.numSrcs());
    const BV v = sem::evalPtx(l->form, lemmaSrcs).at(0);
    write(TOperand{Ref{Ref::Kind::Temp, rule_.lemma->into, Part::Whole, 0}, std::nullopt},
          l->form.dstWidth(0) == 64 ? amd::Slot::V64 : amd::Slot::V32, v);
    return true;
  }

  bool lemmaMismatch = false;

  void run() {
    size_t first = 0;
    if (rule_.lemma && ctx_) {
      if (!runLemma()) {
        lemmaMismatch = true;
        return;
      }
      first = rule_.lemma->length;
    }
    for (size_t index = first; index < rule_.seq.size(); ++index) {
      const rules::TInst &ti = rule_.seq[index];
      const amd::OpDef &def = amd::opDef(ti.op);
      std::vector<BV> in;
      for (size_t i = 0; i < ti.srcs.size(); ++i)
        in.push_back(read(ti.srcs[i], def.srcs[i]));
      const amd::Effect e = amd::execute(ti.op, in, ec_);
      if (e.vcc)
        write(TOperand{Ref{Ref::Kind::Vcc, 0, Part::Whole, 0}, std::nullopt}, amd::Slot::Mask, *e.vcc);
      if (e.scc)
        store_.insert_or_assign("scc.m", *e.scc);
      written_.push_back(e.dst);
      write(ti.dst, def.dst, e.dst);
    }
  }

  // The value each template instruction wrote, in order (after run()).
  const std::vector<BV> &written() const { return written_; }

  // The destination as the AMD code left it, in the PTX width.
  BV result(unsigned i) {
    const unsigned w = rule_.form.dstWidth(i);
    std::string key = dstKey(i);
    if (w == 1)
      return word(key + ".m");
    if (w == 64)
      return BV::concat(word(key + ".1"), word(key + ".0"));
    return word(key + ".0").extract(w - 1, 0);
  }

private:
  z3::context *ctx_;
  const Rule &rule_;
  const Scenario &sc_;
  const std::vector<BV> &srcs_;
  BV exec_ = BV::constant(1, 1);
  amd::EvalContext ec_;
  std::map<std::string, BV> store_;
  std::vector<BV> written_;
  unsigned counter_ = 0;
};

// Register pairs a scenario would need; infeasible ones are never selected
// (selector.cpp applies the same consistency rule).
bool pairsFeasible(const Rule &rule, const Scenario &sc) {
  std::vector<std::pair<std::string, std::string>> pairs;
  auto key = [&](const Ref &r) -> std::string {
    switch (r.kind) {
    case Ref::Kind::Dst: return r.index == 0 && sc.dstAlias >= 0 ? "s" + std::to_string(sc.dstAlias) : "d" + std::to_string(r.index);
    case Ref::Kind::Src:
      if (sc.srcIsImm[r.index])
        return "";
      for (auto [x, y] : rule.sameReg)
        if (y == r.index)
          return "s" + std::to_string(x);
      return "s" + std::to_string(r.index);
    case Ref::Kind::Temp: return "t" + std::to_string(r.index);
    default: return "";
    }
  };
  auto consider = [&](const TOperand &o) {
    if (!o.isPair())
      return true;
    std::string lo = key(o.lo), hi = key(*o.hi);
    if (lo.empty() || hi.empty() || !rules::pairConsistent(pairs, lo, hi))
      return false;
    if (std::find(pairs.begin(), pairs.end(), std::make_pair(lo, hi)) == pairs.end())
      pairs.push_back({lo, hi});
    return true;
  };
  for (const rules::TInst &ti : rule.seq) {
    if (!consider(ti.dst))
      return false;
    for (const TOperand &s : ti.srcs)
      if (!consider(s))
        return false;
  }
  return true;
}

// Does making d the same register as source j change anything? Only if the
// template reads source j after its first write to d: before that write the
// register holds the source's value either way, and d's final value is
// computed from the same inputs. (A read of d before any write would read an
// unspecified value in the distinct case, which the proof then rejects.)
bool aliasCanMatter(const Rule &rule, unsigned j) {
  bool dWritten = false;
  auto readsSrc = [&](const TOperand &o) {
    auto is = [&](const Ref &r) { return r.kind == Ref::Kind::Src && r.index == j; };
    return is(o.lo) || (o.hi && is(*o.hi));
  };
  auto writesD = [&](const TOperand &o) {
    auto is = [&](const Ref &r) { return r.kind == Ref::Kind::Dst && r.index == 0; };
    return is(o.lo) || (o.hi && is(*o.hi));
  };
  for (const rules::TInst &ti : rule.seq) {
    if (dWritten)
      for (const TOperand &s : ti.srcs)
        if (readsSrc(s))
          return true;
    if (writesD(ti.dst))
      dWritten = true;
  }
  return false;
}

std::vector<Scenario> scenarios(const Rule &rule) {
  const unsigned n = static_cast<unsigned>(rule.srcReqs.size());
  // Immediate-vs-register matters only for narrow values (the high half).
  std::vector<std::vector<bool>> kinds{std::vector<bool>(n, false)};
  for (unsigned i = 0; i < n; ++i) {
    const bool narrow = rule.form.srcWidth(i) < 32;
    std::vector<std::vector<bool>> next;
    for (auto k : kinds) {
      if (rule.srcReqs[i] == OperandReq::Imm || (rule.form.opcode == ptx::Opcode::Lop3 && i == 3)) {
        k[i] = true;
        next.push_back(k);
      } else if (rule.srcReqs[i] == OperandReq::Any && narrow && rule.form.srcWidth(i) > 1) {
        next.push_back(k);
        k[i] = true;
        next.push_back(k);
      } else {
        next.push_back(k);
      }
    }
    kinds = next;
  }
  std::vector<Scenario> out;
  for (auto &k : kinds) {
    for (int alias = -1; alias < static_cast<int>(n); ++alias) {
      if (alias >= 0) {
        if (k[alias] || rule.form.srcWidth(alias) != rule.form.dstWidth(0))
          continue;
        bool distinctFromOthers = true;
        for (auto [x, y] : rule.sameReg)
          if (static_cast<int>(y) == alias)
            distinctFromOthers = false; // covered by aliasing the representative
        if (!distinctFromOthers || rule.dstDistinct || !aliasCanMatter(rule, static_cast<unsigned>(alias)))
          continue;
      }
      Scenario sc{k, alias};
      if (pairsFeasible(rule, sc))
        out.push_back(sc);
    }
  }
  return out;
}

std::string hex(const z3::expr &e) {
  std::string s = e.to_string(); // #x... or #b...
  if (s.rfind("#x", 0) == 0)
    return "0x" + s.substr(2);
  if (s.rfind("#b", 0) == 0)
    return s.size() == 3 ? s.substr(2) : "0b" + s.substr(2);
  return s;
}

// An immediate the constraints fix to one value (lop3's immLut == K) becomes
// that constant, so the formulas fold instead of carrying it symbolically.
void pinDeterminedImmediates(const Rule &rule, std::vector<BV> &srcs, z3::context &ctx) {
  if (rule.constraints.empty())
    return;
  for (unsigned i = 0; i < srcs.size(); ++i) {
    if (rule.srcReqs[i] != OperandReq::Imm || srcs[i].isConcrete())
      continue;
    ScopedSolver scope;
    z3::solver &s = scope.s;
    for (const rules::ValueConstraint &c : rule.constraints)
      s.add(c.holds(srcs).toExpr(ctx) == ctx.bv_val(1, 1));
    if (s.check() != z3::sat)
      return;
    z3::expr v = s.get_model().eval(srcs[i].toExpr(ctx), true);
    s.add(srcs[i].toExpr(ctx) != v);
    if (s.check() == z3::unsat)
      srcs[i] = BV::constant(srcs[i].width(), v.get_numeral_uint64());
  }
}

// `twin`: the rule whose template's results stand for the PTX meaning
// (Rule::sameResultAs), or null.
ProofResult proveScenarios(const Rule &rule, bool high16Zeroed, const Rule *twin = nullptr);

} // namespace

namespace {

// A 32-bit register a template operand names: which value (kind, index)
// and which word of it.
struct Word {
  Ref::Kind kind;
  unsigned index;
  unsigned word;
};

// The words a ref covers: one for a half or a 32-bit value, two for a whole
// 64-bit one.
std::vector<Word> wordsOf(const Ref &r, const Rule &rule) {
  unsigned width = 32;
  switch (r.kind) {
  case Ref::Kind::Dst: width = rule.form.dstWidth(r.index); break;
  case Ref::Kind::Src: width = rule.form.srcWidth(r.index); break;
  case Ref::Kind::Temp: width = rule.temps.at(r.index) == rules::TempKind::V64 ? 64 : 32; break;
  default: return {}; // immediates, VCC, EXEC, SCC: no VGPR
  }
  if (r.part == Part::Lo || (r.part == Part::Whole && width <= 32))
    return {{r.kind, r.index, 0}};
  if (r.part == Part::Hi)
    return {{r.kind, r.index, 1}};
  return {{r.kind, r.index, 0}, {r.kind, r.index, 1}};
}

std::vector<Word> wordsOf(const TOperand &o, const Rule &rule) {
  std::vector<Word> w = wordsOf(o.lo, rule);
  if (o.hi) {
    std::vector<Word> hi = wordsOf(*o.hi, rule);
    w.insert(w.end(), hi.begin(), hi.end());
  }
  return w;
}

// Can two words be one register? The same word of one value; or d's word
// and the same word of a register source d may alias (PTX writes `d, d, b`:
// the same width, a register, and no dstDistinct on this target).
bool mayBeOneRegister(const Word &x, const Word &y, const Rule &rule, const targets::TargetInfo &t) {
  if (x.kind == y.kind && x.index == y.index && x.word == y.word)
    return true;
  auto aliases = [&](const Word &d, const Word &src) {
    return d.kind == Ref::Kind::Dst && d.index == 0 && src.kind == Ref::Kind::Src && d.word == src.word &&
           !rule.dstDistinctOn(t) && rule.srcReqs.at(src.index) != rules::OperandReq::Imm &&
           rule.form.srcWidth(src.index) == rule.form.dstWidth(0);
  };
  return aliases(x, y) || aliases(y, x);
}

} // namespace

std::optional<std::string> mad64Overlap(const Rule &rule, const targets::TargetInfo &t) {
  for (size_t i = 0; i < rule.seq.size(); ++i) {
    const rules::TInst &ti = rule.seq[i];
    if (ti.op != amd::Op::V_MAD_U64_U32 && ti.op != amd::Op::V_MAD_I64_I32)
      continue;
    for (const Word &d : wordsOf(ti.dst, rule))
      for (size_t k = 0; k < ti.srcs.size(); ++k)
        for (const Word &s : wordsOf(ti.srcs[k], rule))
          if (mayBeOneRegister(d, s, rule, t))
            return "instruction " + std::to_string(i + 1) + " (" + amd::opDef(ti.op).name +
                   "): its destination may overlap source " + std::to_string(k + 1) +
                   ", which gfx11's MAD intra-instruction forwarding bug makes wrong";
  }
  return std::nullopt;
}

ProofResult proveRule(const Rule &rule, const targets::TargetInfo &t) {
  if (!rule.servesTarget(t))
    return {};
  if (t.mad64_overlap_hazard)
    if (std::optional<std::string> why = mad64Overlap(rule, t)) {
      ProofResult r;
      r.status = ProofResult::Status::Failed;
      r.counterexample = *why;
      return r;
    }
  const Rule *twin = nullptr;
  if (!rule.sameResultAs.empty()) {
    for (const Rule &r : rules::ruleTable())
      if (r.name == rule.sameResultAs && r.form == rule.form && r.srcReqs == rule.srcReqs && r.servesTarget(t))
        twin = &r;
    ProofResult failed;
    failed.status = ProofResult::Status::Failed;
    if (!twin) {
      failed.counterexample = "no rule " + rule.sameResultAs + " of the same form and operands for this target";
      return failed;
    }
    if (proveRule(*twin, t).status != ProofResult::Status::Proved) {
      failed.counterexample = "rule " + rule.sameResultAs + ", whose results this rule's are shown to equal, is not proved";
      return failed;
    }
  }
  // The only target-dependent part of the model is what 16-bit VALU ops do
  // to bits 31:16 (zeroed on gfx9, kept on gfx10+); targets that share it
  // share the proof.
  // Only 16-bit VALU ops see that difference; other rules have one model.
  bool uses16 = false;
  for (const rules::TInst &ti : rule.seq)
    uses16 = uses16 || ti.op == amd::Op::V_LSHLREV_B16 || ti.op == amd::Op::V_LSHRREV_B16 ||
             ti.op == amd::Op::V_ASHRREV_I16;
  const bool high16Zeroed = uses16 && t.generation <= targets::Generation::GFX9;
  // Only the table's rules are cached (by address): a rule built elsewhere
  // (a test's deliberately wrong one) may reuse the address of another.
  if (!rules::inRuleTable(rule))
    return proveScenarios(rule, high16Zeroed, twin);
  static std::mutex mu;
  static std::map<std::pair<const Rule *, bool>, ProofResult> cache;
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find({&rule, high16Zeroed});
    if (it != cache.end())
      return it->second;
  }
  freshThreadContext();
  ProofResult res = proveScenarios(rule, high16Zeroed, twin);
  std::lock_guard<std::mutex> lock(mu);
  cache.emplace(std::make_pair(&rule, high16Zeroed), res);
  return res;
}

namespace {

// The right-hand side of the signed product identity (see verifier.hpp),
// from the unsigned product u.
BV signedFromUnsigned(const BV &u, const BV &a, const BV &b) {
  const BV zero = BV::constant(64, 0);
  auto correction = [&](const BV &x, const BV &y) { // (x < 0 ? y : 0) << 64
    return BV::concat(BV::ite(x.extract(63, 63), y, zero), zero);
  };
  return u - correction(a, b) - correction(b, a);
}

} // namespace

bool signedProductIdentity() {
  static const bool holds = [] {
    z3::context &ctx = threadContext();
    // Per sign case, each source is its sign bit (a constant) above 63
    // free bits, so that Z3's simplifier settles every sign test before
    // the formula goes to the integers; what remains is polynomial.
    for (unsigned sa = 0; sa < 2; ++sa)
      for (unsigned sb = 0; sb < 2; ++sb) {
        const BV a = BV::concat(BV::constant(1, sa), BV::symbol(ctx, "a", 63));
        const BV b = BV::concat(BV::constant(1, sb), BV::symbol(ctx, "b", 63));
        const z3::expr differ =
            sem::mulWide(a, b, true).toExpr(ctx) != signedFromUnsigned(sem::mulWide(a, b, false), a, b).toExpr(ctx);
        z3::expr_vector query(ctx);
        query.push_back(differ.simplify());
        z3::solver s(ctx);
        ownSignals(s);
        z3::expr_vector bounds(ctx);
        std::string unsupported;
        for (const z3::expr &e : query) {
          std::optional<z3::expr> ie = toIntegerFormula(e, bounds, unsupported);
          if (!ie)
            return false;
          s.add(*ie);
        }
        for (const z3::expr &bound : bounds)
          s.add(bound);
        if (checkQuery(s) != z3::unsat)
          return false;
      }
    return true;
  }();
  return holds;
}

namespace {

ProofResult proveScenarios(const Rule &rule, bool high16Zeroed, const Rule *twin) {
  ProofResult res;
  for (const Scenario &sc : scenarios(rule)) {
    z3::context &ctx = threadContext();
    std::vector<BV> srcs;
    for (unsigned i = 0; i < rule.srcReqs.size(); ++i)
      srcs.push_back(BV::symbol(ctx, kSrcNames[i], rule.form.srcWidth(i)));
    pinDeterminedImmediates(rule, srcs, ctx);
    ScopedSolver scope;
    z3::solver &solver = scope.s;
    for (const rules::ValueConstraint &c : rule.constraints)
      solver.add(c.holds(srcs).toExpr(ctx) == ctx.bv_val(1, 1));
    for (auto [x, y] : rule.sameReg)
      solver.add(srcs[x].toExpr(ctx) == srcs[y].toExpr(ctx));
    for (const BV &pre : sem::ptxPreconditions(rule.form, srcs))
      solver.add(pre.toExpr(ctx) == ctx.bv_val(1, 1));

    // For a rule that asks (Rule::activeLaneProof) where every result is a
    // VGPR value (no predicate, not scalar) and no source is a lane mask, the
    // goals below only ask about an active lane:
    // the lane's values then follow from EXEC = 1 alone, and with the bit a
    // constant the carry/borrow terms (c & EXEC) are the plain terms the
    // PTX semantics builds -- the restoring division's 32 steps then prove
    // at once instead of timing out.
    bool activeLane = rule.activeLaneProof && !rule.scalar;
    for (unsigned i = 0; i < rule.form.numDsts(); ++i)
      activeLane = activeLane && rule.form.dstWidth(i) != 1;
    for (unsigned i = 0; i < srcs.size(); ++i)
      activeLane = activeLane && rule.form.srcWidth(i) != 1;
    Machine m(&ctx, rule, sc, srcs, high16Zeroed, activeLane);
    const z3::expr exec = m.exec().toExpr(ctx) == ctx.bv_val(1, 1);
    // Lane masks hold 0 in inactive lanes.
    for (unsigned i = 0; i < srcs.size(); ++i)
      if (rule.form.srcWidth(i) == 1)
        solver.add(z3::implies(!exec, srcs[i].toExpr(ctx) == ctx.bv_val(0, 1)));
    m.run();
    if (m.lemmaMismatch) {
      res.status = ProofResult::Status::Failed;
      res.counterexample = "the template's first " + std::to_string(rule.lemma->length) +
                           " instructions are not rule " + rule.lemma->rule + "'s template";
      return res;
    }
    std::vector<BV> want;
    if (twin) {
      Machine other(&ctx, *twin, sc, srcs, high16Zeroed, activeLane);
      other.run();
      for (unsigned i = 0; i < rule.form.numDsts(); ++i)
        want.push_back(other.result(i));
    } else {
      want = sem::evalPtx(rule.form, srcs);
    }
    z3::expr_vector goals(ctx);
    std::vector<BV> got;
    for (unsigned i = 0; i < want.size(); ++i) {
      BV g = m.result(i);
      got.push_back(g);
      // An SGPR value is written whatever EXEC holds, and every lane reads it.
      // A predicate is a lane mask in either case: its lane bit must hold the
      // result in an active lane and 0 in an inactive one.
      if (rule.scalar && rule.form.dstWidth(i) != 1)
        goals.push_back(g.toExpr(ctx) == want[i].toExpr(ctx));
      else if (rule.form.dstWidth(i) == 1)
        goals.push_back(z3::ite(exec, g.toExpr(ctx) == want[i].toExpr(ctx), g.toExpr(ctx) == ctx.bv_val(0, 1)));
      else
        goals.push_back(z3::implies(exec, g.toExpr(ctx) == want[i].toExpr(ctx)));
    }
    solver.add(!z3::mk_and(goals));
    z3::check_result r = z3::unsat;
    std::optional<z3::solver> caseSolver;
    // The same query over the integers (integer_proof.hpp): wide products
    // become polynomial identities instead of multiplier circuits. With
    // proof cases, each case's condition is added to its own query.
    auto integerQuery = [&](const z3::expr_vector &assertions, std::string &unsupported) {
      caseSolver.emplace(ctx);
      ownSignals(*caseSolver);
      z3::expr_vector bounds(ctx);
      for (const z3::expr &e : assertions) {
        std::optional<z3::expr> ie = toIntegerFormula(e, bounds, unsupported);
        if (!ie)
          return false;
        caseSolver->add(*ie);
      }
      for (const z3::expr &b : bounds)
        caseSolver->add(b);
      return true;
    };
    std::string unsupported;
    if (rule.opaqueProducts) {
      // Both products become fresh values; of 64-bit sources, the identity
      // relates them. (Fresh values are sound without it: a goal that holds
      // for any product holds for the real one.)
      const unsigned productWidth = 2 * srcs[0].width();
      const bool related = productWidth == 128;
      if (related && !signedProductIdentity()) {
        res.status = ProofResult::Status::Failed;
        res.counterexample = "the signed product identity does not hold";
        return res;
      }
      z3::expr_vector from(ctx), to(ctx);
      const BV signedProduct = BV::symbol(ctx, "signed_product", productWidth);
      const BV unsignedProduct = BV::symbol(ctx, "unsigned_product", productWidth);
      from.push_back(sem::mulWide(srcs[0], srcs[1], true).toExpr(ctx));
      to.push_back(signedProduct.toExpr(ctx));
      from.push_back(sem::mulWide(srcs[0], srcs[1], false).toExpr(ctx));
      to.push_back(unsignedProduct.toExpr(ctx));
      caseSolver.emplace(ctx, "QF_BV");
      ownSignals(*caseSolver);
      for (z3::expr e : solver.assertions())
        caseSolver->add(e.substitute(from, to));
      if (related)
        caseSolver->add(signedProduct.toExpr(ctx) == signedFromUnsigned(unsignedProduct, srcs[0], srcs[1]).toExpr(ctx));
      r = checkQuery(*caseSolver);
    } else if (rule.proveInIntegers && !rule.proofCases) {
      if (!integerQuery(solver.assertions(), unsupported)) {
        res.status = ProofResult::Status::Failed;
        res.counterexample = "the integer translation does not define " + unsupported;
        return res;
      }
      r = checkQuery(*caseSolver);
    } else if (!rule.proofCases || twin) { // (a twin's cases are for the PTX meaning)
      r = checkQuery(solver);
    } else {
      std::vector<BV> cases = rule.proofCases(srcs, m.written());
      // The cases must cover every input the rule allows (checked, not assumed).
      z3::expr_vector any(ctx);
      for (const BV &c : cases)
        any.push_back(c.toExpr(ctx) == ctx.bv_val(1, 1));
      z3::solver coverage(ctx, "QF_BV");
      ownSignals(coverage);
      for (const rules::ValueConstraint &c : rule.constraints)
        coverage.add(c.holds(srcs).toExpr(ctx) == ctx.bv_val(1, 1));
      for (const BV &pre : sem::ptxPreconditions(rule.form, srcs))
        coverage.add(pre.toExpr(ctx) == ctx.bv_val(1, 1));
      coverage.add(!z3::mk_or(any));
      if (checkQuery(coverage) != z3::unsat) {
        res.status = ProofResult::Status::Failed;
        res.counterexample = "the proof cases do not cover every input";
        return res;
      }
      // Each case gets a fresh solver: push/pop would switch Z3 to its
      // incremental core, which skips the bit-blasting preprocessing (and the
      // substitution of a case's fixed values) that makes these cases fast.
      const z3::expr_vector common = solver.assertions();
      for (const BV &c : cases) {
        if (rule.proveInIntegers) {
          z3::expr_vector withCase(ctx); // (expr_vector copies share storage)
          for (const z3::expr &e : common)
            withCase.push_back(e);
          withCase.push_back(c.toExpr(ctx) == ctx.bv_val(1, 1));
          if (!integerQuery(withCase, unsupported)) {
            res.status = ProofResult::Status::Failed;
            res.counterexample = "the integer translation does not define " + unsupported;
            return res;
          }
        } else {
          caseSolver.emplace(ctx, "QF_BV");
          ownSignals(*caseSolver);
          for (const z3::expr &e : common)
            caseSolver->add(e);
          caseSolver->add(c.toExpr(ctx) == ctx.bv_val(1, 1));
        }
        r = checkQuery(*caseSolver);
        if (r != z3::unsat)
          break; // keep the case's solver for the model below
      }
    }
    if (r == z3::unsat) {
      ++res.cases;
      continue;
    }
    res.status = ProofResult::Status::Failed;
    std::ostringstream os;
    if (r == z3::sat && rule.proveInIntegers) {
      const z3::model model = caseSolver->get_model();
      for (unsigned i = 0; i < model.num_consts(); ++i)
        os << model.get_const_decl(i).name().str() << "=" << model.get_const_interp(model.get_const_decl(i)) << " ";
    } else if (r == z3::sat) {
      z3::model model = caseSolver ? caseSolver->get_model() : solver.get_model();
      for (unsigned i = 0; i < srcs.size(); ++i)
        os << kSrcNames[i] << "=" << hex(model.eval(srcs[i].toExpr(ctx), true)) << " ";
      os << "exec=" << hex(model.eval(m.exec().toExpr(ctx), true)) << ": ";
      for (unsigned i = 0; i < want.size(); ++i)
        os << "PTX " << (i ? "p" : "d") << "=" << hex(model.eval(want[i].toExpr(ctx), true)) << " AMD "
           << (i ? "p" : "d") << "=" << hex(model.eval(got[i].toExpr(ctx), true)) << " ";
    } else {
      os << "solver returned unknown ";
    }
    if (sc.dstAlias >= 0)
      os << "(d is the same register as " << kSrcNames[sc.dstAlias] << ")";
    res.counterexample = os.str();
    return res;
  }
  res.status = ProofResult::Status::Proved;
  return res;
}

} // namespace

std::vector<BV> runTemplate(const Rule &rule, const targets::TargetInfo &t, const std::vector<BV> &srcs,
                            int dstAlias) {
  Scenario sc;
  for (unsigned i = 0; i < rule.srcReqs.size(); ++i)
    sc.srcIsImm.push_back(rule.srcReqs[i] == OperandReq::Imm || (rule.form.opcode == ptx::Opcode::Lop3 && i == 3));
  sc.dstAlias = dstAlias;
  Machine m(nullptr, rule, sc, srcs, t.generation <= targets::Generation::GFX9);
  m.run();
  std::vector<BV> out;
  for (unsigned i = 0; i < rule.form.numDsts(); ++i)
    out.push_back(m.result(i));
  return out;
}

} // namespace p2a::verify
