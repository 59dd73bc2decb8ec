//===- Module.h - The structure of a standalone .ptx module -----*- C++ -*-===//
//
// Part of tmemcheck. A .ptx file (nvcc -ptx, hand-written) is more than a
// list of instructions: it has functions (.entry kernels, .func callees)
// with parameters, data declarations (.shared slots), a file table and
// `.loc` directives that map instructions back to the CUDA source. The PTX
// layer records that structure here, syntax only; lib/Frontend/Ptx gives
// it meaning.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_PTX_MODULE_H
#define TMEMCHECK_PTX_MODULE_H

#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck::ptx {

/// `.file 1 "/path/kernel.cu"`: the source file `.loc` directives name.
struct FileDirective {
  unsigned Index = 0;
  std::string Path;
  TextRange Range;
};

/// A position named by a `.loc` (file index from the .file table).
struct LocPosition {
  unsigned File = 0;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// `.loc 1 12 5` (optionally `, function_name LABEL, inlined_at 1 30 3`):
/// the source position of the instructions that follow it, up to the next
/// `.loc` or the end of the function.
struct LocDirective {
  LocPosition Pos;
  /// With `inlined_at`: the label of the .debug_str entry that names the
  /// inlined function (may be empty) and the call site it was inlined at.
  std::string FunctionNameLabel;
  std::optional<LocPosition> InlinedAt;
  unsigned InstructionIndex = 0; ///< index of the next instruction.
  TextRange Range;
};

/// `.visible .entry name(.param .u32 a, ...) { ... }` or `.func`: one
/// function of the module. Its instructions, labels and `.loc` directives
/// are index ranges into the module's vectors.
struct FunctionDecl {
  std::string Name;
  bool IsEntry = false;
  bool HasBody = false; ///< false for a prototype (`.extern .func f(...);`).
  std::vector<std::string> Params;  ///< names of the input parameters.
  std::vector<std::string> Returns; ///< names of the return parameters.
  TextRange NameRange;
  TextRange CloseBrace; ///< the `}` that ends the body.
  unsigned FirstInstruction = 0, EndInstruction = 0;
  unsigned FirstLabel = 0, EndLabel = 0;
  unsigned FirstLoc = 0, EndLoc = 0;
  /// `.minnctapersm N` of an entry (nvcc writes the min-blocks argument of
  /// `__launch_bounds__` so): CTAs to keep resident per SM; 0 when absent.
  unsigned MinCtasPerSm = 0;
  TextRange MinCtasPerSmRange;
  /// The block and cluster shape the header promises (missing dimensions
  /// are 1, as in PTX): `.reqntid` fixes the block shape, `.maxntid` bounds
  /// it; `.reqnctapercluster` fixes the cluster shape, `.maxclusterrank`
  /// bounds the CTAs per cluster, `.explicitcluster` says the kernel must
  /// be launched with a cluster. `.maxnreg` bounds registers per thread.
  std::optional<std::array<unsigned, 3>> ReqNtid, MaxNtid, ReqNctaPerCluster;
  unsigned MaxClusterRank = 0; ///< 0 when absent.
  bool ExplicitCluster = false;
  unsigned MaxNReg = 0; ///< 0 when absent.
  /// Where the declaration starts (the first linkage word or `.entry`).
  unsigned HeaderOffset = 0;
  /// Syntax errors inside this function's body, or between its end and
  /// the next function (a stray '}' may have cut the body short): its
  /// control flow or operands are uncertain, so it must not be analysed.
  unsigned Errors = 0;
  std::string FirstErrorMessage;
  TextRange FirstErrorRange;
  /// The module ended before the body's `}` (a truncated file); the body
  /// holds what was read and Errors counts it.
  bool Truncated = false;
};

/// A data declaration: `.shared .align 4 .u32 slot;`, `.global .b8 x[16];`.
struct VariableDecl {
  std::string StateSpace; ///< ".shared", ".global", ".param", ...
  std::string Name;
  /// The function whose body declares it (index into Functions), or -1 for
  /// a module-scope declaration.
  int Function = -1;
  TextRange Range;
};

/// Everything parsePtxModule() learns about a module.
struct ParsedModule {
  /// Instructions, labels, registers and diagnostics of the whole text.
  ParsedAsm Body;
  std::vector<FileDirective> Files;
  std::vector<LocDirective> Locs;
  std::vector<FunctionDecl> Functions;
  std::vector<VariableDecl> Variables;
  /// `.section .debug_str { LABEL: .b8 ... }`: the strings by label (nvcc
  /// names inlined functions there for `.loc ..., function_name LABEL`).
  llvm::StringMap<std::string> DebugStrings;
  /// Directives the reader does not know, skipped (`.frobnicate 1;`), with
  /// the first one's range; errors before the first function. Neither
  /// keeps the functions from being analysed.
  unsigned UnknownDirectives = 0;
  TextRange FirstUnknownDirective;
  unsigned ModuleScopeErrors = 0;
  std::string FirstModuleScopeErrorMessage;
  TextRange FirstModuleScopeErrorRange;
};

/// Parses a whole .ptx module. Unlike parsePtxText(), directives are
/// checked: an instruction outside a function body, a malformed
/// `.loc`/`.file` or an unbalanced brace is an error diagnostic, charged to
/// the function it is in (FunctionDecl::Errors) or to the module
/// (ModuleScopeErrors); an unknown directive is a warning, counted and
/// skipped. Never crashes; arbitrarily large inputs are fine.
ParsedModule parsePtxModule(llvm::StringRef Text);

} // namespace tmemcheck::ptx

#endif // TMEMCHECK_PTX_MODULE_H
