//===- CudaEnvironment.cpp - Where Clang and CUDA live --------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#ifndef TMEMCHECK_CLANG_RESOURCE_DIR
#define TMEMCHECK_CLANG_RESOURCE_DIR ""
#endif

using namespace llvm;

namespace tmemcheck {

namespace {

/// A resource directory is usable if it carries Clang's CUDA wrappers.
bool isResourceDir(StringRef Dir) {
  if (Dir.empty())
    return false;
  SmallString<256> P(Dir);
  sys::path::append(P, "include", "__clang_cuda_runtime_wrapper.h");
  return sys::fs::exists(P);
}

/// Asks an installed clang binary where its resource directory is.
std::string askClangForResourceDir() {
  for (StringRef Name : {"clang-22", "clang"}) {
    ErrorOr<std::string> Clang = sys::findProgramByName(Name);
    if (!Clang)
      continue;
    SmallString<128> OutPath;
    if (sys::fs::createTemporaryFile("tmemcheck-resdir", "txt", OutPath))
      continue;
    std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(OutPath),
                                            std::nullopt};
    StringRef Args[] = {*Clang, "-print-resource-dir"};
    int RC = sys::ExecuteAndWait(*Clang, Args, std::nullopt, Redirects,
                                 /*SecondsToWait=*/20);
    std::string Result;
    if (RC == 0)
      if (auto Buf = MemoryBuffer::getFile(OutPath))
        Result = (*Buf)->getBuffer().trim().str();
    sys::fs::remove(OutPath);
    if (isResourceDir(Result))
      return Result;
  }
  return "";
}

/// A CUDA installation is usable if it has cuda_runtime.h.
bool isCudaInstallation(StringRef Dir) {
  if (Dir.empty())
    return false;
  SmallString<256> P(Dir);
  sys::path::append(P, "include", "cuda_runtime.h");
  return sys::fs::exists(P);
}

std::string detectCudaPath() {
  if (const char *Env = std::getenv("CUDA_PATH"))
    if (isCudaInstallation(Env))
      return Env;
  if (const char *Env = std::getenv("CUDA_HOME"))
    if (isCudaInstallation(Env))
      return Env;
  if (isCudaInstallation("/usr/local/cuda"))
    return "/usr/local/cuda";
  if (ErrorOr<std::string> Nvcc = sys::findProgramByName("nvcc")) {
    StringRef Bin = sys::path::parent_path(*Nvcc);
    StringRef Root = sys::path::parent_path(Bin);
    if (isCudaInstallation(Root))
      return Root.str();
  }
  return "";
}

/// Flags of nvcc or of a host/other-arch clang build that must not reach the
/// device-side parse. The bool says whether the flag consumes the next
/// argument.
const std::pair<StringRef, bool> DroppedFlags[] = {
    {"-gencode", true},
    {"--generate-code", true},
    {"-arch", true},
    {"--gpu-architecture", true},
    {"-code", true},
    {"--gpu-code", true},
    {"-Xcompiler", true},
    {"--compiler-options", true},
    {"-Xptxas", true},
    {"--ptxas-options", true},
    {"-Xnvlink", true},
    {"-Xlinker", true},
    {"-ccbin", true},
    {"--compiler-bindir", true},
    {"-t", true},
    {"--threads", true},
    {"-o", true},
    {"-MF", true},
    {"-MT", true},
    {"-MQ", true},
    {"-x", true},
    {"--expt-relaxed-constexpr", false},
    {"--expt-extended-lambda", false},
    {"--extended-lambda", false},
    {"-expt-relaxed-constexpr", false},
    {"-expt-extended-lambda", false},
    {"--use_fast_math", false},
    {"-use_fast_math", false},
    {"-lineinfo", false},
    {"--generate-line-info", false},
    {"-G", false},
    {"-c", false},
    {"-M", false},
    {"-MM", false},
    {"-MD", false},
    {"-MMD", false},
    {"-Werror", false},
    {"--cuda-device-only", false},
    {"--cuda-host-only", false},
    {"-fsyntax-only", false},
    {"-nocudalib", false},
    {"-nocudainc", false},
};

/// Prefix forms (`-gencode=arch=...`, `--cuda-gpu-arch=sm_90a`).
const StringRef DroppedPrefixes[] = {
    "-gencode=",
    "--generate-code=",
    "-arch=",
    "--gpu-architecture=",
    "-code=",
    "--gpu-code=",
    "-Xcompiler=",
    "--compiler-options=",
    "-Xptxas=",
    "--ptxas-options=",
    "-rdc=",
    "--relocatable-device-code=",
    "-ccbin=",
    "--compiler-bindir=",
    "--cuda-gpu-arch=",
    "--offload-arch=",
    "--cuda-path=",
    "-std=c++03",
    "-Werror=",
    "--std=",
    "--threads=",
    "-resource-dir",
    "--diag-suppress",
    "-diag-suppress",
    "--Werror",
    "-Wno-deprecated-gpu-targets",
    "--keep",
    "-MF",
    "-MT",
    "-o",
};

} // namespace

