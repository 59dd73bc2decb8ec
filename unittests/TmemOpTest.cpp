//===- TmemOpTest.cpp - Decoding tcgen05 and sync instructions ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Model/ApiModel.h"
#include "tmemcheck/Model/Footprint.h"

#include "gtest/gtest.h"

using namespace tmemcheck;
using namespace tmemcheck::ptx;

namespace {

/// The result of parsing one asm string and decoding its tcgen05
/// instruction (the last one in the text).
struct Decoded {
  std::optional<TmemOp> Op;
  std::vector<ParseDiagnostic> Diags;
  ParsedAsm Parsed;
  std::string messages() const {
    std::string S;
    for (const ParseDiagnostic &D : Diags)
      S += D.Message + "\n";
    return S;
  }
  bool has(llvm::StringRef Needle) const {
    for (const ParseDiagnostic &D : Diags)
      if (llvm::StringRef(D.Message).contains(Needle))
        return true;
    return false;
  }
};

Decoded decode(llvm::StringRef Src, unsigned NumOperands = 16) {
  Decoded D;
  std::vector<AsmOperandInfo> Ops(NumOperands);
  D.Parsed = parseInlineAsm(Src, Ops);
  D.Diags = D.Parsed.Diagnostics;
  for (const Instruction &I : D.Parsed.Instructions)
    if (I.base() == "tcgen05")
      D.Op = decodeTmemOp(I, D.Diags);
  return D;
}

/// Decodes a string that must be valid.
TmemOp ok(llvm::StringRef Src) {
  Decoded D = decode(Src);
  EXPECT_TRUE(D.Diags.empty()) << Src.str() << "\n" << D.messages();
  EXPECT_TRUE(D.Op.has_value()) << Src.str();
  return D.Op.value_or(TmemOp());
}

/// Decodes a string that must be rejected with a message containing
/// \p Needle.
void bad(llvm::StringRef Src, llvm::StringRef Needle) {
  Decoded D = decode(Src);
  EXPECT_FALSE(D.Op.has_value()) << Src.str();
  EXPECT_TRUE(D.has(Needle))
      << Src.str() << "\nwanted: " << Needle.str() << "\ngot:\n"
      << D.messages();
}

TEST(TmemOpTest, KindNames) {
  EXPECT_EQ(kindName(TmemOpKind::Alloc), "alloc");
  EXPECT_EQ(kindName(TmemOpKind::Dealloc), "dealloc");
  EXPECT_EQ(kindName(TmemOpKind::RelinquishAllocPermit),
            "relinquish_alloc_permit");
  EXPECT_EQ(kindName(TmemOpKind::Load), "ld");
  EXPECT_EQ(kindName(TmemOpKind::Store), "st");
  EXPECT_EQ(kindName(TmemOpKind::WaitLoad), "wait::ld");
  EXPECT_EQ(kindName(TmemOpKind::WaitStore), "wait::st");
  EXPECT_EQ(kindName(TmemOpKind::Copy), "cp");
  EXPECT_EQ(kindName(TmemOpKind::Shift), "shift");
  EXPECT_EQ(kindName(TmemOpKind::Mma), "mma");
  EXPECT_EQ(kindName(TmemOpKind::Commit), "commit");
  EXPECT_EQ(kindName(TmemOpKind::FenceBeforeThreadSync),
            "fence::before_thread_sync");
  EXPECT_EQ(kindName(TmemOpKind::FenceAfterThreadSync),
            "fence::after_thread_sync");
}

TEST(TmemOpTest, NonTcgen05IsIgnoredSilently) {
  Decoded D = decode("mov.b32 %0, %1;");
  ASSERT_EQ(D.Parsed.Instructions.size(), 1u);
  std::vector<ParseDiagnostic> Diags;
  EXPECT_FALSE(decodeTmemOp(D.Parsed.Instructions[0], Diags));
  EXPECT_TRUE(Diags.empty());
  Instruction Empty;
  EXPECT_FALSE(decodeTmemOp(Empty, Diags));
  EXPECT_TRUE(Diags.empty());
}

TEST(TmemOpTest, Alloc) {
  TmemOp Op =
      ok("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], %1;");
  EXPECT_EQ(Op.Kind, TmemOpKind::Alloc);
  EXPECT_EQ(Op.Group, CtaGroup::One);
  EXPECT_EQ(Op.Issue, IssueGranularity::WarpCollective);
  EXPECT_TRUE(Op.isWarpCollective());
  EXPECT_EQ(Op.Completion, CompletionClass::Synchronous);
  EXPECT_EQ(Op.SlotOperand, 0);
  EXPECT_EQ(Op.NColsOperand, 1);
  EXPECT_EQ(Op.TmemAddrOperand, -1);

  TmemOp Two = ok("tcgen05.alloc.cta_group::2.sync.aligned.b32 [%0], 128;");
  EXPECT_EQ(Two.Group, CtaGroup::Two);
  // Modifier order does not matter.
  ok("tcgen05.alloc.sync.aligned.cta_group::1.shared::cta.b32 [%0], %1;");

  bad("tcgen05.alloc.sync.aligned.shared::cta.b32 [%0], %1;",
      "missing '.cta_group::1' or '.cta_group::2'");
  bad("tcgen05.alloc.cta_group::3.sync.aligned.b32 [%0], %1;",
      "invalid '.cta_group::3'");
  bad("tcgen05.alloc.cta_group::1.shared::cta.b32 [%0], %1;",
      "missing '.sync.aligned'");
  bad("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta [%0], %1;",
      "missing '.b32'");
  bad("tcgen05.alloc.cta_group::1.sync.aligned.b32 %0, %1;",
      "must be an address in brackets");
  bad("tcgen05.alloc.cta_group::1.sync.aligned.b32 [%0];",
      "expected 2 operands ([dst], nCols), found 1");
  bad("tcgen05.alloc.cta_group::1.sync.aligned.b32 [%0], %1, %2;", "found 3");
  bad("tcgen05.alloc.exclusive.cta_group::1.sync.aligned.b32 [%0], %1;",
      "'.exclusive' (PTX ISA 9.4)");
  bad("tcgen05.alloc.cta_group::1.sync.aligned.shared::cluster.b32 [%0], %1;",
      "unknown modifier '.shared::cluster' for tcgen05.alloc");
  bad("tcgen05.alloc.cta_group::1.cta_group::1.sync.aligned.b32 [%0], %1;",
      "duplicate modifier '.cta_group::1'");
  bad("tcgen05.alloc.cta_group::1.cta_group::2.sync.aligned.b32 [%0], %1;",
      "'.cta_group' given twice");
}

TEST(TmemOpTest, DeallocAndRelinquish) {
  TmemOp D = ok("{\n\ttcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, %1;"
                "\n\t}\n");
  EXPECT_EQ(D.Kind, TmemOpKind::Dealloc);
  EXPECT_EQ(D.TmemAddrOperand, 0);
  EXPECT_EQ(D.NColsOperand, 1);
  EXPECT_EQ(D.Issue, IssueGranularity::WarpCollective);
  bad("tcgen05.dealloc.cta_group::1.sync.aligned.b32 [%0], %1;",
      "operand 1 (taddr) must be a register");
  bad("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0;", "found 1");

  TmemOp R = ok("tcgen05.relinquish_alloc_permit.cta_group::2.sync.aligned;");
  EXPECT_EQ(R.Kind, TmemOpKind::RelinquishAllocPermit);
  EXPECT_EQ(R.Group, CtaGroup::Two);
  EXPECT_EQ(R.Issue, IssueGranularity::WarpCollective);
  EXPECT_EQ(R.Completion, CompletionClass::Synchronous);
  bad("tcgen05.relinquish_alloc_permit.sync.aligned;", "missing '.cta_group");
  bad("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned %0;",
      "expected 0 operands");
}

TEST(TmemOpTest, LoadShapes) {
  struct Row {
    const char *Shape;
    LdStShape S;
    unsigned Lanes, ColsPerN, RegsPerN, Max;
  };
  const Row Rows[] = {
      {"32x32b", LdStShape::S32x32b, 32, 1, 1, 128},
      {"16x64b", LdStShape::S16x64b, 16, 2, 1, 128},
      {"16x128b", LdStShape::S16x128b, 16, 4, 2, 64},
      {"16x256b", LdStShape::S16x256b, 16, 8, 4, 32},
  };
  for (const Row &R : Rows) {
    for (unsigned N = 1; N <= R.Max; N *= 2) {
      unsigned Regs = R.RegsPerN * N;
      std::string Vec = "{";
      for (unsigned K = 0; K < Regs; ++K)
        Vec += (K ? ", %" : "%") + std::to_string(K);
      Vec += "}";
      std::string Ld = std::string("tcgen05.ld.sync.aligned.") + R.Shape +
                       ".x" + std::to_string(N) + ".b32 " + Vec + ", [%" +
                       std::to_string(Regs) + "];";
      Decoded D = decode(Ld, Regs + 1);
      ASSERT_TRUE(D.Op) << Ld << D.messages();
      EXPECT_EQ(D.Op->Kind, TmemOpKind::Load);
      EXPECT_EQ(D.Op->LdSt, R.S);
      EXPECT_EQ(D.Op->Repeat, N);
      EXPECT_EQ(D.Op->RegisterCount, Regs);
      EXPECT_EQ(D.Op->Access.Lanes, R.Lanes);
      EXPECT_EQ(D.Op->Access.Columns, R.ColsPerN * N);
      EXPECT_EQ(D.Op->DataOperand, 0);
      EXPECT_EQ(D.Op->TmemAddrOperand, 1);
      EXPECT_EQ(D.Op->Issue, IssueGranularity::WarpCollective);
      EXPECT_EQ(D.Op->Completion, CompletionClass::WaitLoad);
      EXPECT_EQ(D.Op->Group, CtaGroup::Unspecified);

      std::string St = std::string("tcgen05.st.sync.aligned.") + R.Shape +
                       ".x" + std::to_string(N) + ".unpack::16b.b32 [%" +
                       std::to_string(Regs) + "], " + Vec + ";";
      Decoded S = decode(St, Regs + 1);
      ASSERT_TRUE(S.Op) << St << S.messages();
      EXPECT_EQ(S.Op->Kind, TmemOpKind::Store);
      EXPECT_TRUE(S.Op->Packed16);
      EXPECT_EQ(S.Op->Access.Columns, 2 * R.ColsPerN * N);
      EXPECT_EQ(S.Op->TmemAddrOperand, 0);
      EXPECT_EQ(S.Op->DataOperand, 1);
      EXPECT_EQ(S.Op->Completion, CompletionClass::WaitStore);
    }
    // One past the maximum, and non-powers of two.
    bad(std::string("tcgen05.ld.sync.aligned.") + R.Shape + ".x" +
            std::to_string(R.Max * 2) + ".b32 {%0}, [%1];",
        "is not a legal repeat count for ." + std::string(R.Shape));
    bad(std::string("tcgen05.ld.sync.aligned.") + R.Shape +
            ".x3.b32 {%0, %1, %2}, [%3];",
        "'.x3' is not a legal repeat count");
  }
  bad("tcgen05.ld.sync.aligned.32x32b.x0.b32 {}, [%1];",
      "'.x0' is not a legal repeat count");
}

TEST(TmemOpTest, LoadPack) {
  TmemOp Op = ok("tcgen05.ld.sync.aligned.16x64b.x1.pack::16b.b32 {%0}, [%1];");
  EXPECT_TRUE(Op.Packed16);
  EXPECT_EQ(Op.Access.Columns, 4u);
  EXPECT_EQ(Op.RegisterCount, 1u);
  bad("tcgen05.ld.sync.aligned.16x64b.x1.unpack::16b.b32 {%0}, [%1];",
      "unknown modifier '.unpack::16b' for tcgen05.ld");
  bad("tcgen05.st.sync.aligned.16x64b.x1.pack::16b.b32 [%1], {%0};",
      "unknown modifier '.pack::16b' for tcgen05.st");
}

TEST(TmemOpTest, SplitShape) {
  TmemOp Op = ok("tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%0, %1}, [%2], 2;");
  EXPECT_EQ(Op.LdSt, LdStShape::S16x32bx2);
  EXPECT_EQ(Op.SplitOffsetOperand, 2);
  EXPECT_EQ(Op.TmemAddrOperand, 1);
  EXPECT_EQ(Op.Access.Lanes, 16u);
  EXPECT_EQ(Op.Access.Columns, 2u);
  ASSERT_TRUE(Op.Access.SecondHalfOffset);
  EXPECT_EQ(*Op.Access.SecondHalfOffset, 2);

  // CCCL passes the offset as an "n" operand: value unknown here.
  TmemOp Cccl = ok("tcgen05.ld.sync.aligned.16x32bx2.x1.b32 {%0}, [%1], %2;");
  EXPECT_EQ(Cccl.SplitOffsetOperand, 2);
  EXPECT_FALSE(Cccl.Access.SecondHalfOffset);

  TmemOp St = ok("tcgen05.st.sync.aligned.16x32bx2.x4.b32 [%0], 16, {%1, %2, "
                 "%3, %4};");
  EXPECT_EQ(St.TmemAddrOperand, 0);
  EXPECT_EQ(St.SplitOffsetOperand, 1);
  EXPECT_EQ(St.DataOperand, 2);
  EXPECT_EQ(*St.Access.SecondHalfOffset, 16);

  bad("tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%0, %1}, [%2];",
      "missing the immediate half-split offset required by .16x32bx2");
  bad("tcgen05.ld.sync.aligned.32x32b.x2.b32 {%0, %1}, [%2], 2;",
      "expected 2 operands");
  bad("{ .reg .b32 r; tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%0, %1}, "
      "[%2], r; }",
      "half-split offset must be an immediate");
}

TEST(TmemOpTest, VectorSizeMismatch) {
  Decoded D = decode("tcgen05.ld.sync.aligned.32x32b.x4.b32 {%0, %1}, [%2];");
  EXPECT_FALSE(D.Op);
  ASSERT_EQ(D.Diags.size(), 1u);
  EXPECT_EQ(D.Diags[0].Message,
            "tcgen05.ld.sync.aligned.32x32b.x4.b32: data vector has 2 "
            "registers but .32x32b.x4 needs 4 (ptxas: \"Argument vector size "
            "mismatch\")");
  EXPECT_EQ(D.Diags[0].Range.Offset, 38u);
  EXPECT_EQ(D.Diags[0].Range.Length, 8u);

  bad("tcgen05.st.sync.aligned.16x128b.x1.b32 [%0], {%1};",
      "has 1 register but .16x128b.x1 needs 2");
  bad("tcgen05.ld.sync.aligned.32x32b.x1.b32 %0, [%1];",
      "must be a vector '{...}' of 1 register");
  bad("tcgen05.ld.sync.aligned.32x32b.x1.b32 [%1], {%0};",
      "must be an address in brackets");
}

TEST(TmemOpTest, LoadStoreMalformed) {
  bad("tcgen05.ld.sync.aligned.x2.b32 {%0, %1}, [%2];", "missing shape");
  bad("tcgen05.ld.sync.aligned.32x64b.x2.b32 {%0, %1}, [%2];",
      "unknown modifier '.32x64b' for tcgen05.ld");
  bad("tcgen05.ld.sync.aligned.32x32b.b32 {%0}, [%1];",
      "missing repeat count '.xN'");
  bad("tcgen05.ld.sync.aligned.32x32b.x1.x2.b32 {%0}, [%1];",
      "more than one repeat count");
  bad("tcgen05.ld.32x32b.x1.b32 {%0}, [%1];", "missing '.sync.aligned'");
  bad("tcgen05.ld.sync.aligned.32x32b.x1 {%0}, [%1];", "missing '.b32'");
  bad("tcgen05.ld.cta_group::1.sync.aligned.32x32b.x1.b32 {%0}, [%1];",
      "'.cta_group' is not allowed on tcgen05.ld");
  bad("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0];", "expected 2 operands");
  bad("tcgen05.ld.sync.aligned.32x32b.16x64b.x1.b32 {%0}, [%1];",
      "more than one shape");
}

TEST(TmemOpTest, LoadReduction) {
  TmemOp Op = ok("tcgen05.ld.red.sync.aligned.32x32b.x2.max.f32 {%0, %1}, "
                 "%2, [%3];");
  EXPECT_TRUE(Op.Reduction);
  EXPECT_EQ(Op.DataOperand, 0);
  EXPECT_EQ(Op.RedValOperand, 1);
  EXPECT_EQ(Op.TmemAddrOperand, 2);
  EXPECT_EQ(Op.RegisterCount, 2u);
  // ptxas accepts modifiers in either order (checked with ptxas 13.0).
  ok("tcgen05.ld.red.sync.aligned.32x32b.x2.f32.min.abs.NaN {%0, %1}, %2, "
     "[%3];");
  TmemOp Split = ok("tcgen05.ld.red.sync.aligned.16x32bx2.x4.min.u32 {%0, %1, "
                    "%2, %3}, %4, [%5], 4;");
  EXPECT_EQ(Split.SplitOffsetOperand, 3);
  EXPECT_EQ(*Split.Access.SecondHalfOffset, 4);

  bad("tcgen05.ld.red.sync.aligned.32x32b.x1.max.f32 {%0}, %1, [%2];",
      "'.red' requires .x2 or larger");
  bad("tcgen05.ld.red.sync.aligned.32x32b.x2.f32 {%0, %1}, %2, [%3];",
      "'.red' requires '.min' or '.max'");
  bad("tcgen05.ld.red.sync.aligned.16x64b.x2.max.f32 {%0, %1}, %2, [%3];",
      "'.red' requires shape .32x32b or .16x32bx2");
  bad("tcgen05.ld.red.sync.aligned.32x32b.x2.max.abs.u32 {%0, %1}, %2, [%3];",
      "'.abs' and '.NaN' require .f32");
  bad("tcgen05.ld.sync.aligned.32x32b.x2.max.b32 {%0, %1}, [%2];",
      "reduction modifiers need 'tcgen05.ld.red'");
  bad("tcgen05.ld.red.sync.aligned.32x32b.x2.max.f32 {%0, %1}, [%3];",
      "expected 3 operands");
}

TEST(TmemOpTest, Waits) {
  TmemOp L = ok("tcgen05.wait::ld.sync.aligned;");
  EXPECT_EQ(L.Kind, TmemOpKind::WaitLoad);
  EXPECT_EQ(L.Issue, IssueGranularity::WarpCollective);
  EXPECT_EQ(L.Completion, CompletionClass::Synchronous);
  TmemOp S = ok("{\n\ttcgen05.wait::st.sync.aligned; \n\t}");
  EXPECT_EQ(S.Kind, TmemOpKind::WaitStore);
  bad("tcgen05.wait::ld;", "missing '.sync.aligned'");
  bad("tcgen05.wait::xx.sync.aligned;", "unknown tcgen05 instruction "
                                        "'tcgen05.wait::xx'");
  bad("tcgen05.wait::ld.sync.aligned %0;", "expected 0 operands");
}

TEST(TmemOpTest, CopyShapes) {
  struct Row {
    const char *Qual;
    CopyShape S;
    const char *Multicast;
    unsigned Lanes, Cols;
  };
  const Row Rows[] = {
      {"128x256b", CopyShape::S128x256b, "", 128, 8},
      {"4x256b", CopyShape::S4x256b, "", 4, 8},
      {"128x128b", CopyShape::S128x128b, "", 128, 4},
      {"64x128b.warpx2::02_13", CopyShape::S64x128bWarpx2_02_13,
       "warpx2::02_13", 128, 4},
      {"64x128b.warpx2::01_23", CopyShape::S64x128bWarpx2_01_23,
       "warpx2::01_23", 128, 4},
      {"32x128b.warpx4", CopyShape::S32x128bWarpx4, "warpx4", 128, 4},
  };
  for (const Row &R : Rows) {
    for (const char *Fmt : {"", ".b8x16.b6x16_p32", ".b8x16.b4x16_p64"}) {
      for (const char *G : {"1", "2"}) {
        std::string Src = std::string("tcgen05.cp.cta_group::") + G + "." +
                          R.Qual + Fmt + " [%0], %1;";
        TmemOp Op = ok(Src);
        EXPECT_EQ(Op.Kind, TmemOpKind::Copy) << Src;
        EXPECT_EQ(Op.Cp, R.S) << Src;
        EXPECT_EQ(Op.Multicast, R.Multicast);
        EXPECT_EQ(Op.SourceFormat,
                  *Fmt ? llvm::StringRef(Fmt).drop_front(7).str() : "");
        EXPECT_EQ(Op.Access.Lanes, R.Lanes);
        EXPECT_EQ(Op.Access.Columns, R.Cols);
        EXPECT_EQ(Op.Issue, IssueGranularity::SingleThread);
        EXPECT_TRUE(Op.isSingleThread());
        EXPECT_EQ(Op.Completion, CompletionClass::Commit);
        EXPECT_EQ(Op.TmemAddrOperand, 0);
        EXPECT_EQ(Op.SourceDescOperand, 1);
        EXPECT_EQ(Op.Group, *G == '1' ? CtaGroup::One : CtaGroup::Two);
      }
    }
  }
  bad("tcgen05.cp.cta_group::1.64x128b [%0], %1;",
      ".64x128b requires '.warpx2::02_13' or '.warpx2::01_23'");
  bad("tcgen05.cp.cta_group::1.32x128b [%0], %1;",
      ".32x128b requires '.warpx4'");
  bad("tcgen05.cp.cta_group::1.32x128b.warpx2::01_23 [%0], %1;",
      ".32x128b requires '.warpx4'");
  bad("tcgen05.cp.cta_group::1.128x256b.warpx4 [%0], %1;",
      "'.warpx4' is not allowed with .128x256b");
  bad("tcgen05.cp.cta_group::1.128x256b.b8x16 [%0], %1;",
      "'.b8x16' requires a source format");
  bad("tcgen05.cp.cta_group::1.128x256b.b6x16_p32 [%0], %1;",
      "must follow '.b8x16'");
  bad("tcgen05.cp.128x256b [%0], %1;", "missing '.cta_group");
  bad("tcgen05.cp.cta_group::1 [%0], %1;", "missing shape");
  bad("tcgen05.cp.cta_group::1.256x256b [%0], %1;",
      "unknown modifier '.256x256b' for tcgen05.cp");
  bad("tcgen05.cp.cta_group::1.128x256b %0, %1;",
      "must be an address in brackets");
  bad("tcgen05.cp.cta_group::1.128x256b [%0];", "expected 2 operands");
  bad("tcgen05.cp.cta_group::1.sync.aligned.128x256b [%0], %1;",
      "'.sync.aligned' is not allowed on tcgen05.cp");
}

TEST(TmemOpTest, Shift) {
  for (const char *Src : {"tcgen05.shift.cta_group::1.down [%0];",
                          "tcgen05.shift.down.cta_group::1 [%0];"}) {
    TmemOp Op = ok(Src);
    EXPECT_EQ(Op.Kind, TmemOpKind::Shift);
    EXPECT_EQ(Op.Group, CtaGroup::One);
    EXPECT_EQ(Op.Issue, IssueGranularity::SingleThread);
    EXPECT_EQ(Op.Completion, CompletionClass::Commit);
    EXPECT_EQ(Op.TmemAddrOperand, 0);
    EXPECT_EQ(Op.Access.Lanes, 32u);
    EXPECT_EQ(Op.Access.Columns, 8u);
  }
  EXPECT_EQ(ok("tcgen05.shift.cta_group::2.down [%0];").Group, CtaGroup::Two);
  bad("tcgen05.shift.cta_group::1 [%0];", "missing '.down'");
  bad("tcgen05.shift.cta_group::1.up [%0];", "unknown modifier '.up'");
  bad("tcgen05.shift.down [%0];", "missing '.cta_group");
  bad("tcgen05.shift.cta_group::1.down %0;", "must be an address");
}

TEST(TmemOpTest, MmaCcclForms) {
  TmemOp Op = ok("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\t"
                 "tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p; "
                 "\n\t}\n");
  EXPECT_EQ(Op.Kind, TmemOpKind::Mma);
  EXPECT_EQ(Op.Mma, MmaKind::F16);
  EXPECT_EQ(Op.Group, CtaGroup::One);
  EXPECT_EQ(Op.Issue, IssueGranularity::SingleThread);
  EXPECT_EQ(Op.Completion, CompletionClass::Commit);
  EXPECT_FALSE(Op.ATmem);
  EXPECT_EQ(Op.TmemAddrOperand, 0);
  EXPECT_EQ(Op.ADescOrTmemOperand, 1);
  EXPECT_EQ(Op.BDescOperand, 2);
  EXPECT_EQ(Op.IdescOperand, 3);
  EXPECT_EQ(Op.EnableInputDOperand, 4);
  EXPECT_EQ(Op.SfaOperand, -1);
  EXPECT_EQ(Op.DisableOutputLaneOperand, -1);
  EXPECT_EQ(Op.ScaleInputDOperand, -1);
  EXPECT_EQ(Op.Access.Lanes, 0u) << "mma D footprint needs the idesc";

  TmemOp A = ok("{\n\t .reg .pred PRED_enable_input_d; \n\tsetp.ne.b32 "
                "PRED_enable_input_d, %8, 0;\n\ttcgen05.mma.cta_group::1.kind::"
                "tf32 [%0], [%1], %2, %3, {%4, %5, %6, %7}, "
                "PRED_enable_input_d, %9;\n\t}");
  EXPECT_TRUE(A.ATmem);
  EXPECT_EQ(A.Mma, MmaKind::TF32);
  EXPECT_EQ(A.DisableOutputLaneOperand, 4);
  EXPECT_EQ(A.EnableInputDOperand, 5);
  EXPECT_EQ(A.ScaleInputDOperand, 6);

  TmemOp Two = ok("{ .reg .pred P; setp.ne.b32 P, %12, 0; "
                  "tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, {%4, "
                  "%5, %6, %7, %8, %9, %10, %11}, P, %13; }");
  EXPECT_EQ(Two.Group, CtaGroup::Two);
  EXPECT_EQ(Two.DisableOutputLaneOperand, 4);
  EXPECT_EQ(Two.ScaleInputDOperand, 6);

  for (const char *K : {"f8f6f4", "i8"}) {
    TmemOp Op2 = ok(std::string("{ .reg .pred p; setp.ne.b32 p, %4, 0; "
                                "tcgen05.mma.cta_group::2.kind::") +
                    K + " [%0], [%1], %2, %3, p; }");
    EXPECT_TRUE(Op2.ATmem);
  }
}

TEST(TmemOpTest, MmaBlockScaled) {
  struct Row {
    const char *Quals;
    MmaKind K;
    unsigned Vec;
  };
  const Row Rows[] = {
      {"kind::mxf8f6f4.block_scale.scale_vec::1X", MmaKind::MXF8F6F4, 1},
      {"kind::mxf8f6f4.block_scale", MmaKind::MXF8F6F4, 1},
      {"kind::mxf8f6f4.block_scale.block32", MmaKind::MXF8F6F4, 1},
      {"kind::mxf4.block_scale.scale_vec::2X", MmaKind::MXF4, 2},
      {"kind::mxf4.block_scale", MmaKind::MXF4, 2},
      {"kind::mxf4.block_scale.block32", MmaKind::MXF4, 2},
      {"kind::mxf4nvf4.block_scale.scale_vec::2X", MmaKind::MXF4NVF4, 2},
      {"kind::mxf4nvf4.block_scale.scale_vec::4X", MmaKind::MXF4NVF4, 4},
      {"kind::mxf4nvf4.block_scale.block16", MmaKind::MXF4NVF4, 4},
      {"kind::mxf4nvf4.block_scale.block32", MmaKind::MXF4NVF4, 2},
  };
  for (const Row &R : Rows) {
    for (const char *Coll :
         {"", ".collector::a::fill", ".collector::a::use",
          ".collector::a::lastuse", ".collector::a::discard"}) {
      std::string Src = std::string("{ .reg .pred p; setp.ne.b32 p, %6, 0; "
                                    "tcgen05.mma.cta_group::1.") +
                        R.Quals + Coll + " [%0], %1, %2, %3, [%4], [%5], p; }";
      TmemOp Op = ok(Src);
      EXPECT_EQ(Op.Mma, R.K) << Src;
      EXPECT_TRUE(Op.BlockScale);
      EXPECT_EQ(Op.ScaleVec, R.Vec) << Src;
      EXPECT_EQ(Op.SfaOperand, 4);
      EXPECT_EQ(Op.SfbOperand, 5);
      EXPECT_EQ(Op.EnableInputDOperand, 6);
      EXPECT_EQ(Op.Collector,
                *Coll ? llvm::StringRef(Coll).drop_front(12).str() : "");
    }
  }
  bad("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale [%0], %1, %2, %3, "
      "[%4], [%5], p;",
      ".kind::mxf4nvf4 requires '.scale_vec::2X', '.scale_vec::4X'");
  bad("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::2X [%0], "
      "%1, %2, %3, [%4], [%5], p;",
      "'.scale_vec::2X' is not valid with .kind::mxf8f6f4");
  bad("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::1X "
      "[%0], %1, %2, %3, [%4], [%5], p;",
      "'.scale_vec::1X' is not valid with .kind::mxf4nvf4");
  bad("tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block16 [%0], %1, %2, "
      "%3, [%4], [%5], p;",
      "'.block16' is not valid with .kind::mxf4");
  bad("tcgen05.mma.cta_group::1.kind::mxf4 [%0], %1, %2, %3, p;",
      "'.kind::mxf4' requires '.block_scale'");
  bad("tcgen05.mma.cta_group::1.kind::f16.block_scale [%0], %1, %2, %3, p;",
      "'.block_scale' is only valid with");
  bad("tcgen05.mma.cta_group::1.kind::f16.scale_vec::1X [%0], %1, %2, %3, p;",
      "require '.block_scale'");
  bad("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X."
      "block16 [%0], %1, %2, %3, [%4], [%5], p;",
      "mutually exclusive");
  bad("tcgen05.mma.cta_group::1.kind::mxf4.block_scale [%0], %1, %2, %3, "
      "%4, [%5], p;",
      "operand 5 (scale factors [scale_A]) must be an address");
  // Checked with ptxas 13.0: "Arguments mismatch".
  bad("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%0], %1, %2, %3, "
      "[%4], [%5], {%6, %7, %8, %9}, p;",
      "disable-output-lane vector is not allowed with '.block_scale'");
  bad("tcgen05.mma.cta_group::1.kind::mxf4.block_scale [%0], %1, %2, %3, "
      "[%4];",
      "missing operand 6 ([scale_B])");
}

TEST(TmemOpTest, MmaSparseAndAshift) {
  TmemOp Sp = ok("tcgen05.mma.sp.cta_group::1.kind::f16 [%0], %1, %2, [%3], "
                 "%4, p;");
  EXPECT_TRUE(Sp.Sparse);
  EXPECT_EQ(Sp.SparseMetaOperand, 3);
  EXPECT_EQ(Sp.IdescOperand, 4);
  EXPECT_EQ(Sp.EnableInputDOperand, 5);

  TmemOp SpBs = ok("tcgen05.mma.sp.cta_group::2.kind::mxf8f6f4.block_scale."
                   "scale_vec::1X [%0], [%1], %2, [%3], %4, [%5], [%6], p;");
  EXPECT_TRUE(SpBs.ATmem);
  EXPECT_EQ(SpBs.SparseMetaOperand, 3);
  EXPECT_EQ(SpBs.IdescOperand, 4);
  EXPECT_EQ(SpBs.SfaOperand, 5);
  EXPECT_EQ(SpBs.SfbOperand, 6);
  EXPECT_EQ(SpBs.EnableInputDOperand, 7);

  // Both accepted by ptxas 13.0.
  TmemOp SpMask = ok("tcgen05.mma.sp.cta_group::1.kind::f16 [%0], %1, %2, "
                     "[%3], %4, {%5, %6, %7, %8}, p, 3;");
  EXPECT_EQ(SpMask.DisableOutputLaneOperand, 5);
  EXPECT_EQ(SpMask.EnableInputDOperand, 6);
  EXPECT_EQ(SpMask.ScaleInputDOperand, 7);
  TmemOp SpBs1 = ok("tcgen05.mma.sp.cta_group::1.kind::mxf8f6f4.block_scale "
                    "[%0], %1, %2, [%3], %4, [%5], [%6], p;");
  EXPECT_EQ(SpBs1.ScaleVec, 1u);

  bad("tcgen05.mma.sp.cta_group::1.kind::f16 [%0], %1, %2, %3, %4, p;",
      "operand 4 (sparsity metadata [sp_meta]) must be an address");

  TmemOp Sh = ok("tcgen05.mma.cta_group::1.kind::f16.ashift [%0], [%1], %2, "
                 "%3, p;");
  EXPECT_TRUE(Sh.AShift);
  bad("tcgen05.mma.cta_group::1.kind::f16.ashift [%0], %1, %2, %3, p;",
      "'.ashift' requires the A operand in tensor memory");
}

TEST(TmemOpTest, MmaWeightStationary) {
  for (const char *Buf : {"b0", "b1", "b2", "b3"}) {
    for (const char *Use : {"fill", "use", "lastuse", "discard"}) {
      std::string Src = std::string("tcgen05.mma.ws.cta_group::1.kind::f16."
                                    "collector::") +
                        Buf + "::" + Use + " [%0], [%1], %2, %3, p, %5;";
      TmemOp Op = ok(Src);
      EXPECT_TRUE(Op.WeightStationary);
      EXPECT_TRUE(Op.ATmem);
      EXPECT_EQ(Op.Collector, std::string(Buf) + "::" + Use);
      EXPECT_EQ(Op.EnableInputDOperand, 4);
      EXPECT_EQ(Op.ZeroColumnMaskOperand, 5);
      EXPECT_EQ(Op.ScaleInputDOperand, -1);
    }
  }
  TmemOp Plain =
      ok("tcgen05.mma.ws.cta_group::1.kind::i8 [%0], %1, %2, %3, p;");
  EXPECT_EQ(Plain.ZeroColumnMaskOperand, -1);
  TmemOp WsSp = ok("tcgen05.mma.ws.sp.cta_group::1.kind::tf32 [%0], %1, %2, "
                   "[%3], %4, p, %6;");
  EXPECT_EQ(WsSp.SparseMetaOperand, 3);
  EXPECT_EQ(WsSp.ZeroColumnMaskOperand, 6);

  bad("tcgen05.mma.ws.cta_group::2.kind::f16 [%0], %1, %2, %3, p;",
      "'.ws' exists only for .cta_group::1");
  bad("tcgen05.mma.ws.cta_group::1.kind::mxf4.block_scale [%0], %1, %2, %3, "
      "[%4], [%5], p;",
      "'.ws' does not support block-scaled kinds");
  bad("tcgen05.mma.ws.cta_group::1.kind::f16.collector::a::fill [%0], %1, %2, "
      "%3, p;",
      "'.ws' uses collector buffers b0..b3");
  bad("tcgen05.mma.cta_group::1.kind::f16.collector::b0::fill [%0], %1, %2, "
      "%3, p;",
      "collector buffers b0..b3 require '.ws'");
  bad("tcgen05.mma.ws.cta_group::1.kind::f16 [%0], %1, %2, %3, p, %5, %6;",
      "too many operands");
  // ptxas: "Arguments mismatch" (no disable-output-lane vector on .ws).
  bad("tcgen05.mma.ws.cta_group::1.kind::f16 [%0], %1, %2, %3, {%4, %5, %6, "
      "%7}, p;",
      "operand 5 (enable_input_d predicate) must be a register");
}

TEST(TmemOpTest, MmaMalformed) {
  bad("tcgen05.mma.cta_group::1 [%0], %1, %2, %3, p;", "missing '.kind::'");
  bad("tcgen05.mma.cta_group::1.kind::f64 [%0], %1, %2, %3, p;",
      "unknown '.kind::f64'");
  bad("tcgen05.mma.kind::f16 [%0], %1, %2, %3, p;", "missing '.cta_group");
  bad("tcgen05.mma.cta_group::1.kind::f16 %0, %1, %2, %3, p;",
      "operand 1 (accumulator [d_tmem]) must be an address");
  bad("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2;",
      "missing operand 4 (idesc)");
  bad("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3;",
      "missing operand 5 (enable_input_d)");
  bad("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p, 3, 4;",
      "too many operands");
  bad("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, {%4, %5}, p;",
      "disable-output-lane vector has 2 elements, expected 4");
  bad("tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, {%4, %5, %6, %7}, "
      "p;",
      "expected 8 for .cta_group::2");
  bad("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p, 16;",
      "scale_input_d 16 is out of range (expected 0..15)");
  bad("tcgen05.mma.cta_group::1.kind::f8f6f4 [%0], %1, %2, %3, p, 1;",
      "scale_input_d is only valid with .kind::f16 and .kind::tf32");
  bad("tcgen05.mma.cta_group::1.kind::f16.collector::c::fill [%0], %1, %2, "
      "%3, p;",
      "invalid collector qualifier '.collector::c::fill'");
  bad("tcgen05.mma.cta_group::1.kind::f16.collector::a::keep [%0], %1, %2, "
      "%3, p;",
      "invalid collector qualifier");
  bad("tcgen05.mma.cta_group::1.kind::f16.kind::tf32 [%0], %1, %2, %3, p;",
      "more than one '.kind'");
  bad("tcgen05.mma.sync.aligned.cta_group::1.kind::f16 [%0], %1, %2, %3, p;",
      "'.sync.aligned' is not allowed on tcgen05.mma");
  // scale_input_d 0 and 15 are fine.
  ok("tcgen05.mma.cta_group::1.kind::f16 [%0], %1, %2, %3, p, 0;");
  ok("tcgen05.mma.cta_group::1.kind::tf32 [%0], %1, %2, %3, p, 15;");
}

TEST(TmemOpTest, Commit) {
  TmemOp C = ok("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::"
                "cluster.b64 [%0];");
  EXPECT_EQ(C.Kind, TmemOpKind::Commit);
  EXPECT_EQ(C.Issue, IssueGranularity::SingleThread);
  EXPECT_EQ(C.MbarOperand, 0);
  EXPECT_EQ(C.CtaMaskOperand, -1);
  EXPECT_FALSE(C.CommitMulticast);

  TmemOp M = ok("tcgen05.commit.cta_group::2.mbarrier::arrive::one.shared::"
                "cluster.multicast::cluster.b64 [%0], %1;");
  EXPECT_TRUE(M.CommitMulticast);
  EXPECT_EQ(M.Group, CtaGroup::Two);
  EXPECT_EQ(M.CtaMaskOperand, 1);
  // `.shared::cluster` is optional.
  ok("tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%0];");

  bad("tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster."
      "multicast::cluster.b64 [%0];",
      "expected 2 operands ([mbar], ctaMask), found 1");
  bad("tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%0], %1;",
      "expected 1 operand ([mbar]), found 2");
  bad("tcgen05.commit.cta_group::1.b64 [%0];",
      "missing '.mbarrier::arrive::one'");
  bad("tcgen05.commit.cta_group::1.mbarrier::arrive::one [%0];",
      "missing '.b64'");
  bad("tcgen05.commit.mbarrier::arrive::one.b64 [%0];", "missing '.cta_group");
  bad("tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 %0;",
      "must be an address");
}

TEST(TmemOpTest, Fences) {
  TmemOp B = ok("tcgen05.fence::before_thread_sync;");
  EXPECT_EQ(B.Kind, TmemOpKind::FenceBeforeThreadSync);
  EXPECT_EQ(B.Issue, IssueGranularity::AnyThread);
  EXPECT_EQ(B.Completion, CompletionClass::Synchronous);
  EXPECT_FALSE(B.isWarpCollective());
  EXPECT_FALSE(B.isSingleThread());
  TmemOp A = ok("tcgen05.fence::after_thread_sync;");
  EXPECT_EQ(A.Kind, TmemOpKind::FenceAfterThreadSync);
  bad("tcgen05.fence::sideways;", "unknown tcgen05 instruction "
                                  "'tcgen05.fence::sideways'");
  bad("tcgen05.fence::after_thread_sync.sync.aligned;",
      "'.sync.aligned' is not allowed");
  bad("tcgen05.fence::after_thread_sync %0;", "expected 0 operands");
}

TEST(TmemOpTest, UnknownAndIncomplete) {
  bad("tcgen05.foo [%0];", "unknown tcgen05 instruction 'tcgen05.foo'");
  bad("tcgen05;", "incomplete tcgen05 instruction");
  Decoded D = decode("tcgen05.foo [%0];");
  ASSERT_EQ(D.Diags.size(), 1u);
  EXPECT_EQ(D.Diags[0].Range.Offset, 0u);
  EXPECT_EQ(D.Diags[0].Range.Length, 11u) << "points at the opcode";
}

TEST(TmemOpTest, DecodedFootprintFeedsMmaTable) {
  TmemOp Op = ok("tcgen05.mma.cta_group::2.kind::f16 [%0], %1, %2, %3, p;");
  auto Shape = decodeInstructionDescriptor(*Op.Mma, (32u << 17) | (8u << 24));
  ASSERT_TRUE(Shape);
  auto F = mmaAccumulatorFootprint(Op, *Shape);
  ASSERT_TRUE(F);
  EXPECT_EQ(F->Columns, 128u);
}

TEST(TmemOpTest, GarbageNeverCrashesDecoder) {
  const char *Inputs[] = {
      "tcgen05.ld.sync.aligned.32x32b.x99999999999999999999.b32 {%0}, [%1];",
      "tcgen05.ld.sync.aligned.32x32b.x.b32 {%0}, [%1];",
      "tcgen05..ld;",
      "tcgen05.mma [%0;",
      "tcgen05.mma.cta_group::1.kind::f16 {[%0]}, {%1}, {%2}, {%3}, {p};",
      "tcgen05.st.sync.aligned.16x32bx2.x1.b32 [%0], {%1}, {%2};",
      "tcgen05.cp.cta_group::1.64x128b.warpx2::02_13.warpx4 [%0], %1;",
      "tcgen05.commit;",
      "tcgen05.alloc;",
      "tcgen05.mma.sp.ws.cta_group::1.kind::f16;",
  };
  for (const char *S : Inputs) {
    Decoded D = decode(S);
    EXPECT_FALSE(D.Op.has_value()) << S;
    EXPECT_FALSE(D.Diags.empty()) << S;
  }
}

// ---------------------------------------------------------------------------
// Sync ops.

std::optional<SyncOp> sync(llvm::StringRef Src) {
  ParsedAsm P = parseInlineAsm(Src, std::vector<AsmOperandInfo>(8));
  EXPECT_TRUE(P.Diagnostics.empty()) << Src.str();
  if (P.Instructions.empty())
    return std::nullopt;
  return decodeSyncOp(P.Instructions.back());
}

TEST(SyncOpTest, Barriers) {
  for (const char *S : {"bar.sync 0;", "barrier.sync 0;", "barrier.cta.sync 0;",
                        "barrier.sync.aligned 0;", "bar.cta.sync 0;",
                        "barrier.cta.sync.aligned 0;"}) {
    auto Op = sync(S);
    ASSERT_TRUE(Op) << S;
    EXPECT_EQ(Op->Kind, SyncOpKind::BarrierSync) << S;
    EXPECT_EQ(Op->BarrierIdOperand, 0);
    EXPECT_EQ(Op->ThreadCountOperand, -1);
  }
  auto Named = sync("bar.sync %0, %1;");
  ASSERT_TRUE(Named);
  EXPECT_EQ(Named->ThreadCountOperand, 1);
  for (const char *S :
       {"bar.arrive 1, 128;", "barrier.cta.arrive 1, 128;",
        "barrier.arrive 1, 64;", "barrier.cta.arrive.aligned 2, 64;"}) {
    auto Op = sync(S);
    ASSERT_TRUE(Op) << S;
    EXPECT_EQ(Op->Kind, SyncOpKind::BarrierArrive) << S;
    EXPECT_EQ(Op->ThreadCountOperand, 1);
  }
  EXPECT_FALSE(sync("bar.red.popc.u32 %0, 0, %1;"));
}

TEST(SyncOpTest, ClusterBarriers) {
  for (const char *S :
       {"barrier.cluster.arrive;", "barrier.cluster.arrive.release;",
        "barrier.cluster.arrive.relaxed.aligned;",
        "barrier.cluster.arrive.aligned;"}) {
    auto Op = sync(S);
    ASSERT_TRUE(Op) << S;
    EXPECT_EQ(Op->Kind, SyncOpKind::ClusterBarrier);
    EXPECT_TRUE(Op->IsArrive) << S;
  }
  for (const char *S :
       {"barrier.cluster.wait;", "barrier.cluster.wait.acquire;",
        "barrier.cluster.wait.aligned;"}) {
    auto Op = sync(S);
    ASSERT_TRUE(Op) << S;
    EXPECT_EQ(Op->Kind, SyncOpKind::ClusterBarrier);
    EXPECT_FALSE(Op->IsArrive) << S;
  }
}

TEST(SyncOpTest, Mbarriers) {
  auto Init = sync("mbarrier.init.shared::cta.b64 [%0], %1;");
  ASSERT_TRUE(Init);
  EXPECT_EQ(Init->Kind, SyncOpKind::MbarrierInit);
  EXPECT_EQ(Init->MbarOperand, 0);

  for (const char *S :
       {"mbarrier.arrive.shared::cta.b64 %0, [%1];",
        "mbarrier.arrive.shared.b64 _, [%1];",
        "mbarrier.arrive.release.cta.shared::cta.b64 _, [%1], %2;",
        "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%1], %2;",
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%1];",
        "mbarrier.arrive_drop.shared::cta.b64 _, [%1];"}) {
    auto Op = sync(S);
    ASSERT_TRUE(Op) << S;
    EXPECT_EQ(Op->Kind, SyncOpKind::MbarrierArrive) << S;
    EXPECT_EQ(Op->MbarOperand, 1) << S;
  }
  auto Tx = sync("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;");
  ASSERT_TRUE(Tx);
  EXPECT_EQ(Tx->Kind, SyncOpKind::MbarrierExpectTx);
  EXPECT_EQ(Tx->MbarOperand, 0);

