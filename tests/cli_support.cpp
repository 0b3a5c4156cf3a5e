#include "isel/cost_model.hpp"
#include "targets/target_info.hpp"
#include "cli_support.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace p2a::testing {

cost::CostModel &costModel() {
  static cost::CostModel model;
  return model;
}

std::optional<interp::Fault> runFixtureKernel(const kernel::Kernel &k, const std::vector<uint8_t> &in,
                                              size_t outBytes, Dim3 grid, Dim3 block, GlobalMemory &mem) {
  interp::Launch l;
  l.grid = grid;
  l.block = block;
  l.params.resize(16);
  storeLE(&l.params[0], 8, mem.add("in", in));
  storeLE(&l.params[8], 8, mem.add("out", std::vector<uint8_t>(outBytes, 0)));
  return interp::run(k, l, mem, {});
}

std::vector<const targets::TargetInfo *> checkedTargets() {
  std::vector<const targets::TargetInfo *> out;
  for (const targets::TargetInfo &t : targets::allTargets())
#ifdef P2A_SANITIZED
    if (t.name == "gfx900" || t.name == "gfx942" || t.name == "gfx1100")
#endif
      out.push_back(&t);
  return out;
}

std::vector<const targets::TargetInfo *> checkedTargets(size_t item) {
  std::vector<const targets::TargetInfo *> all = checkedTargets();
#ifdef P2A_SANITIZED
  return {all[item % all.size()]};
#else
  (void)item;
  return all;
#endif
}

bool checkedOn(const targets::TargetInfo &t, size_t item,
               const std::function<bool(const targets::TargetInfo &)> &serves) {
  std::vector<const targets::TargetInfo *> candidates;
  for (const targets::TargetInfo *c : checkedTargets())
    if (!serves || serves(*c))
      candidates.push_back(c);
#ifdef P2A_SANITIZED
  return !candidates.empty() && candidates[item % candidates.size()] == &t;
#else
  (void)item;
  return std::find(candidates.begin(), candidates.end(), &t) != candidates.end();
#endif
}


unsigned countOf(const std::string &hay, const std::string &needle) {
  unsigned n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1))
    ++n;
  return n;
}

std::string slurp(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const std::string &path, const std::string &data) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << data;
  REQUIRE(out.good());
}

// One private directory for the whole suite, removed at exit.
namespace {
class TempDir {
public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "p2a-cli-test-XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (mkdtemp(buf.data()))
      path_ = buf.data();
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  const std::string &path() const { return path_; }

private:
  std::string path_;
};
} // namespace

const std::string &tempDir() {
  static TempDir dir;
  REQUIRE_MESSAGE(!dir.path().empty(), "mkdtemp failed: " << std::strerror(errno));
  return dir.path();
}

// A fresh file name in the temporary directory.
std::string tempPath(const std::string &stem) {
  static unsigned counter = 0;
  return tempDir() + "/" + std::to_string(counter++) + "-" + stem;
}

std::string tempFile(const std::string &stem, const std::string &contents) {
  std::string p = tempPath(stem);
  spit(p, contents);
  return p;
}

doctest::String toString(const Run &r) {
  std::string s = "exit " + std::to_string(r.exitCode) + " signal " + std::to_string(r.signal) + " peak " +
                  std::to_string(r.peakKiB / 1024) + " MiB" +
                  "\n--- stdout\n" + r.out.substr(0, 4000) + "\n--- stderr\n" + r.err.substr(0, 4000);
  return s.c_str();
}

Run run(const std::vector<std::string> &args, const std::string &stdinText, const std::vector<std::string> &env,
        unsigned deadlineSeconds, unsigned signalAfterMs, int signalToSend) {
  return runProgram(P2A_BINARY, args, stdinText, env, deadlineSeconds, signalAfterMs, signalToSend);
}

