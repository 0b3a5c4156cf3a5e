// port-asm --report: a self-contained HTML page listing every asm statement
// found (file:line:col), its PTX, its replacement and rules, whether its
// proof holds, or why it was left as it is; with counts per file.
#pragma once

#include "port/source_rewrite.hpp"

#include <string>
#include <vector>

namespace p2a::port {

struct ReportedFile {
  std::string name;
  const std::string *source = nullptr;
  const PortedFile *result = nullptr;
};

std::string formatPortReport(const std::vector<ReportedFile> &files);

} // namespace p2a::port
