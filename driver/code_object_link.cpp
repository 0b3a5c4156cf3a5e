#include "driver/code_object_link.hpp"

#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Signals.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Program.h>
#include <llvm/Support/raw_ostream.h>

#include <optional>

namespace p2a::link {

std::string findLinker() {
  for (const char *name : {"ld.lld-19", "ld.lld"})
    if (llvm::ErrorOr<std::string> p = llvm::sys::findProgramByName(name))
      return *p;
  const char *fallback = "/usr/lib/llvm-19/bin/ld.lld";
  if (llvm::sys::fs::can_execute(fallback))
    return fallback;
  return "";
}

namespace {

// Temporary files removed whatever happens: on return, and on SIGINT or
// SIGTERM (LLVM's signal handler removes the files registered with it).
struct TempFile {
  llvm::SmallString<128> path;
  bool ok = false;
  explicit TempFile(const char *suffix) {
    ok = !llvm::sys::fs::createTemporaryFile("ptx2amdgpu", suffix, path);
    if (ok)
      llvm::sys::RemoveFileOnSignal(path);
  }
  ~TempFile() {
    if (ok) {
      llvm::sys::fs::remove(path);
      llvm::sys::DontRemoveFileOnSignal(path);
    }
  }
};

} // namespace

bool linkCodeObject(const std::string &object, std::string &hsaco, std::string &error) {
  const std::string lld = findLinker();
  if (lld.empty()) {
    error = "cannot link a code object: no ld.lld-19 (or ld.lld) found; install the Debian package lld-19";
    return false;
  }
  TempFile in(".o"), out(".hsaco"), log(".txt");
  if (!in.ok || !out.ok || !log.ok) {
    error = "cannot create temporary files to link the code object";
    return false;
  }
  {
    std::error_code ec;
    llvm::raw_fd_ostream os(in.path, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write '" + std::string(in.path) + "': " + ec.message();
      return false;
    }
    os << object;
    os.close();
    if (os.has_error()) {
      error = "cannot write '" + std::string(in.path) + "': " + os.error().message();
      os.clear_error();
      return false;
    }
  }
  const std::string inPath(in.path), outPath(out.path);
  llvm::SmallVector<llvm::StringRef, 8> args = {lld, "-shared", "--no-undefined", inPath, "-o", outPath};
  const std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(log.path), llvm::StringRef(log.path)};
  std::string execError;
  const int rc = llvm::sys::ExecuteAndWait(lld, args, std::nullopt, redirects, /*SecondsToWait=*/120, 0, &execError);
  if (rc != 0) {
    std::string msg;
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> b = llvm::MemoryBuffer::getFile(log.path))
      msg = (*b)->getBuffer().trim().str();
    error = "linking the code object with " + lld + " failed" + (msg.empty() ? "" : ": " + msg) +
            (execError.empty() ? "" : " (" + execError + ")");
    return false;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> b = llvm::MemoryBuffer::getFile(out.path, false, false);
  if (!b) {
    error = "cannot read the linked code object: " + b.getError().message();
    return false;
  }
  hsaco = (*b)->getBuffer().str();
  return true;
}

} // namespace p2a::link