Run runProgram(const std::string &program, const std::vector<std::string> &args, const std::string &stdinText,
               const std::vector<std::string> &env, unsigned deadlineSeconds, unsigned signalAfterMs,
               int signalToSend) {
  const std::string inPath = tempFile("stdin", stdinText);
  const std::string outPath = tempPath("stdout"), errPath = tempPath("stderr");

  std::vector<std::string> argStore{program};
  argStore.insert(argStore.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &a : argStore)
    argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> envStore = env;
  bool setsNoColor = false;
  for (const std::string &x : env)
    setsNoColor = setsNoColor || x.rfind("NO_COLOR=", 0) == 0;
  if (!setsNoColor)
    envStore.push_back("NO_COLOR=1");
  for (char **e = environ; *e; ++e) {
    bool overridden = std::strncmp(*e, "NO_COLOR=", 9) == 0;
    for (const std::string &x : env)
      overridden = overridden || std::strncmp(*e, x.c_str(), x.find('=') + 1) == 0;
    if (!overridden)
      envStore.push_back(*e);
  }
  std::vector<char *> envp;
  for (std::string &e : envStore)
    envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, inPath.c_str(), O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, program.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  REQUIRE_MESSAGE(rc == 0, "posix_spawn " << program << ": " << std::strerror(rc));

  // A hang is a failure, not a stuck suite: past the deadline the child is
  // killed and the run reports SIGKILL.
  int status = 0;
  struct rusage usage {};
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::seconds(deadlineSeconds);
  bool signalled = signalAfterMs == 0;
  for (;;) {
    pid_t w = wait4(pid, &status, WNOHANG, &usage);
    if (w == pid)
      break;
    REQUIRE_MESSAGE((w == 0 || errno == EINTR), "waitpid: " << std::strerror(errno));
    if (!signalled && std::chrono::steady_clock::now() > start + std::chrono::milliseconds(signalAfterMs)) {
      kill(pid, signalToSend);
      signalled = true;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
      }
      break;
    }
    usleep(2000);
  }
  Run r;
  r.peakKiB = static_cast<uint64_t>(usage.ru_maxrss);
  if (WIFEXITED(status))
    r.exitCode = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  r.out = slurp(outPath);
  r.err = slurp(errPath);
  return r;
}

bool contains(const std::string &hay, const std::string &needle) { return hay.find(needle) != std::string::npos; }

std::vector<std::string> lines(const std::string &s) {
  std::vector<std::string> v;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);)
    v.push_back(l);
  return v;
}

// Parses JSON output; fails the test with the parser's message otherwise.
llvm::json::Value parseJson(const std::string &text) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(text);
  if (!v) {
    std::string msg = llvm::toString(v.takeError());
    FAIL("invalid JSON: " << msg << "\n" << text.substr(0, 2000));
  }
  return std::move(*v);
}

// The clang-style rendering of one error: location line, source line, caret line.
std::string diagnostic(const std::string &file, unsigned line, unsigned col, const std::string &message,
                       const std::string &sourceLine) {
  return file + ":" + std::to_string(line) + ":" + std::to_string(col) + ": error: " + message + "\n" + sourceLine +
         "\n" + std::string(col - 1, ' ') + "^\n";
}

std::vector<std::string> samplePtxFiles(const std::string &under) {
  std::vector<std::string> files;
  for (const fs::directory_entry &e : fs::recursive_directory_iterator(std::string(P2A_SOURCE_DIR) + "/" + under))
    if (e.is_regular_file() && e.path().extension() == ".ptx")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

bool isElfForAmdgpu(const std::string &bytes) {
  if (bytes.size() < 64 || bytes.compare(0, 4, "\x7f" "ELF") != 0)
    return false;
  const unsigned char *b = reinterpret_cast<const unsigned char *>(bytes.data());
  const bool elf64 = b[4] == 2, little = b[5] == 1;
  const unsigned machine = b[18] | (b[19] << 8); // e_machine, little-endian
  return elf64 && little && machine == 224;      // EM_AMDGPU
}


} // namespace p2a::testing