bool CudaEnvironment::isTcgen05Arch(StringRef Arch) {
  return StringSwitch<bool>(Arch)
      .Cases({"sm_100a", "sm_100f", "sm_101a", "sm_101f"}, true)
      .Cases({"sm_103a", "sm_103f", "sm_110a", "sm_110f"}, true)
      .Cases({"sm_107a", "sm_107f"}, true)
      .Default(false);
}

static std::string notTcgen05Arch(StringRef Arch) {
  return ("architecture '" + Arch +
          "' has no tcgen05 instructions; use one of sm_100a, sm_100f, "
          "sm_101a, sm_103a, sm_103f, sm_107a, sm_110a, sm_110f")
      .str();
}

std::optional<CudaEnvironment>
CudaEnvironment::detect(const FrontendOptions &Opts, std::string &Error) {
  CudaEnvironment Env;
  Env.GpuArch = Opts.GpuArch;
  Env.ExtraArgs = Opts.ExtraArgs;
  Env.NvccArchMacros = Opts.NvccArchMacros;
  if (!isTcgen05Arch(Env.GpuArch)) {
    Error = notTcgen05Arch(Env.GpuArch);
    return std::nullopt;
  }

  // Resource directory: flag, environment, build-time location, an installed
  // clang, in that order.
  SmallVector<std::string, 4> Candidates;
  if (!Opts.ResourceDir.empty()) {
    if (!isResourceDir(Opts.ResourceDir)) {
      Error = "'" + Opts.ResourceDir +
              "' is not a Clang resource directory (no "
              "include/__clang_cuda_runtime_wrapper.h)";
      return std::nullopt;
    }
    Env.ResourceDir = Opts.ResourceDir;
  } else if (const char *E = std::getenv("TMEMCHECK_RESOURCE_DIR");
             E && isResourceDir(E)) {
    Env.ResourceDir = E;
  } else if (isResourceDir(TMEMCHECK_CLANG_RESOURCE_DIR)) {
    Env.ResourceDir = TMEMCHECK_CLANG_RESOURCE_DIR;
  } else {
    Env.ResourceDir = askClangForResourceDir();
  }
  if (Env.ResourceDir.empty()) {
    Error = "cannot find Clang's resource directory (built-in headers); "
            "install clang-22 or pass --resource-dir=<dir>";
    return std::nullopt;
  }

  if (Opts.NoCuda)
    return Env;
  if (!Opts.CudaPath.empty()) {
    if (!isCudaInstallation(Opts.CudaPath)) {
      Error = "'" + Opts.CudaPath +
              "' is not a CUDA installation (no include/cuda_runtime.h)";
      return std::nullopt;
    }
    Env.CudaPath = Opts.CudaPath;
  } else {
    Env.CudaPath = detectCudaPath();
  }
  return Env;
}

std::optional<CudaEnvironment> CudaEnvironment::withCompat(
    std::optional<std::string> Arch, std::optional<bool> NvccMacros,
    const std::vector<std::string> &ArgsBefore, std::string &Error) const {
  CudaEnvironment Env = *this;
  if (Arch) {
    if (!isTcgen05Arch(*Arch)) {
      Error = notTcgen05Arch(*Arch);
      return std::nullopt;
    }
    Env.GpuArch = *Arch;
  }
  if (NvccMacros)
    Env.NvccArchMacros = *NvccMacros;
  Env.ExtraArgs = ArgsBefore;
  Env.ExtraArgs.insert(Env.ExtraArgs.end(), ExtraArgs.begin(), ExtraArgs.end());
  return Env;
}

