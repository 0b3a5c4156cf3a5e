// Text for an HTML page (the translation report, the port-asm report).
#pragma once

#include <string>
#include <string_view>

namespace p2a::html {

inline std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '&': out += "&amp;"; break;
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '"': out += "&quot;"; break;
    case '\'': out += "&#39;"; break;
    case '\t': out += "    "; break;
    default:
      // Control bytes (binary input) would make the page invalid; show them.
      if (static_cast<unsigned char>(c) < 0x20 && c != '\n')
        out += "\xEF\xBF\xBD"; // U+FFFD
      else
        out += c;
    }
  }
  return out;
}

} // namespace p2a::html
