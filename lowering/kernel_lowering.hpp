// A decoded kernel (kernel_ir.hpp) -> AMDHSA code: the ABI prologue, each
// statement lowered (rule forms through the rule table, memory and special
// registers here), registers assigned, memory waits inserted, and the
// `.amdhsa_kernel` descriptor that makes the hardware set up the initial
// state the code reads.
//
// ABI (AMDGPUUsage "Kernel Descriptor", "Initial Kernel Execution State",
// "Code Object V5 Metadata"):
//   s[0:1]  kernarg segment pointer (the only user SGPRs)
//   s2..s4  workgroup IDs x, y, z (system SGPRs)
//   v0      work-item IDs packed (x 9:0, y 19:10, z 29:20) on gfx90a, gfx942
//           and gfx11+; v0, v1, v2 elsewhere
//   kernarg explicit arguments at CUDA's offsets, then the v5 hidden
//           arguments from offset align8(explicit): hidden_block_count_x/y/z
//           (u32 at +0/+4/+8) and hidden_group_size_x/y/z (u16 at +12/+14/+16)
// so %nctaid and %ntid come from the hidden arguments, as HIP's own code
// object v5 kernels read them.
#pragma once

#include "ptx/diagnostic.hpp"
#include "kernel/kernel_ir.hpp"
#include "isel/cost_model.hpp"
#include "isel/machine_ir.hpp"
#include "targets/mc_backend.hpp"

#include <string>
#include <vector>

