//===- Parser.h - Inline-asm template and PTX text parser -------*- C++ -*-===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_PTX_PARSER_H
#define TMEMCHECK_PTX_PARSER_H

#include "tmemcheck/Ptx/Instruction.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck::ptx {

/// What the parser needs to know about one operand of the surrounding
/// inline-asm statement to resolve `%N` and `%[name]`.
struct AsmOperandInfo {
  std::string Name;       ///< symbolic name (`[name] "r"(x)`), may be empty.
  std::string Constraint; ///< as written: "=r", "+l", "r", "n", "h", ...
  bool IsOutput = false;
  /// The value of an immediate operand ("n", "i") when the front end knows
  /// it: `%N` inside a mnemonic (`tcgen05.alloc.cta_group::%2`) is
  /// replaced by it before the instruction is decoded.
  std::optional<int64_t> Immediate;
};

/// A problem found while parsing. Parsing never aborts on bad input: it
/// records a diagnostic, skips to the next ';' and goes on.
struct ParseDiagnostic {
  enum class Severity { Warning, Error };
  Severity Level = Severity::Error;
  std::string Message;
  TextRange Range;
};

/// The result of parsing one asm template or one PTX text.
struct ParsedAsm {
  std::vector<Instruction> Instructions;
  std::vector<RegisterDecl> Registers;
  std::vector<Label> Labels;
  std::vector<ParseDiagnostic> Diagnostics;
  /// The parent of each `{ }` scope; scope 0 is the whole text (its own
  /// parent). Labels and instructions name the scope they are in.
  std::vector<unsigned> Scopes = {0};
  /// Instructions whose opcode is not one of the PTX ISA (9.x) or whose
  /// statement could not be read; they stay in Instructions (their
  /// destinations are then unknown values) and are counted here so the
  /// front end can say so. FirstUnknown indexes Instructions (-1: none).
  unsigned UnknownInstructions = 0;
  int FirstUnknown = -1;
};

/// Parses the template string of a GCC-style inline-asm statement (as Clang's
/// GCCAsmStmt::getAsmString() returns it, escapes already decoded): `%N` and
/// `%[name]` become AsmOperand operands bound through \p Operands, `%%` is a
/// literal '%', several instructions and `{ }` scopes are allowed, `//` and
/// `/* */` comments are skipped. Malformed text yields diagnostics, never a
/// crash; arbitrarily large inputs are fine.
ParsedAsm parseInlineAsm(llvm::StringRef Template,
                         llvm::ArrayRef<AsmOperandInfo> Operands);

/// Parses standalone PTX text (a .ptx module body or a function body), where
/// '%' is an ordinary register prefix. Directives (`.version`, `.entry`, ...)
/// other than `.reg` are skipped by the instruction stream.
ParsedAsm parsePtxText(llvm::StringRef Text);

} // namespace tmemcheck::ptx

#endif // TMEMCHECK_PTX_PARSER_H
