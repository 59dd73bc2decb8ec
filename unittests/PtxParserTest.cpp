//===- PtxParserTest.cpp - Inline-asm and PTX text parser -----------------===//
//
// Part of tmemcheck. The strings below are written the way CCCL's cuda::ptx
// wrappers, CUTLASS and DeepGEMM write them.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Ptx/Parser.h"

#include "gtest/gtest.h"

#include <chrono>
#include <random>

using namespace tmemcheck::ptx;

namespace {

std::vector<AsmOperandInfo> ops(unsigned N) {
  std::vector<AsmOperandInfo> V(N);
  for (unsigned I = 0; I < N; ++I)
    V[I].Constraint = "r";
  return V;
}

std::string text(llvm::StringRef Src, TextRange R) {
  return Src.substr(R.Offset, R.Length).str();
}

bool hasDiag(const ParsedAsm &P, llvm::StringRef Needle) {
  for (const ParseDiagnostic &D : P.Diagnostics)
    if (llvm::StringRef(D.Message).contains(Needle))
      return true;
  return false;
}

std::string allDiags(const ParsedAsm &P) {
  std::string S;
  for (const ParseDiagnostic &D : P.Diagnostics)
    S += D.Message + "\n";
  return S;
}

TEST(PtxParserTest, AllocCccl) {
  llvm::StringRef Src =
      "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;";
  ParsedAsm P = parseInlineAsm(Src, ops(2));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  const Instruction &I = P.Instructions[0];
  EXPECT_EQ(I.Opcode,
            "tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32");
  ASSERT_EQ(I.Parts.size(), 7u);
  EXPECT_EQ(I.Parts[0], "tcgen05");
  EXPECT_EQ(I.Parts[1], "alloc");
  EXPECT_EQ(I.Parts[2], "cta_group::1");
  EXPECT_EQ(I.Parts[5], "shared::cta");
  EXPECT_EQ(I.base(), "tcgen05");
  EXPECT_TRUE(I.hasPart("sync"));
  EXPECT_FALSE(I.hasPart("cta_group"));
  EXPECT_FALSE(I.Pred.has_value());
  EXPECT_EQ(I.ScopeDepth, 0u);
  ASSERT_EQ(I.Operands.size(), 2u);
  const Operand &Dst = I.Operands[0];
  EXPECT_EQ(Dst.K, Operand::Kind::Address);
  ASSERT_EQ(Dst.Elements.size(), 1u);
  EXPECT_EQ(Dst.Elements[0].K, Operand::Kind::AsmOperand);
  EXPECT_EQ(Dst.Elements[0].AsmOperandIndex, 0);
  EXPECT_EQ(Dst.AddressOffset, 0);
  EXPECT_FALSE(Dst.isLeaf());
  EXPECT_EQ(I.Operands[1].K, Operand::Kind::AsmOperand);
  EXPECT_EQ(I.Operands[1].AsmOperandIndex, 1);
  EXPECT_TRUE(I.Operands[1].isLeaf());
  // Ranges are exact byte offsets.
  EXPECT_EQ(text(Src, I.Range), Src.str());
  EXPECT_EQ(text(Src, I.OpcodeRange), I.Opcode);
  EXPECT_EQ(text(Src, Dst.Range), "[%0]");
  EXPECT_EQ(text(Src, Dst.Elements[0].Range), "%0");
  EXPECT_EQ(text(Src, I.Operands[1].Range), "%1");
}

TEST(PtxParserTest, MmaWithPredicateScope) {
  llvm::StringRef Src = "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                        "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, "
                        "p; \n\t}\n";
  ParsedAsm P = parseInlineAsm(Src, ops(5));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Registers.size(), 1u);
  EXPECT_EQ(P.Registers[0].Type, ".pred");
  EXPECT_EQ(P.Registers[0].Name, "p");
  EXPECT_EQ(P.Registers[0].Count, 1u);
  EXPECT_EQ(P.Registers[0].ScopeDepth, 1u);
  EXPECT_EQ(text(Src, P.Registers[0].Range), "p");
  ASSERT_EQ(P.Instructions.size(), 2u);
  const Instruction &Setp = P.Instructions[0];
  EXPECT_EQ(Setp.Opcode, "setp.ne.b32");
  EXPECT_EQ(Setp.ScopeDepth, 1u);
  ASSERT_EQ(Setp.Operands.size(), 3u);
  EXPECT_EQ(Setp.Operands[0].K, Operand::Kind::Register);
  EXPECT_EQ(Setp.Operands[0].writtenName(), "p");
  EXPECT_EQ(Setp.Operands[1].AsmOperandIndex, 4);
  EXPECT_EQ(Setp.Operands[2].K, Operand::Kind::Immediate);
  EXPECT_EQ(Setp.Operands[2].Imm, 0);
  const Instruction &Mma = P.Instructions[1];
  EXPECT_EQ(Mma.ScopeDepth, 1u);
  ASSERT_EQ(Mma.Operands.size(), 5u);
  EXPECT_EQ(Mma.Operands[4].K, Operand::Kind::Register);
  EXPECT_EQ(text(Src, Mma.Range),
            "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p;");
}

