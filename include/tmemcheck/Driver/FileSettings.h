//===- FileSettings.h - What applies to one file's analysis -----*- C++ -*-===//
//
// Part of tmemcheck. The settings one file is analysed with come from three
// places: the nearest .tmemcheck.yaml, the command line (which wins), and
// the defaults. The CLI and the language server resolve them the same way,
// here, so that an editor shows what CI reports.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_DRIVER_FILESETTINGS_H
#define TMEMCHECK_DRIVER_FILESETTINGS_H

#include "tmemcheck/Analysis/KernelBudget.h"
#include "tmemcheck/Checks/CheckFilter.h"
#include "tmemcheck/Config/Config.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"
#include "tmemcheck/Model/UserApiModel.h"
#include "tmemcheck/Report/Finding.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// What the command line (or an editor's settings) says; a setting left
/// unset comes from the file's config, else from the default.
struct SettingOverrides {
  /// Check globs applied after the config's (clang-tidy order).
  std::string Checks;
  std::string WarningsAsErrors;
  std::optional<unsigned> MaxCallDepth;
  std::optional<unsigned> MaxEvents;
  std::optional<double> MaxKernelSeconds;
  std::optional<unsigned> MaxLoopIterations;
  std::optional<unsigned> AssumeCtasPerSm;
  std::optional<bool> CoverageCheck;
  std::optional<bool> RequireComplete;
  /// --gpu-arch and --profile given explicitly: they win over `Compat:`.
  bool GpuArchGiven = false;
  bool ProfileGiven = false;
};

/// The settings of one file, resolved.
struct FileSettings {
  CheckFilter Enabled;
  CheckFilter AsErrors;
  FrontendLimits Frontend;
  AnalysisLimits Analysis;
  unsigned AssumedCtasPerSm = 0; ///< the launch assumption, 0: none
  bool CoverageCheck = false;    ///< --coverage-check
  /// An incomplete kernel keeps the run from exiting 0.
  bool RequireComplete = true;
  /// `CheckSeverity:` of the config: check name to "error" or "warning".
  std::map<std::string, std::string> CheckSeverity;
  /// The parse environment, with the config's `Compat:` applied.
  std::optional<CudaEnvironment> Env;
  /// Check globs of the config or the overrides that match no check.
  std::vector<std::string> UnmatchedGlobs;
  /// Checks `CheckSeverity:` names that do not exist.
  std::vector<std::string> UnknownSeverityChecks;

  /// The severity a finding of \p Check at \p Level is reported with:
  /// `CheckSeverity:` first, then WarningsAsErrors.
  Severity severityOf(llvm::StringRef Check, Severity Level) const;
  /// True when no check is enabled.
  bool enablesNoCheck() const;
};

/// The check filters of \p C with the globs of \p O after the config's:
/// the checks that run and those whose warnings are errors. Globs that
/// match no check go to \p Unmatched; an error names the config file.
llvm::Error checkFiltersFor(const Config &C, const SettingOverrides &O,
                            CheckFilter &Enabled, CheckFilter &AsErrors,
                            std::vector<std::string> &Unmatched);

/// Resolves the settings of files against one base environment and one set
/// of overrides, decoding each config's user API models once (the
/// FrontendLimits of the result point into this object: it must outlive
/// them).
class FileSettingsResolver {
public:
  FileSettingsResolver(CudaEnvironment BaseEnv, SettingOverrides Overrides)
      : BaseEnv(std::move(BaseEnv)), Overrides(std::move(Overrides)) {}

  /// The settings of the files \p C governs; an error names the config
  /// file and what is wrong with it.
  llvm::Expected<FileSettings> resolve(const Config &C);

  const SettingOverrides &overrides() const { return Overrides; }
  const CudaEnvironment &baseEnvironment() const { return BaseEnv; }

private:
  CudaEnvironment BaseEnv;
  SettingOverrides Overrides;
  std::map<std::string, std::unique_ptr<UserApiModelTable>> ModelsOfConfig;
};

} // namespace tmemcheck

#endif // TMEMCHECK_DRIVER_FILESETTINGS_H
