//===- TmemAnalyzerPlugin.cpp - Clang Static Analyzer plugin entry --------===//
//
// Part of tmemcheck. The entry points clang looks up in a checker plugin
// loaded with `-Xclang -load -Xclang libTmemAnalyzerPlugin.so`: the
// checkers it adds (enable them with
// `-Xclang -analyzer-checker=tmem.TmemLifecycle`) and the analyzer API
// version it was built against (docs/csa-checker.md).
//
//===----------------------------------------------------------------------===//

#include "CudaDeviceModeling.h"
#include "TmemLifecycleChecker.h"

#include "clang/StaticAnalyzer/Frontend/CheckerRegistry.h"

extern "C" void clang_registerCheckers(clang::ento::CheckerRegistry &Registry) {
  tmemcheck::csa::addCudaDeviceModeling(Registry);
  tmemcheck::csa::addTmemLifecycleChecker(Registry);
}

extern "C" const char clang_analyzerAPIVersionString[] =
    CLANG_ANALYZER_API_VERSION_STRING;
