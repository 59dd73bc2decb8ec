//===- NvccProfile.cpp - nvcc's implicit environment under Clang ----------===//
//
// Part of tmemcheck. nvcc compiles device code with macros, pre-included
// headers and language extensions that Clang's CUDA mode does not give.
// Code written for nvcc tests them: CUTLASS's barriers are compiled only
// under `__CUDACC_VER_MAJOR__ >= 12`, DeepGEMM calls `__ffma2_rn` (from
// `crt/sm_100_rt.h`, which nvcc's `cuda_runtime.h` pulls in and Clang's
// wrapper does not), CUTLASS's FMHA examples use anonymous structs of a
// tagged type (`-fms-extensions`). The "nvcc" compat profile reproduces
// that environment; this file is all of it:
//
//  * the CUDA version macros, from the installation in use (CudaVersion);
//  * the arch-specific macros of `sm_100a`-style targets (rules §7);
//  * a pre-included header that includes `crt/sm_70_rt.h` and
//    `crt/sm_100_rt.h` where the installation has them, and, without an
//    installation, embedded stand-ins that declare their functions;
//  * `-fms-extensions`.
//
// Macros the user's command defines itself are left to it.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace tmemcheck {

namespace {

/// The pre-included header of the nvcc profile. The crt headers refuse
/// direct inclusion unless the internal-headers macro is set, as nvcc's own
/// chain of includes sets it.
constexpr StringLiteral ProfileHeaderName =
    "/tmemcheck-stub-include/tmemcheck_nvcc_profile.h";
constexpr StringLiteral ProfileHeader = R"cuda(#pragma once
#pragma clang system_header
/* tmemcheck's nvcc profile: the headers nvcc's cuda_runtime.h includes on
   the device side and Clang's CUDA wrapper does not (sm_80_rt.h and
   sm_90_rt.h are not: Clang's wrapper defines their functions itself). */
#if !defined(__CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__)
#define __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#define __TMEMCHECK_UNDEF_INTERNAL_HEADERS__
#endif
#if __has_include("crt/sm_70_rt.h")
#include "crt/sm_70_rt.h"
#endif
#if __has_include("crt/sm_100_rt.h")
#include "crt/sm_100_rt.h"
#endif
#if defined(__TMEMCHECK_UNDEF_INTERNAL_HEADERS__)
#undef __CUDA_INCLUDE_COMPILER_INTERNAL_HEADERS__
#undef __TMEMCHECK_UNDEF_INTERNAL_HEADERS__
#endif
/* nvcc's built-in atomics (CUDA 12.8+; CUTLASS's subbyte_reference.h calls
   __nv_atomic_load_n when __CUDACC_VER_MAJOR__ > 12): the order and scope
   constants of crt/device_functions.h, and the functions, which nvcc's
   front end provides and Clang does not, as Clang __atomic builtins. Only
   their types matter to the analysis. */
#if defined(__cplusplus) && !defined(__TMEMCHECK_NV_ATOMICS__)
#define __TMEMCHECK_NV_ATOMICS__
enum {
  __NV_ATOMIC_RELAXED,
  __NV_ATOMIC_CONSUME,
  __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE,
  __NV_ATOMIC_ACQ_REL,
  __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD,
  __NV_THREAD_SCOPE_BLOCK,
  __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE,
  __NV_THREAD_SCOPE_SYSTEM
};
#define TMEMCHECK_NV_FETCH(Op)                                                 \
  template <class T>                                                           \
  static __device__ __inline__ T __nv_atomic_fetch_##Op(                       \
      T *p, T v, int, int = __NV_THREAD_SCOPE_SYSTEM) {                        \
    return __atomic_fetch_##Op(p, v, __ATOMIC_SEQ_CST);                        \
  }
