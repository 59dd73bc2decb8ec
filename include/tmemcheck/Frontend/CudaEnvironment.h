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
  /// The target was chosen by the user (--gpu-arch): it wins over the
  /// targets a compile command names.
  bool GpuArchExplicit = false;
  std::vector<std::string> ExtraArgs; ///< appended to every command.
  /// Put before the command's own arguments (--extra-arg-before).
  std::vector<std::string> ExtraArgsBefore;
  /// Arguments removed from every command (--removed-arg).
  std::vector<std::string> RemovedArgs;
  /// Define the arch-specific macros nvcc defines and Clang does not
  /// (`__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`; rules §7):
  /// the "nvcc" compat profile. False: Clang's own macros only.
  bool NvccArchMacros = true;
};

/// The Clang command that parses one file, made from its compile command.
struct ParseCommand {
  /// The whole Clang command line (argv[0] first); empty on error.
  std::vector<std::string> Args;
  /// Non-empty when the compile command cannot be translated; names the
  /// option (NvccCommandLine.h).
  std::string Error;
  /// Options of the compile command that no table knows (dropped).
  std::vector<std::string> UnknownOptions;
  /// The target the file is parsed for.
  std::string GpuArch;
  /// Why the target is not one the command names, when it is not.
  std::string ArchNote;
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
  /// \p ExtraBefore and \p Removed (the config's ExtraArgsBefore and
  /// RemovedArgs) join the environment's own.
  std::optional<CudaEnvironment>
  withCompat(std::optional<std::string> Arch, std::optional<bool> NvccMacros,
             const std::vector<std::string> &ArgsBefore, std::string &Error,
             const std::vector<std::string> &ExtraBefore = {},
             const std::vector<std::string> &Removed = {}) const;

  /// Translates a compile command (argv[0] first, the source file
  /// included) run in \p Directory into a Clang device-only, syntax-only
  /// parse of \p File (NvccCommandLine.h): the command's include paths,
  /// macros and standard, the command's own tcgen05 target unless the user
  /// chose one, then the environment's settings.
  ParseCommand prepareParse(const std::vector<std::string> &Command,
                            llvm::StringRef Directory,
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
  bool GpuArchExplicit = false;
  std::vector<std::string> ExtraArgs;
  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> RemovedArgs;
  bool NvccArchMacros = true;
};

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_CUDAENVIRONMENT_H