namespace p2a::klower {

// Size of the hidden (implicit) argument block HIP allocates after the
// explicit arguments (code object v5).
constexpr unsigned kHiddenArgsBytes = 256;

struct KernelTranslation {
  std::string name;
  std::string target;
  // The complete text for this kernel: code section, symbol, descriptor
  // (moved into the module's text by translateModule, which empties it).
  std::string assembly;
  // Per kernel statement (same index as the decoded Kernel::body, whatever
  // order scheduling gave them): what it became.
  std::vector<mir::TranslatedInstruction> statements;
  std::vector<std::string> prologue; // ABI loads before the first statement
  std::vector<std::string> epilogue; // s_endpgm when the body falls off its end
  // Per code line in emission order, the statement it belongs to (-1:
  // prologue or the final s_endpgm; its text is the next line of that
  // statement's row). The emulator decodes the object in the same order, so
  // line i is the i-th decoded instruction.
  std::vector<int> codeStmt;
  std::vector<unsigned> codeAsmLine; // line of each code line in moduleHeader() + assembly
  unsigned numVgprs = 0, numSgprs = 0;
  unsigned kernargBytes = 0;     // explicit + hidden
  // The largest block the code object allows (.max_flat_workgroup_size):
  // the launch bounds' limit, or fewer threads if the registers allow fewer
  // waves on one CU (targets::maxWorkgroupThreads).
  unsigned maxBlockThreads = 1024;
  unsigned hiddenArgsOffset = 0; // where the hidden arguments start
  unsigned groupBytes = 0;       // LDS (.shared variables) per workgroup
  unsigned privateBytes = 0;     // scratch (.local variables and VGPR spills) per thread
  // Register spills (lowering/spilling.cpp): values kept in scratch instead
  // of VGPRs, values kept in VGPR lanes instead of SGPRs (uniform values and
  // predicates), the scratch bytes per thread the first take, and the VGPRs
  // reserved for the second.
  unsigned spilledVgprValues = 0, spilledSgprValues = 0, spillScratchBytes = 0, spillLaneVgprs = 0;
  mir::Function function;
  mir::Allocation allocation;
  // The module .const/.global variables the code addresses (PC-relative
  // relocations: the module's assembly must define them once, see
  // variablesAssembly()).
  std::vector<kernel::Variable> variables;
  // This kernel's entry in the module's code object v5 metadata
  // (`amdhsa.kernels` list item, YAML), see moduleMetadata().
  std::string metadata;
  // The IR after each step named in Options::printAfter, as text.
  std::string irDump;
  // Where each PTX register lives ("v5", "v[6:7]", "s[20:21]"); a module's
  // translation moves it into the function's Translation::registers, where
  // listings are kept, and drops it otherwise.
  std::vector<std::pair<std::string, std::string>> registers;
  // The SGPRs of each uniform PTX register's scalar home ("s[20:21]"):
  // statements lowered to scalar rules write the value there (the VGPR in
  // `registers`, if any, only where vector code needs it).
  std::vector<std::pair<std::string, std::string>> scalarHomes;
};

struct Options {
  // Tests inject a rule here (e.g. a deliberately broken one): when it
  // applies to an instruction, it is used instead of the table's choice.
  const rules::Rule *forcedRule = nullptr;
  // SGPRs that uniform values computed by the scalar ALU may keep for the
  // whole kernel (uniform_values.hpp). A kernel that runs out of SGPRs with
  // them is translated again without: the lane masks (one or two SGPRs per
  // block) come first.
  unsigned scalarHomeSgprs = 24;
  // Registers a kernel may use (--max-vgprs / --max-sgprs; 0: the
  // target's): values beyond them are spilled (lowering/spilling.cpp). A
  // budget that cannot be met is a -Wregister-budget warning.
  unsigned maxVgprs = 0, maxSgprs = 0;
  // Steps after which the machine IR is written to KernelTranslation::irDump
  // (`--print-ir-after`; names from loweringSteps()).
  std::vector<std::string> printAfter;
  // Statements reordered within their blocks before lowering
  // (kernel/transforms/statement_scheduling.hpp); off: as written (`-fno-schedule`).
  bool schedule = true;
  // Each statement's row keeps its PTX text, AMD lines and note
  // (TranslatedInstruction::Text): for listings, reports and
  // `check`. A batch translation with no report keeps only counts, rules
  // and locations: the text of every AMD line a second time was a sixth of
  // a large module's peak memory.
  bool keepListing = true;
  // How the kernel's assembly spells register tuples: `v[6:7]` for people,
  // or `[v6,v7]` where only LLVM MC reads it (an object with no report):
  // mir::TupleSpelling says why.
  mir::TupleSpelling tuples = mir::TupleSpelling::Range;
};

// The lowering's steps, in the order Lowering::run takes them.
const std::vector<std::string> &loweringSteps();

// The kernel lowered; not yet assembled. LLVM MC, the authority on what a
// GPU accepts, checks it where it is assembled once: the module's assembly
// (driver/module_translation.cpp) or `check`'s object. The kernel is taken
// by value: a caller done with it moves it in, and its memory is freed as
// soon as the rewrites have their own copy.
bool translateKernel(kernel::Kernel k, const targets::TargetInfo &t, cost::CostModel &costs,
                     KernelTranslation &out, Diagnostics &diags, const Options &options = {});

// MC's rejection of a kernel's code, its lines numbered as in
// moduleHeader() + kt.assembly: an internal error at each PTX statement
// whose code MC rejected (naming the rule), or at the kernel for ABI code.
// `rows[firstRow + s]` is statement s's row (kt.statements, or where they
// were moved).
void reportMcRejection(const KernelTranslation &kt, const std::vector<mir::TranslatedInstruction> &rows, size_t firstRow,
                       const mc::AssembleResult &rejected, ::ptx::ast::SourceLoc kernelLoc,
                       const targets::TargetInfo &t, Diagnostics &diags);

// The module header every AMDHSA source starts with, and its line count.
std::string moduleHeader(const targets::TargetInfo &t);
inline constexpr unsigned kHeaderLines = 2;

// Definitions of module variables (their initial bytes, in .rodata.NAME for
// .const and .data.NAME for .global).
std::string variablesAssembly(const std::vector<kernel::Variable> &variables);

// The `.amdgpu_metadata` block (code object v5, AMDGPUUsage "Code Object V5
// Metadata") for the kernels' entries: what HIP's module API and the HSA
// runtime read to lay out the kernel arguments.
std::string moduleMetadata(const targets::TargetInfo &t, const std::vector<std::string> &kernelEntries);

} // namespace p2a::klower