TEST(PtxParserTest, CcclMmaWithDisableOutputLane) {
  llvm::StringRef Src =
      "{\n\t .reg .pred PRED_enable_input_d; \n\t"
      "setp.ne.b32 PRED_enable_input_d, %12, 0;\n\t"
      "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, {%4, %5, %6, %7, "
      "%8, %9, %10, %11}, PRED_enable_input_d, %13;\n\t}";
  ParsedAsm P = parseInlineAsm(Src, ops(14));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 2u);
  const Instruction &Mma = P.Instructions[1];
  ASSERT_EQ(Mma.Operands.size(), 7u);
  const Operand &Mask = Mma.Operands[4];
  EXPECT_EQ(Mask.K, Operand::Kind::Vector);
  ASSERT_EQ(Mask.Elements.size(), 8u);
  EXPECT_EQ(Mask.Elements[7].AsmOperandIndex, 11);
  EXPECT_EQ(Mma.Operands[5].K, Operand::Kind::Register);
  EXPECT_EQ(Mma.Operands[6].AsmOperandIndex, 13);
}

TEST(PtxParserTest, SplitLoad) {
  llvm::StringRef Src = "tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%0, %1}, "
                        "[%2], 2;";
  ParsedAsm P = parseInlineAsm(Src, ops(3));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  const Instruction &I = P.Instructions[0];
  ASSERT_EQ(I.Operands.size(), 3u);
  EXPECT_EQ(I.Operands[0].K, Operand::Kind::Vector);
  EXPECT_EQ(I.Operands[0].Elements.size(), 2u);
  EXPECT_EQ(text(Src, I.Operands[0].Range), "{%0, %1}");
  EXPECT_EQ(text(Src, I.Operands[0].Elements[1].Range), "%1");
  EXPECT_EQ(I.Operands[2].K, Operand::Kind::Immediate);
  EXPECT_EQ(I.Operands[2].Imm, 2);
  EXPECT_EQ(I.Parts[4], "16x32bx2");
}

TEST(PtxParserTest, ElectSyncPairBecomesTwoOperands) {
  llvm::StringRef Src = "{\n"
                        ".reg .b32 %%rx;\n"
                        ".reg .pred %%px;\n"
                        "     elect.sync %%rx|%%px, %2;\n"
                        "@%%px mov.s32 %1, 1;\n"
                        "     mov.s32 %0, %%rx;\n"
                        "}\n";
  ParsedAsm P = parseInlineAsm(Src, ops(3));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Registers.size(), 2u);
  EXPECT_EQ(P.Registers[0].Name, "%rx");
  EXPECT_EQ(P.Registers[0].Type, ".b32");
  EXPECT_EQ(P.Registers[1].Name, "%px");
  EXPECT_EQ(text(Src, P.Registers[1].Range), "%%px");
  ASSERT_EQ(P.Instructions.size(), 3u);
  const Instruction &E = P.Instructions[0];
  EXPECT_EQ(E.Opcode, "elect.sync");
  ASSERT_EQ(E.Operands.size(), 3u);
  EXPECT_EQ(E.Operands[0].K, Operand::Kind::Register);
  EXPECT_EQ(E.Operands[0].writtenName(), "%rx");
  EXPECT_EQ(text(Src, E.Operands[0].Range), "%%rx");
  EXPECT_EQ(E.Operands[1].writtenName(), "%px");
  EXPECT_EQ(E.Operands[2].AsmOperandIndex, 2);
  const Instruction &Mov = P.Instructions[1];
  ASSERT_TRUE(Mov.Pred.has_value());
  EXPECT_EQ(Mov.Pred->Predicate.K, Operand::Kind::Register);
  EXPECT_EQ(Mov.Pred->Predicate.writtenName(), "%px");
  EXPECT_FALSE(Mov.Pred->Negated);
  EXPECT_EQ(text(Src, Mov.Range), "@%%px mov.s32 %1, 1;");
}

TEST(PtxParserTest, ElectSyncImmediateMask) {
  ParsedAsm P = parseInlineAsm("elect.sync %%rx|%%px, 0xffffffff;", {});
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  ASSERT_EQ(P.Instructions[0].Operands.size(), 3u);
  EXPECT_EQ(P.Instructions[0].Operands[2].Imm, 0xffffffffLL);
}

TEST(PtxParserTest, NamedOperands) {
  std::vector<AsmOperandInfo> O(3);
  O[0].Name = "taddr";
  O[1].Name = "ncols";
  O[2].Name = "";
  ParsedAsm P = parseInlineAsm(
      "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %[taddr], %[ncols];", O);
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_EQ(P.Instructions[0].Operands[0].AsmOperandIndex, 0);
  EXPECT_EQ(P.Instructions[0].Operands[0].Text, "%[taddr]");
  EXPECT_EQ(P.Instructions[0].Operands[1].AsmOperandIndex, 1);
}

TEST(PtxParserTest, UnknownNamedOperand) {
  std::vector<AsmOperandInfo> O(1);
  O[0].Name = "a";
  ParsedAsm P = parseInlineAsm("mov.b32 %[b], %[a];", O);
  EXPECT_TRUE(hasDiag(P, "unknown symbolic asm operand name '%[b]'"))
      << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_EQ(P.Instructions[0].Operands[0].K, Operand::Kind::AsmOperand);
  EXPECT_EQ(P.Instructions[0].Operands[0].AsmOperandIndex, -1);
  EXPECT_EQ(P.Instructions[0].Operands[1].AsmOperandIndex, 0);
  // The empty name never matches an unnamed operand.
  ParsedAsm Q = parseInlineAsm("mov.b32 %[], %0;", ops(1));
  EXPECT_TRUE(hasDiag(Q, "unknown symbolic")) << allDiags(Q);
}

