//===- FileSettings.cpp - What applies to one file's analysis -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Driver/FileSettings.h"

#include "tmemcheck/Checks/Check.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace tmemcheck {

Severity FileSettings::severityOf(llvm::StringRef Check, Severity Level) const {
  if (auto It = CheckSeverity.find(Check.str()); It != CheckSeverity.end())
    Level = It->second == "error" ? Severity::Error : Severity::Warning;
  if (Level == Severity::Warning && AsErrors.isEnabled(Check))
    Level = Severity::Error;
  return Level;
}

bool FileSettings::enablesNoCheck() const {
  return llvm::none_of(CheckRegistry::all(), [&](const CheckInfo &C) {
    return Enabled.isEnabled(C.Name);
  });
}

llvm::Error checkFiltersFor(const Config &C, const SettingOverrides &Overrides,
                            CheckFilter &Enabled, CheckFilter &AsErrors,
                            std::vector<std::string> &Unmatched) {
  std::string Error;
  Enabled =
      CheckFilter::create(C.Checks + "," + Overrides.Checks, Unmatched, Error);
  if (Error.empty())
    AsErrors = CheckFilter::createWithoutDefaults(
        C.WarningsAsErrors + "," + Overrides.WarningsAsErrors, Unmatched,
        Error);
  if (!Error.empty())
    return llvm::createStringError((C.Path.empty() ? "" : C.Path + ": ") +
                                   Error);
  return llvm::Error::success();
}

llvm::Expected<FileSettings> FileSettingsResolver::resolve(const Config &C) {
  FileSettings S;
  // A setting given on the command line, else the config's, else the
  // default the structures carry.
  auto Pick = [](const auto &Given, const auto &FromConfig, auto Default) {
    using T = decltype(Default);
    return Given ? T(*Given) : FromConfig ? T(*FromConfig) : Default;
  };
  const SettingOverrides &O = Overrides;
  S.Frontend.MaxCallDepth =
      Pick(O.MaxCallDepth, C.MaxCallDepth, S.Frontend.MaxCallDepth);
  S.Frontend.MaxEventsPerKernel =
      Pick(O.MaxEvents, C.MaxEvents, S.Frontend.MaxEventsPerKernel);
  S.Analysis.MaxKernelSeconds =
      Pick(O.MaxKernelSeconds, C.MaxKernelSeconds, S.Analysis.MaxKernelSeconds);
  S.Analysis.MaxLoopIterations = Pick(O.MaxLoopIterations, C.MaxLoopIterations,
                                      S.Analysis.MaxLoopIterations);
  S.Frontend.MaxKernelSeconds = S.Analysis.MaxKernelSeconds;
  S.AssumedCtasPerSm = Pick(O.AssumeCtasPerSm, C.AssumeCtasPerSm, 0u);
  S.Frontend.Roots.UnreferencedDeviceFunctions =
      C.DeviceFunctionRoots.value_or(true);
  S.Frontend.Roots.Functions = C.RootFunctions;
  S.Frontend.Roots.Instantiations = C.Instantiate;
  S.CoverageCheck = Pick(O.CoverageCheck, C.CoverageCheck, false);
  S.RequireComplete = Pick(O.RequireComplete, C.RequireComplete, true);

  // The parse follows the config's `Compat:` (target, profile, defines,
  // include directories, arguments); --gpu-arch and --profile given on the
  // command line win, --extra-arg comes after the config's arguments.
  if (!C.Compat) {
    S.Env = BaseEnv;
  } else {
    std::optional<std::string> Arch;
    if (!O.GpuArchGiven)
      Arch = C.Compat->GpuArch;
    std::optional<bool> NvccProfile;
    if (C.Compat->Profile && !O.ProfileGiven)
      NvccProfile = *C.Compat->Profile == "nvcc";
    std::string Error;
    S.Env = BaseEnv.withCompat(
        Arch, NvccProfile,
        C.Compat->parseArguments(llvm::sys::path::parent_path(C.Path)), Error,
        C.Compat->ExtraArgsBefore, C.Compat->RemovedArgs);
    if (!S.Env)
      return llvm::createStringError(C.Path + ": Compat: " + Error);
  }

  if (!C.ApiModels.empty()) {
    std::unique_ptr<UserApiModelTable> &Models = ModelsOfConfig[C.Path];
    if (!Models) {
      // The loader decoded every model already; this should not fail.
      llvm::Expected<UserApiModelTable> T =
          UserApiModelTable::create(C.ApiModels);
      if (!T)
        return llvm::createStringError(C.Path + ": " +
                                       llvm::toString(T.takeError()));
      Models = std::make_unique<UserApiModelTable>(std::move(*T));
    }
    S.Frontend.UserModels = Models.get();
  }

  S.CheckSeverity = C.CheckSeverity;
  for (const auto &[Check, Level] : C.CheckSeverity)
    if (!CheckRegistry::find(Check))
      S.UnknownSeverityChecks.push_back(Check);
  if (llvm::Error E = checkFiltersFor(C, Overrides, S.Enabled, S.AsErrors,
                                      S.UnmatchedGlobs))
    return std::move(E);
  return S;
}

} // namespace tmemcheck
