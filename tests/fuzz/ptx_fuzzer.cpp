// libFuzzer target: arbitrary bytes through the grammar, the translator and
// LLVM MC, exactly as the driver runs them (scripts/fuzz.sh builds it with
// clang-19, ASan and UBSan, seeds it with samples/ and runs it for a bounded
// time in CI). Any crash, sanitizer report, leak or timeout fails the run.
//
// The first byte picks the target; text with a `.version` directive is a
// module (batch and file mode), anything else a snippet (explain). A module
// that translates is also assembled into an ELF object. A first byte of
// 0x80 or more sends the text to port-asm as CUDA source instead.
#include "grammar/parser.hpp"
#include "targets/mc_backend.hpp"
#include "targets/target_info.hpp"
#include "isel/cost_model.hpp"
#include "driver/module_translation.hpp"
#include "driver/translate.hpp"
#include "port/source_rewrite.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  const auto &targets = p2a::targets::allTargets();
  const p2a::targets::TargetInfo &t = targets[data[0] % targets.size()];
  const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
  static p2a::cost::CostModel model;
  p2a::cost::CostModel &costs = model;
  if (data[0] >= 0x80) {
    (void)p2a::port::portSource(text, data[0] & 1 ? p2a::port::PortMode::Replace : p2a::port::PortMode::Guard, costs);
  } else if (text.find(".version") != std::string::npos) {
    p2a::module::ModuleResult r = p2a::module::translateModule(text, t, costs);
    if (r.ok)
      (void)costs.assembler(t).assemble(r.assembly, p2a::mc::OutputKind::Object);
  } else {
    ::ptx::ParseResult pr = ::ptx::parseSnippet(text);
    for (const ::ptx::ast::Function &f : pr.module.functions)
      if (f.body) {
        p2a::translate::Translation tr;
        p2a::Diagnostics diags;
        (void)p2a::translate::translateBody(*f.body, t, costs, tr, diags);
      }
  }
  return 0;
}
