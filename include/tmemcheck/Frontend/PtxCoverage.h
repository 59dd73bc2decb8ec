//===- PtxCoverage.h - The C++ front end checked against nvcc's PTX -*- C++
//-*-===//
//
// Part of tmemcheck. The guard against silent misses (--coverage-check):
// the C++ front end recognises tcgen05 operations in inline asm, through
// API models and through the bodies it follows; what it does not recognise
// it cannot check, and a kernel that looks clean may only be unseen. nvcc's
// PTX of the same translation unit says what is really there. For each
// kernel, the tcgen05 operations of each kind are counted in both, as
// distinct source lines (loop unrolling and inlining repeat one line in
// PTX; they are one operation of the source), and a kind with fewer lines
// on the C++ side than in the PTX makes the kernel incomplete, naming it.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_PTXCOVERAGE_H
#define TMEMCHECK_FRONTEND_PTXCOVERAGE_H

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Model/TmemOp.h"

#include "llvm/ADT/StringRef.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace tmemcheck {

/// The tcgen05 operations of one kernel: per kind, the distinct source
/// lines ("file:line") they are written at.
struct KernelCoverage {
  std::string Name;
  std::map<TmemOpKind, std::set<std::string>> Lines;

  /// Of \p G's tcgen05 events (either front end).
  static KernelCoverage of(const KernelGraph &G);
  unsigned total() const;
};

/// nvcc's view of one translation unit, by kernel symbol.
struct PtxCoverage {
  /// False when nvcc could not be run or failed; Error says why.
  bool Available = false;
  std::string Error;
  std::map<std::string, KernelCoverage> BySymbol;
  /// Symbols paired with a kernel of the C++ front end so far.
  std::set<std::string> Paired;
};

/// The nvcc command that compiles the device side of the translation unit
/// that \p ParseCommand (CudaEnvironment::prepareParse's Clang command)
/// parses to PTX with line information in \p OutPtx: the include
/// directories, macros, pre-included files and language standard carry
/// over; tmemcheck's own embedded headers and Clang-only flags do not.
std::vector<std::string>
nvccPtxCommand(llvm::StringRef Nvcc,
               const std::vector<std::string> &ParseCommand,
               llvm::StringRef GpuArch, llvm::StringRef OutPtx);

/// Runs \p Command (nvccPtxCommand's) in \p Directory and reads the PTX
/// through the PTX front end.
PtxCoverage collectPtxCoverage(const std::vector<std::string> &Command,
                               llvm::StringRef Directory,
                               llvm::StringRef OutPtx, unsigned TimeoutSeconds);

/// Compares \p G (a kernel of the C++ front end) with its PTX: a remark
/// with the counts, and markIncomplete naming the kinds the C++ side has
/// fewer of. A kernel without PTX (a `__device__` root, a pattern) gets a
/// remark saying it could not be compared.
void applyPtxCoverage(KernelGraph &G, PtxCoverage &P);

/// Remarks for the PTX kernels with tcgen05 operations that no kernel of
/// the C++ front end was paired with (call after every kernel is built).
std::vector<AnalysisRemark> unpairedPtxKernels(const PtxCoverage &P,
                                               llvm::StringRef File);

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_PTXCOVERAGE_H
