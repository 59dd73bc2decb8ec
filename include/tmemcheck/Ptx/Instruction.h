//===- Instruction.h - One parsed PTX instruction ---------------*- C++ -*-===//
//
// Part of tmemcheck. The PTX layer turns inline-asm templates and standalone
// PTX text into instructions; it knows the syntax of PTX, not its meaning
// (that is lib/Model).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_PTX_INSTRUCTION_H
#define TMEMCHECK_PTX_INSTRUCTION_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck::ptx {

/// A byte range inside the parsed text (the asm template or the .ptx file).
/// Front ends map it back to a source location.
struct TextRange {
  unsigned Offset = 0;
  unsigned Length = 0;
};

/// One operand of an instruction. Operands are a small tree: an address
/// `[base+off]` has one element (the base), a tensor address
/// `[tmap, {x, y}]` (cp.async.bulk.tensor, TMA) two: the base and the
/// coordinate Vector; a vector `{a, b}` has one element per entry.
/// Everything else is a leaf.
struct Operand {
  enum class Kind {
    Register,   ///< a PTX register or predicate name: `%r1`, `p`, `%p`.
    AsmOperand, ///< `%0` / `%[name]`, bound to the inline-asm operand list.
    Immediate,  ///< an integer literal (decimal, hex, octal, binary).
    Symbol,     ///< an identifier that is not a declared register (a label,
                ///< a .shared variable, `_`).
    Address,    ///< `[ ... ]`: Elements[0] is the base, AddressOffset the
                ///< constant displacement, Elements[1] (if present) the
                ///< coordinate vector of a tensor-map address.
    Vector,     ///< `{ ... }`: Elements are the entries.
  };

  // (Members ordered so that no padding comes between them: a large
  // module has millions of operands.)
  Kind K = Kind::Symbol;
  /// For AsmOperand: index into the asm statement's operand list (outputs
  /// first, then inputs, as GCC numbers them). -1 when unresolved.
  int AsmOperandIndex = -1;
  std::string Text;          ///< Spelling as written (for leaves).
  int64_t Imm = 0;           ///< For Immediate.
  int64_t AddressOffset = 0; ///< For Address: `[base+16]` -> 16.
  std::vector<Operand> Elements;
  TextRange Range;
  bool Negated = false; ///< `!p` operand of a predicate-taking instr.

  bool isLeaf() const { return K != Kind::Address && K != Kind::Vector; }
  /// The name as the source wrote it: a register of a nested `{ }` scope
  /// carries `#scope` in Text to tell it from others of the same name.
  llvm::StringRef writtenName() const {
    return llvm::StringRef(Text).split('#').first;
  }
};

/// An instruction guard: `@p` or `@!p`.
struct Guard {
  Operand Predicate; ///< a Register or AsmOperand leaf.
  bool Negated = false;
};

/// A parsed PTX instruction, e.g. `@p tcgen05.ld.sync.aligned.32x32b.x2.b32
/// {%0, %1}, [%2];`.
struct Instruction {
  /// The full dotted opcode as written, e.g.
  /// "tcgen05.ld.sync.aligned.32x32b.x2.b32".
  std::string Opcode;
  /// Opcode split at '.', e.g. {"tcgen05", "ld", "sync", "aligned",
  /// "32x32b", "x2", "b32"}. `::` stays inside a part ("wait::ld",
  /// "cta_group::1"). Most opcodes have at most four parts (`mov.u32`,
  /// `setp.ne.s32`); the parser gives the others one allocation.
  llvm::SmallVector<std::string, 4> Parts;
  std::optional<Guard> Pred;
  std::vector<Operand> Operands;
  TextRange Range;         ///< From the guard (or opcode) to the ';'.
  TextRange OpcodeRange;   ///< The opcode alone.
  unsigned ScopeDepth = 0; ///< Nesting of `{ }` scopes around it.
  /// The `{ }` scope the instruction is in (index into ParsedAsm::Scopes).
  unsigned Scope = 0;
  /// For `bra`: the label its target names, resolved through the `{ }`
  /// scopes as PTX does (the innermost enclosing scope that declares it
  /// wins, so each inlined-asm block's `LAB_WAIT:` is its own); an index
  /// into ParsedAsm::Labels, -1 when no visible label has that name.
  int TargetLabel = -1;

  llvm::StringRef base() const {
    return Parts.empty() ? llvm::StringRef() : llvm::StringRef(Parts[0]);
  }
  /// True if any dotted part equals \p Part.
  bool hasPart(llvm::StringRef Part) const;
};

/// A `.reg .type name<N>, name2;` declaration inside an asm scope.
struct RegisterDecl {
  std::string Type; ///< e.g. ".pred", ".b32"
  std::string Name; ///< e.g. "p" or "%r" (with a count for `%r<4>`)
  unsigned Count = 1;
  unsigned ScopeDepth = 0;
  TextRange Range;
};

/// A label definition `LAB_WAIT:`.
struct Label {
  std::string Name;
  TextRange Range;
  unsigned InstructionIndex = 0; ///< index of the next instruction.
  /// The `{ }` scope that declares it (index into ParsedAsm::Scopes).
  unsigned Scope = 0;
};

} // namespace tmemcheck::ptx

#endif // TMEMCHECK_PTX_INSTRUCTION_H
