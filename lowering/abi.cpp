// The ABI: the prologue (workgroup IDs, FLAT_SCRATCH, kernel arguments,
// module-variable addresses), the kernel descriptor and the code object v5
// metadata; the module header, variables and metadata blocks.
#include "lowering/lowering.hpp"

#include <algorithm>

namespace p2a::klower {

namespace {

// Whether LLVM's metadata reader takes a scalar for a string: its YAML
// reader (msgpack::DocNode::fromString) types scalars by their spelling even
// when quoted, so `n`, `yes`, `off`, `null`, `nan` or `12` would become
// booleans, nulls or numbers and the metadata be rejected.
bool readsAsString(const std::string &v) {
  std::string l;
  for (char c : v)
    l += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const char *special[] = {"y", "n", "yes", "no", "true", "false", "on", "off", "null", "~", ""};
  for (const char *x : special)
    if (l == x)
      return false;
  return !std::isdigit(static_cast<unsigned char>(l[0])) && l[0] != '-' && l[0] != '+' && l[0] != '.' &&
         l != "nan" && l != "inf";
}

// A name for the metadata: as it is, or with an explicit `!str` tag, which
// that reader honours (PTX identifiers hold no quote).
std::string yamlString(const std::string &v) { return readsAsString(v) ? v : "!str '" + v + "'"; }

} // namespace

bool Lowering::layOutSegments() {
  paramDwords_ = std::min(alignUp(k_.paramBytes, 4) / 4, kPreloadedParamDwords);
  if (k_.paramBytes > kMaxParamBytes) {
    error(diags_, k_.loc,
          "kernel '" + k_.name + "' has " + std::to_string(k_.paramBytes) + " bytes of parameters; at most " +
              std::to_string(kMaxParamBytes) + " are allowed (CUDA's limit)");
    return false;
  }
  // .shared variables form the group segment (LDS), .local ones each
  // thread's private segment (scratch), laid out as the interpreter does.
  const kernel::SegmentLayout group = kernel::layoutSegment(k_, Space::Shared);
  const kernel::SegmentLayout priv = kernel::layoutSegment(k_, Space::Local);
  // More LDS than a workgroup has would make a code object no runtime can
  // launch, and offsets past it wrap.
  if (group.bytes > targets::kLdsBytesPerWorkgroup) {
    error(diags_, k_.loc,
          "kernel '" + k_.name + "' declares " + std::to_string(group.bytes) + " bytes of shared memory; a workgroup on " +
              t_.name + " has " + std::to_string(targets::kLdsBytesPerWorkgroup) + " bytes of LDS");
    return false;
  }
  // A private segment larger than the wave's scratch size field can describe
  // would be cut short by the runtime, and lanes would overlap.
  if (priv.bytes > t_.maxScratchBytesPerLane()) {
    error(diags_, k_.loc,
          "kernel '" + k_.name + "' declares " + std::to_string(priv.bytes) + " bytes of local memory per thread; a lane on " +
              t_.name + " has at most " + std::to_string(t_.maxScratchBytesPerLane()) + " bytes of scratch");
    return false;
  }
  sharedOffset_ = group.offset;
  groupBytes_ = group.bytes;
  localOffset_ = priv.offset;
  privateBytes_ = declaredPrivateBytes_ = priv.bytes;
  out_.hiddenArgsOffset = alignUp(k_.paramBytes, 8);
  out_.groupBytes = groupBytes_;
  out_.privateBytes = privateBytes_;
  globalBase_ = kParamSgprs + alignUp(paramDwords_, 2);
  out_.kernargBytes = out_.hiddenArgsOffset + kHiddenArgsBytes;
  // Generic addresses are global ones unless the kernel makes generic
  // pointers into shared or local memory; then generic accesses are FLAT
  // instructions, which the apertures route.
  for (const Stmt &st : k_.body)
    genericReachesSegments_ |= st.kind == Stmt::Kind::Cvta && st.toGeneric &&
                               (st.space == Space::Shared || st.space == Space::Local);
  return true;
}

void Lowering::emitPrologue() {
  const unsigned paramDwords = paramDwords_;
  using amd::Op;
  using mir::sgprs;
  auto put = [&](Op op, MOperand d, std::vector<MOperand> srcs) { place(MInst{op, d, std::move(srcs)}, mir::kPrologue); };
  // The workgroup IDs into s2..s4 from where this target delivers them,
  // before any scalar load may write the registers they arrive in.
  if (kernelInitialisesScratch()) {
    // FLAT_SCRATCH = flat_scratch_init + the wave's offset (AMDGPUUsage
    // "Flat Scratch"); gfx10 writes it through s_setreg. Then the IDs
    // move down from s4..s6.
    if (t_.generation == targets::Generation::GFX9) {
      put(Op::S_ADD_U32, mir::special(mir::SpecialReg::FlatScratchLo), {sgprs(2), sgprs(7)});
      put(Op::S_ADDC_U32, mir::special(mir::SpecialReg::FlatScratchHi), {sgprs(3), mir::immOperand(0)});
    } else {
      put(Op::S_ADD_U32, sgprs(2), {sgprs(2), sgprs(7)});
      put(Op::S_ADDC_U32, sgprs(3), {sgprs(3), mir::immOperand(0)});
      put(Op::S_SETREG_B32, mir::hwReg(mir::HwReg::FlatScrLo), {sgprs(2)});
      put(Op::S_SETREG_B32, mir::hwReg(mir::HwReg::FlatScrHi), {sgprs(3)});
    }
    for (unsigned d = 0; d < 3; ++d)
      put(Op::S_MOV_B32, sgprs(kWorkgroupId + d), {sgprs(4 + d)});
  } else if (t_.architected_workgroup_ids) {
    const MOperand ttmp7 = mir::physReg(mir::RegFile::Ttmp, 7), ttmp9 = mir::physReg(mir::RegFile::Ttmp, 9);
    put(Op::S_MOV_B32, sgprs(kWorkgroupId), {ttmp9});
    put(Op::S_AND_B32, sgprs(kWorkgroupId + 1), {ttmp7, mir::immOperand(0xffff)});
    put(Op::S_LSHR_B32, sgprs(kWorkgroupId + 2), {ttmp7, mir::immOperand(16)});
  } else if (t_.min_user_sgpr_count > 2) {
    for (unsigned d = 0; d < 3; ++d)
      put(Op::S_MOV_B32, sgprs(kWorkgroupId + d), {sgprs(t_.min_user_sgpr_count + d)});
  }
  const MOperand kernarg = sgprs(kKernargPtr, 2);
  auto sload = [&](unsigned sgpr, unsigned dwords, unsigned byteOffset) {
    const Op op = dwords == 1 ? Op::S_LOAD_B32 : dwords == 2 ? Op::S_LOAD_B64 : dwords == 4 ? Op::S_LOAD_B128 : Op::S_LOAD_B256;
    put(op, sgprs(sgpr, dwords), {kernarg, mir::immOperand(byteOffset)});
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
  // Module variables: their addresses, PC-relative as LLVM's code model
  // for AMDHSA does it (s_getpc_b64 gives the next instruction's address;
  // the +4/+12 addends account for where each literal sits after it, 4
  // bytes more where s_sext_i32_i16 follows it: printer::expandBundle).
  for (const auto &[name, sg] : globalSgpr_) {
    if (name.front() == ' ') { // an aperture (see apertureAddress)
      put(Op::S_MOV_B64, sgprs(sg, 2),
          {mir::special(name == " src_shared_base" ? mir::SpecialReg::SrcSharedBase : mir::SpecialReg::SrcPrivateBase)});
      continue;
    }
    const int64_t sext = t_.getpc_zero_extends ? 4 : 0;
    put(Op::S_PC_REL_ADDRESS, sgprs(sg, 2), {fn_.symbol({name, false, 4 + sext}), fn_.symbol({name, true, 12 + sext})});
  }
}

void Lowering::assemble() {
  std::string a;
  a += "\t.text\n\t.globl " + k_.name + "\n\t.p2align 8\n\t.type " + k_.name + ",@function\n" + k_.name + ":\n";
  unsigned lines = 5; // (counted as the text grows: recounting it per line was quadratic)
  // Rows and code lines name statements by their place in the source
  // (Kernel::sourceIndex: scheduling may have moved them within a block).
  // A statement a rewrite added to (Stmt::inserted: a lop3's first step,
  // logic_splitting.hpp; a vector load's copies, vector_accesses.hpp) has
  // all the parts' code and cycles; its own statement names the rule and
  // the note.
  size_t sources = 0;
  for (size_t i = 0; i < k_.body.size(); ++i)
    sources = std::max(sources, k_.sourceOf(i) + 1);
  out_.statements.resize(sources);
  for (size_t i = 0; i < k_.body.size(); ++i) {
    const Stmt &s = k_.body[i];
    mir::TranslatedInstruction &ti = out_.statements[k_.sourceOf(i)];
    if (s.inserted) { // (its code is listed below with the row's; its cost counts there)
      if (opts_.keepListing && statementRules_[i])
        ti.textToWrite().cycles += costs_.cost(*statementRules_[i], t_).cycles;
      continue;
    }
    ti.loc = s.loc;
    ti.rule = statementRules_[i];
    if (opts_.keepListing) { // (the text and notes are the listings' and reports' only)
      mir::TranslatedInstruction::Text &text = ti.textToWrite();
      text.ptxText = s.text;
      text.note = s.note; // folded or fused statements (see constant_operands, instruction_fusion)
      if (text.note.empty() && loweringNote_.count(i))
        text.note = loweringNote_.at(i);
      text.cycles += ti.rule ? costs_.cost(*ti.rule, t_).cycles : 0;
    }
  }
  for (const mir::CodeInst &ci : fn_.code) {
    if (ci.mi.op == amd::Op::LABEL) {
      a += printer::printInst(ci.mi, fn_, out_.allocation, t_) + "\n";
      ++lines;
      continue;
    }
    for (const MInst &mi : printer::expandBundle(ci.mi, t_)) {
    const std::string text = printer::printInst(mi, fn_, out_.allocation, t_);
    const long source = ci.stmt >= 0 ? long(k_.sourceOf(static_cast<size_t>(ci.stmt))) : -1;
    if (source >= 0) {
      mir::TranslatedInstruction &row = out_.statements[static_cast<size_t>(source)];
      ++row.amdLines;
      if (opts_.keepListing)
        row.textToWrite().gcn.push_back(text);
    } else {
      (ci.stmt == mir::kPrologue ? out_.prologue : out_.epilogue).push_back(text);
    }
    out_.codeStmt.push_back(static_cast<int>(source));
    out_.codeAsmLine.push_back(kHeaderLines + 1 + lines);
    a += '\t';
    a += text;
    a += '\n';
    lines += 1 + static_cast<unsigned>(std::count(text.begin(), text.end(), '\n'));
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
  // (Held until the module's one assembly: at the capacity doubling left,
  // nvcomp's RunLengthEncode held 109 MiB for 71 MiB of text.)
  a.shrink_to_fit();
  out_.assembly = std::move(a);
  out_.metadata = metadataEntry(nv);
}

std::string Lowering::metadataEntry(unsigned nv) const {
  std::string m = "  - .args:\n";
  auto arg = [&](const std::string &name, unsigned offset, unsigned size, const char *kind, bool global) {
    m += "      - ";
    if (global)
      m += ".address_space: global\n        ";
    if (!name.empty())
      m += ".name: " + yamlString(name) + "\n        ";
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
  // .maxntid/.reqntid bound the block (launch_bounds.hpp), and so do the
  // registers: a workgroup's waves must fit on one CU. The runtime refuses a
  // larger block, as CUDA's launch does.
  m += "    .max_flat_workgroup_size: " + std::to_string(out_.maxBlockThreads) + "\n";
  m += "    .name: " + yamlString(k_.name) + "\n";
  m += "    .private_segment_fixed_size: " + std::to_string(privateBytes_) + "\n";
  if (k_.bounds.required[0])
    m += "    .reqd_workgroup_size:\n      - " + std::to_string(k_.bounds.required[0]) + "\n      - " +
         std::to_string(k_.bounds.required[1]) + "\n      - " + std::to_string(k_.bounds.required[2]) + "\n";
  m += "    .sgpr_count: " + std::to_string(out_.numSgprs) + "\n";
  m += "    .symbol: " + yamlString(k_.name + ".kd") + "\n";
  m += "    .vgpr_count: " + std::to_string(nv) + "\n";
  m += "    .wavefront_size: " + std::to_string(t_.wave_size) + "\n";
  return m;
}

std::string moduleHeader(const targets::TargetInfo &t) {
  return "\t.amdgcn_target \"amdgcn-amd-amdhsa--" + t.name + "\"\n\t.amdhsa_code_object_version 5\n";
}

std::string variablesAssembly(const std::vector<kernel::Variable> &variables) {
  std::string a;
  for (const kernel::Variable &var : variables) {
    const kernel::Variable *v = &var;
    const std::string &n = v->name;
    // .const data is read-only; .global data is writable, and without
    // initial bytes it takes no room in the file (.bss, as clang places a
    // zero-initialised __device__ array).
    // Addresses in an initializer are relocations the loader applies
    // (R_AMDGPU_RELATIVE64 once linked): .const data that holds them goes to
    // .data.rel.ro, as clang places a table of pointers.
    const bool zero =
        v->addresses.empty() && std::all_of(v->init.begin(), v->init.end(), [](uint8_t b) { return b == 0; });
    a += v->space == kernel::Space::Const && !v->addresses.empty() ? "\t.section .data.rel.ro." + n + ",\"aw\",@progbits\n"
         : v->space == kernel::Space::Const                        ? "\t.section .rodata." + n + ",\"a\",@progbits\n"
         : zero                                                    ? "\t.section .bss." + n + ",\"aw\",@nobits\n"
                                                                   : "\t.section .data." + n + ",\"aw\",@progbits\n";
    unsigned log2 = 0;
    while ((1u << log2) < std::max(v->align, 1u))
      ++log2;
    a += "\t.p2align " + std::to_string(log2) + "\n\t.type " + n + ",@object\n" + n + ":\n";
    // The initializer's bytes, then its zero tail (all of an uninitialised
    // variable) as one .zero, so a large array costs one line.
    std::vector<uint8_t> bytes = v->init;
    bytes.resize(std::min<uint64_t>(bytes.size(), v->size));
    while (!bytes.empty() && bytes.back() == 0)
      bytes.pop_back();
    size_t done = 0; // bytes written so far
    auto putBytes = [&](size_t end) {
      for (size_t i = done; i < end; i += 16) {
        a += "\t.byte ";
        for (size_t j = i; j < std::min(end, i + 16); ++j)
          a += (j > i ? "," : "") + std::to_string(bytes[j]);
        a += "\n";
      }
      done = std::max(done, end);
    };
    for (const kernel::Variable::Address &ad : v->addresses) { // (in offset order)
      putBytes(std::min<size_t>(ad.offset, bytes.size()));
      if (ad.offset > done)
        a += "\t.zero " + std::to_string(ad.offset - done) + "\n";
      a += "\t.quad " + ad.symbol + (ad.addend ? (ad.addend > 0 ? "+" : "") + std::to_string(ad.addend) : "") + "\n";
      done = ad.offset + 8;
    }
    putBytes(bytes.size());
    if (v->size > done)
      a += "\t.zero " + std::to_string(v->size - done) + "\n";
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

} // namespace p2a::klower
