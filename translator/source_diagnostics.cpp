#include "translator/source_diagnostics.hpp"

#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

namespace p2a {

SourceFile::SourceFile(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)), sm_(std::make_unique<llvm::SourceMgr>()) {
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

void SourceFile::print(llvm::raw_ostream &os, const Diagnostic &d) const {
  // Warnings name the option that controls them, as clang does.
  const std::string message = d.flag.empty() ? d.message : d.message + " [-W" + d.flag + "]";
  if (d.loc.line == 0) {
    sm_->PrintMessage(os, llvm::SMDiagnostic(name_, kindOf(d.severity), message), os.has_colors());
    return;
  }
  // Clamp the column to the line (a position past the end still gets a caret).
  llvm::SMLoc loc = sm_->FindLocForLineAndColumn(1, d.loc.line, d.loc.col ? d.loc.col : 1);
  if (!loc.isValid())
    loc = sm_->FindLocForLineAndColumn(1, d.loc.line, 1);
  if (!loc.isValid()) {
    llvm::SMDiagnostic(*sm_, llvm::SMLoc(), name_, static_cast<int>(d.loc.line), static_cast<int>(d.loc.col) - 1,
                       kindOf(d.severity), message, "", {})
        .print(nullptr, os, os.has_colors());
    return;
  }
  sm_->PrintMessage(os, loc, kindOf(d.severity), message, {}, {}, os.has_colors());
}

void SourceFile::print(llvm::raw_ostream &os, const ::ptx::SyntaxError &e) const {
  print(os, Diagnostic{Diagnostic::Severity::Error, e.loc, e.message});
}

} // namespace p2a
