//===- AsmBindingFuzzer.cpp - libFuzzer target for asm operand binding ----===//
//
// Part of tmemcheck. Inline asm refers to its operands as `%N`, `%[name]` or
// `%hN`; the graph builder trusts the bound index to pick the operand's
// expression. The input is an operand list on its first line (tokens such
// as `[taddr]r`, `=r`, `+l`, `n`: an optional symbolic name, then the
// constraint) and the asm template after it. The binding must hold for any
// input: every bound index is in range and names the operand the reference
// spells, and every reference left unbound comes with a diagnostic. The
// decoders then run on the instructions, as the graph builder runs them.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/StringExtras.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tmemcheck;

namespace {

[[noreturn]] void fail(const char *What, const ptx::Operand &O) {
  fprintf(stderr, "asm operand binding: %s (reference '%s', index %d)\n", What,
          O.Text.c_str(), O.AsmOperandIndex);
  abort();
}

/// The operand list of the first line.
std::vector<ptx::AsmOperandInfo> parseOperandLine(llvm::StringRef Line) {
  std::vector<ptx::AsmOperandInfo> Operands;
  llvm::SmallVector<llvm::StringRef, 16> Tokens;
  Line.split(Tokens, ' ', /*MaxSplit=*/30, /*KeepEmpty=*/false);
  for (llvm::StringRef T : Tokens) {
    ptx::AsmOperandInfo Info;
    if (T.consume_front("[")) {
      auto [Name, Rest] = T.split(']');
      Info.Name = Name.str();
      T = Rest;
    }
    Info.Constraint = T.str();
    Info.IsOutput = T.starts_with("=") || T.starts_with("+");
    Operands.push_back(std::move(Info));
  }
  return Operands;
}

/// Checks one operand tree against the operand list.
void checkBinding(const ptx::Operand &O,
                  const std::vector<ptx::AsmOperandInfo> &Operands,
                  bool HaveDiagnostics) {
  for (const ptx::Operand &E : O.Elements)
    checkBinding(E, Operands, HaveDiagnostics);
  if (O.K != ptx::Operand::Kind::AsmOperand)
    return;
  const int Index = O.AsmOperandIndex;
  if (Index < 0) {
    if (!HaveDiagnostics)
      fail("an unbound reference without a diagnostic", O);
    return;
  }
  if (static_cast<size_t>(Index) >= Operands.size())
    fail("index out of range", O);
  llvm::StringRef Text = O.Text;
  if (!Text.consume_front("%"))
    fail("reference does not start with '%'", O);
  if (Text.consume_front("[")) {
    llvm::StringRef Name = Text.take_until([](char C) { return C == ']'; });
    if (Operands[Index].Name != Name)
      fail("symbolic reference bound to an operand of another name", O);
    for (int I = 0; I < Index; ++I)
      if (Operands[I].Name == Name)
        fail("symbolic reference not bound to the first operand so named", O);
    return;
  }
  if (!Text.empty() && llvm::isAlpha(Text.front()))
    Text = Text.drop_front(); // an operand modifier, `%h1`
  unsigned Number = 0;
  if (Text.getAsInteger(10, Number) || Number != static_cast<unsigned>(Index))
    fail("numbered reference bound to another operand", O);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Input(reinterpret_cast<const char *>(Data), Size);
  auto [Line, Template] = Input.split('\n');
  std::vector<ptx::AsmOperandInfo> Operands = parseOperandLine(Line);
  ptx::ParsedAsm P = ptx::parseInlineAsm(Template, Operands);
  const bool HaveDiagnostics = !P.Diagnostics.empty();
  for (const ptx::Instruction &I : P.Instructions) {
    if (I.Pred)
      checkBinding(I.Pred->Predicate, Operands, HaveDiagnostics);
    for (const ptx::Operand &O : I.Operands)
      checkBinding(O, Operands, HaveDiagnostics);
    std::vector<ptx::ParseDiagnostic> Diags;
    (void)decodeTmemOp(I, Diags);
    (void)decodeSyncOp(I);
  }
  return 0;
}
