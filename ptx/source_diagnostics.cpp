#include "ptx/source_diagnostics.hpp"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace p2a {

std::string printableName(std::string_view name) {
  std::string out(name);
  for (char &c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      c = '?';
  return out;
}

std::string withoutByteOrderMark(std::string text) {
  if (text.rfind("\xEF\xBB\xBF", 0) == 0)
    text.erase(0, 3);
  return text;
}

SourceFile::SourceFile(std::string name, std::string text)
    : name_(printableName(name)), text_(withoutByteOrderMark(std::move(text))),
      sm_(std::make_unique<llvm::SourceMgr>()) {
  sm_->AddNewSourceBuffer(llvm::MemoryBuffer::getMemBuffer(text_, name_, /*RequiresNullTerminator=*/false),
                          llvm::SMLoc());
}

SourceFile::~SourceFile() = default;

static llvm::SourceMgr::DiagKind kindOf(Diagnostic::Severity s) {
  switch (s) {
  case Diagnostic::Severity::Error: return llvm::SourceMgr::DK_Error;
  case Diagnostic::Severity::Warning: return llvm::SourceMgr::DK_Warning;
  case Diagnostic::Severity::Note: return llvm::SourceMgr::DK_Note;
  }
  return llvm::SourceMgr::DK_Error;
}

namespace {

// Source lines longer than this are shown as a window around the column.
constexpr size_t kMaxShownLine = 200, kWindowBefore = 60, kWindow = 120;

// The source line as shown under a diagnostic: control bytes and non-ASCII
// bytes become '?' (one column each, so the caret stays under its byte; LLVM
// also drops the caret for lines with non-ASCII bytes), and a very long line
// (a 10 MB minified file) is cut to a window around the column. Returns the
// caret's 1-based column in the shown text.
std::string shownLine(llvm::StringRef line, unsigned col, unsigned &shownCol) {
  size_t start = 0, end = line.size();
  if (line.size() > kMaxShownLine) {
    start = col > kWindowBefore ? col - 1 - kWindowBefore : 0;
    end = std::min(line.size(), start + kWindow);
  }
  std::string out = start ? "..." : "";
  for (char c : line.slice(start, end)) {
    const unsigned char u = static_cast<unsigned char>(c);
    out += (u < 0x20 && c != '\t') || u >= 0x7f ? '?' : c;
  }
  if (end < line.size())
    out += "...";
  shownCol = static_cast<unsigned>(col - start + (start ? 3 : 0));
  return out;
}

} // namespace

void SourceFile::print(llvm::raw_ostream &os, const Diagnostic &d) const {
  // Warnings name the option that controls them, as clang does.
  const std::string message = d.flag.empty() ? d.message : d.message + " [-W" + d.flag + "]";
  const bool colors = os.has_colors();
  if (d.loc.line == 0) {
    sm_->PrintMessage(os, llvm::SMDiagnostic(name_, kindOf(d.severity), message), colors);
    return;
  }
  // The line's text through SourceMgr; a line past the end shows as empty.
  llvm::StringRef line;
  unsigned col = d.loc.col ? d.loc.col : 1;
  llvm::SMLoc lineStart = sm_->FindLocForLineAndColumn(1, d.loc.line, 1);
  if (lineStart.isValid()) {
    const llvm::MemoryBuffer *buf = sm_->getMemoryBuffer(1);
    llvm::StringRef rest(lineStart.getPointer(), buf->getBufferEnd() - lineStart.getPointer());
    line = rest.take_until([](char c) { return c == '\n'; });
    if (line.ends_with("\r"))
      line = line.drop_back(); // CRLF; any other CR is shown as '?'
  }
  // The header keeps the real column; the caret stops just past the line's end.
  const unsigned caretCol = std::min<unsigned>(col, static_cast<unsigned>(line.size()) + 1);
  unsigned shownCol = 1;
  const std::string shown = shownLine(line, caretCol, shownCol);
  // "file:line:col: " in bold, then SourceMgr's own rendering of the kind,
  // message, line and caret.
  if (colors)
    os.changeColor(llvm::raw_ostream::SAVEDCOLOR, true);
  os << name_ << ":" << d.loc.line << ":" << col << ": ";
  if (colors)
    os.resetColor();
  llvm::SMDiagnostic(*sm_, lineStart, name_, static_cast<int>(d.loc.line), static_cast<int>(shownCol) - 1,
                     kindOf(d.severity), message, shown, {})
      .print(nullptr, os, colors, /*ShowKindLabel=*/true, /*ShowLocation=*/false);
}

void SourceFile::print(llvm::raw_ostream &os, const ::ptx::SyntaxError &e) const {
  print(os, Diagnostic{Diagnostic::Severity::Error, e.loc, e.message});
}

} // namespace p2a
