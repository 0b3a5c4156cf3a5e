#include "targets/fence_scope.hpp"

namespace p2a::targets {

const char *fenceScopeName(FenceScope s) {
  switch (s) {
  case FenceScope::Cta: return "cta";
  case FenceScope::Gpu: return "gpu";
  case FenceScope::Sys: return "sys";
  }
  return "?";
}

} // namespace p2a::targets