TEST(PtxParserTest, OperandIndexOutOfRange) {
  llvm::StringRef Src = "tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %5;";
  ParsedAsm P = parseInlineAsm(Src, ops(2));
  ASSERT_EQ(P.Diagnostics.size(), 1u);
  EXPECT_EQ(P.Diagnostics[0].Message,
            "asm operand reference '%5' is out of range (the statement has "
            "2 operands)");
  EXPECT_EQ(text(Src, P.Diagnostics[0].Range), "%5");
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_EQ(P.Instructions[0].Operands[1].AsmOperandIndex, -1);
  // Huge index.
  ParsedAsm Q = parseInlineAsm("mov.b32 %0, %99999999999999;", ops(1));
  EXPECT_TRUE(hasDiag(Q, "too large")) << allDiags(Q);
}

TEST(PtxParserTest, PercentEscapesAndOddPercent) {
  ParsedAsm P = parseInlineAsm("mov.u32 %0, %%laneid;", ops(1));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_EQ(P.Instructions[0].Operands[1].K, Operand::Kind::Register);
  EXPECT_EQ(P.Instructions[0].Operands[1].Text, "%laneid");

  // Special registers with a dot.
  ParsedAsm T = parseInlineAsm("mov.u32 %0, %%tid.x;", ops(1));
  EXPECT_TRUE(T.Diagnostics.empty()) << allDiags(T);
  EXPECT_EQ(T.Instructions[0].Operands[1].Text, "%tid.x");

  for (const char *Bad :
       {"mov.b32 %0, %;", "mov.b32 %0, %%;", "mov %", "%", "%%",
        "mov.b32 %0, %[x", "mov.b32 %0, %=;", "mov.b32 %0, %!;"}) {
    ParsedAsm B = parseInlineAsm(Bad, ops(1));
    EXPECT_FALSE(B.Diagnostics.empty()) << Bad;
  }
  // GCC operand modifiers: warning, operand still bound.
  ParsedAsm M = parseInlineAsm("mov.b32 %0, %c1;", ops(2));
  ASSERT_EQ(M.Instructions.size(), 1u);
  EXPECT_EQ(M.Instructions[0].Operands[1].AsmOperandIndex, 1);
  ASSERT_EQ(M.Diagnostics.size(), 1u);
  EXPECT_EQ(M.Diagnostics[0].Level, ParseDiagnostic::Severity::Warning);
}

TEST(PtxParserTest, PtxTextPercentIsRegister) {
  ParsedAsm P = parsePtxText("mov.u32 %r1, %tid.x;\nadd.s32 %r2, %r1, 1;");
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 2u);
  EXPECT_EQ(P.Instructions[0].Operands[0].K, Operand::Kind::Register);
  EXPECT_EQ(P.Instructions[0].Operands[0].Text, "%r1");
  EXPECT_EQ(P.Instructions[0].Operands[1].Text, "%tid.x");
  // `%0` in PTX text is just a (strange) register name, not an asm operand.
  ParsedAsm Q = parsePtxText("mov.u32 %0, 1;");
  ASSERT_EQ(Q.Instructions.size(), 1u);
  EXPECT_EQ(Q.Instructions[0].Operands[0].K, Operand::Kind::Register);
}

TEST(PtxParserTest, MultipleInstructionsAndSeparators) {
  llvm::StringRef Src = "tcgen05.wait::ld.sync.aligned;\n\t"
                        "tcgen05.fence::before_thread_sync;\n\t"
                        "bar.sync 1, 128;;  ;\n"
                        "tcgen05.fence::after_thread_sync;";
  ParsedAsm P = parseInlineAsm(Src, {});
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 4u);
  EXPECT_EQ(P.Instructions[0].Opcode, "tcgen05.wait::ld.sync.aligned");
  EXPECT_EQ(P.Instructions[0].Parts[1], "wait::ld");
  EXPECT_TRUE(P.Instructions[0].Operands.empty());
  EXPECT_EQ(P.Instructions[1].Parts[1], "fence::before_thread_sync");
  EXPECT_EQ(P.Instructions[2].Operands.size(), 2u);
  EXPECT_EQ(text(Src, P.Instructions[3].Range),
            "tcgen05.fence::after_thread_sync;");
}

TEST(PtxParserTest, MissingSemicolonAtEndAndBeforeNewline) {
  ParsedAsm P = parseInlineAsm("tcgen05.wait::st.sync.aligned", {});
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_TRUE(hasDiag(P, "missing ';'"));
  EXPECT_EQ(P.Diagnostics[0].Level, ParseDiagnostic::Severity::Warning);

  ParsedAsm Q = parseInlineAsm("tcgen05.fence::before_thread_sync\n"
                               "tcgen05.wait::ld.sync.aligned;",
                               {});
  ASSERT_EQ(Q.Instructions.size(), 2u) << allDiags(Q);
  EXPECT_EQ(Q.Instructions[1].Opcode, "tcgen05.wait::ld.sync.aligned");

  ParsedAsm R = parseInlineAsm("{ tcgen05.wait::ld.sync.aligned }", {});
  ASSERT_EQ(R.Instructions.size(), 1u);
  EXPECT_EQ(R.Instructions[0].ScopeDepth, 1u);
  EXPECT_TRUE(hasDiag(R, "missing ';'"));
  EXPECT_FALSE(hasDiag(R, "unbalanced"));
}