  for (const char *S :
       {"{ .reg .pred P1; LAB_WAIT: mbarrier.try_wait.parity.shared::cta.b64 "
        "P1, [%0], %1; @P1 bra DONE; bra LAB_WAIT; DONE: }",
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%0], "
        "%1, %2; }",
        "{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%0], %1; }",
        "{ .reg .pred p; mbarrier.try_wait.acquire.cluster.shared::cta.b64 p, "
        "[%0], %1; }"}) {
    ParsedAsm P = parseInlineAsm(S, std::vector<AsmOperandInfo>(4));
    ASSERT_FALSE(P.Instructions.empty());
    auto Op = decodeSyncOp(P.Instructions.front());
    ASSERT_TRUE(Op) << S;
    EXPECT_EQ(Op->Kind, SyncOpKind::MbarrierWait);
    EXPECT_EQ(Op->MbarOperand, 1);
  }
  EXPECT_FALSE(sync("mbarrier.inval.shared::cta.b64 [%0];"));
}

TEST(SyncOpTest, ElectAndFenceProxy) {
  auto E = sync("elect.sync %%rx|%%px, 0xffffffff;");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->Kind, SyncOpKind::ElectSync);
  for (const char *S : {"fence.proxy.async;", "fence.proxy.async.shared::cta;",
                        "fence.proxy.async.global;"}) {
    auto F = sync(S);
    ASSERT_TRUE(F) << S;
    EXPECT_EQ(F->Kind, SyncOpKind::FenceProxyAsync);
  }
  EXPECT_FALSE(sync("fence.proxy.alias;"));
  EXPECT_FALSE(sync("fence.acq_rel.cta;"));
  EXPECT_FALSE(sync("mov.b32 %0, %1;"));
  EXPECT_FALSE(sync("tcgen05.fence::after_thread_sync;"));
  EXPECT_FALSE(decodeSyncOp(Instruction()));
}

} // namespace

