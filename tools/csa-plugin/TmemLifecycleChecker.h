//===- TmemLifecycleChecker.h - Path-sensitive TMEM lifecycle ---*- C++ -*-===//
//
// Part of tmemcheck. The Static Analyzer checker `tmem.TmemLifecycle`.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_TMEMLIFECYCLECHECKER_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_TMEMLIFECYCLECHECKER_H

namespace clang::ento {
class CheckerRegistry;
} // namespace clang::ento

namespace tmemcheck::csa {

/// Name under which the checker is registered.
inline constexpr const char *TmemLifecycleName = "tmem.TmemLifecycle";

/// Adds `tmem.TmemLifecycle` to \p Registry; it depends on the modelling
/// checker of CudaDeviceModeling.h, which must be added too.
void addTmemLifecycleChecker(clang::ento::CheckerRegistry &Registry);

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_TMEMLIFECYCLECHECKER_H