TMEMCHECK_NV_FETCH(add)
TMEMCHECK_NV_FETCH(sub)
TMEMCHECK_NV_FETCH(min)
TMEMCHECK_NV_FETCH(max)
TMEMCHECK_NV_FETCH(and)
TMEMCHECK_NV_FETCH(or)
TMEMCHECK_NV_FETCH(xor)
#undef TMEMCHECK_NV_FETCH
template <class T>
static __device__ __inline__ T
__nv_atomic_load_n(const T *p, int, int = __NV_THREAD_SCOPE_SYSTEM) {
  return __atomic_load_n(p, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ void
__nv_atomic_load(const T *p, T *ret, int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_load(p, ret, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ void
__nv_atomic_store_n(T *p, T v, int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_store_n(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ void
__nv_atomic_store(T *p, T *v, int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_store(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ T
__nv_atomic_exchange_n(T *p, T v, int, int = __NV_THREAD_SCOPE_SYSTEM) {
  return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ void __nv_atomic_exchange(
    T *p, T *v, T *ret, int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_exchange(p, v, ret, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ bool
__nv_atomic_compare_exchange_n(T *p, T *expected, T desired, bool weak, int,
                               int, int = __NV_THREAD_SCOPE_SYSTEM) {
  return __atomic_compare_exchange_n(p, expected, desired, weak,
                                     __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
template <class T>
static __device__ __inline__ bool
__nv_atomic_compare_exchange(T *p, T *expected, T *desired, bool weak, int,
                             int, int = __NV_THREAD_SCOPE_SYSTEM) {
  return __atomic_compare_exchange(p, expected, desired, weak,
                                   __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
static __device__ __inline__ void
__nv_atomic_thread_fence(int, int = __NV_THREAD_SCOPE_SYSTEM) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
#endif
)cuda";

/// Stand-in for CUDA's crt/sm_100_rt.h when no installation is present:
/// the packed float2 arithmetic of sm_100 (defined, so that device code
/// that uses it type-checks; tcgen05 analysis does not look inside).
constexpr StringLiteral Sm100RtName = "/tmemcheck-stub-include/crt/sm_100_rt.h";
constexpr StringLiteral Sm100Rt = R"cuda(#pragma once
#pragma clang system_header
/* tmemcheck stand-in for CUDA's crt/sm_100_rt.h (no CUDA installation). */
#define TMEMCHECK_STUB_FLOAT2_OP3(Name, Op)                                    \
  static __device__ __inline__ float2 Name(float2 x, float2 y, float2 z) {     \
    return make_float2(x.x * y.x + z.x, x.y * y.y + z.y);                      \
  }
#define TMEMCHECK_STUB_FLOAT2_OP2(Name, Op)                                    \
  static __device__ __inline__ float2 Name(float2 x, float2 y) {               \
    return make_float2(x.x Op y.x, x.y Op y.y);                                \
  }
TMEMCHECK_STUB_FLOAT2_OP3(__ffma2_rn, +)
TMEMCHECK_STUB_FLOAT2_OP3(__ffma2_rz, +)
TMEMCHECK_STUB_FLOAT2_OP3(__ffma2_rd, +)
TMEMCHECK_STUB_FLOAT2_OP3(__ffma2_ru, +)
TMEMCHECK_STUB_FLOAT2_OP2(__fadd2_rn, +)
TMEMCHECK_STUB_FLOAT2_OP2(__fadd2_rz, +)
TMEMCHECK_STUB_FLOAT2_OP2(__fadd2_rd, +)
TMEMCHECK_STUB_FLOAT2_OP2(__fadd2_ru, +)
TMEMCHECK_STUB_FLOAT2_OP2(__fmul2_rn, *)
TMEMCHECK_STUB_FLOAT2_OP2(__fmul2_rz, *)
TMEMCHECK_STUB_FLOAT2_OP2(__fmul2_rd, *)
TMEMCHECK_STUB_FLOAT2_OP2(__fmul2_ru, *)
#undef TMEMCHECK_STUB_FLOAT2_OP3
#undef TMEMCHECK_STUB_FLOAT2_OP2
)cuda";

/// True when \p Command (or \p More) defines macro \p Name (`-DNAME`,
/// `-DNAME=V`, `-D NAME…`) or undefines it.
bool definesMacro(const std::vector<std::string> &Command,
                  const std::vector<std::string> &More, StringRef Name) {
  auto Scan = [&](const std::vector<std::string> &Args) {
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      StringRef Def;
      if ((A == "-D" || A == "-U") && I + 1 < Args.size())
        Def = Args[I + 1];
      else if (A.starts_with("-D") || A.starts_with("-U"))
        Def = A.drop_front(2);
      else
        continue;
      if (Def.split('=').first == Name)
        return true;
    }
    return false;
  };
  return Scan(Command) || Scan(More);
}

std::optional<std::string> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return std::nullopt;
  return (*Buf)->getBuffer().str();
}

} // namespace

std::optional<CudaVersion> CudaVersion::parse(StringRef Text) {
  // The last "X.Y.Z" or "X.Y" token, after an optional 'V'.
  SmallVector<StringRef, 16> Words;
  Text.split(Words, ' ', -1, false);
  for (StringRef W : llvm::reverse(Words)) {
    W = W.trim().trim(",\"");
    if (!W.consume_front("V"))
      W.consume_front("v");
    SmallVector<StringRef, 3> Parts;
    W.split(Parts, '.');
    if (Parts.size() < 2 || Parts.size() > 3)
      continue;
    CudaVersion V;
    unsigned Build = 0;
    if (Parts[0].getAsInteger(10, V.Major) ||
        Parts[1].getAsInteger(10, V.Minor) ||
        (Parts.size() == 3 && Parts[2].getAsInteger(10, Build)))
      continue;
    if (V.Major < 9 || V.Major > 99)
      continue;
    V.Build = Build;
    return V;
  }
  return std::nullopt;
}

CudaVersion CudaVersion::detect(StringRef CudaPath) {
  if (CudaPath.empty())
    return CudaVersion();
  // version.json: {"cuda": {"name": ..., "version": "13.0.88"}, ...}
  SmallString<256> Json(CudaPath);
  sys::path::append(Json, "version.json");
  if (std::optional<std::string> Text = readFile(Json)) {
    Expected<json::Value> V = json::parse(*Text);
    if (V) {
      if (const json::Object *O = V->getAsObject())
        if (const json::Object *Cuda = O->getObject("cuda"))
          if (std::optional<StringRef> S = Cuda->getString("version"))
            if (std::optional<CudaVersion> R = parse(*S)) {
              R->Source = "version.json";
              return *R;
            }
    } else {
      consumeError(V.takeError());
    }
  }
  // nvcc --version: "Cuda compilation tools, release 13.0, V13.0.88".
  SmallString<256> Nvcc(CudaPath);
  sys::path::append(Nvcc, "bin", "nvcc");
  if (sys::fs::can_execute(Nvcc)) {
    SmallString<128> OutPath;
    if (!sys::fs::createTemporaryFile("tmemcheck-nvcc-version", "txt",
                                      OutPath)) {
      std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(OutPath),
                                              StringRef(OutPath)};
      StringRef Args[] = {Nvcc, "--version"};
      int RC = sys::ExecuteAndWait(Nvcc, Args, std::nullopt, Redirects,
                                   /*SecondsToWait=*/20);
      std::optional<std::string> Out = readFile(OutPath);
      sys::fs::remove(OutPath);
      if (RC == 0 && Out) {
        SmallVector<StringRef, 8> Lines;
        StringRef(*Out).split(Lines, '\n');
        for (StringRef L : Lines)
          if (L.contains("release"))
            if (std::optional<CudaVersion> R = parse(L)) {
              R->Source = "nvcc --version";
              return *R;
            }
      }
    }
  }
  // include/cuda.h: #define CUDA_VERSION 13000
  SmallString<256> CudaH(CudaPath);
  sys::path::append(CudaH, "include", "cuda.h");
  if (std::optional<std::string> Text = readFile(CudaH)) {
    SmallVector<StringRef, 0> Lines;
    StringRef(*Text).split(Lines, '\n');
    for (StringRef L : Lines) {
      L = L.trim();
      if (!L.consume_front("#define CUDA_VERSION"))
        continue;
      unsigned N = 0;
      if (L.trim().getAsInteger(10, N) || N < 9000)
        break;
      CudaVersion V;
      V.Major = N / 1000;
      V.Minor = N % 1000 / 10;
      V.Build = 0;
      V.Source = "cuda.h";
      return V;
    }
  }
  return CudaVersion();
}

std::vector<std::string>
CudaEnvironment::nvccProfileArguments(const std::vector<std::string> &Command,
                                      StringRef GpuArch) const {
  std::vector<std::string> Out;
  if (!NvccProfile)
    return Out;
  // nvcc defines these for arch-specific targets; Clang 22 does not
  // (rules §7, EXP-8). CCCL and CUTLASS test them.
  StringRef Num = StringRef(GpuArch).drop_front(3).drop_back(1);
  if (StringRef(GpuArch).ends_with("a") &&
      !definesMacro(Command, ExtraArgs, "__CUDA_ARCH_SPECIFIC__"))
    Out.push_back(("-D__CUDA_ARCH_SPECIFIC__=" + Num + "0").str());
  if (!definesMacro(Command, ExtraArgs, "__CUDA_ARCH_FAMILY_SPECIFIC__"))
    Out.push_back(("-D__CUDA_ARCH_FAMILY_SPECIFIC__=" + Num + "0").str());
  const std::pair<StringRef, unsigned> VersionMacros[] = {
      {"__CUDACC_VER_MAJOR__", Version.Major},
      {"__CUDACC_VER_MINOR__", Version.Minor},
      {"__CUDACC_VER_BUILD__", Version.Build}};
  for (auto [Name, Value] : VersionMacros)
    if (!definesMacro(Command, ExtraArgs, Name))
      Out.push_back(("-D" + Name + "=" + Twine(Value)).str());
  return Out;
}

std::vector<std::string> CudaEnvironment::nvccProfileHeaderArguments() const {
  if (!NvccProfile)
    return {};
  // Anonymous structs and unions of a tagged type, and the other Microsoft
  // forms that nvcc's front end accepts in GNU mode.
  return {"-fms-extensions", "-include", ProfileHeaderName.str()};
}

std::string CudaEnvironment::nvccProfilePredefines(StringRef GpuArch,
                                                   const CudaVersion &V) {
  std::string Out = "#define __TMEMCHECK_NVCC_PROFILE__ 1\n";
  auto Define = [&](StringRef Name, const Twine &Value) {
    Out +=
        ("#ifndef " + Name + "\n#define " + Name + " " + Value + "\n#endif\n")
            .str();
  };
  if (GpuArch.starts_with("sm_") && GpuArch.size() > 4) {
    StringRef Num = GpuArch.drop_front(3);
    bool Specific = Num.consume_back("a");
    Num.consume_back("f");
    if (Specific)
      Define("__CUDA_ARCH_SPECIFIC__", Num + "0");
    Define("__CUDA_ARCH_FAMILY_SPECIFIC__", Num + "0");
  }
  Define("__CUDACC_VER_MAJOR__", Twine(V.Major));
  Define("__CUDACC_VER_MINOR__", Twine(V.Minor));
  Define("__CUDACC_VER_BUILD__", Twine(V.Build));
  // The pre-included header, without its pragmas (this text is not a
  // header), and the stand-in where the installation's crt header is not
  // on the include path.
  auto Body = [](StringRef Header) {
    std::string B;
    SmallVector<StringRef, 0> Lines;
    Header.split(Lines, '\n');
    for (StringRef L : Lines)
      if (!L.starts_with("#pragma"))
        B += (L + "\n").str();
    return B;
  };
  Out += Body(ProfileHeader);
  Out += "#if !__has_include(\"crt/sm_100_rt.h\")\n";
  Out += Body(Sm100Rt);
  Out += "#endif\n";
  return Out;
}

std::vector<std::pair<StringRef, StringRef>>
CudaEnvironment::embeddedHeaders() {
  return {{stubHeaderName(), stubHeaderContents()},
          {ProfileHeaderName, ProfileHeader},
          {Sm100RtName, Sm100Rt}};
}

} // namespace tmemcheck