std::vector<std::string>
CudaEnvironment::adjustCommand(const std::vector<std::string> &Command,
                               StringRef File) const {
  std::vector<std::string> Out;
  Out.push_back("clang++");
  StringRef FileName = sys::path::filename(File);
  for (size_t I = 1; I < Command.size(); ++I) {
    StringRef Arg = Command[I];
    bool Dropped = false;
    for (const auto &[Flag, TakesValue] : DroppedFlags) {
      if (Arg == Flag) {
        Dropped = true;
        if (TakesValue)
          ++I;
        break;
      }
    }
    if (Dropped)
      continue;
    if (any_of(DroppedPrefixes,
               [&](StringRef P) { return Arg.starts_with(P); }))
      continue;
    // `--` ends the options of interpolated commands; ours come after.
    if (Arg == "--")
      continue;
    // The source file itself is re-added at the end with an explicit -x.
    if (!Arg.starts_with("-") &&
        (Arg == File || sys::path::filename(Arg) == FileName))
      continue;
    // Host-only warnings as errors would stop a lint run.
    Out.push_back(Arg.str());
  }
  Out.push_back("--cuda-device-only");
  Out.push_back("--cuda-gpu-arch=" + GpuArch);
  Out.push_back("-nocudalib");
  Out.push_back("-fsyntax-only");
  Out.push_back("-Wno-unknown-cuda-version");
  // No "N errors generated" trailer: the driver reports errors itself.
  Out.push_back("-fno-caret-diagnostics");
  // Clang stops parsing after 20 errors; asm that nvcc accepts and Clang
  // rejects (ThunderKittens' `%clusterid.x` helpers) would hide every
  // kernel after the twentieth. Parse the whole file whatever the count.
  Out.push_back("-ferror-limit=0");
  // A device-only parse still type-checks host code; kernel launches
  // (`k<<<g, b>>>()`) need the launch API of a CUDA version Clang knows
  // (the driver passes it only for host compilation).
  Out.push_back("-Xclang");
  Out.push_back("-target-sdk-version=12.8");
  Out.push_back("-resource-dir=" + ResourceDir);
  // nvcc defines these for arch-specific targets; Clang 22 does not
  // (rules §7, EXP-8). CCCL and CUTLASS test them.
  StringRef Num = StringRef(GpuArch).drop_front(3).drop_back(1);
  if (NvccArchMacros && StringRef(GpuArch).ends_with("a"))
    Out.push_back(("-D__CUDA_ARCH_SPECIFIC__=" + Num + "0").str());
  if (NvccArchMacros)
    Out.push_back(("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + Num + "0").str());
  if (!CudaPath.empty()) {
    Out.push_back("--cuda-path=" + CudaPath);
    SmallString<256> Cccl(CudaPath);
    sys::path::append(Cccl, "include", "cccl");
    if (sys::fs::is_directory(Cccl)) {
      Out.push_back("-isystem");
      Out.push_back(std::string(Cccl));
    }
  } else {
    Out.push_back("-nocudainc");
    SmallString<128> StubDir = sys::path::parent_path(stubHeaderName());
    Out.push_back("-isystem");
    Out.push_back(std::string(StubDir));
    Out.push_back("-include");
    Out.push_back(stubHeaderName().str());
  }
  for (const std::string &A : ExtraArgs)
    Out.push_back(A);
  Out.push_back("-x");
  Out.push_back("cuda");
  Out.push_back(File.str());
  return Out;
}

StringRef CudaEnvironment::stubHeaderName() {
  return "/tmemcheck-stub-include/tmemcheck_cuda_stub.h";
}

StringRef CudaEnvironment::stubHeaderContents() {
  // Just enough of the CUDA runtime headers for device code that uses raw
  // inline asm: execution-space attributes, built-in variables, barriers,
  // shuffles, address-space conversion and the fixed-width integer types.
  return R"cuda(#pragma once
#pragma clang system_header
#include <stddef.h>
#include <stdint.h>
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __cluster_dims__(...) __attribute__((cluster_dims(__VA_ARGS__)))
#define __grid_constant__ __attribute__((grid_constant))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#include "__clang_cuda_builtin_vars.h"
static __device__ __forceinline__ void __syncwarp(unsigned m = 0xffffffffu) {
  __nvvm_bar_warp_sync(m);
}
static __device__ __forceinline__ int __shfl_sync(unsigned m, int v, int l,
                                                  int w = 32) {
  return __nvvm_shfl_sync_idx_i32(m, v, l, ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ unsigned __shfl_sync(unsigned m, unsigned v,
                                                       int l, int w = 32) {
  return (unsigned)__nvvm_shfl_sync_idx_i32(m, (int)v, l,
                                            ((32 - w) << 8) | 0x1f);
}
static __device__ __forceinline__ size_t __cvta_generic_to_shared(const void *p) {
  size_t r;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(p));
  return r;
}
static __device__ __forceinline__ void *__cvta_shared_to_generic(size_t a) {
  return (void *)a;
}
static __device__ __forceinline__ float __uint_as_float(unsigned x) {
  return __builtin_bit_cast(float, x);
}
static __device__ __forceinline__ unsigned __float_as_uint(float x) {
  return __builtin_bit_cast(unsigned, x);
}
static __device__ __forceinline__ float __int_as_float(int x) {
  return __builtin_bit_cast(float, x);
}
static __device__ __forceinline__ int __float_as_int(float x) {
  return __builtin_bit_cast(int, x);
}
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x = 1, unsigned y = 1,
                                     unsigned z = 1)
      : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
extern "C" __host__ unsigned __cudaPushCallConfiguration(
    dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
#define TMEMCHECK_STUB_VEC2(T, Name)                                         \
  struct Name##2 { T x, y; };                                                \
  static __device__ __host__ __forceinline__ Name##2 make_##Name##2(T x, T y) { \
    return {x, y};                                                           \
  }
#define TMEMCHECK_STUB_VEC4(T, Name)                                         \
  struct Name##4 { T x, y, z, w; };                                          \
  static __device__ __host__ __forceinline__ Name##4 make_##Name##4(          \
      T x, T y, T z, T w) {                                                  \
    return {x, y, z, w};                                                     \
  }
TMEMCHECK_STUB_VEC2(float, float)
TMEMCHECK_STUB_VEC4(float, float)
TMEMCHECK_STUB_VEC2(int, int)
TMEMCHECK_STUB_VEC4(int, int)
TMEMCHECK_STUB_VEC2(unsigned, uint)
TMEMCHECK_STUB_VEC4(unsigned, uint)
TMEMCHECK_STUB_VEC2(double, double)
TMEMCHECK_STUB_VEC2(unsigned long long, ulonglong)
)cuda";
}

} // namespace tmemcheck