TEST(PtxParserTest, Comments) {
  llvm::StringRef Src = "// leading comment; with semicolon\n"
                        "tcgen05.commit.cta_group::1.mbarrier::arrive::one."
                        "shared::cluster.b64 /* the barrier */ [%0];"
                        " /* multi\nline; */ tcgen05.fence::after_thread_sync;"
                        " // trailing";
  ParsedAsm P = parseInlineAsm(Src, ops(1));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 2u);
  EXPECT_EQ(P.Instructions[0].Operands.size(), 1u);
  EXPECT_EQ(text(Src, P.Instructions[0].Operands[0].Range), "[%0]");

  ParsedAsm U = parseInlineAsm("tcgen05.fence::after_thread_sync; /* open", {});
  EXPECT_EQ(U.Instructions.size(), 1u);
  EXPECT_TRUE(hasDiag(U, "unterminated '/*' comment"));
}

TEST(PtxParserTest, Labels) {
  llvm::StringRef Src = "{\n"
                        ".reg .pred P1;\n"
                        "LAB_WAIT:\n"
                        "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], "
                        "%1;\n"
                        "@P1 bra DONE;\n"
                        "bra LAB_WAIT;\n"
                        "DONE:\n"
                        "}";
  ParsedAsm P = parseInlineAsm(Src, ops(2));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Labels.size(), 2u);
  EXPECT_EQ(P.Labels[0].Name, "LAB_WAIT");
  EXPECT_EQ(P.Labels[0].InstructionIndex, 0u);
  EXPECT_EQ(text(Src, P.Labels[0].Range), "LAB_WAIT:");
  EXPECT_EQ(P.Labels[1].Name, "DONE");
  EXPECT_EQ(P.Labels[1].InstructionIndex, 3u);
  ASSERT_EQ(P.Instructions.size(), 3u);
  EXPECT_EQ(P.Instructions[0].Operands[0].K, Operand::Kind::Register);
  EXPECT_EQ(P.Instructions[1].Pred->Predicate.writtenName(), "P1");
  EXPECT_EQ(P.Instructions[1].Operands[0].K, Operand::Kind::Symbol);
  EXPECT_EQ(P.Instructions[1].Operands[0].Text, "DONE");
}

TEST(PtxParserTest, ScopedRegistersAreDistinct) {
  // Every inline-asm block CUTLASS emits declares its own `P1` and
  // `remAddr32`: two sibling scopes' registers are different registers, a
  // function-level one keeps its name.
  const char *Src = "{ .reg .b32 x; .reg .pred P1;\n"
                    "{ .reg .pred P1; setp.eq.u32 P1, x, 0; @P1 bra A; A: }\n"
                    "{ .reg .pred P1; setp.eq.u32 P1, x, 1; @P1 bra B; B: }\n"
                    "setp.eq.u32 P1, x, 2; }";
  ParsedAsm P = parseInlineAsm(Src, ops(0));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 5u);
  const Operand &First = P.Instructions[0].Operands[0];
  const Operand &Second = P.Instructions[2].Operands[0];
  const Operand &Outer = P.Instructions[4].Operands[0];
  EXPECT_EQ(First.writtenName(), "P1");
  EXPECT_EQ(Second.writtenName(), "P1");
  EXPECT_NE(First.Text, Second.Text);
  EXPECT_EQ(P.Instructions[1].Pred->Predicate.Text, First.Text);
  EXPECT_EQ(P.Instructions[3].Pred->Predicate.Text, Second.Text);
  EXPECT_NE(Outer.Text, First.Text);
  EXPECT_EQ(P.Instructions[0].Operands[1].Text, P.Instructions[4].Operands[1].Text);
}

TEST(PtxParserTest, Predicates) {
  ParsedAsm P = parseInlineAsm(
      "@!p tcgen05.fence::after_thread_sync;\n"
      "@%0 tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%1];\n"
      "@ !%%p1 bra L;",
      ops(2));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 3u);
  ASSERT_TRUE(P.Instructions[0].Pred);
  EXPECT_TRUE(P.Instructions[0].Pred->Negated);
  EXPECT_EQ(P.Instructions[0].Pred->Predicate.Text, "p");
  ASSERT_TRUE(P.Instructions[1].Pred);
  EXPECT_EQ(P.Instructions[1].Pred->Predicate.K, Operand::Kind::AsmOperand);
  EXPECT_EQ(P.Instructions[1].Pred->Predicate.AsmOperandIndex, 0);
  EXPECT_TRUE(P.Instructions[2].Pred->Negated);
  EXPECT_EQ(P.Instructions[2].Pred->Predicate.Text, "%p1");

  ParsedAsm Bad = parseInlineAsm("@; tcgen05.fence::after_thread_sync;", {});
  EXPECT_TRUE(hasDiag(Bad, "expected a predicate after '@'"));
  EXPECT_EQ(Bad.Instructions.size(), 1u);
}

TEST(PtxParserTest, NegatedPredicateOperandAndSink) {
  ParsedAsm P = parseInlineAsm(
      "{ .reg .pred p; setp.eq.u32 p, %1, 0; "
      "selp.b32 %0, 1, 0, !p; mbarrier.arrive.shared::cta.b64 _, [%2]; }",
      ops(3));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 3u);
  const Operand &NotP = P.Instructions[1].Operands[3];
  EXPECT_TRUE(NotP.Negated);
  EXPECT_EQ(NotP.K, Operand::Kind::Register);
  EXPECT_EQ(NotP.writtenName(), "p");
  const Operand &Sink = P.Instructions[2].Operands[0];
  EXPECT_EQ(Sink.K, Operand::Kind::Symbol);
  EXPECT_EQ(Sink.Text, "_");
}

