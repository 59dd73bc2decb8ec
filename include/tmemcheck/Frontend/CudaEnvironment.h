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
  std::string CudaPath;    ///< --cuda-path; empty: detect.
  std::string ResourceDir; ///< --resource-dir; empty: detect.
  bool NoCuda = false;     ///< force the embedded stub headers.
  /// The target was chosen by the user (--gpu-arch): it wins over the
  /// targets a compile command names.
  bool GpuArchExplicit = false;
  std::vector<std::string> ExtraArgs; ///< appended to every command.
  /// Put before the command's own arguments (--extra-arg-before).
  std::vector<std::string> ExtraArgsBefore;
  /// Arguments removed from every command (--removed-arg).
  std::vector<std::string> RemovedArgs;
  /// The "nvcc" compat profile (lib/Frontend/Clang/NvccProfile.cpp): nvcc's
  /// predefined macros that Clang lacks (the arch-specific ones, rules §7, and
  /// the CUDA version), the headers nvcc pre-includes and the language
  /// extensions it accepts. False (the "clang" profile): Clang's CUDA mode as
  /// it is.
  bool NvccProfile = true;
};

/// The version of the CUDA toolkit whose nvcc the parse imitates
/// (`__CUDACC_VER_MAJOR__`, `__CUDACC_VER_MINOR__`, `__CUDACC_VER_BUILD__`).
struct CudaVersion {
  /// Used without a CUDA installation, or when its version cannot be read:
  /// CUDA 13.0 (V13.0.88), the first toolkit with the tcgen05 headers the
  /// corpus needs, and the one tmemcheck is tested with.
  static constexpr unsigned DefaultMajor = 13, DefaultMinor = 0,
                            DefaultBuild = 88;
  unsigned Major = DefaultMajor, Minor = DefaultMinor, Build = DefaultBuild;
  /// Where it was read from: "version.json", "nvcc --version", "cuda.h",
  /// or "default".
  std::string Source = "default";

  /// Reads the version of the installation at \p CudaPath: its
  /// version.json, else `bin/nvcc --version`, else CUDA_VERSION in
  /// include/cuda.h (build 0); the default when all fail or the path is
  /// empty.
  static CudaVersion detect(llvm::StringRef CudaPath);
  /// Parses "13.0.88" (version.json) or "... V13.0.88" (nvcc --version).
  static std::optional<CudaVersion> parse(llvm::StringRef Text);
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
  /// The CUDA version whose nvcc macros the nvcc profile defines.
  const CudaVersion &cudaVersion() const { return Version; }
  bool nvccProfile() const { return NvccProfile; }

  /// This environment for the files of one configuration (its `Compat:`):
  /// another target when \p Arch is set, the nvcc arch macros on or off
  /// when \p NvccProfile is set, and \p ArgsBefore added before the
  /// environment's own extra arguments (so that --extra-arg wins). Fails,
  /// setting \p Error, for a target without tcgen05.
  /// \p ExtraBefore and \p Removed (the config's ExtraArgsBefore and
  /// RemovedArgs) join the environment's own.
  std::optional<CudaEnvironment>
  withCompat(std::optional<std::string> Arch, std::optional<bool> NvccProfile,
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

  /// The macros of the nvcc profile (NvccProfile.cpp) for a parse for
  /// \p GpuArch, none for the clang profile. \p Command is the user's, to
  /// leave macros it defines alone.
  std::vector<std::string>
  nvccProfileArguments(const std::vector<std::string> &Command,
                       llvm::StringRef GpuArch) const;
  /// The rest of the nvcc profile, after the CUDA (or stub) headers: the
  /// language extensions and the pre-included header.
  std::vector<std::string> nvccProfileHeaderArguments() const;

  /// The nvcc profile as preprocessor text, for a parse whose command line
  /// cannot be changed (the clang-tidy plugin appends it to the
  /// preprocessor's predefines before the main file is read): the macros of
  /// nvccProfileArguments for \p GpuArch and \p Version, each under
  /// `#ifndef` so that the command's own definitions win, then the
  /// pre-included header's text (crt/sm_70_rt.h and crt/sm_100_rt.h where
  /// the include path has them, else the embedded stand-in of
  /// crt/sm_100_rt.h). Not included: `-fms-extensions`, a language option
  /// that cannot be set once the parse exists. Defines
  /// `__TMEMCHECK_NVCC_PROFILE__`.
  static std::string nvccProfilePredefines(llvm::StringRef GpuArch,
                                           const CudaVersion &Version);

  /// The embedded stub header used when no CUDA installation is present.
  static llvm::StringRef stubHeaderName();
  static llvm::StringRef stubHeaderContents();
  /// Further files of the embedded header set, (path, contents): the
  /// nvcc profile's pre-included header, and stand-ins for the CUDA headers
  /// it includes (`crt/sm_100_rt.h`) when no installation is present. Map
  /// them all into the parse's file system, whichever headers are used.
  static std::vector<std::pair<llvm::StringRef, llvm::StringRef>>
  embeddedHeaders();
  /// The directory the embedded headers are in: it exists only in the
  /// parse's virtual file system.
  static llvm::StringRef embeddedHeaderRoot() {
    return "/tmemcheck-stub-include";
  }
  /// True if \p Path is in embeddedHeaderRoot() (part of the tool, not of
  /// the code analysed).
  static bool isEmbeddedHeader(llvm::StringRef Path) {
    return Path.starts_with(embeddedHeaderRoot());
  }

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
  bool NvccProfile = true;
  CudaVersion Version;
};

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_CUDAENVIRONMENT_H
