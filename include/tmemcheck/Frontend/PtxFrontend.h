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

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_PTXFRONTEND_H