TEST(PtxParserTest, Immediates) {
  ParsedAsm P =
      parsePtxText("foo 42, 0x1F, 0X10, -7, 017, 0b101, 0B11, 0f3F800000, "
                   "0d3FF0000000000000, 1.5, 4294967295U, -0x10;");
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  const auto &O = P.Instructions[0].Operands;
  ASSERT_EQ(O.size(), 12u);
  int64_t Want[] = {42, 31, 16, -7, 15, 5, 3, 0x3F800000, 0x3FF0000000000000LL};
  for (unsigned I = 0; I < 9; ++I) {
    EXPECT_EQ(O[I].K, Operand::Kind::Immediate) << I;
    EXPECT_EQ(O[I].Imm, Want[I]) << I;
  }
  EXPECT_EQ(O[3].Text, "-7");
  EXPECT_EQ(O[9].K, Operand::Kind::Symbol);
  EXPECT_EQ(O[9].Text, "1.5");
  EXPECT_EQ(O[10].Imm, 4294967295LL);
  EXPECT_EQ(O[11].Imm, -16);

  ParsedAsm Big = parsePtxText("foo 99999999999999999999999;");
  EXPECT_TRUE(hasDiag(Big, "too large")) << allDiags(Big);
  ParsedAsm Bad = parsePtxText("foo 0xZZ, 08;");
  EXPECT_TRUE(hasDiag(Bad, "malformed number")) << allDiags(Bad);
}

TEST(PtxParserTest, Addresses) {
  llvm::StringRef Src =
      "foo [%0], [%0+16], [%0 + 16], [%0 - 8], [sym], [sym+4], [0x100], "
      "[%%rd1+-4];";
  ParsedAsm P = parseInlineAsm(Src, ops(1));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  const auto &O = P.Instructions[0].Operands;
  ASSERT_EQ(O.size(), 8u);
  int64_t Offsets[] = {0, 16, 16, -8, 0, 4, 0, -4};
  for (unsigned I = 0; I < 8; ++I) {
    EXPECT_EQ(O[I].K, Operand::Kind::Address) << I;
    ASSERT_EQ(O[I].Elements.size(), 1u) << I;
    EXPECT_EQ(O[I].AddressOffset, Offsets[I]) << I;
  }
  EXPECT_EQ(text(Src, O[2].Range), "[%0 + 16]");
  EXPECT_EQ(O[2].Elements[0].AsmOperandIndex, 0);
  EXPECT_EQ(O[4].Elements[0].K, Operand::Kind::Symbol);
  EXPECT_EQ(O[4].Elements[0].Text, "sym");
  EXPECT_EQ(O[6].Elements[0].K, Operand::Kind::Immediate);
  EXPECT_EQ(O[7].Elements[0].Text, "%rd1");

  for (const char *Bad :
       {"foo [%0;", "foo [%0+];", "foo [%0+%1];", "foo [];", "foo [%0 16];"}) {
    ParsedAsm B = parseInlineAsm(Bad, ops(2));
    EXPECT_FALSE(B.Diagnostics.empty()) << Bad;
  }
}

TEST(PtxParserTest, TensorMapAddresses) {
  // cp.async.bulk.tensor as nvcc, CuTe DSL and Triton write it: a tensor
  // map and a coordinate vector inside the brackets.
  llvm::StringRef Src =
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::"
      "complete_tx::bytes [%r5], [%rd1, {%r20, %r10}], [%r6];\n"
      "cp.async.bulk.tensor.1d.global.shared::cta.bulk_group "
      "[%rd2+64, {%r1}], [%r2];\n"
      "@%p1 cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::"
      "complete_tx::bytes [%r5], [%rd1, {%r1, %r2, %r3, %r4}], [%r6], "
      "{%rs1, %rs2};";
  ParsedAsm P = parsePtxText(Src);
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 3u);
  const Operand &Tmap = P.Instructions[0].Operands[1];
  ASSERT_EQ(Tmap.K, Operand::Kind::Address);
  ASSERT_EQ(Tmap.Elements.size(), 2u);
  EXPECT_EQ(Tmap.Elements[0].Text, "%rd1");
  ASSERT_EQ(Tmap.Elements[1].K, Operand::Kind::Vector);
  ASSERT_EQ(Tmap.Elements[1].Elements.size(), 2u);
  EXPECT_EQ(Tmap.Elements[1].Elements[1].Text, "%r10");
  EXPECT_EQ(text(Src, Tmap.Range), "[%rd1, {%r20, %r10}]");
  const Operand &Store = P.Instructions[1].Operands[0];
  EXPECT_EQ(Store.AddressOffset, 64);
  ASSERT_EQ(Store.Elements.size(), 2u);
  EXPECT_EQ(Store.Elements[1].Elements.size(), 1u);
  EXPECT_EQ(P.Instructions[2].Operands[1].Elements[1].Elements.size(), 4u);
  EXPECT_EQ(P.Instructions[2].Operands[3].K, Operand::Kind::Vector);
  // Malformed forms are diagnosed, never a crash.
  for (const char *Bad : {"foo [%rd1, %r2];", "foo [%rd1, {%r2];",
                          "foo [%rd1, {%r2}", "foo [%rd1, ];"}) {
    ParsedAsm B = parsePtxText(Bad);
    EXPECT_FALSE(B.Diagnostics.empty()) << Bad;
  }
}

