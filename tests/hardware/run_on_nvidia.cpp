// Runs every fixture-shaped PTX kernel (`.entry NAME(.param .u64 in,
// .param .u64 out)`) of the given files on an NVIDIA GPU, over the inputs of
// slot_inputs.hpp, and writes what the hardware computed:
//   OUTDIR/record.txt   one line per kernel: file, kernel, and a digest of
//                       each warp's output bytes (what the repository keeps)
//   OUTDIR/outputs.bin  every kernel's whole `out` buffer, in record order
//   OUTDIR/inputs.bin   the `in` buffer, to confirm both sides built it alike
// Each kernel is JIT-compiled by the driver as a module of its own (the file's
// header plus that entry), so one form the driver refuses costs one line of
// the record, not the file.
//
// Build and run on a machine with the CUDA toolkit and a GPU (README.md):
//   nvcc -O2 -std=c++17 -o run_on_nvidia tests/hardware/run_on_nvidia.cpp -lcuda
//   ./run_on_nvidia OUTDIR tests/fixtures/*.ptx tests/hardware/*.ptx
#include "slot_inputs.hpp"

#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void must(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *msg = nullptr;
    cuGetErrorString(r, &msg);
    std::fprintf(stderr, "%s: %s\n", what, msg ? msg : "unknown CUDA error");
    std::exit(1);
  }
}

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Entry {
  std::string name, text;
  bool fixtureShaped = false;
};

// Splits a module into its header (everything before the first entry) and
// its entries (each up to the next entry). Fixture files hold nothing else.
void splitModule(const std::string &src, std::string &header, std::vector<Entry> &entries) {
  std::vector<size_t> starts;
  for (size_t p = src.find(".visible .entry "); p != std::string::npos; p = src.find(".visible .entry ", p + 1))
    if (p == 0 || src[p - 1] == '\n')
      starts.push_back(p);
  header = src.substr(0, starts.empty() ? src.size() : starts[0]);
  for (size_t i = 0; i < starts.size(); ++i) {
    const size_t end = i + 1 < starts.size() ? starts[i + 1] : src.size();
    Entry e;
    e.text = src.substr(starts[i], end - starts[i]);
    const size_t nameAt = std::string(".visible .entry ").size();
    e.name = e.text.substr(nameAt, e.text.find('(') - nameAt);
    const std::string signature = "(.param .u64 in, .param .u64 out)";
    e.fixtureShaped = e.text.compare(nameAt + e.name.size(), signature.size(), signature) == 0;
    entries.push_back(std::move(e));
  }
}

std::string baseName(const std::string &path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

int main(int argc, char **argv) {
  using namespace p2a::hardware;
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s OUTDIR FILE.ptx...\n", argv[0]);
    return 2;
  }
  const std::string outDir = argv[1];
  must(cuInit(0), "cuInit");
  CUdevice dev;
  must(cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx;
  must(cuCtxCreate(&ctx, nullptr, 0, dev), "cuCtxCreate");
  char devName[256] = {};
  cuDeviceGetName(devName, sizeof devName, dev);
  int major = 0, minor = 0, driver = 0;
  cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  cuDriverGetVersion(&driver);

  const std::vector<uint8_t> in = slotInputs();
  const size_t outBytes = size_t(kThreads) * kOutBytesPerThread;
  CUdeviceptr dIn, dOut;
  must(cuMemAlloc(&dIn, in.size()), "cuMemAlloc in");
  must(cuMemAlloc(&dOut, outBytes), "cuMemAlloc out");
  must(cuMemcpyHtoD(dIn, in.data(), in.size()), "copy in");

  std::ofstream record(outDir + "/record.txt");
  std::ofstream outputs(outDir + "/outputs.bin", std::ios::binary);
  std::ofstream(outDir + "/inputs.bin", std::ios::binary).write(reinterpret_cast<const char *>(in.data()), in.size());
  record << "# " << devName << ", sm_" << major << minor << ", CUDA driver " << driver << "\n";
  record << "# file kernel digest-of-warp-0 ... digest-of-warp-" << kThreads / kThreadsPerDigest - 1
         << " (FNV-1a of each warp's 256 output bytes), or: file kernel refused MESSAGE\n";

  unsigned ran = 0, refused = 0;
  for (int a = 2; a < argc; ++a) {
    std::string header;
    std::vector<Entry> entries;
    splitModule(readFile(argv[a]), header, entries);
    for (const Entry &e : entries) {
      if (!e.fixtureShaped)
        continue;
      const std::string module = header + e.text;
      char log[4096] = {};
      CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
      void *vals[] = {log, reinterpret_cast<void *>(uintptr_t(sizeof log))};
      CUmodule mod;
      const CUresult loaded = cuModuleLoadDataEx(&mod, module.c_str(), 2, opts, vals);
      if (loaded != CUDA_SUCCESS) {
        std::string msg = log;
        for (char &c : msg)
          if (c == '\n')
            c = ' ';
        record << baseName(argv[a]) << " " << e.name << " refused " << msg << "\n";
        ++refused;
        continue;
      }
      CUfunction fn;
      must(cuModuleGetFunction(&fn, mod, e.name.c_str()), "cuModuleGetFunction");
      must(cuMemsetD8(dOut, 0, outBytes), "clear out");
      void *args[] = {&dIn, &dOut};
      must(cuLaunchKernel(fn, kBlocks, 1, 1, kThreadsPerBlock, 1, 1, 0, nullptr, args, nullptr), e.name.c_str());
      must(cuCtxSynchronize(), e.name.c_str());
      std::vector<uint8_t> out(outBytes);
      must(cuMemcpyDtoH(out.data(), dOut, outBytes), "copy out");
      outputs.write(reinterpret_cast<const char *>(out.data()), out.size());
      record << baseName(argv[a]) << " " << e.name;
      const size_t warpBytes = size_t(kThreadsPerDigest) * kOutBytesPerThread;
      for (size_t w = 0; w < outBytes; w += warpBytes) {
        char hex[16];
        std::snprintf(hex, sizeof hex, " %08x", digest(out.data() + w, warpBytes));
        record << hex;
      }
      record << "\n";
      cuModuleUnload(mod);
      ++ran;
    }
  }
  std::printf("%s (sm_%d%d, driver %d): %u kernels ran, %u refused\n", devName, major, minor, driver, ran, refused);
  return 0;
}
