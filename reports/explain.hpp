// `ptx2amdgpu explain`: a translated snippet as annotated assembly (text) or
// as JSON for tools.
#pragma once

#include "driver/translate.hpp"

#include <string>

namespace p2a::explain {

// Text: valid assembly for the target, with the PTX line, the rule, its cost
// and the restriction it handles as `;` comments.
std::string formatText(const translate::Translation &tr);

// {"target": ..., "wave_size": ..., "registers": {...}, "instructions": [{"ptx", "line", "rule", "cost", "restriction", "gcn": [...]}]}
std::string formatJson(const translate::Translation &tr);

} // namespace p2a::explain