TEST(PtxParserTest, VectorsSpanningLines) {
  llvm::StringRef Src = "tcgen05.st.sync.aligned.32x32b.x4.b32 [%0],\n"
                        "    {%1, %2,\n"
                        "     %3, %4};";
  ParsedAsm P = parseInlineAsm(Src, ops(5));
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 1u);
  const Operand &V = P.Instructions[0].Operands[1];
  ASSERT_EQ(V.K, Operand::Kind::Vector);
  ASSERT_EQ(V.Elements.size(), 4u);
  EXPECT_EQ(V.Elements[3].AsmOperandIndex, 4);
  EXPECT_EQ(text(Src, V.Range), "{%1, %2,\n     %3, %4}");

  ParsedAsm E = parsePtxText("foo {};");
  ASSERT_EQ(E.Instructions.size(), 1u);
  EXPECT_TRUE(E.Instructions[0].Operands[0].Elements.empty());

  ParsedAsm Bad =
      parseInlineAsm("foo {%0 %1}; tcgen05.fence::after_thread_sync;", ops(2));
  EXPECT_TRUE(hasDiag(Bad, "expected ',' or '}' in vector operand"));
  EXPECT_EQ(Bad.Instructions.size(), 2u);
}

TEST(PtxParserTest, RegisterDeclarations) {
  llvm::StringRef Src = "{ .reg .b32 %%r<4>; .reg .b32 a, b; .reg .v2 .b64 w;"
                        " add.s32 %%r3, a, b; add.s32 %%r4, c, w; }"
                        " add.s32 a, a, a;";
  ParsedAsm P = parseInlineAsm(Src, {});
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Registers.size(), 4u);
  EXPECT_EQ(P.Registers[0].Name, "%r");
  EXPECT_EQ(P.Registers[0].Count, 4u);
  EXPECT_EQ(text(Src, P.Registers[0].Range), "%%r<4>");
  EXPECT_EQ(P.Registers[1].Name, "a");
  EXPECT_EQ(P.Registers[2].Name, "b");
  EXPECT_EQ(P.Registers[2].Type, ".b32");
  EXPECT_EQ(P.Registers[3].Type, ".v2 .b64");
  ASSERT_EQ(P.Instructions.size(), 3u);
  const auto &Add = P.Instructions[0].Operands;
  EXPECT_EQ(Add[1].K, Operand::Kind::Register);
  EXPECT_EQ(Add[2].K, Operand::Kind::Register);
  const auto &Add2 = P.Instructions[1].Operands;
  EXPECT_EQ(Add2[0].K, Operand::Kind::Register) << "%-prefixed";
  EXPECT_EQ(Add2[1].K, Operand::Kind::Symbol) << "c is undeclared";
  EXPECT_EQ(Add2[2].K, Operand::Kind::Register);
  // After the scope closes, `a` is no longer a declared register.
  EXPECT_EQ(P.Instructions[2].Operands[1].K, Operand::Kind::Symbol);
  EXPECT_EQ(P.Instructions[2].ScopeDepth, 0u);

  ParsedAsm Param = parsePtxText(".reg .pred p<2>; @p1 bra L; foo p2;");
  ASSERT_EQ(Param.Instructions.size(), 2u);
  EXPECT_EQ(Param.Instructions[1].Operands[0].K, Operand::Kind::Symbol);

  for (const char *Bad : {".reg;", ".reg .b32 %%r<x>;", ".reg .b32 %%r<4;",
                          ".reg .b32 ;", ".reg .b32 a b;"}) {
    ParsedAsm B = parseInlineAsm(Bad, {});
    EXPECT_FALSE(B.Diagnostics.empty()) << Bad;
  }
}

TEST(PtxParserTest, ScopesAndUnbalancedBraces) {
  ParsedAsm P = parseInlineAsm("{{ tcgen05.fence::after_thread_sync; } "
                               "tcgen05.wait::ld.sync.aligned; }",
                               {});
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 2u);
  EXPECT_EQ(P.Instructions[0].ScopeDepth, 2u);
  EXPECT_EQ(P.Instructions[1].ScopeDepth, 1u);

  ParsedAsm Open = parseInlineAsm("{ { tcgen05.fence::after_thread_sync;", {});
  EXPECT_EQ(Open.Instructions.size(), 1u);
  EXPECT_TRUE(hasDiag(Open, "missing '}': 2 scopes still open"))
      << allDiags(Open);

  ParsedAsm Close = parseInlineAsm("} tcgen05.fence::after_thread_sync; }", {});
  EXPECT_EQ(Close.Instructions.size(), 1u);
  EXPECT_EQ(Close.Instructions[0].ScopeDepth, 0u);
  EXPECT_TRUE(hasDiag(Close, "unbalanced '}'"));
}

TEST(PtxParserTest, DeepNestingDoesNotRecurse) {
  std::string Deep(100000, '{');
  Deep += "tcgen05.fence::after_thread_sync;";
  ParsedAsm P = parseInlineAsm(Deep, {});
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_EQ(P.Instructions[0].ScopeDepth, 100000u);
  EXPECT_TRUE(hasDiag(P, "100000 scopes still open"));

  std::string Closers(100000, '}');
  ParsedAsm C = parseInlineAsm(Closers, {});
  EXPECT_LE(C.Diagnostics.size(), 101u) << "diagnostics are capped";

  // Nested vectors / addresses in operand position.
  std::string Ops =
      "foo " + std::string(100000, '{') + "%0;" + std::string(50000, '[');
  ParsedAsm O = parseInlineAsm(Ops, ops(1));
  EXPECT_FALSE(O.Diagnostics.empty());
}

