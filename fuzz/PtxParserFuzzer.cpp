//===- PtxParserFuzzer.cpp - libFuzzer target for the PTX layer -----------===//
//
// Part of tmemcheck. Feeds arbitrary bytes to the inline-asm parser, the
// standalone PTX parser, the .ptx module reader and the tcgen05 / sync
// decoders: none of them may crash, hang or trip a sanitizer on any input.
// The first byte chooses how many asm operands (with names and constraints)
// the template may refer to.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Ptx/Module.h"
#include "tmemcheck/Ptx/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace tmemcheck;

static void decodeAll(const ptx::ParsedAsm &P) {
  for (const ptx::Instruction &I : P.Instructions) {
    std::vector<ptx::ParseDiagnostic> Diags;
    (void)decodeTmemOp(I, Diags);
    (void)decodeSyncOp(I);
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  static const char *const Constraints[] = {"=r", "r", "l", "n", "h", "+r",
                                            "=l", "f"};
  std::vector<ptx::AsmOperandInfo> Operands;
  unsigned Count = Data[0] % 9;
  for (unsigned I = 0; I < Count; ++I)
    Operands.push_back({std::string(1, static_cast<char>('a' + I)),
                        Constraints[I % 8], Constraints[I % 8][0] == '=' ||
                                                Constraints[I % 8][0] == '+'});
  llvm::StringRef Text(reinterpret_cast<const char *>(Data) + 1, Size - 1);
  decodeAll(ptx::parseInlineAsm(Text, Operands));
  decodeAll(ptx::parsePtxText(Text));
  // The module reader (.ptx files): functions, .loc/.file, sections.
  decodeAll(ptx::parsePtxModule(Text).Body);
  return 0;
}
