//===- Config.h - .tmemcheck.yaml -------------------------------*- C++ -*-===//
//
// Part of tmemcheck. Project settings kept next to the code: which checks
// run, which warnings fail a build, and how much work one kernel may cost.
// Found upward from each analysed file (like .clang-tidy); command-line
// flags are applied after it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_CONFIG_CONFIG_H
#define TMEMCHECK_CONFIG_CONFIG_H

#include "tmemcheck/Frontend/AnalysisRoots.h"
#include "tmemcheck/Model/UserApiModel.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// How the files under a config are parsed (`Compat:`): the target, the
/// compiler whose predefined macros the code expects, and the flags its
/// build adds that a compile database may not have (a pre-commit hook runs
/// without one).
struct CompatSettings {
  /// Which predefined macros the parse adds to Clang's: "nvcc" (the
  /// default) adds the arch-specific ones nvcc defines and Clang does not
  /// (`__CUDA_ARCH_SPECIFIC__`, `__CUDA_ARCH_FAMILY_SPECIFIC__`, rules §7),
  /// so code guarded by them is seen as nvcc builds it; "clang" adds none,
  /// for code built with Clang.
  std::optional<std::string> Profile;
  /// The tcgen05 target (--gpu-arch), e.g. "sm_103a".
  std::optional<std::string> GpuArch;
  /// `NAME` or `NAME=VALUE`, passed as -D.
  std::vector<std::string> Defines;
  /// Include directories, relative to the directory of the config file.
  std::vector<std::string> IncludeDirs;
  /// Further compiler arguments (`-std=c++20`), before any --extra-arg.
  std::vector<std::string> ExtraArgs;
  /// Arguments put before those of every compile command (before any
  /// --extra-arg-before), and arguments removed from every compile command
  /// (with --removed-arg's), as clang-tidy's ExtraArgsBefore/RemovedArgs.
  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> RemovedArgs;

  friend bool operator==(const CompatSettings &A, const CompatSettings &B) {
    return A.Profile == B.Profile && A.GpuArch == B.GpuArch &&
           A.Defines == B.Defines && A.IncludeDirs == B.IncludeDirs &&
           A.ExtraArgs == B.ExtraArgs &&
           A.ExtraArgsBefore == B.ExtraArgsBefore &&
           A.RemovedArgs == B.RemovedArgs;
  }
  bool empty() const {
    return !Profile && !GpuArch && Defines.empty() && IncludeDirs.empty() &&
           ExtraArgs.empty() && ExtraArgsBefore.empty() && RemovedArgs.empty();
  }
  /// The arguments that Defines, IncludeDirs and ExtraArgs add to a parse;
  /// relative include directories are made absolute against \p ConfigDir.
  std::vector<std::string> parseArguments(llvm::StringRef ConfigDir) const;
};

/// The contents of one .tmemcheck.yaml.
struct Config {
  /// clang-tidy style globs on top of the default check set.
  std::string Checks;
  /// Globs of checks whose warnings are reported as errors.
  std::string WarningsAsErrors;
  /// Analysis bounds (--max-call-depth, --max-events, --max-kernel-seconds,
  /// --max-loop-iterations); unset ones come from the flags' defaults, and
  /// a flag given on the command line wins.
  std::optional<unsigned> MaxCallDepth;
  std::optional<unsigned> MaxEvents;
  std::optional<double> MaxKernelSeconds;
  std::optional<unsigned> MaxLoopIterations;
  /// Per-check severity overrides: check name -> "error" or "warning"
  /// (`CheckSeverity: {tmem-missing-fence: error}`). Applied before
  /// WarningsAsErrors.
  std::map<std::string, std::string> CheckSeverity;
  /// Launch assumption (--assume-ctas-per-sm): CTAs of a kernel resident on
  /// one SM at once, for kernels without a `__launch_bounds__` min-blocks
  /// value.
  std::optional<unsigned> AssumeCtasPerSm;
  /// Whether a kernel that could not be analysed in full keeps the run from
  /// exiting 0 (--require-complete; default true).
  std::optional<bool> RequireComplete;
  /// How the files are parsed (`Compat:`); flags given on the command line
  /// (--gpu-arch, --extra-arg) win.
  std::optional<CompatSettings> Compat;
  /// The project's own wrappers, modelled by the PTX they emit
  /// (`ApiModels:`); they take precedence over the built-in models and over
  /// the functions' bodies.
  std::vector<UserApiModel> ApiModels;
  /// Entry points besides the `__global__` functions (`Roots:`): whether
  /// unreferenced `__device__` functions that use TMEM are analysed
  /// (`DeviceFunctions`, default true), and functions always analysed
  /// (`Functions`).
  std::optional<bool> DeviceFunctionRoots;
  std::vector<std::string> RootFunctions;
  /// Template specialisations to instantiate (`Instantiate:`).
  std::vector<TemplateInstantiation> Instantiate;
  /// Compare the recognised tcgen05 operations with nvcc's PTX
  /// (`CoverageCheck:`, --coverage-check).
  std::optional<bool> CoverageCheck;
  /// SARIF output (--sarif-srcroot, --sarif-help-base; the flags win): the
  /// source root artifact URIs are relative to (%SRCROOT%), relative to the
  /// directory of the config file; the base URL of the docs for the rules'
  /// helpUri. Read from the config of the first input file (run-wide).
  std::optional<std::string> SarifSrcRoot;
  std::optional<std::string> SarifHelpBase;
  /// The result cache's directory (--cache-dir wins), relative to the
  /// directory of the config file. Run-wide, like SarifSrcRoot.
  std::optional<std::string> CacheDir;
  /// Where it was read from (empty: no file, defaults).
  std::string Path;
};

/// Parses the YAML text of a config; errors name the file, line and column.
llvm::Expected<Config> parseConfig(llvm::StringRef Text, llvm::StringRef Path);

/// Renders a config as YAML (for --dump-config).
std::string configToYaml(const Config &C);

/// Finds the .tmemcheck.yaml that applies to a file: the nearest one in its
/// directory or a parent. Results are cached per directory.
class ConfigFinder {
public:
  /// \p Explicit, when not empty, is used for every file (--config-file).
  explicit ConfigFinder(std::string Explicit = "")
      : Explicit(std::move(Explicit)) {}

  llvm::Expected<Config> forFile(llvm::StringRef File);

private:
  llvm::Expected<Config> load(llvm::StringRef Path);

  std::string Explicit;
  llvm::StringMap<std::string> DirToConfigPath;
  llvm::StringMap<Config> Loaded;
};

} // namespace tmemcheck

#endif // TMEMCHECK_CONFIG_CONFIG_H
