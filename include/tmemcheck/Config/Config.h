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

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <map>
#include <optional>
#include <string>

namespace tmemcheck {

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
  explicit ConfigFinder(std::string Explicit = "") : Explicit(std::move(Explicit)) {}

  llvm::Expected<Config> forFile(llvm::StringRef File);

private:
  llvm::Expected<Config> load(llvm::StringRef Path);

  std::string Explicit;
  llvm::StringMap<std::string> DirToConfigPath;
  llvm::StringMap<Config> Loaded;
};

} // namespace tmemcheck

#endif // TMEMCHECK_CONFIG_CONFIG_H