TEST(PtxParserTest, TruncatedStrings) {
  const std::string Full = "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                           "tcgen05.mma.cta_group::1.kind::f16 [%0+16], %1, "
                           "{%2, %3}, %3, p; \n\t}\n";
  // Every prefix parses without crashing.
  for (size_t N = 0; N <= Full.size(); ++N) {
    ParsedAsm P = parseInlineAsm(llvm::StringRef(Full).take_front(N), ops(5));
    for (const Instruction &I : P.Instructions) {
      EXPECT_LE(I.Range.Offset + I.Range.Length, N);
      for (const Operand &O : I.Operands)
        EXPECT_LE(O.Range.Offset + O.Range.Length, N);
    }
    for (const ParseDiagnostic &D : P.Diagnostics)
      EXPECT_LE(D.Range.Offset + D.Range.Length, N);
  }
  ParsedAsm T =
      parseInlineAsm("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1", ops(2));
  EXPECT_FALSE(T.Diagnostics.empty());
}

TEST(PtxParserTest, Garbage) {
  ParsedAsm P = parseInlineAsm("#$^ ~~~ tcgen05.fence::after_thread_sync;\n"
                               "] , ; tcgen05.wait::ld.sync.aligned;",
                               {});
  EXPECT_FALSE(P.Diagnostics.empty());
  // Recovery finds the real instruction after the junk statement.
  bool Found = false;
  for (const Instruction &I : P.Instructions)
    Found |= I.Opcode == "tcgen05.wait::ld.sync.aligned";
  EXPECT_TRUE(Found) << allDiags(P);

  ParsedAsm S = parsePtxText(".file 1 \"unterminated\n foo;");
  EXPECT_TRUE(hasDiag(S, "unterminated string literal"));
}

TEST(PtxParserTest, RandomBytesNeverCrash) {
  std::mt19937 Rng(12345);
  for (int Round = 0; Round < 300; ++Round) {
    std::string S(Rng() % 400, '\0');
    for (char &C : S)
      C = char(Rng() & 0xFF);
    ParsedAsm A = parseInlineAsm(S, ops(Rng() % 4));
    ParsedAsm B = parsePtxText(S);
    EXPECT_LE(A.Diagnostics.size(), 101u);
    EXPECT_LE(B.Diagnostics.size(), 101u);
  }
  // Random strings over the PTX alphabet exercise deeper paths.
  const char Alphabet[] = "{}[]();,.%%@!|:<>+-_0123456789abxp tcgen05\n\"/*";
  for (int Round = 0; Round < 2000; ++Round) {
    std::string S(Rng() % 80, ' ');
    for (char &C : S)
      C = Alphabet[Rng() % (sizeof(Alphabet) - 1)];
    ParsedAsm A = parseInlineAsm(S, ops(3));
    for (const Instruction &I : A.Instructions)
      EXPECT_LE(I.Range.Offset + I.Range.Length, S.size()) << S;
    parsePtxText(S);
  }
}

TEST(PtxParserTest, LargeInputIsLinear) {
  std::string One = "tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1, %2, %3}, "
                    "[%4];\n";
  std::string Big;
  while (Big.size() < 200 * 1024)
    Big += One;
  auto Start = std::chrono::steady_clock::now();
  ParsedAsm P = parseInlineAsm(Big, ops(5));
  auto Ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - Start)
                .count();
  EXPECT_TRUE(P.Diagnostics.empty());
  EXPECT_EQ(P.Instructions.size(), Big.size() / One.size());
  EXPECT_LT(Ms, 5000);
  EXPECT_EQ(P.Instructions.back().Range.Offset +
                P.Instructions.back().Range.Length,
            Big.size() - 1);

  // 100 KB of a single unterminated vector and of junk.
  std::string Vec = "foo {" + std::string(100 * 1024, ',');
  ParsedAsm V = parseInlineAsm(Vec, {});
  EXPECT_FALSE(V.Diagnostics.empty());
  std::string Junk(100 * 1024, '#');
  ParsedAsm J = parseInlineAsm(Junk, {});
  EXPECT_EQ(J.Diagnostics.size(), 1u);
  std::string Semis(100 * 1024, ';');
  EXPECT_TRUE(parseInlineAsm(Semis, {}).Instructions.empty());
  std::string Regs;
  while (Regs.size() < 100 * 1024)
    Regs += "{ .reg .b32 %%r<8>; }";
  EXPECT_TRUE(parseInlineAsm(Regs, {}).Diagnostics.empty());
}

