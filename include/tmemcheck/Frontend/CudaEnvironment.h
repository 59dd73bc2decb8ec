//===- CudaEnvironment.h - Where Clang and CUDA live ------------*- C++ -*-===//
//
// Part of tmemcheck. Finds Clang's resource directory and a CUDA
// installation, and turns a user's compile command (clang or nvcc style)
// into a device-side syntax-only parse for a tcgen05 architecture
// (design.md "Semantics" §1).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_CUDAENVIRONMENT_H
#define TMEMCHECK_FRONTEND_CUDAENVIRONMENT_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// User choices that shape the device-side parse.
struct FrontendOptions {
  std::string GpuArch = "sm_100a";
  std::string CudaPath;               ///< --cuda-path; empty: detect.
  std::string ResourceDir;            ///< --resource-dir; empty: detect.
  bool NoCuda = false;                ///< force the embedded stub headers.
  std::vector<std::string> ExtraArgs; ///< appended to every command.
  /// Define the arch-specific macros nvcc defines and Clang does not
  /// (`__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`; rules §7):
  /// the "nvcc" compat profile. False: Clang's own macros only.
  bool NvccArchMacros = true;
};

/// The resolved environment for a run.
class CudaEnvironment {
public:
  /// Resolves paths; on failure returns std::nullopt and sets \p Error.
  static std::optional<CudaEnvironment> detect(const FrontendOptions &Opts,
                                               std::string &Error);

  const std::string &resourceDir() const { return ResourceDir; }
  /// Empty when no CUDA installation was found (stub headers are used).
  const std::string &cudaPath() const { return CudaPath; }
  const std::string &gpuArch() const { return GpuArch; }

  /// This environment for the files of one configuration (its `Compat:`):
  /// another target when \p Arch is set, the nvcc arch macros on or off
  /// when \p NvccMacros is set, and \p ArgsBefore added before the
  /// environment's own extra arguments (so that --extra-arg wins). Fails,
  /// setting \p Error, for a target without tcgen05.
  std::optional<CudaEnvironment>
  withCompat(std::optional<std::string> Arch, std::optional<bool> NvccMacros,
             const std::vector<std::string> &ArgsBefore,
             std::string &Error) const;

  /// Rewrites a compile command (argv[0] first, the source file included)
  /// into a Clang device-only, syntax-only parse of \p File.
  std::vector<std::string>
  adjustCommand(const std::vector<std::string> &Command,
                llvm::StringRef File) const;

  /// The embedded stub header used when no CUDA installation is present.
  static llvm::StringRef stubHeaderName();
  static llvm::StringRef stubHeaderContents();

  /// True if \p Arch has tcgen05 (rules §0: sm_100a/f, sm_103a/f,
  /// sm_110a/f, sm_101a/f, sm_107a/f).
  static bool isTcgen05Arch(llvm::StringRef Arch);

private:
  std::string ResourceDir;
  std::string CudaPath;
  std::string GpuArch;
  std::vector<std::string> ExtraArgs;
  bool NvccArchMacros = true;
};

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_CUDAENVIRONMENT_H
