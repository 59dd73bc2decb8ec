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
};

/// Parses a whole .ptx module. Unlike parsePtxText(), directives are
/// checked: an unknown directive, an instruction outside a function body, a
/// malformed `.loc`/`.file` or an unbalanced brace is an error diagnostic.
/// Never crashes; arbitrarily large inputs are fine.
ParsedModule parsePtxModule(llvm::StringRef Text);

} // namespace tmemcheck::ptx

#endif // TMEMCHECK_PTX_MODULE_H