TEST(PtxParserTest, PtxModuleDirectivesAreSkipped) {
  llvm::StringRef Src =
      "//\n// Generated by NVIDIA NVVM Compiler\n//\n"
      ".version 9.0\n"
      ".target sm_100a\n"
      ".address_size 64\n"
      "\t// .globl\t_Z1kPj\n"
      ".extern .shared .align 16 .b8 smem[];\n"
      ".global .align 4 .b8 tbl[4] = {1, 2, 3, 4};\n"
      ".extern .func (.param .b32 func_retval0) helper\n"
      "(\n\t.param .b32 helper_param_0\n)\n;\n"
      ".visible .entry _Z1kPj(\n"
      "\t.param .u64 _Z1kPj_param_0\n"
      ")\n"
      ".maxntid 128, 1, 1\n"
      "{\n"
      "\t.reg .pred \t%p<3>;\n"
      "\t.reg .b32 \t%r<10>;\n"
      "\t.shared .align 4 .u32 _ZZ1kPjE4slot;\n"
      "\t.loc\t1 7 3\n"
      "\tmov.u32 \t%r1, _ZZ1kPjE4slot;\n"
      "\ttcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%r1], 64;\n"
      "$L__BB0_2:\n"
      "\t@%p1 bra \t$L__BB0_2;\n"
      "\t.pragma \"nounroll\";\n"
      "\tret;\n"
      "}\n"
      ".section .debug_str { .b8 0 }\n";
  ParsedAsm P = parsePtxText(Src);
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 4u);
  EXPECT_EQ(P.Instructions[0].Opcode, "mov.u32");
  EXPECT_EQ(P.Instructions[0].ScopeDepth, 1u);
  EXPECT_EQ(P.Instructions[0].Operands[1].K, Operand::Kind::Symbol);
  const Instruction &Alloc = P.Instructions[1];
  EXPECT_EQ(Alloc.Parts[1], "alloc");
  EXPECT_EQ(Alloc.Operands[0].Elements[0].writtenName(), "%r1");
  EXPECT_EQ(Alloc.Operands[1].Imm, 64);
  EXPECT_EQ(text(Src, Alloc.OpcodeRange), Alloc.Opcode);
  ASSERT_EQ(P.Labels.size(), 1u);
  EXPECT_EQ(P.Labels[0].Name, "$L__BB0_2");
  EXPECT_EQ(P.Labels[0].InstructionIndex, 2u);
  EXPECT_EQ(P.Instructions[3].Opcode, "ret");
  ASSERT_EQ(P.Registers.size(), 2u);
  EXPECT_EQ(P.Registers[0].Name, "%p");
  EXPECT_EQ(P.Registers[0].Count, 3u);
}

TEST(PtxParserTest, CallOperandLists) {
  llvm::StringRef Src = "{\n"
                        "\t.param .b32 param0;\n"
                        "\tst.param.b32 [param0], %r1;\n"
                        "\t.param .b32 retval0;\n"
                        "\tcall.uni (retval0), helper, (param0, %r2);\n"
                        "\tld.param.b32 %r3, [retval0];\n"
                        "}";
  ParsedAsm P = parsePtxText(Src);
  EXPECT_TRUE(P.Diagnostics.empty()) << allDiags(P);
  ASSERT_EQ(P.Instructions.size(), 3u);
  const Instruction &Call = P.Instructions[1];
  EXPECT_EQ(Call.Opcode, "call.uni");
  ASSERT_EQ(Call.Operands.size(), 3u);
  EXPECT_EQ(Call.Operands[0].K, Operand::Kind::Vector);
  EXPECT_EQ(Call.Operands[0].Elements.size(), 1u);
  EXPECT_EQ(text(Src, Call.Operands[0].Range), "(retval0)");
  EXPECT_EQ(Call.Operands[1].K, Operand::Kind::Symbol);
  EXPECT_EQ(Call.Operands[2].Elements.size(), 2u);
  ParsedAsm Bad = parsePtxText("call.uni (a b), f;");
  EXPECT_TRUE(hasDiag(Bad, "expected ',' or ')' in parenthesized operand list"))
      << allDiags(Bad);
}

TEST(PtxParserTest, CcclStringsParseCleanly) {
  // A sample of strings as the CCCL 3.0.1 tcgen05 wrappers emit them.
  const std::pair<const char *, unsigned> Cases[] = {
      {"tcgen05.alloc.cta_group::2.sync.aligned.shared::cta.b32 [%0], %1;", 2},
      {"tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;", 2},
      {"tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;", 0},
      {"tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster."
       "multicast::cluster.b64 [%0], %1;",
       2},
      {"tcgen05.cp.cta_group::1.64x128b.warpx2::02_13.b8x16.b6x16_p32 [%0], "
       "%1;",
       2},
      {"tcgen05.shift.cta_group::1.down [%0];", 1},
      {"tcgen05.ld.sync.aligned.16x64b.x1.pack::16b.b32 {%0}, [%1];", 2},
      {"tcgen05.st.sync.aligned.16x128b.x1.unpack::16b.b32 [%0], {%1, %2};", 3},
      {"tcgen05.wait::st.sync.aligned;", 0},
      {"{\n\t .reg .pred PRED_enable_input_d; \n\tsetp.ne.b32 "
       "PRED_enable_input_d, %6, 0;\n\ttcgen05.mma.cta_group::1.kind::mxf4nvf4."
       "block_scale.scale_vec::4X [%0], %1, %2, %3, [%4], [%5], "
       "PRED_enable_input_d;\n\t}",
       7},
      {"{\n\t .reg .pred PRED_enable_input_d; \n\tsetp.ne.b32 "
       "PRED_enable_input_d, %4, 0;\n\ttcgen05.mma.ws.cta_group::1.kind::f16."
       "collector::b0::fill [%0], [%1], %2, %3, PRED_enable_input_d, %5;\n\t}",
       6},
  };
  for (const auto &[Src, N] : Cases) {
    ParsedAsm P = parseInlineAsm(Src, ops(N));
    EXPECT_TRUE(P.Diagnostics.empty()) << Src << "\n" << allDiags(P);
    EXPECT_FALSE(P.Instructions.empty()) << Src;
  }
}

TEST(PtxParserTest, InvalidOpcodePosition) {
  ParsedAsm P = parseInlineAsm(".b32 %0; 42 foo; tcgen05.fence::"
                               "after_thread_sync;",
                               ops(1));
  ASSERT_EQ(P.Instructions.size(), 1u);
  EXPECT_TRUE(hasDiag(P, "expected an instruction"));
  ParsedAsm Q = parseInlineAsm("foo bar baz;", {});
  EXPECT_TRUE(hasDiag(Q, "expected ',' or ';' after operand of 'foo'"));
  EXPECT_EQ(Q.Instructions.size(), 1u);
}

} // namespace
