//===- PtxSourceMap.h - Source positions of PTX instructions ----*- C++ -*-===//
//
// Part of tmemcheck. Private to lib/Frontend/Ptx. Findings on PTX point at
// the CUDA source line when the module carries `.loc` line info (nvcc
// -lineinfo / -G), else at the line of the .ptx file itself. Code that nvcc
// inlined (`.loc ..., inlined_at ...`) gets a call frame, so that findings
// point at the call in the kernel with a note at the helper, as for CUDA
// sources.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_PTX_PTXSOURCEMAP_H
#define TMEMCHECK_LIB_FRONTEND_PTX_PTXSOURCEMAP_H

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Ptx/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/SourceMgr.h"

#include <optional>
#include <string>

namespace tmemcheck {

/// Where an instruction of the module is, in the CUDA source or the .ptx.
struct PtxPosition {
  SourceLoc Loc;
  /// For code nvcc inlined: the inlined function and its call site.
  std::optional<CallFrame> InlinedFrom;
};

/// Maps byte offsets and instructions of one parsed module to positions.
class PtxSourceMap {
public:
  /// \p Text must outlive the map.
  PtxSourceMap(const ptx::ParsedModule &M, llvm::StringRef Text,
               std::string PtxPath);

  /// The position of byte \p Offset of the .ptx text itself.
  SourceLoc ptxLoc(unsigned Offset) const;
  /// The position of instruction \p Index of function \p F: its `.loc`
  /// when there is one, else its place in the .ptx file.
  PtxPosition instruction(const ptx::FunctionDecl &F, unsigned Index) const;
  /// The position of the first `.loc` of \p F that is not inlined code (the
  /// line of the kernel's declaration), else of its name in the .ptx.
  SourceLoc functionLoc(const ptx::FunctionDecl &F) const;
  /// The path of `.file` \p Index, or empty.
  std::string filePath(unsigned Index) const;

private:
  std::optional<SourceLoc> fromLoc(const ptx::LocPosition &P) const;

  const ptx::ParsedModule &M;
  std::string PtxPath;
  llvm::SourceMgr SM;
  unsigned Buffer = 0;
  /// The first `.file` of each index (a position in M.Files), and the
  /// display name of every function `.loc ... inlined_at` names, by its
  /// .debug_str label.
  llvm::DenseMap<unsigned, size_t> FileByIndex;
  llvm::StringMap<std::string> CalleeNames;
};

/// A readable name for a mangled PTX symbol: the demangled function name
/// without its parameter list (`leak_early_return`), or the last component
/// of a demangled variable (`slot`); the symbol itself when it is not
/// mangled, or too long to demangle safely (over 16384 characters).
std::string displayName(llvm::StringRef Symbol, bool IsFunction);

/// The number of parameters the C++ declaration of mangled function
/// \p Symbol has (the object of a member function not counted), or nullopt
/// when it does not demangle as a function (or is too long to).
std::optional<unsigned> declaredParameterCount(llvm::StringRef Symbol);

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_PTX_PTXSOURCEMAP_H