TEST(TmemOpTest, TileLangLoadModel) {
  // tl::tcgen05_ld_32dp32bNx<64, false>: 32 lanes x 64 columns.
  std::optional<TmemOp> Op = tileLangLoadOp("tl::tcgen05_ld_32dp32bNx", 64,
                                            /*Pack16=*/false);
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Kind, TmemOpKind::Load);
  EXPECT_EQ(Op->Completion, CompletionClass::WaitLoad);
  EXPECT_EQ(Op->TmemAddrOperand, 0);
  EXPECT_EQ(Op->Access.Lanes, 32u);
  EXPECT_EQ(Op->Access.Columns, 64u);
  // N beyond the largest .xN is issued in pieces at consecutive columns.
  Op = tileLangLoadOp("tl::tcgen05_ld_32dp32bNx", 256, false);
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Access.Columns, 256u);
  // The 32-lane form of a 16-lane shape is two issues, 16 lanes apart.
  Op = tileLangLoadOp("tl::tcgen05_ld_32dp128bNx", 8, false);
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Access.Lanes, 32u);
  EXPECT_EQ(Op->Access.Columns, 32u);
  EXPECT_EQ(Op->RegisterCount, 32u);
  Op = tileLangLoadOp("tl::tcgen05_ld_16dp256bNx", 2, /*Pack16=*/true);
  ASSERT_TRUE(Op);
  EXPECT_EQ(Op->Access.Lanes, 16u);
  EXPECT_EQ(Op->Access.Columns, 32u);
  EXPECT_FALSE(tileLangLoadOp("tl::tcgen05_st_32dp32bNx", 64, false));
  EXPECT_FALSE(tileLangLoadOp("tl::tcgen05_ld_16dp32bNx", 64, false));
  EXPECT_FALSE(tileLangLoadOp("tl::tcgen05_ld_32dp32bNx", 0, false));
}
