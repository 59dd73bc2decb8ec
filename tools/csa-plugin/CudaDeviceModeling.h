//===- CudaDeviceModeling.h - CUDA builtins, one thread ---------*- C++ -*-===//
//
// Part of tmemcheck. The hidden modelling checker `tmem.CudaDeviceModeling`
// that `tmem.TmemLifecycle` depends on: it makes the built-ins a kernel uses
// to pick its role behave like one thread's values, so that a path is one
// thread's path.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_CSA_PLUGIN_CUDADEVICEMODELING_H
#define TMEMCHECK_TOOLS_CSA_PLUGIN_CUDADEVICEMODELING_H

namespace clang::ento {
class CheckerRegistry;
} // namespace clang::ento

namespace tmemcheck::csa {

/// Name under which the modelling checker is registered.
inline constexpr const char *CudaDeviceModelingName = "tmem.CudaDeviceModeling";

/// Adds the (hidden) modelling checker to \p Registry.
void addCudaDeviceModeling(clang::ento::CheckerRegistry &Registry);

} // namespace tmemcheck::csa

#endif // TMEMCHECK_TOOLS_CSA_PLUGIN_CUDADEVICEMODELING_H
