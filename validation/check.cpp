#include "validation/check.hpp"

#include "grammar/parser.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "isel/cost_model.hpp"
#include "driver/code_object_link.hpp"
#include "driver/output_file.hpp"
#include "lowering/kernel_lowering.hpp"
#include "validation/amdgpu_emulator.hpp"
#include "validation/code_object.hpp"
#include "validation/ptx_interpreter.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <cstdio>
#include <cstring>
#include <set>

namespace p2a::check {

namespace ast = ::ptx::ast;
using kernel::Stmt;

namespace {

std::string hex(uint64_t v, unsigned digits = 8) {
  char b[40];
  std::snprintf(b, sizeof b, "0x%0*llx", int(digits), static_cast<unsigned long long>(v));
  return b;
}

std::string dim(const Dim3 &d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

// SplitMix64: a small, well-mixed generator whose sequence depends only on
// the seed, so a failing check is reproduced exactly by --seed.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
};

// Where a PTX register lives after translation, parsed from the printed
// physical name ("v5", "v[6:7]", "s20", "s[20:21]").
struct Location {
  bool sgpr = false;
  unsigned index = 0, count = 1;
};

std::optional<Location> parseLocation(const std::string &s) {
  Location l;
  if (s.size() < 2 || (s[0] != 'v' && s[0] != 's'))
    return std::nullopt;
  l.sgpr = s[0] == 's';
  unsigned a = 0, b = 0;
  if (s[1] == '[') {
    if (std::sscanf(s.c_str() + 1, "[%u:%u]", &a, &b) != 2)
      return std::nullopt;
    l.index = a;
    l.count = b - a + 1;
  } else {
    // v5 or s20; vcc, exec, scc and the like are not registers of a home.
    if (!std::all_of(s.begin() + 1, s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    l.index = static_cast<unsigned>(std::stoul(s.substr(1)));
  }
  return l;
}

class Checker {
public:
  Checker(const std::string &src, const targets::TargetInfo &t, const Options &o, cost::CostModel &costs)
      : src_(src), t_(t), o_(o), costs_(costs) {}

  Result run() {
    if (!prepare())
      return std::move(r_);
    if (!inferBuffers())
      return std::move(r_);
    std::string sizes;
    for (const Buffer &b : buffers_)
      sizes += (sizes.empty() ? "" : ", ") + b.name + " " + std::to_string(b.size) + " bytes" +
               (b.inferred ? " (inferred)" : "") + describeStart(b.name);
    header_ = "check: kernel '" + k_->name + "' on " + t_.name + " (wave" + std::to_string(t_.wave_size) +
              "), grid " + dim(o_.grid) + " block " + dim(o_.block) + ", " + std::to_string(o_.trials) +
              " trial(s), seed " + std::to_string(o_.seed) + "\n  buffers: " + (sizes.empty() ? "none" : sizes) +
              (dynamicShared_ ? ", dynamic shared memory " + std::to_string(*dynamicShared_) + " bytes"
                   : std::string()) +
              (foreign_ ? "\n  AMD code object: kernel '" + loaded_.name + "', " + std::to_string(kt_.codeStmt.size()) +
                              " instructions, " + std::to_string(kt_.numVgprs) + " VGPRs allocated\n"
                        : "\n  translation: " + std::to_string(kt_.codeStmt.size()) + " AMD instructions, " +
                              std::to_string(kt_.numVgprs) + " VGPRs, " + std::to_string(kt_.numSgprs) + " SGPRs\n");
    for (unsigned trial = 0; trial < o_.trials; ++trial)
      if (!runTrial(trial))
        return std::move(r_);
    r_.status = Status::Pass;
    r_.report = header_ + estimate() + "  result: every output buffer agrees in all " + std::to_string(o_.trials) +
                " trial(s)\n";
    return std::move(r_);
  }

private:
  // The first trial's AMD run: dynamic instructions and the cycle estimate
  // (emu::RunStats).
  std::string estimate() const {
    if (!o_.estimate)
      return "";
    return "  AMD run (trial 0): " + std::to_string(stats_.instructions) + " instructions executed, about " +
           std::to_string(stats_.cycles) + " cycles for the longest wave (LLVM's scheduling model; memory " +
           std::to_string(emu::kVmemLatency) + "/" + std::to_string(emu::kSmemLatency) + "/" +
           std::to_string(emu::kLdsLatency) + " cycles for vector/scalar/LDS loads)\n";
  }

  // How a buffer starts, for the report: " from 12 given bytes, then zero".
  std::string describeStart(const std::string &name) const {
    static const char *fills[] = {"random", "zero", "ones", "seq32"};
    const auto fill = o_.fills.find(name);
    const auto given = o_.contents.find(name);
    if (fill == o_.fills.end() && given == o_.contents.end())
      return "";
    const std::string how = fills[static_cast<int>(fill == o_.fills.end() ? Fill::Random : fill->second)];
    return given == o_.contents.end() ? ", filled " + how
                                      : ", from " + std::to_string(given->second.size()) + " given bytes, then " + how;
  }

  // A pointer parameter's buffer, or (`parent` set: --buffer PARENT+OFFSET=BYTES)
  // a buffer whose address is stored at byte `parentOffset` of another
  // buffer or of a by-value parameter (a struct of pointers).
  struct Buffer {
    std::string name;
    uint64_t size = 0;
    bool inferred = false;
    std::string parent;
    uint64_t parentOffset = 0;
  };

  bool fail(ast::SourceLoc loc, const std::string &msg) {
    error(r_.diagnostics, loc, msg);
    r_.status = Status::Error;
    return false;
  }

  bool prepare() {
    // Only the checked kernel's body is parsed; the others are delimited
    // (ParseOptions::deferEntryBodies), so checking each kernel of a module
    // in turn is not each time a parse of them all (tests/hardware's 568
    // video kernels: most of that test's time).
    ::ptx::ParseResult pr = ::ptx::parseModule(src_, {.deferEntryBodies = true});
    for (const ::ptx::SyntaxError &e : pr.errors)
      error(r_.diagnostics, e.loc, e.message);
    if (!pr.ok()) {
      r_.status = Status::Error;
      return false;
    }
    module_ = std::move(pr.module);
    std::vector<const ::ptx::DeferredBody *> deferred(module_.functions.size(), nullptr);
    for (const ::ptx::DeferredBody &d : pr.deferredBodies)
      deferred[d.function] = &d;
    ast::Function *fn = nullptr;
    const ::ptx::DeferredBody *fnBody = nullptr;
    std::string names;
    for (size_t i = 0; i < module_.functions.size(); ++i) {
      ast::Function &f = module_.functions[i];
      if (!f.is_entry || (!f.body && !deferred[i]))
        continue;
      names += (names.empty() ? "" : ", ") + f.name;
      if ((o_.kernel.empty() && !fn) || f.name == o_.kernel) {
        fn = &f;
        fnBody = deferred[i];
      }
    }
    if (!fn)
      return fail({1, 1}, o_.kernel.empty() ? "no .entry kernel with a body in this file"
                                            : "no kernel '" + o_.kernel + "' (kernels: " +
                                                  (names.empty() ? "none" : names) + ")");
    if (fnBody) {
      ::ptx::BodyParseResult body = ::ptx::parseDeferredBody(src_, *fnBody);
      for (const ::ptx::SyntaxError &e : body.errors)
        error(r_.diagnostics, e.loc, e.message);
      if (!body.errors.empty()) {
        r_.status = Status::Error;
        return false;
      }
      fn->body = std::move(body.body);
    }
    k_ = kernel::decodeKernel(module_, *fn, r_.diagnostics);
    if (!k_)
      return fail(fn->loc, "kernel '" + fn->name + "' cannot be checked");
    // A launch the kernel's bounds forbid fails on NVIDIA hardware (and the
    // code object's metadata makes the AMD runtime refuse it too).
    const kernel::LaunchBounds &b = k_->bounds;
    if (b.required[0] && (o_.block.x != b.required[0] || o_.block.y != b.required[1] || o_.block.z != b.required[2]))
      return fail(b.requiredLoc, "--block " + dim(o_.block) + " is not the block .reqntid requires (" +
                                     std::to_string(b.required[0]) + "," + std::to_string(b.required[1]) + "," +
                                     std::to_string(b.required[2]) + ")");
    if (b.maxThreads && o_.block.count() > b.maxThreads)
      return fail(b.maxThreadsLoc, "--block " + dim(o_.block) + " has " + std::to_string(o_.block.count()) +
                                       " threads; .maxntid allows at most " + std::to_string(b.maxThreads));
    // Dynamic shared memory (per block, both sides): --shared-bytes, or what
    // the workgroup's LDS leaves beside the static variables.
    if (const kernel::SegmentLayout shared = kernel::layoutSegment(*k_, kernel::Space::Shared); shared.dynamic) {
      if (o_.sharedBytes && uint64_t(shared.bytes) + *o_.sharedBytes > targets::kLdsBytesPerWorkgroup)
        return fail(k_->loc, "--shared-bytes " + std::to_string(*o_.sharedBytes) + " beside the kernel's " +
                                 std::to_string(shared.bytes) + " bytes of static shared memory exceeds the 65536 "
                                 "bytes of LDS a workgroup has");
      dynamicShared_ = o_.sharedBytes ? *o_.sharedBytes : shared.bytes < targets::kLdsBytesPerWorkgroup ? targets::kLdsBytesPerWorkgroup - shared.bytes : 0;
    }
    if (!o_.amdObject.empty()) {
      if (!loadAmdObject())
        return false;
    } else if (!translateAndLoad()) {
      return false;
    }
    return prepareBuffers();
  }

  // check --amd: the given code object's kernel, as the runtime would launch
  // it. Nothing maps its instructions to PTX statements, so a mismatch is
  // traced on the PTX side only.
  bool loadAmdObject() {
    const std::string name = o_.amdKernel.empty() ? k_->name : o_.amdKernel;
    std::string err;
    std::optional<emu::LoadedKernel> lk = emu::loadKernel(o_.amdObject, name, costs_.assembler(t_), err);
    if (!lk)
      return fail(k_->loc, "--amd: " + err);
    loaded_ = std::move(*lk);
    foreign_ = true;
    kt_.codeStmt.assign(loaded_.code.size(), -1);
    kt_.numVgprs = loaded_.descriptor.vgprCount(t_);
    // Code object v5: the hidden arguments follow the explicit ones, 8-byte aligned.
    unsigned explicitBytes = 0;
    for (const kernel::Param &p : k_->params)
      explicitBytes = std::max(explicitBytes, p.offset + p.size);
    kt_.hiddenArgsOffset = (explicitBytes + 7) & ~7u;
    kt_.kernargBytes = std::max(loaded_.descriptor.kernargSize, kt_.hiddenArgsOffset + 256);
    return true;
  }

  bool translateAndLoad() {
    cost::CostModel &costs = costs_;
    klower::Options lo;
    lo.forcedRule = o_.forcedRule;
    lo.maxVgprs = o_.maxVgprs;
    lo.maxSgprs = o_.maxSgprs;
    lo.schedule = o_.schedule;
    if (!klower::translateKernel(*k_, t_, costs, kt_, r_.diagnostics, lo))
      return fail(k_->loc, "kernel '" + k_->name + "' does not translate for " + t_.name);
    // A block the translation's registers cannot hold on one CU cannot be
    // launched (the metadata's .max_flat_workgroup_size says so).
    if (o_.block.count() > kt_.maxBlockThreads)
      return fail(k_->loc, "--block " + dim(o_.block) + " has " + std::to_string(o_.block.count()) + " threads; with " +
                               std::to_string(kt_.numVgprs) + " VGPRs a workgroup of kernel '" + k_->name +
                               "' holds at most " + std::to_string(kt_.maxBlockThreads) + " on " + t_.name +
                               " (CUDA refuses such a launch too: too many resources requested)");
    mc::Assembler &asmr = costs.assembler(t_);
    mc::AssembleResult obj = asmr.assemble(
        klower::moduleHeader(t_) + kt_.assembly + klower::variablesAssembly(kt_.variables), mc::OutputKind::Object);
    if (!obj.ok) { // (this object is the MC check of what runs: translateKernel does not assemble)
      klower::reportMcRejection(kt_, kt_.statements, 0, obj, k_->loc, t_, r_.diagnostics);
      r_.status = Status::Error;
      return false;
    }
    std::string err, code = obj.output;
    // Module variables are reached PC-relative: run the linked code object,
    // as a GPU would load it.
    if (!kt_.variables.empty() && !link::linkCodeObject(obj.output, code, err))
      return fail(k_->loc, err);
    std::optional<emu::LoadedKernel> lk = emu::loadKernel(code, k_->name, asmr, err);
    if (!lk)
      return fail(k_->loc, "internal error: " + err);
    loaded_ = std::move(*lk);
    if (loaded_.code.size() != kt_.codeStmt.size())
      return fail(k_->loc, "internal error: the object holds " + std::to_string(loaded_.code.size()) +
                               " instructions but the translation emitted " + std::to_string(kt_.codeStmt.size()));
    return true;
  }

  bool prepareBuffers() {
    for (const kernel::Param &p : k_->params) {
      if (p.pointerSized && !o_.params.count(p.name)) {
        Buffer b;
        b.name = p.name;
        auto it = o_.bufferBytes.find(p.name);
        b.inferred = it == o_.bufferBytes.end();
        b.size = b.inferred ? std::max<uint64_t>(256, o_.grid.count() * o_.block.count() * 4) : it->second;
        if (auto given = o_.contents.find(p.name); given != o_.contents.end()) {
          if (b.inferred)
            b.size = std::max<uint64_t>(b.size, given->second.size());
          else if (given->second.size() > b.size)
            return fail(k_->loc, "--input " + p.name + ": " + std::to_string(given->second.size()) +
                                     " bytes do not fit its buffer of " + std::to_string(b.size) + " bytes");
        }
        buffers_.push_back(b);
      }
    }
    uint64_t inAll = 0;
    for (const Buffer &b : buffers_)
      inAll += b.size;
    for (const kernel::Variable &v : kt_.variables)
      inAll += v.size;
    if (inAll > kMaxBufferBytesInAll)
      return fail(k_->loc, "the buffers and module variables of '" + k_->name + "' take " + std::to_string(inAll) +
                               " bytes in all, more than check's limit of 1 GiB (each is held by both the "
                               "interpreter and the emulator)");
    for (const auto &[name, v] : o_.bufferBytes)
      if (name.find('+') == std::string::npos && !k_->param(name))
        return fail(k_->loc, "--buffer " + name + ": kernel '" + k_->name + "' has no such parameter");
    if (!addPointedBuffers())
      return false;
    auto isBuffer = [&](const std::string &name) { return bufferIndex(name) >= 0; };
    for (const auto &[name, v] : o_.contents) {
      const kernel::Param *p = k_->param(name);
      if (!isBuffer(name) && (!p || o_.params.count(name)))
        return fail(k_->loc, "--input " + name + ": kernel '" + k_->name +
                                 "' has no pointer parameter, by-value parameter or --buffer of that name");
      if (!isBuffer(name) && v.size() > p->size)
        return fail(k_->loc, "--input " + name + ": " + std::to_string(v.size()) + " bytes do not fit the " +
                                 std::to_string(p->size) + "-byte parameter");
    }
    for (const auto &[name, v] : o_.fills)
      if (!isBuffer(name))
        return fail(k_->loc, "--fill " + name + ": kernel '" + k_->name + "' has no pointer parameter of that name");
    for (const auto &[name, v] : o_.params)
      if (!k_->param(name))
        return fail(k_->loc, "--param " + name + ": kernel '" + k_->name + "' has no such parameter");
    return true;
  }

  long bufferIndex(const std::string &name) const {
    for (size_t i = 0; i < buffers_.size(); ++i)
      if (buffers_[i].name == name)
        return static_cast<long>(i);
    return -1;
  }

  // --buffer PARENT+OFFSET=BYTES: a buffer whose address the kernel reads
  // from byte OFFSET of a buffer or by-value parameter (chains allowed:
  // cfg+8+16), placed after its parent.
  bool addPointedBuffers() {
    std::vector<std::string> keys;
    for (const auto &[name, v] : o_.bufferBytes)
      if (name.find('+') != std::string::npos)
        keys.push_back(name);
    std::stable_sort(keys.begin(), keys.end(), [](const std::string &a, const std::string &b) {
      return std::count(a.begin(), a.end(), '+') < std::count(b.begin(), b.end(), '+');
    });
    for (const std::string &key : keys) {
      const size_t plus = key.rfind('+');
      const std::string parent = key.substr(0, plus), offText = key.substr(plus + 1);
      uint64_t off = 0;
      char *end = nullptr;
      if (!offText.empty())
        off = std::strtoull(offText.c_str(), &end, 0);
      if (offText.empty() || !std::isdigit(static_cast<unsigned char>(offText[0])) || *end)
        return fail(k_->loc, "--buffer " + key + ": expected PARENT+OFFSET=BYTES (a pointer at byte OFFSET of a "
                                 "buffer or by-value parameter)");
      const long pi = bufferIndex(parent);
      const kernel::Param *param = k_->param(parent);
      if (pi >= 0) {
        Buffer &pb = buffers_[size_t(pi)];
        if (off + 8 > pb.size) {
          if (!pb.inferred)
            return fail(k_->loc, "--buffer " + key + ": the pointer's 8 bytes at offset " + std::to_string(off) +
                                     " do not fit buffer '" + parent + "' (" + std::to_string(pb.size) + " bytes)");
          pb.size = (off + 8 + 15) & ~uint64_t(15);
        }
      } else if (param && !o_.params.count(parent)) {
        if (off + 8 > param->size)
          return fail(k_->loc, "--buffer " + key + ": the pointer's 8 bytes at offset " + std::to_string(off) +
                                   " do not fit parameter '" + parent + "' (" + std::to_string(param->size) + " bytes)");
      } else {
        return fail(k_->loc, "--buffer " + key + ": kernel '" + k_->name + "' has no buffer or by-value parameter '" +
                                 parent + "'");
      }
      Buffer b;
      b.name = key;
      b.size = o_.bufferBytes.at(key);
      b.parent = parent;
      b.parentOffset = off;
      if (auto given = o_.contents.find(key); given != o_.contents.end() && given->second.size() > b.size)
        return fail(k_->loc, "--input " + key + ": " + std::to_string(given->second.size()) +
                                 " bytes do not fit its buffer of " + std::to_string(b.size) + " bytes");
      buffers_.push_back(b);
    }
    return true;
  }

  // Where a faulting address may come from: a pointer the kernel read out
  // of a buffer or a by-value parameter that check gave no buffer (random
  // bytes), found as the stored 8-byte value the address lies just past.
  std::string pointerSource(const GlobalMemory &mem, const std::vector<uint8_t> &params, uint64_t addr) const {
    constexpr uint64_t kReach = uint64_t(1) << 24;
    uint64_t bestDistance = kReach;
    std::string where, hint;
    auto consider = [&](const uint8_t *bytes, size_t size, const std::string &name) {
      for (size_t o = 0; o + 8 <= size; o += 8) {
        uint64_t v = 0;
        std::memcpy(&v, bytes + o, 8);
        if (v <= addr && addr - v < bestDistance) {
          bestDistance = addr - v;
          where = name;
          hint = name + "+" + std::to_string(o);
        }
      }
    };
    for (const GlobalMemory::Buffer &b : mem.buffers())
      if (bufferIndex(b.name) >= 0)
        consider(b.bytes.data(), b.bytes.size(), b.name);
    for (const kernel::Param &p : k_->params)
      if (bufferIndex(p.name) < 0 && p.offset + p.size <= params.size() && p.size >= 8)
        consider(params.data() + p.offset, p.size, p.name);
    if (where.empty())
      return "";
    return "\n  the address is " + std::to_string(bestDistance) + " bytes past the pointer stored at " + hint +
           " (8 bytes of '" + where + "' that check gave no buffer): give it one with --buffer " + hint + "=BYTES";
  }

  std::vector<uint64_t> basesIn(const GlobalMemory &mem) const {
    std::vector<uint64_t> bases;
    for (const Buffer &b : buffers_) {
      const GlobalMemory::Buffer *m = mem.byName(b.name);
      bases.push_back(m ? m->base : 0);
    }
    return bases;
  }

  // Inputs for one trial: buffer contents and scalar parameter values.
  struct Inputs {
    std::vector<std::vector<uint8_t>> contents;
    std::map<std::string, uint64_t> scalars;
  };

  Inputs makeInputs(unsigned trial) const {
    Inputs in;
    // Two streams: scalar values must not depend on the buffer sizes (which
    // inference changes), contents may.
    Rng rng{o_.seed * 0x100000001b3ull + trial};
    Rng scalarRng{(o_.seed * 0x100000001b3ull + trial) ^ 0x5ca1a75ca1a75ca1ull};
    for (const Buffer &b : buffers_) {
      std::vector<uint8_t> bytes(b.size);
      for (size_t i = 0; i < bytes.size(); i += 8) {
        const uint64_t v = rng.next();
        for (size_t j = 0; j < 8 && i + j < bytes.size(); ++j)
          bytes[i + j] = static_cast<uint8_t>(v >> (8 * j));
      }
      const auto fill = o_.fills.find(b.name);
      const Fill how = fill == o_.fills.end() ? Fill::Random : fill->second;
      for (size_t i = 0; i < bytes.size() && how != Fill::Random; ++i)
        bytes[i] = how == Fill::Zero ? 0 : how == Fill::Ones ? 0xff : static_cast<uint8_t>((i / 4) >> (8 * (i % 4)));
      if (auto given = o_.contents.find(b.name); given != o_.contents.end())
        std::copy_n(given->second.begin(), std::min(given->second.size(), bytes.size()), bytes.begin());
      in.contents.push_back(std::move(bytes));
    }
    for (const kernel::Param &p : k_->params) {
      if (std::find_if(buffers_.begin(), buffers_.end(), [&](const Buffer &b) { return b.name == p.name; }) !=
          buffers_.end())
        continue;
      auto given = o_.params.find(p.name);
      in.scalars[p.name] = given != o_.params.end() ? given->second : scalarRng.next();
    }
    return in;
  }

  // The parameter block: buffer base addresses and scalar values at CUDA's offsets.
  std::vector<uint8_t> paramBlock(const Inputs &in, const std::vector<uint64_t> &bases) const {
    std::vector<uint8_t> block(k_->paramBytes, 0);
    for (const kernel::Param &p : k_->params) {
      uint64_t v = 0;
      for (size_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].name == p.name)
          v = bases[i];
      if (auto it = in.scalars.find(p.name); it != in.scalars.end())
        v = it->second;
      for (unsigned b = 0; b < p.size && b < 8; ++b)
        block[p.offset + b] = static_cast<uint8_t>(v >> (8 * b));
      if (auto given = o_.contents.find(p.name); given != o_.contents.end() && bufferIndex(p.name) < 0)
        std::copy_n(given->second.begin(), std::min<size_t>(given->second.size(), p.size), block.begin() + p.offset);
    }
    for (size_t i = 0; i < buffers_.size(); ++i) // pointers stored in by-value parameters
      if (const kernel::Param *p = buffers_[i].parent.empty() ? nullptr : k_->param(buffers_[i].parent);
          p && bufferIndex(p->name) < 0)
        storeLE(&block[p->offset + buffers_[i].parentOffset], 8, bases[i]);
    return block;
  }

  std::vector<uint64_t> place(GlobalMemory &mem, const Inputs &in) const {
    std::vector<uint64_t> bases;
    for (size_t i = 0; i < buffers_.size(); ++i)
      bases.push_back(mem.add(buffers_[i].name, in.contents[i]));
    for (size_t i = 0; i < buffers_.size(); ++i) // pointers stored in buffers (inside them: addPointedBuffers)
      if (const long pi = buffers_[i].parent.empty() ? -1 : bufferIndex(buffers_[i].parent); pi >= 0)
        storeLE(mem.find(bases[size_t(pi)] + buffers_[i].parentOffset, 8), 8, bases[i]);
    return bases;
  }

  std::optional<interp::Fault> runPtx(GlobalMemory &mem, const Inputs &in, interp::Options opts = {}) const {
    interp::Launch l;
    l.grid = o_.grid;
    l.block = o_.block;
    const std::vector<uint64_t> bases = place(mem, in);
    l.params = paramBlock(in, bases);
    l.dynamicSharedBytes = dynamicShared_.value_or(0);
    return interp::run(*k_, l, mem, opts);
  }

  std::optional<emu::Fault> runAmd(GlobalMemory &mem, const Inputs &in, emu::Options opts = {}) const {
    const std::vector<uint64_t> bases = place(mem, in);
    std::vector<uint8_t> kernarg = paramBlock(in, bases);
    kernarg.resize(kt_.kernargBytes, 0);
    // Code object v5 hidden arguments, as the HIP runtime fills them.
    const unsigned h = kt_.hiddenArgsOffset;
    storeLE(&kernarg[h + 0], 4, o_.grid.x);
    storeLE(&kernarg[h + 4], 4, o_.grid.y);
    storeLE(&kernarg[h + 8], 4, o_.grid.z);
    storeLE(&kernarg[h + 12], 2, o_.block.x);
    storeLE(&kernarg[h + 14], 2, o_.block.y);
    storeLE(&kernarg[h + 16], 2, o_.block.z);
    emu::Launch l;
    l.grid = o_.grid;
    l.block = o_.block;
    l.kernargAddress = mem.add("kernarg segment", kernarg);
    l.dispatchAddress = mem.add("dispatch packet", emu::dispatchPacket(o_.grid, o_.block, l.kernargAddress));
    if (loaded_.linked) {
      const std::vector<uint8_t> image = loaded_.image();
      l.imageAddress = mem.add("code object", image);
      loaded_.relocate(mem.find(l.imageAddress, image.size()), l.imageAddress);
    }
    l.dynamicLdsBytes = dynamicShared_.value_or(0);
    return emu::run(loaded_, t_, l, mem, opts);
  }

  // Grows inferred buffers until the PTX kernel runs without running past
  // one of them on every trial's inputs (their scalar parameters may reach
  // further), doubling, so a few rounds settle any launch.
  bool inferBuffers() {
    unsigned trial = 0;
    for (unsigned round = 0; round < 48 + o_.trials; ++round) {
      if (trial >= o_.trials)
        return true;
      GlobalMemory mem;
      std::optional<interp::Fault> f = runPtx(mem, makeInputs(trial));
      if (!f) {
        ++trial;
        continue;
      }
      bool grown = false;
      if (f->outOfBounds)
        for (size_t i = 0; i < buffers_.size(); ++i) {
          const GlobalMemory::Buffer *b = mem.byName(buffers_[i].name);
          if (!buffers_[i].inferred || !b || f->address < b->base + b->bytes.size() ||
              f->address >= b->base + b->bytes.size() + (uint64_t(1) << 30))
            continue;
          const uint64_t need = f->address + f->bytes - b->base;
          buffers_[i].size = std::max<uint64_t>((need + 15) & ~uint64_t(15), buffers_[i].size * 2);
          if (buffers_[i].size > (uint64_t(256) << 20))
            return fail(f->loc, "buffer '" + buffers_[i].name +
                                    "' would need more than 256 MiB; give its size with --buffer");
          grown = true;
        }
      if (!grown)
        return fail(f->loc, "the PTX kernel faults in the reference interpreter: " + f->message +
                                (f->outOfBounds ? pointerSource(mem, paramBlock(makeInputs(trial), basesIn(mem)), f->address)
                                                : std::string()));
    }
    return trial >= o_.trials || fail(k_->loc, "could not infer the buffer sizes; give them with --buffer NAME=BYTES");
  }

  // Reports blocks done to Options::progress, naming the trial and side.
  std::function<void(uint64_t)> progressOf(unsigned trial, const char *side) const {
    if (!o_.progress)
      return {};
    const std::string what = "trial " + std::to_string(trial + 1) + " of " + std::to_string(o_.trials) + ", " + side;
    const uint64_t blocks = o_.grid.count();
    return [this, what, blocks](uint64_t done) { o_.progress(what, done, blocks); };
  }

  bool runTrial(unsigned trial) {
    const Inputs in = makeInputs(trial);
    GlobalMemory ptxMem, amdMem;
    interp::Options ptxOpts;
    ptxOpts.afterBlock = progressOf(trial, "PTX interpreter");
    emu::Options amdOpts;
    amdOpts.afterBlock = progressOf(trial, "AMDGPU emulator");
    if (trial == 0 && o_.estimate) { // (the first trial's run is the one measured)
      amdOpts.stats = &stats_;
      amdOpts.timing = &costs_.assembler(t_);
    }
    if (std::optional<interp::Fault> f = runPtx(ptxMem, in, ptxOpts))
      return fail(f->loc, "the PTX kernel faults in the reference interpreter (trial " + std::to_string(trial) +
                              "): " + f->message +
                              (f->outOfBounds ? pointerSource(ptxMem, paramBlock(in, basesIn(ptxMem)), f->address)
                                              : std::string()));
    if (std::optional<emu::Fault> f = runAmd(amdMem, in, amdOpts)) {
      std::string where;
      if (f->instruction >= 0) {
        where = "\n  at AMD instruction " + std::to_string(f->instruction) + ": " +
                loaded_.code[size_t(f->instruction)].text;
        const int s = kt_.codeStmt[size_t(f->instruction)];
        if (s >= 0)
          blame(static_cast<unsigned>(s), where);
        else if (!foreign_)
          where += "\n  (in the kernel's ABI prologue or epilogue)";
      }
      return mismatch("trial " + std::to_string(trial) + (foreign_ ? ": the AMD code object" : ": the translated code") +
                      " fails in the AMDGPU emulator: " +
                      f->message + where);
    }
    if (!o_.dumpDir.empty() && !dump(trial, ptxMem, amdMem))
      return false;
    for (size_t i = 0; i < buffers_.size(); ++i) {
      const GlobalMemory::Buffer *a = ptxMem.byName(buffers_[i].name);
      const GlobalMemory::Buffer *b = amdMem.byName(buffers_[i].name);
      for (size_t off = 0; off < a->bytes.size(); ++off) {
        if (a->bytes[off] == b->bytes[off])
          continue;
        const size_t word = off & ~size_t(3);
        const unsigned n = static_cast<unsigned>(std::min<size_t>(4, a->bytes.size() - word));
        std::string msg = "trial " + std::to_string(trial) + ": buffer '" + buffers_[i].name +
                          "' differs first at byte offset " + std::to_string(off) + " (32-bit element " +
                          std::to_string(word / 4) + "): PTX " + hex(loadLE(&a->bytes[word], n)) + ", AMD " +
                          hex(loadLE(&b->bytes[word], n));
        msg += trace(in, a->base + off);
        return mismatch(msg);
      }
    }
    return true;
  }

  // Both sides' final buffers into o_.dumpDir, each file written atomically.
  bool dump(unsigned trial, const GlobalMemory &ptxMem, const GlobalMemory &amdMem) {
    std::error_code ec;
    std::filesystem::create_directories(o_.dumpDir, ec);
    if (ec)
      return fail(k_->loc, "--dump: cannot create '" + o_.dumpDir + "': " + ec.message());
    for (const Buffer &b : buffers_)
      for (auto [side, mem] : {std::pair{"ptx", &ptxMem}, std::pair{"amd", &amdMem}}) {
        const GlobalMemory::Buffer *buf = mem->byName(b.name);
        const std::string path = o_.dumpDir + "/" + b.name + ".trial" + std::to_string(trial) + "." + side;
        const std::string bytes(buf->bytes.begin(), buf->bytes.end());
        if (std::string err = output::writeAtomically(path, bytes); !err.empty())
          return fail(k_->loc, "--dump: " + err);
      }
    return true;
  }

  bool mismatch(const std::string &msg) {
    r_.status = race_ ? Status::Race : Status::Mismatch;
    r_.report = header_ + (race_ ? "  RACE: " : "  MISMATCH: ") + msg + "\n";
    return false;
  }

  // Two plain stores to the watched byte by different threads, with
  // different values and nothing ordering them (different blocks, or one
  // block between the same barriers): which lands last is up to the
  // hardware on NVIDIA and AMD alike. The description, or empty.
  std::string raceAt(const std::vector<interp::WatchedStore> &stores) const {
    for (size_t j = 1; j < stores.size(); ++j)
      for (size_t i = 0; i < j; ++i) {
        const interp::WatchedStore &a = stores[i], &b = stores[j];
        if (a.thread == b.thread || a.value == b.value ||
            (a.block == b.block && a.barrierEpoch != b.barrierEpoch))
          continue;
        auto who = [&](const interp::WatchedStore &w) {
          char byte[8];
          std::snprintf(byte, sizeof byte, "0x%02x", w.value);
          return "thread " + std::to_string(w.thread) + " (line " + std::to_string(k_->body[w.stmt].loc.line) +
                 ") leaves byte " + byte;
        };
        return "\n  the PTX kernel races here: " + who(a) + ", " + who(b) +
               (a.block == b.block ? ", between the same barriers of block " + std::to_string(a.block)
                                   : ", from blocks " + std::to_string(a.block) + " and " + std::to_string(b.block)) +
               "; nothing orders the two stores, so either value may remain on NVIDIA hardware too: a race in the "
               "kernel, not a translation error";
      }
    return "";
  }

  std::string describe(const interp::SharedRace &r) const {
    auto who = [&](uint64_t thread, unsigned stmt, bool stores) {
      return "thread " + std::to_string(thread) + (stores ? " stores" : " loads") + " it (line " +
             std::to_string(k_->body[stmt].loc.line) + ")";
    };
    return "\n  the PTX kernel races in shared memory, at byte " + std::to_string(r.offset) + ": " +
           who(r.first, r.firstStmt, r.firstStores) + ", then " + who(r.second, r.secondStmt, r.secondStores) +
           ", in another warp, with no barrier between them. Nothing orders two warps there, so the result depends "
           "on how they are scheduled, on NVIDIA hardware as well: a race in the kernel or a launch it was not "
           "written for (--block), not a translation error";
  }

  void blame(unsigned s, std::string &out) {
    const Stmt &st = k_->body[s];
    out += "\n  PTX line " + std::to_string(st.loc.line) + ": " + st.text;
    r_.blamedLoc = st.loc;
    if (foreign_) // (a foreign code object: no AMD code belongs to a statement)
      return;
    const mir::TranslatedInstruction &ti = kt_.statements[s];
    if (ti.rule) {
      out += "\n  rule '" + ti.rule->name + "' (" + ti.rule->restriction + ")";
      r_.blamedRule = ti.rule->name;
    }
    out += "\n  AMD code for it:";
    for (const std::string &g : ti.text().gcn)
      out += "\n    " + g;
  }

  // Reruns both sides tracing the thread that wrote `address` last and
  // names the first statement whose written value differs.
  std::string trace(const Inputs &in, uint64_t address) {
    uint64_t writer = ~0ull;
    std::vector<interp::WatchedStore> stores;
    std::optional<interp::SharedRace> sharedRace;
    {
      GlobalMemory mem;
      interp::Options po;
      po.watchAddress = address;
      po.lastWriter = &writer;
      po.watchedStores = &stores;
      po.sharedRace = &sharedRace;
      runPtx(mem, in, po);
    }
    if (writer == ~0ull)
      return "\n  (no PTX thread stored to that element: the AMD code wrote where the PTX kernel did not)";
    if (std::string race = raceAt(stores); !race.empty()) {
      race_ = true;
      return race;
    }
    // A race in shared memory may be why the values differ, or not: the
    // trace still follows, after it.
    race_ = sharedRace.has_value();
    const std::string raceNote = sharedRace ? describe(*sharedRace) : std::string();
    std::vector<interp::TraceEvent> ptxTrace;
    std::vector<emu::TraceRecord> amdTrace;
    {
      GlobalMemory mem;
      interp::Options po;
      po.traceThread = writer;
      po.trace = &ptxTrace;
      runPtx(mem, in, po);
    }
    {
      GlobalMemory mem;
      emu::Options eo;
      eo.traceThread = writer;
      eo.trace = &amdTrace;
      runAmd(mem, in, eo);
    }
    std::map<std::string, Location> where, scalarWhere;
    for (const auto &[reg, phys] : kt_.registers)
      if (std::optional<Location> l = parseLocation(phys))
        where[reg] = *l;
    for (const auto &[reg, phys] : kt_.scalarHomes)
      if (std::optional<Location> l = parseLocation(phys))
        scalarWhere[reg] = *l;
    auto amdValueIn = [&](const emu::TraceRecord &r, const std::string &reg,
                          const std::map<std::string, Location> &in) -> std::optional<uint64_t> {
      auto it = in.find(reg);
      if (it == in.end())
        return std::nullopt;
      const Location &l = it->second;
      const unsigned width = k_->registers.count(reg) ? k_->registers.at(reg).width : 32;
      if (width == 1) { // a lane mask: this lane's bit
        const unsigned word = l.index + (r.lane >= 32 ? 1 : 0);
        return (r.sgprs[word] >> (r.lane % 32)) & 1;
      }
      const std::vector<uint32_t> &file = l.sgpr ? r.sgprs : r.vgprs;
      uint64_t v = file[l.index];
      if (l.count > 1)
        v |= uint64_t(file[l.index + 1]) << 32;
      return v & sem::maskOf(width);
    };
    // The last AMD instruction of each statement, and the registers its
    // instructions write (their first operand; 1000 + n for SGPR n).
    std::map<unsigned, unsigned> lastLine;
    std::map<unsigned, std::set<unsigned>> writtenBy;
    for (size_t i = 0; i < kt_.codeStmt.size(); ++i)
      if (kt_.codeStmt[i] >= 0) {
        const unsigned stmt = static_cast<unsigned>(kt_.codeStmt[i]);
        lastLine[stmt] = static_cast<unsigned>(i);
        const std::string &text = loaded_.code[i].text;
        const size_t sp = text.find(' ');
        if (sp == std::string::npos)
          continue;
        if (std::optional<Location> l = parseLocation(text.substr(sp + 1, text.find(',', sp) - sp - 1)))
          for (unsigned k = 0; k < l->count; ++k)
            writtenBy[stmt].insert((l->sgpr ? 1000 : 0) + l->index + k);
      }
    // The nth completion of statement `stmt` in the AMD trace (its last
    // instruction's nth record), or null.
    auto nthCompletion = [&](unsigned stmt, unsigned nth) -> const emu::TraceRecord * {
      auto ll = lastLine.find(stmt);
      if (ll == lastLine.end())
        return nullptr;
      unsigned count = 0;
      for (const emu::TraceRecord &r : amdTrace)
        if (r.instruction == ll->second && count++ == nth)
          return &r;
      return nullptr;
    };
    // Only the 32-bit halves of a home that the statement's code writes are
    // compared: a half read in place elsewhere (a kernel argument's low
    // half in its SGPR, the high half copied to a VGPR) is never written to
    // the home, so its stale bits say nothing.
    auto writtenMask = [&](unsigned stmt, const std::string &reg, const std::map<std::string, Location> &in) {
      uint64_t mask = 0;
      auto it = in.find(reg);
      if (it == in.end())
        return mask;
      const Location &l = it->second;
      const std::set<unsigned> &w = writtenBy[stmt];
      for (unsigned k = 0; k < std::min(l.count, 2u); ++k)
        if (w.count((l.sgpr ? 1000 : 0) + l.index + k))
          mask |= uint64_t(0xffffffffu) << (32 * k);
      return mask;
    };
    std::map<std::string, uint64_t> ptxValues;
    std::map<unsigned, unsigned> seen; // statement -> occurrences so far
    std::string header =
        raceNote + "\n  traced thread " + std::to_string(writer) + " (the last to store there in PTX)";
    for (const interp::TraceEvent &e : ptxTrace) {
      const Stmt &st = k_->body[e.stmt];
      const std::vector<std::string> written = kernel::writtenRegisters(st);
      const unsigned nth = seen[e.stmt]++;
      auto ll = lastLine.find(e.stmt);
      if (st.kind != Stmt::Kind::Load && ll != lastLine.end() && !written.empty()) {
        const emu::TraceRecord *rec = nthCompletion(e.stmt, nth);
        for (size_t i = 0; i < written.size() && rec; ++i) {
          const std::string &reg = written[i];
          // A uniform register computed by scalar code has its value in its
          // scalar home; its VGPR (if any) is written only where vector code
          // needs it. Either holding the PTX value is agreement.
          const unsigned width = k_->registers.count(reg) ? k_->registers.at(reg).width : 32;
          const uint64_t vMask = width == 1 ? 1 : writtenMask(e.stmt, reg, where) & sem::maskOf(width);
          const uint64_t sMask = width == 1 ? 1 : writtenMask(e.stmt, reg, scalarWhere) & sem::maskOf(width);
          std::optional<uint64_t> got = vMask ? amdValueIn(*rec, reg, where) : std::nullopt;
          std::optional<uint64_t> scalar = sMask ? amdValueIn(*rec, reg, scalarWhere) : std::nullopt;
          if ((!got && !scalar) || (got && (*got & vMask) == (e.values[i] & vMask)) ||
              (scalar && (*scalar & sMask) == (e.values[i] & sMask)))
            continue;
          std::string amd;
          if (scalar)
            amd = hex(*scalar) + " in " + physOf(reg, kt_.scalarHomes) + " (its scalar home)";
          if (got)
            amd += (amd.empty() ? "" : ", ") + hex(*got) + " in " + physOf(reg, kt_.registers);
          std::string out = header + "\n  first differing value: " + reg + " = " + hex(e.values[i]) + " in PTX, " +
                            amd + " on AMD";
          blame(e.stmt, out);
          std::string inputs;
          for (const std::string &src : kernel::readRegisters(st))
            if (ptxValues.count(src))
              inputs += " " + src + "=" + hex(ptxValues[src]);
          if (!inputs.empty())
            out += "\n  its PTX inputs:" + inputs;
          return out;
        }
      }
      for (size_t i = 0; i < written.size(); ++i)
        ptxValues[written[i]] = e.values[i];
    }
    if (foreign_) {
      // check --amd: nothing maps the object's registers to PTX registers, so
      // the PTX side is shown: the store that wrote the element, and the
      // values the thread computed on the way.
      std::string out = header + "\n  (the AMD side is a code object with no map to PTX statements)";
      for (auto it = ptxTrace.rbegin(); it != ptxTrace.rend(); ++it)
        if (k_->body[it->stmt].kind == Stmt::Kind::Store) {
          blame(it->stmt, out);
          std::string inputs;
          for (const std::string &src : kernel::readRegisters(k_->body[it->stmt]))
            if (ptxValues.count(src))
              inputs += " " + src + "=" + hex(ptxValues[src]);
          if (!inputs.empty())
            out += "\n  its PTX inputs:" + inputs;
          break;
        }
      // The AMD side as far as the emulator sees it: the lane's last store
      // and the data it stored (the data operand follows the address).
      for (auto it = amdTrace.rbegin(); it != amdTrace.rend(); ++it) {
        const std::string &text = loaded_.code[it->instruction].text;
        if (text.find("store") == std::string::npos && text.rfind("ds_write", 0) != 0)
          continue;
        out += "\n  AMD instruction " + std::to_string(it->instruction) + ", the lane's last store: " + text;
        const size_t first = text.find(", ");
        const size_t second = first == std::string::npos ? first : text.find(',', first + 2);
        if (first != std::string::npos) {
          const std::string data = text.substr(first + 2, second == std::string::npos ? second : second - first - 2);
          if (std::optional<Location> l = parseLocation(data); l && !l->sgpr && l->index + l->count <= it->vgprs.size()) {
            std::string values;
            for (unsigned k = 0; k < l->count; ++k)
              values += (k ? " " : "") + hex(it->vgprs[l->index + k]);
            out += "\n  its data " + data + " = " + values;
          }
        }
        break;
      }
      return out;
    }
    std::string out = header + "\n  every register value the thread computed agrees; the difference is in a store";
    // The last store statement the thread executed that covers the element,
    // and the data it stored on each side: loads are not compared above (a
    // load's register is written when its wait retires it), so data that
    // differs there came from memory that differed.
    for (auto it = ptxTrace.rbegin(); it != ptxTrace.rend(); ++it) {
      const Stmt &st = k_->body[it->stmt];
      if (st.kind != Stmt::Kind::Store)
        continue;
      blame(it->stmt, out);
      const size_t at = static_cast<size_t>(ptxTrace.rend() - it) - 1;
      std::map<std::string, std::pair<uint64_t, unsigned>> before; // value and writer, as the store read them
      unsigned nth = 0;
      for (size_t j = 0; j < at; ++j) {
        const std::vector<std::string> w = kernel::writtenRegisters(k_->body[ptxTrace[j].stmt]);
        for (size_t i = 0; i < w.size(); ++i)
          before[w[i]] = {ptxTrace[j].values[i], ptxTrace[j].stmt};
        nth += ptxTrace[j].stmt == it->stmt;
      }
      const emu::TraceRecord *rec = nthCompletion(it->stmt, nth);
      for (const ptx::Operand &v : st.extra().values) {
        auto b = before.find(v.reg);
        if (!v.isReg() || !rec || b == before.end())
          continue;
        const unsigned width = k_->registers.count(v.reg) ? k_->registers.at(v.reg).width : 32;
        std::optional<uint64_t> got = amdValueIn(*rec, v.reg, where);
        if (!got || (*got & sem::maskOf(width)) == (b->second.first & sem::maskOf(width)))
          continue;
        const Stmt &writer = k_->body[b->second.second];
        out += "\n  its data " + v.reg + " = " + hex(b->second.first) + " in PTX, " + hex(*got) + " in " +
               physOf(v.reg, kt_.registers) + " on AMD, from PTX line " + std::to_string(writer.loc.line) + ": " +
               writer.text;
        if (writer.kind == Stmt::Kind::Load)
          out += "\n  (a load: the memory it read holds different bytes on the two sides)";
        break;
      }
      break;
    }
    return out;
  }

  static std::string physOf(const std::string &reg, const std::vector<std::pair<std::string, std::string>> &table) {
    for (const auto &[r, p] : table)
      if (r == reg)
        return p;
    return "?";
  }

  const std::string &src_;
  const targets::TargetInfo &t_;
  const Options &o_;
  cost::CostModel &costs_;
  std::optional<unsigned> dynamicShared_; // set when the kernel has dynamic shared memory
  bool race_ = false;                      // the first difference is a race in the PTX kernel
  Result r_;
  ast::Module module_;
  std::optional<kernel::Kernel> k_;
  klower::KernelTranslation kt_;
  bool foreign_ = false; // check --amd: kt_ describes only the loaded object
  emu::RunStats stats_;
  emu::LoadedKernel loaded_;
  std::vector<Buffer> buffers_;
  std::string header_;
};

} // namespace

Result run(const std::string &source, const targets::TargetInfo &t, const Options &options, cost::CostModel &costs) {
  return Checker(source, t, options, costs).run();
}

} // namespace p2a::check
