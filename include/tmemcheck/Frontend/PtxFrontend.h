//===- PtxFrontend.h - PTX module to kernel event graphs --------*- C++ -*-===//
//
// Part of tmemcheck. Reads a standalone .ptx module (nvcc -ptx output, with
// or without -lineinfo, or hand-written PTX) and builds a KernelGraph for
// every `.entry` in it, the same graphs the Clang front end builds from
// CUDA sources, so every check runs on PTX unchanged (design.md "Layers").
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_PTXFRONTEND_H
#define TMEMCHECK_FRONTEND_PTXFRONTEND_H

#include "tmemcheck/Frontend/ClangFrontend.h"

#include "llvm/ADT/StringRef.h"

#include <functional>

namespace tmemcheck {

/// True for paths the PTX front end reads (`*.ptx`).
bool isPtxFile(llvm::StringRef Path);

/// Reads and analyses the .ptx file \p File; graphs go to \p OnKernel as in
/// buildKernelGraphs(). A module with syntax errors is not analysed:
/// Parsed is false and FirstError says "file:line:col: message".
TranslationUnitResult analyzePtxFile(llvm::StringRef File,
                                     const FrontendLimits &Limits,
                                     KernelConsumer OnKernel = nullptr);

/// The same for module text already in memory; \p Path names it in
/// locations and messages.
TranslationUnitResult analyzePtxText(llvm::StringRef Text,
                                     llvm::StringRef Path,
                                     const FrontendLimits &Limits,
                                     KernelConsumer OnKernel = nullptr);

/// Analyses one kernel's graph in worker thread \p Worker (0 to the number
/// of threads - 1) and returns what to do with the results, which the
/// calling thread runs in module order.
using ParallelKernelConsumer =
    std::function<std::function<void()>(KernelGraph &G, unsigned Worker)>;

/// analyzePtxFile with the kernels of the module built and analysed by up
/// to \p Threads threads: each builds a kernel's graph and hands it to
/// \p Analyse; the returned actions run on the calling thread in module
/// order, so the outcome is the same as with one thread (each kernel's
/// graph depends on the module alone, not on the kernels before it).
/// Result.GraphSeconds is the sum over the threads.
TranslationUnitResult analyzePtxFile(llvm::StringRef File,
                                     const FrontendLimits &Limits,
                                     const ParallelKernelConsumer &Analyse,
                                     unsigned Threads);

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_PTXFRONTEND_H
