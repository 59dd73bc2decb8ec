//===- PtxLexerTest.cpp - Tokens of PTX text and the token stream ---------===//
//
// Part of tmemcheck. The edges of the scanner (end of buffer, comments,
// strings, junk bytes) and of the parser's on-demand token stream (texts
// far longer than one batch of tokens, statements across batches).
//
//===----------------------------------------------------------------------===//

#include "Lexer.h"

#include "tmemcheck/Ptx/Module.h"
#include "tmemcheck/Ptx/Parser.h"

#include "gtest/gtest.h"

#include <string>

using namespace tmemcheck::ptx;

namespace {

std::string kinds(const TokenList &L) {
  std::string S;
  for (const Token &T : L.Tokens) {
    switch (T.K) {
    case Token::Kind::Word:
      S += 'w';
      break;
    case Token::Kind::Register:
      S += 'r';
      break;
    case Token::Kind::AsmOperand:
      S += 'a';
      break;
    case Token::Kind::Number:
      S += 'n';
      break;
    case Token::Kind::String:
      S += 's';
      break;
    case Token::Kind::Punct:
      S += T.Spelling.str();
      break;
    case Token::Kind::Invalid:
      S += '?';
      break;
    case Token::Kind::End:
      S += '$';
      break;
    }
  }
  return S;
}

TEST(PtxLexerTest, TokenAtEndOfBufferWithoutNewline) {
  llvm::StringRef Src = "mov.u32 %r1, 16";
  TokenList L = lexPtx(Src, /*InlineAsm=*/false, {});
  EXPECT_EQ(kinds(L), "wr,n$");
  EXPECT_TRUE(L.Diagnostics.empty());
  const Token &Last = L.Tokens[L.Tokens.size() - 2];
  EXPECT_EQ(Last.Spelling, "16");
  EXPECT_EQ(Last.end(), Src.size());
  EXPECT_EQ(L.Tokens.back().Offset, Src.size());
  EXPECT_EQ(L.Tokens.back().Length, 0u);
  // A register, a word and a '%' alone at the very end.
  EXPECT_EQ(kinds(lexPtx("%r1", false, {})), "r$");
  EXPECT_EQ(kinds(lexPtx("a.b::c", false, {})), "w$");
  TokenList Lone = lexPtx("add %", false, {});
  EXPECT_EQ(kinds(Lone), "w?$");
  EXPECT_EQ(Lone.Diagnostics.size(), 1u);
  EXPECT_EQ(kinds(lexPtx("", false, {})), "$");
}

TEST(PtxLexerTest, Comments) {
  TokenList L =
      lexPtx("a // x ; y\nb /* c\n d */ c /* e */ d // end", false, {});
  EXPECT_EQ(kinds(L), "wwww$");
  EXPECT_FALSE(L.Tokens[0].NewlineBefore);
  EXPECT_TRUE(L.Tokens[1].NewlineBefore);
  EXPECT_TRUE(L.Tokens[2].NewlineBefore); // the newline inside /* */
  EXPECT_FALSE(L.Tokens[3].NewlineBefore);
  TokenList Open = lexPtx("a /* never closed", false, {});
  EXPECT_EQ(kinds(Open), "w$");
  ASSERT_EQ(Open.Diagnostics.size(), 1u);
  EXPECT_EQ(Open.Diagnostics[0].Message, "unterminated '/*' comment");
  // '/' alone is punctuation.
  EXPECT_EQ(kinds(lexPtx("a / b", false, {})), "w/w$");
}

TEST(PtxLexerTest, StringLiterals) {
  TokenList L = lexPtx(".file 1 \"a\\\"b.cu\" 7", false, {});
  EXPECT_EQ(kinds(L), "wnsn$");
  EXPECT_EQ(L.Tokens[2].Spelling, "\"a\\\"b.cu\"");
  TokenList Open = lexPtx(".file 1 \"abc\nx", false, {});
  EXPECT_EQ(kinds(Open), "wnsw$");
  EXPECT_EQ(Open.Tokens[2].Spelling, "\"abc");
  ASSERT_EQ(Open.Diagnostics.size(), 1u);
  TokenList AtEnd = lexPtx("\"abc\\", false, {});
  EXPECT_EQ(kinds(AtEnd), "s$");
  EXPECT_EQ(AtEnd.Tokens[0].end(), 5u);
}

TEST(PtxLexerTest, BinaryJunkIsOneTokenPerRun) {
  std::string Src = "a \x01\x02\xff\x80 b\x7f";
  Src += '\0';
  Src += "c";
  TokenList L = lexPtx(Src, false, {});
  EXPECT_EQ(kinds(L), "w?w?w$");
  EXPECT_EQ(L.Tokens[1].Length, 4u);
  EXPECT_EQ(L.Tokens[3].Length, 2u);
  EXPECT_EQ(L.Diagnostics.size(), 2u);
}

TEST(PtxLexerTest, BatchesGiveTheSameTokens) {
  std::string Src;
  for (int I = 0; I < 50; ++I)
    Src += "@%p1 ld.shared.u32 %r" + std::to_string(I) + ", [x+4]; // c\n";
  TokenList Whole = lexPtx(Src, false, {});
  for (size_t Batch : {1u, 2u, 7u, 512u}) {
    Lexer L(Src, false, {});
    std::vector<Token> Buf(Batch), All;
    while (size_t N = L.lex(Buf.data(), Batch))
      All.insert(All.end(), Buf.begin(), Buf.begin() + N);
    EXPECT_TRUE(L.done());
    EXPECT_EQ(L.lex(Buf.data(), Batch), 0u);
    ASSERT_EQ(All.size(), Whole.Tokens.size()) << Batch;
    for (size_t I = 0; I < All.size(); ++I) {
      EXPECT_EQ(All[I].K, Whole.Tokens[I].K);
      EXPECT_EQ(All[I].Offset, Whole.Tokens[I].Offset);
      EXPECT_EQ(All[I].Spelling, Whole.Tokens[I].Spelling);
      EXPECT_EQ(All[I].NewlineBefore, Whole.Tokens[I].NewlineBefore);
    }
  }
}

TEST(PtxLexerTest, InlineAsmSpellings) {
  std::vector<AsmOperandInfo> Ops(3);
  Ops[2].Immediate = 2;
  TokenList L =
      lexPtx("tcgen05.alloc.cta_group::%2 [%0], %%r1; L_%=:", true, Ops);
  EXPECT_EQ(kinds(L), "w[a],r;w:$");
  EXPECT_EQ(L.Tokens[0].Spelling, "tcgen05.alloc.cta_group::2");
  EXPECT_EQ(L.Tokens[5].Spelling, "%r1");
  EXPECT_EQ(L.Tokens[7].Spelling, "L_%=");
}

// Many more tokens than one batch of the parser's token stream: every
// instruction, its operands and its range come out as in a short text.
TEST(PtxLexerTest, ParserStreamsLongTexts) {
  std::string Src = ".reg .b32 %r<9000>;\n";
  const int N = 3000;
  for (int I = 0; I < N; ++I)
    Src += "add.s32 %r" + std::to_string(I) + ", %r" + std::to_string(I + 1) +
           ", " + std::to_string(I) + ";\n";
  ParsedAsm P = parsePtxText(Src);
  EXPECT_TRUE(P.Diagnostics.empty());
  ASSERT_EQ(P.Instructions.size(), size_t(N));
  for (int I = 0; I < N; I += 997) {
    const Instruction &In = P.Instructions[I];
    std::string Want = "add.s32 %r" + std::to_string(I) + ", %r" +
                       std::to_string(I + 1) + ", " + std::to_string(I) + ";";
    EXPECT_EQ(Src.substr(In.Range.Offset, In.Range.Length), Want);
    ASSERT_EQ(In.Operands.size(), 3u);
    EXPECT_EQ(In.Operands[2].Imm, I);
  }
}

// One statement far longer than a batch of tokens: an initialised global
// and a call with a long argument list.
TEST(PtxLexerTest, ParserStatementsLongerThanABatch) {
  std::string Src = ".global .align 4 .b32 table[2000] = {";
  for (int I = 0; I < 2000; ++I)
    Src += (I ? ", " : "") + std::to_string(I);
  Src += "};\n.visible .entry k()\n{\n.reg .b32 %r<2>;\ncall f, (";
  for (int I = 0; I < 1500; ++I)
    Src += (I ? ", %r" : "%r") + std::to_string(I % 2);
  Src += ");\nret;\n}\n";
  ParsedModule M = parsePtxModule(Src);
  ASSERT_EQ(M.Variables.size(), 1u);
  EXPECT_EQ(M.Variables[0].Name, "table");
  EXPECT_EQ(M.Variables[0].Range.Offset, 0u);
  ASSERT_EQ(M.Functions.size(), 1u);
  EXPECT_EQ(M.Functions[0].Errors, 0u);
  ASSERT_EQ(M.Body.Instructions.size(), 2u);
  const Instruction &Call = M.Body.Instructions[0];
  ASSERT_EQ(Call.Operands.size(), 2u);
  EXPECT_EQ(Call.Operands[1].Elements.size(), 1500u);
  EXPECT_EQ(Src.substr(Call.Range.Offset + Call.Range.Length - 2, 2), ");");
}

// The lexer's problems are listed before the parser's, whatever their
// place in the text, and both count towards one cap.
TEST(PtxLexerTest, LexerDiagnosticsComeFirst) {
  ParsedAsm P = parsePtxText("mov.u32 %r1 %r2;\n\x01;");
  ASSERT_EQ(P.Diagnostics.size(), 2u);
  EXPECT_EQ(P.Diagnostics[0].Message, "unexpected character in PTX text");
  EXPECT_NE(P.Diagnostics[1].Message.find("expected ','"), std::string::npos);
  std::string Junk;
  for (int I = 0; I < 80; ++I)
    Junk += "mov.u32 %r1 %r2;\n\x01;\n";
  ParsedAsm Capped = parsePtxText(Junk);
  ASSERT_EQ(Capped.Diagnostics.size(), MaxParseDiagnostics + 1);
  EXPECT_EQ(Capped.Diagnostics[79].Message, "unexpected character in PTX text");
  EXPECT_NE(Capped.Diagnostics[80].Message.find("expected ','"),
            std::string::npos);
  EXPECT_NE(Capped.Diagnostics.back().Message.find("too many problems"),
            std::string::npos);
}

TEST(PtxLexerTest, JunkInAFunctionIsChargedToIt) {
  ParsedModule M = parsePtxModule(".visible .entry a()\n{\nret;\n}\n"
                                  ".visible .entry b()\n{\n\x02\x03 ret;\n}\n");
  ASSERT_EQ(M.Functions.size(), 2u);
  EXPECT_EQ(M.Functions[0].Errors, 0u);
  EXPECT_EQ(M.Functions[1].Errors, 1u);
  EXPECT_EQ(M.Functions[1].FirstErrorMessage,
            "unexpected characters in PTX text");
}

TEST(PtxLexerTest, OperandShapes) {
  ParsedAsm P = parsePtxText(
      ".reg .b32 %r<9>;\n.reg .b64 %rd<3>;\n"
      "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r1, %r2}, [%r3];\n"
      "cp.async.bulk.tensor.2d.shared::cluster.global [%r4], [%rd1, {%r5, "
      "%r6}], [%r7+16];\n"
      "ld.shared.u32 %r8, [smem+-8];\n");
  EXPECT_TRUE(P.Diagnostics.empty());
  ASSERT_EQ(P.Instructions.size(), 3u);
  const Operand &V = P.Instructions[0].Operands[0];
  EXPECT_EQ(V.K, Operand::Kind::Vector);
  ASSERT_EQ(V.Elements.size(), 2u);
  EXPECT_EQ(V.Elements[1].Text, "%r2");
  const Operand &T = P.Instructions[1].Operands[1];
  EXPECT_EQ(T.K, Operand::Kind::Address);
  ASSERT_EQ(T.Elements.size(), 2u);
  EXPECT_EQ(T.Elements[0].Text, "%rd1");
  EXPECT_EQ(T.Elements[1].K, Operand::Kind::Vector);
  EXPECT_EQ(T.Elements[1].Elements.size(), 2u);
  EXPECT_EQ(P.Instructions[1].Operands[2].AddressOffset, 16);
  const Operand &S = P.Instructions[2].Operands[1];
  EXPECT_EQ(S.Elements[0].K, Operand::Kind::Symbol);
  EXPECT_EQ(S.AddressOffset, -8);
}

// A register declared in a nested `{ }` scope is told apart from one of
// the same name outside it; after the scope, the outer one is meant again.
TEST(PtxLexerTest, ScopedRegisters) {
  ParsedModule M = parsePtxModule(".visible .entry k()\n{\n.reg .pred P1;\n"
                                  "{\n.reg .pred P1;\n@P1 bra L;\nL:\n}\n"
                                  "@P1 ret;\n}\n");
  ASSERT_EQ(M.Body.Instructions.size(), 2u);
  const Instruction &Inner = M.Body.Instructions[0];
  ASSERT_TRUE(Inner.Pred);
  EXPECT_EQ(Inner.Pred->Predicate.Text, "P1#2");
  EXPECT_EQ(Inner.TargetLabel, 0);
  ASSERT_TRUE(M.Body.Instructions[1].Pred);
  EXPECT_EQ(M.Body.Instructions[1].Pred->Predicate.Text, "P1");
}

} // namespace
