//===- PtxRegisterValuesTest.cpp - Register values of PTX functions -------===//
//
// Part of tmemcheck. RegisterValues and ThreadValues (lib/Frontend/Ptx) on
// tiny hand-written function bodies: the warp index `%tid.x >> 5`, the lane
// `%laneid`, and a `warp == 0` predicate that nvcc hoists into a register
// set in two arms of a %tid.x test.
//
//===----------------------------------------------------------------------===//

#include "RegisterValues.h"
#include "ThreadValues.h"

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Ptx/Parser.h"

#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

#include <memory>
#include <string>

using namespace tmemcheck;

namespace {

/// One function body split into blocks at labels and after bra/ret, the
/// way PtxGraphBuilder splits it, with its register values.
struct Instance {
  std::vector<std::string> KernelParams{"n", "k_param_0"};
  ptx::ParsedAsm Parsed;
  InstanceCode Code;
  KernelGraph Local;
  std::unique_ptr<ControlDependence> CD;
  llvm::StringMap<std::string> Shared;
  PtxIdentities Ids;
  std::unique_ptr<RegisterValues> Values;

  /// \p SharedVariables: module-scope `.shared` variables the body uses.
  explicit Instance(llvm::StringRef Body,
                    std::initializer_list<llvm::StringRef> SharedVariables = {})
      : Parsed(ptx::parsePtxText(Body)) {
    for (llvm::StringRef V : SharedVariables)
      Shared[V] = V.str();
    const auto &Is = Parsed.Instructions;
    const unsigned N = Is.size();
    llvm::StringMap<unsigned> LabelAt;
    std::vector<bool> Leader(N + 1, false);
    Leader[0] = true;
    for (const ptx::Label &L : Parsed.Labels) {
      LabelAt[L.Name] = L.InstructionIndex;
      Leader[L.InstructionIndex] = true;
    }
    auto Ends = [](const ptx::Instruction &I) {
      return I.base() == "bra" || I.base() == "ret" || I.base() == "exit";
    };
    for (unsigned I = 0; I < N; ++I)
      if (Ends(Is[I]))
        Leader[I + 1] = true;
    std::vector<unsigned> Starts;
    for (unsigned I = 0; I < N; ++I)
      if (Leader[I])
        Starts.push_back(I);
    const unsigned K = Starts.size();
    Code.Instructions = Is;
    Code.BlockOf.assign(N, 0);
    Code.BranchOf.assign(K, -1);
    Code.Succs.resize(K);
    for (unsigned B = 0; B < K; ++B)
      for (unsigned I = Starts[B]; I < (B + 1 < K ? Starts[B + 1] : N); ++I)
        Code.BlockOf[I] = B;
    auto BlockAt = [&](unsigned I) { return I < N ? Code.BlockOf[I] : K; };
    for (unsigned B = 0; B < K; ++B) {
      unsigned Last = (B + 1 < K ? Starts[B + 1] : N) - 1;
      unsigned Next = B + 1 < K ? B + 1 : K;
      const ptx::Instruction &I = Is[Last];
      if (I.base() == "bra") {
        unsigned Target = BlockAt(LabelAt.lookup(I.Operands[0].Text));
        if (I.Pred) {
          Code.BranchOf[B] = Last;
          Code.Succs[B] = {Target, Next};
          if (I.Pred->Negated)
            std::swap(Code.Succs[B][0], Code.Succs[B][1]);
        } else {
          Code.Succs[B] = {Target};
        }
      } else if (I.base() == "ret" || I.base() == "exit") {
        Code.Succs[B] = {K};
      } else {
        Code.Succs[B] = {Next};
      }
    }
    for (unsigned B = 0; B <= K; ++B)
      Local.addBlock();
    for (unsigned B = 0; B < K; ++B)
      for (unsigned S : Code.Succs[B])
        Local.addEdge(B, S);
    Local.Entry = 0;
    Local.Exit = K;
    CD = std::make_unique<ControlDependence>(Local);
    Code.Controllers = [this, K](unsigned B) {
      std::vector<unsigned> C;
      for (unsigned X : CD->controllers(B))
        if (X < K)
          C.push_back(X);
      return C;
    };
    Code.ControllingArms = [this, K](unsigned B) {
      std::vector<std::pair<unsigned, unsigned>> Arms;
      CD->forEachControllingArm(B, [&](unsigned C, unsigned Arm) {
        if (C < K)
          Arms.push_back({C, Arm});
        return true;
      });
      return Arms;
    };
    Values = std::make_unique<RegisterValues>(Code, Shared, &KernelParams,
                                              llvm::StringMap<PtxValue>(), Ids);
  }

  PtxValue reg(llvm::StringRef Name) const { return Values->reg(Name); }
};

std::string diags(const ptx::ParsedAsm &P) {
  std::string S;
  for (const ptx::ParseDiagnostic &D : P.Diagnostics)
    S += D.Message + "\n";
  return S;
}

TEST(PtxRegisterValues, WarpIndexFromTidShift) {
  Instance F(R"(
	.reg .pred 	%p<2>;
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;
	shr.u32 	%r2, %r1, 5;
	setp.eq.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__BB0_2;
	ret;
$L__BB0_2:
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  ASSERT_FALSE(F.Values->gaveUp());

  PtxValue Tid = F.reg("%r1");
  EXPECT_EQ(Tid.V.Uniform, Uniformity::ThreadVariant);
  EXPECT_TRUE(Tid.V.LaneVariant);
  EXPECT_EQ(Tid.Key, "%tid.x");

  PtxValue Warp = F.reg("%r2");
  EXPECT_EQ(Warp.V.Uniform, Uniformity::WarpUniform);
  EXPECT_TRUE(Warp.V.IsWarpIndex);
  EXPECT_FALSE(Warp.V.LaneVariant);
  ASSERT_TRUE(Warp.Tid);
  EXPECT_EQ(Warp.Tid->evaluate(0), 0);
  EXPECT_EQ(Warp.Tid->evaluate(31), 0);
  EXPECT_EQ(Warp.Tid->evaluate(32), 1);
  EXPECT_EQ(Warp.Tid->evaluate(1023), 31);

  PtxValue IsWarp0 = F.reg("%p1");
  EXPECT_EQ(IsWarp0.V.Uniform, Uniformity::WarpUniform);
  EXPECT_EQ(IsWarp0.Key, "%tid.x/32==0");
  ASSERT_TRUE(IsWarp0.WarpsWhen[0]);
  EXPECT_EQ(IsWarp0.WarpsWhen[0]->first, 0);
  EXPECT_EQ(IsWarp0.WarpsWhen[0]->second, 0);
  ASSERT_TRUE(IsWarp0.TrueFor);
  EXPECT_EQ(IsWarp0.TrueFor->count(), 32u);
  EXPECT_TRUE(IsWarp0.TrueFor->test(31));
  EXPECT_FALSE(IsWarp0.TrueFor->test(32));
}

TEST(PtxRegisterValues, NvccWritesWarpZeroAsTidAbove31) {
  Instance F(R"(
	.reg .pred 	%p<2>;
	.reg .b32 	%r<2>;
	mov.u32 	%r1, %tid.x;
	setp.gt.u32 	%p1, %r1, 31;
	@%p1 bra 	$L__BB0_2;
	ret;
$L__BB0_2:
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  PtxValue NotWarp0 = F.reg("%p1");
  EXPECT_EQ(NotWarp0.V.Uniform, Uniformity::WarpUniform);
  // True for the warps 1 and up; false for warp 0 alone.
  EXPECT_EQ(NotWarp0.Key, "%tid.x/32>=1");
  ASSERT_TRUE(NotWarp0.WarpsWhen[1]);
  EXPECT_EQ(NotWarp0.WarpsWhen[1]->first, 0);
  EXPECT_EQ(NotWarp0.WarpsWhen[1]->second, 0);
}

TEST(PtxRegisterValues, LaneId) {
  Instance F(R"(
	.reg .pred 	%p<2>;
	.reg .b32 	%r<2>;
	mov.u32 	%r1, %laneid;
	setp.eq.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__BB0_2;
	ret;
$L__BB0_2:
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  PtxValue Lane = F.reg("%r1");
  EXPECT_EQ(Lane.V.Uniform, Uniformity::ThreadVariant);
  EXPECT_TRUE(Lane.V.LaneVariant);
  EXPECT_FALSE(Lane.V.IsWarpIndex);
  ASSERT_TRUE(Lane.Tid);
  EXPECT_EQ(Lane.Tid->evaluate(0), 0);
  EXPECT_EQ(Lane.Tid->evaluate(33), 1);
  EXPECT_EQ(Lane.Tid->evaluate(95), 31);

  // Lane 0 of every warp: splits each warp, so thread-variant, no warp key.
  PtxValue Lane0 = F.reg("%p1");
  EXPECT_EQ(Lane0.V.Uniform, Uniformity::ThreadVariant);
  EXPECT_FALSE(Lane0.WarpsWhen[0]);
  ASSERT_TRUE(Lane0.TrueFor);
  EXPECT_EQ(Lane0.TrueFor->count(), 32u);
  EXPECT_TRUE(Lane0.TrueFor->test(0));
  EXPECT_TRUE(Lane0.TrueFor->test(64));
  EXPECT_FALSE(Lane0.TrueFor->test(1));
}

TEST(PtxRegisterValues, KeysOfDoublingChainsAreBounded) {
  // Each add doubles the key of its operand: dropped past
  // MaxKeyOperations rather than grown to 2^40 characters.
  std::string Body = "\t.reg .b32 \t%r<42>;\n\tmov.u32 \t%r0, %ctaid.x;\n";
  for (int I = 0; I < 40; ++I)
    Body += "\tadd.s32 \t%r" + std::to_string(I + 1) + ", %r" +
            std::to_string(I) + ", %r" + std::to_string(I) + ";\n";
  Body += "\tret;\n";
  Instance F(Body);
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  ASSERT_FALSE(F.Values->gaveUp());
  EXPECT_EQ(F.reg("%r1").Key, "(%ctaid.x add %ctaid.x)");
  PtxValue Short = F.reg("%r4");
  EXPECT_EQ(Short.KeyOperations, 15u);
  EXPECT_FALSE(Short.Key.empty());
  PtxValue Long = F.reg("%r40");
  EXPECT_TRUE(Long.Key.empty());
  EXPECT_LE(Long.Key.size(), 1000u);
  // The value itself is still known to be the same in the whole CTA.
  EXPECT_EQ(Long.V.Uniform, Uniformity::CtaUniform);
}

// nvcc's form of `if (tid == 0) init(); if (warp == 0) alloc(); ...
// if (warp == 0) dealloc();`: thread 0 goes straight to the alloc, and
// `warp == 0` is %p2, set to false where tid.x > 31 and to true after the
// alloc, read again at the dealloc.
const char *const Hoisted = R"(
	.reg .pred 	%p<4>;
	.reg .b32 	%r<4>;
	mov.u32 	%r1, %tid.x;
	setp.ne.s32 	%p3, %r1, 0;
	@%p3 bra 	$L__BB0_2;
	mov.u32 	%r2, 1;
	bra.uni 	$L__BB0_3;
$L__BB0_2:
	setp.gt.u32 	%p1, %r1, 31;
	mov.pred 	%p2, 0;
	@%p1 bra 	$L__BB0_4;
$L__BB0_3:
	mov.u32 	%r3, 7;
	mov.pred 	%p2, -1;
$L__BB0_4:
	bar.sync 	0;
	@!%p2 bra 	$L__BB0_6;
	mov.u32 	%r3, 8;
$L__BB0_6:
	ret;
)";

TEST(PtxRegisterValues, HoistedWarpZeroPredicate) {
  Instance F(Hoisted);
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  ASSERT_FALSE(F.Values->gaveUp());
  EXPECT_TRUE(F.Values->hasSeveralDefinitions("%p2"));
  PtxValue P = F.reg("%p2");
  EXPECT_EQ(P.V.Uniform, Uniformity::WarpUniform);
  EXPECT_EQ(P.Key, "%tid.x/32==0");
  ASSERT_TRUE(P.TrueFor);
  EXPECT_EQ(P.TrueFor->count(), 32u);
  EXPECT_TRUE(P.TrueFor->test(0));
  EXPECT_FALSE(P.TrueFor->test(32));
}

TEST(PtxThreadValues, HoistedWarpZeroPredicate) {
  // The walk alone, with an oracle that knows the two predicates and the
  // constants of the two `mov.pred`.
  Instance F(Hoisted);
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  ThreadSet TidNonZero, TidAbove31;
  for (unsigned T = 0; T < MaxThreads; ++T) {
    TidNonZero.set(T, T != 0);
    TidAbove31.set(T, T > 31);
  }
  auto Defined = [&](unsigned Instr,
                     llvm::StringRef Reg) -> std::optional<ThreadTable> {
    const ptx::Instruction &I = F.Code.Instructions[Instr];
    if (I.base() != "mov" || I.Operands.size() != 2 ||
        I.Operands[1].K != ptx::Operand::Kind::Immediate)
      return std::nullopt;
    return ThreadTable(MaxThreads, I.Operands[1].Imm != 0);
  };
  auto Holds = [&](const ptx::Operand &Pred) -> const ThreadSet * {
    if (Pred.Text == "%p3")
      return &TidNonZero;
    if (Pred.Text == "%p1")
      return &TidAbove31;
    return nullptr;
  };
  ThreadFlowOracle O{Defined, Holds};
  std::optional<ThreadTable> V = threadValuesAtReads(F.Code, "%p2", O);
  ASSERT_TRUE(V);
  ASSERT_EQ(V->size(), MaxThreads);
  for (unsigned T = 0; T < MaxThreads; ++T)
    ASSERT_EQ((*V)[T], T < 32 ? 1 : 0) << "thread " << T;

  // Without knowing %p1 the walk takes both arms: the value is not proved.
  auto HoldsLess = [&](const ptx::Operand &Pred) -> const ThreadSet * {
    return Pred.Text == "%p3" ? &TidNonZero : nullptr;
  };
  ThreadFlowOracle Less{Defined, HoldsLess};
  EXPECT_FALSE(threadValuesAtReads(F.Code, "%p2", Less));
}

} // namespace

TEST(PtxRegisterValues, KernelParameterFieldsThroughItsAddress) {
  // CUTLASS passes its Params struct by value: nvcc takes the parameter's
  // address once and reads fields through copies of it, in every warp
  // role's code. The same field read twice has one key; the return value of
  // a call (`retval0`) is a .param too, but not the kernel's.
  Instance F(R"(
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<8>;
	mov.b64 	%rd1, k_param_0;
	mov.u64 	%rd2, %rd1;
	mov.u64 	%rd3, %rd1;
	ld.param.v2.u32 	{%r1, %r2}, [%rd2];
	ld.param.v2.u32 	{%r3, %r4}, [%rd3];
	add.s64 	%rd4, %rd1, 8;
	ld.param.u32 	%r5, [%rd4];
	ld.param.u32 	%r6, [%rd1+8];
	ld.param.b32 	%r7, [retval0];
	mov.u32 	%r8, %ctaid.x;
	setp.ge.u32 	%p1, %r8, %r1;
	setp.ge.u32 	%p2, %r8, %r3;
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  PtxValue First = F.reg("%r1"), Again = F.reg("%r3"), Second = F.reg("%r2");
  EXPECT_EQ(First.V.Uniform, Uniformity::CtaUniform);
  EXPECT_FALSE(First.Key.empty());
  EXPECT_EQ(First.Key, Again.Key);
  EXPECT_NE(First.Key, Second.Key);
  EXPECT_EQ(F.reg("%r4").Key, Second.Key);
  EXPECT_EQ(F.reg("%r6").V.Uniform, Uniformity::CtaUniform);
  EXPECT_FALSE(F.reg("%r6").Key.empty());
  EXPECT_EQ(F.reg("%r5").V.Uniform, Uniformity::CtaUniform);
  EXPECT_NE(F.reg("%r7").V.Uniform, Uniformity::CtaUniform);
  EXPECT_TRUE(F.reg("%r7").Key.empty());
  EXPECT_EQ(F.reg("%p1").V.Uniform, Uniformity::CtaUniform);
  EXPECT_EQ(F.reg("%p1").Key, F.reg("%p2").Key);
}

TEST(PtxRegisterValues, FlagOfARoleLoopIsCtaUniform) {
  // `if (warp == 1) { allocated = 0; for (...) if (!allocated) {...;
  // allocated = 1;} }`: the warp test decides whether a thread runs the
  // loop at all, not which definition of the flag it sees; the flag is as
  // uniform as the loop's CTA-uniform trip count makes it.
  Instance F(R"(
	.reg .pred 	%p<8>;
	.reg .b32 	%r<16>;
	mov.u32 	%r1, %tid.x;
	shr.u32 	%r2, %r1, 5;
	setp.ne.s32 	%p1, %r2, 1;
	@%p1 bra 	$L__END;
	ld.param.u32 	%r6, [n];
	mov.u32 	%r10, %ctaid.x;
	mov.u32 	%r11, 0;
$L__LOOP:
	setp.ge.u32 	%p6, %r10, %r6;
	@%p6 bra 	$L__END;
	setp.ne.s32 	%p7, %r11, 0;
	@%p7 bra 	$L__NEXT;
	mov.u32 	%r11, 1;
$L__NEXT:
	add.s32 	%r10, %r10, 1;
	bra.uni 	$L__LOOP;
$L__END:
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  EXPECT_EQ(F.reg("%p7").V.Uniform, Uniformity::CtaUniform);
  EXPECT_EQ(F.reg("%r11").V.Uniform, Uniformity::CtaUniform);
}

TEST(PtxRegisterValues, ColumnFieldOfALaneQuarterAddress) {
  // CuTe DSL's TMEM address of a warp's lane quarter: the lane field
  // differs between warps, bits 15..0 (the column) do not.
  Instance F(R"(
	.reg .b32 	%r<16>;
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 16;
	and.b32 	%r3, %r2, 6291456;
	or.b32 	%r4, %r3, 96;
	add.s32 	%r5, %r3, 272;
	mul.lo.s32 	%r6, %r4, 2;
	shr.u32 	%r7, %r4, 1;
	add.s32 	%r8, %r1, 32;
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  EXPECT_FALSE(F.reg("%r3").V.Constant);
  EXPECT_EQ(lowHalf(F.reg("%r2")), 0);
  EXPECT_EQ(lowHalf(F.reg("%r3")), 0);
  EXPECT_EQ(lowHalf(F.reg("%r4")), 96);
  EXPECT_EQ(lowHalf(F.reg("%r5")), 272);
  EXPECT_EQ(lowHalf(F.reg("%r6")), 192);
  // A right shift brings unknown bits down; %tid.x's own low half varies.
  EXPECT_EQ(lowHalf(F.reg("%r7")), std::nullopt);
  EXPECT_EQ(lowHalf(F.reg("%r8")), std::nullopt);
}

TEST(PtxRegisterValues, ValueAtAReadSeesOnlyTheDefinitionsReachingIt) {
  // %r3 is the lane-quarter address of the mainloop, then the column
  // counter of a later loop: its flow-insensitive value has lost the
  // column, its value where the mainloop reads it has not.
  Instance F(R"(
	.reg .pred 	%p<4>;
	.reg .b32 	%r<16>;
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 16;
	and.b32 	%r3, %r2, 6291456;
	add.s32 	%r4, %r3, 256;
	st.shared.u32 	[%r4], %r1;
	mov.u32 	%r5, 0;
$L__EPI:
	add.s32 	%r6, %r3, 256;
	st.shared.u32 	[%r6], %r1;
	add.s32 	%r3, %r3, 16;
	add.s32 	%r5, %r5, 1;
	setp.ne.s32 	%p1, %r5, 8;
	@%p1 bra 	$L__EPI;
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  const auto &Is = F.Parsed.Instructions;
  EXPECT_EQ(lowHalf(F.reg("%r3")), std::nullopt);
  EXPECT_EQ(lowHalf(F.reg("%r4")), std::nullopt);
  // The first store (instruction 4) reads %r4 = %r3 + 256 with %r3's
  // first definition alone.
  ASSERT_EQ(Is[4].base(), "st");
  EXPECT_EQ(lowHalf(F.Values->operandAt(Is[4].Operands[0].Elements[0], 4)),
            256);
  // In the loop both definitions of %r3 reach: unknown again.
  ASSERT_EQ(Is[7].base(), "st");
  EXPECT_EQ(lowHalf(F.Values->operandAt(Is[7].Operands[0].Elements[0], 7)),
            std::nullopt);
}

TEST(PtxRegisterValues, StageIndexOfAPipelineIsOneOfItsStages) {
  // CuTe DSL's PipelineState::advance for two stages: `index + 1 == 2 ? 0 :
  // index + 1`, and the phase flips when it wraps. Both take two values;
  // `index << 7` is one of the two accumulator stages' column offsets.
  Instance F(R"(
	.reg .pred 	%p<4>;
	.reg .b32 	%r<16>;
	ld.param.u32 	%r1, [n];
	mov.b32 	%r3, 0;
	mov.u32 	%r2, %r3;
	mov.u32 	%r9, 0;
$L__LOOP:
	shl.b32 	%r4, %r2, 7;
	add.s32 	%r5, %r2, 1;
	setp.eq.s32 	%p1, %r5, 2;
	selp.b32 	%r2, 0, %r5, %p1;
	selp.u32 	%r6, 1, 0, %p1;
	xor.b32 	%r3, %r3, %r6;
	add.s32 	%r9, %r9, 1;
	setp.lt.u32 	%p2, %r9, %r1;
	@%p2 bra 	$L__LOOP;
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  EXPECT_EQ(possibleConstants(F.reg("%r2").V), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(possibleConstants(F.reg("%r3").V), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(possibleConstants(F.reg("%r4").V), (std::vector<int64_t>{0, 128}));
  EXPECT_EQ(possibleConstants(F.reg("%r5").V), (std::vector<int64_t>{1, 2}));
  // The trip counter takes more values than a value set holds.
  EXPECT_TRUE(possibleConstants(F.reg("%r9").V).empty());
}

TEST(PtxRegisterValues, RegisterOfAnUnrolledBodyJoinsAllItsDefinitions) {
  // An unrolled loop body redefines its registers in every copy (nvcc's
  // `shl.b32 %r20, %r7, 6` in each of the K-loop's copies): the value is
  // the join of all of them (kept in a JoinTree from four definitions on;
  // %r24, which nothing reads), at a read point only the copy that reaches
  // it counts, and the per-thread walk learns that from the reads (%r20).
  // %r21 is computed from single definitions only: it reads the same
  // everywhere.
  Instance F(R"(
	.reg .b32 	%r<32>;
	ld.param.u32 	%r1, [n];
	mov.b32 	%r20, 0;
	add.s32 	%r21, %r1, 3;
	mov.b32 	%r20, 64;
	mov.b32 	%r20, 128;
	mov.b32 	%r20, 192;
	mov.b32 	%r20, 256;
	add.s32 	%r22, %r20, %r21;
	mov.b32 	%r23, 0;
	mov.b32 	%r23, 1;
	mov.b32 	%r23, 2;
	mov.b32 	%r23, 3;
	mov.b32 	%r23, 4;
	mov.b32 	%r23, 5;
	mov.b32 	%r23, 6;
	mov.b32 	%r23, 7;
	mov.b32 	%r23, 8;
	mov.b32 	%r24, 256;
	mov.b32 	%r24, 0;
	mov.b32 	%r24, 192;
	mov.b32 	%r24, 64;
	mov.b32 	%r24, 128;
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  EXPECT_EQ(possibleConstants(F.reg("%r24").V),
            (std::vector<int64_t>{0, 64, 128, 192, 256}));
  ASSERT_TRUE(F.reg("%r20").V.Constant);
  EXPECT_EQ(*F.reg("%r20").V.Constant, 256);
  // Nine values are more than a value set holds.
  EXPECT_TRUE(possibleConstants(F.reg("%r23").V).empty());
  EXPECT_TRUE(F.reg("%r23").Defined);
  // At the add, only the last copy reaches: 256.
  const ptx::Instruction &Add = F.Code.Instructions[7];
  ASSERT_EQ(Add.base(), "add");
  PtxValue AtAdd = F.Values->operandAt(Add.Operands[1], 7);
  ASSERT_TRUE(AtAdd.V.Constant);
  EXPECT_EQ(*AtAdd.V.Constant, 256);
  // %r21 = n + 3 everywhere: its read-point value is the fixpoint's.
  PtxValue Flow = F.reg("%r21");
  PtxValue At = F.Values->operandAt(Add.Operands[2], 7);
  EXPECT_TRUE(At == Flow);
  EXPECT_EQ(At.Key, Flow.Key);
  EXPECT_FALSE(At.Key.empty());
}

TEST(PtxRegisterValues, RoleFlagsOfADispatchAreKnownThreadByThread) {
  // nvcc's role dispatch in CUTLASS's FMHA: the warpgroup number is tested
  // and then overwritten with a role id, and each arm sets every role flag
  // from predicates that are themselves set in every arm. The flag of
  // warpgroup 0 then selects its own barrier and its own columns in the one
  // copy of the softmax code both warpgroups run.
  Instance F(R"(
	.reg .pred 	%p<30>;
	.reg .b32 	%r<20>;
	mov.u32 	%r1, %tid.x;
	shr.u32 	%r2, %r1, 5;
	shr.u32 	%r4, %r2, 2;
	mov.u32 	%r6, smem;
	mov.pred 	%p11, -1;
	mov.pred 	%p12, 0;
	mov.pred 	%p20, %p11;
	setp.eq.s32 	%p1, %r4, 0;
	@%p1 bra 	$L__ROLE;
	mov.pred 	%p11, -1;
	mov.pred 	%p12, 0;
	mov.pred 	%p20, %p12;
	setp.eq.s32 	%p2, %r4, 1;
	@%p2 bra 	$L__ROLE;
	mov.b32 	%r4, 7;
	mov.pred 	%p20, %p12;
$L__ROLE:
	add.s32 	%r10, %r6, 16;
	add.s32 	%r11, %r6, 24;
	selp.b32 	%r12, %r10, %r11, %p20;
	selp.b32 	%r13, 0, 128, %p20;
	add.s32 	%r14, %r6, %r13;
	ret;
)",
             {"smem"});
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  PtxValue Flag = F.reg("%p20");
  ASSERT_TRUE(Flag.TrueFor);
  EXPECT_TRUE(Flag.TrueFor->test(0));
  EXPECT_TRUE(Flag.TrueFor->test(127));
  EXPECT_FALSE(Flag.TrueFor->test(128));
  // The barrier: smem+16 in warpgroup 0, smem+24 elsewhere.
  PtxValue Barrier = F.reg("%r12");
  ASSERT_TRUE(Barrier.V.isSlotAddress());
  ASSERT_TRUE(Barrier.V.SlotRunStartByThread);
  EXPECT_FALSE(Barrier.V.SlotRunStart);
  EXPECT_EQ((*Barrier.V.SlotRunStartByThread)[0], 16);
  EXPECT_EQ((*Barrier.V.SlotRunStartByThread)[200], 24);
  // A role's offset added to a barrier array: the same, thread by thread.
  PtxValue Added = F.reg("%r14");
  ASSERT_TRUE(Added.V.SlotRunStartByThread);
  EXPECT_EQ((*Added.V.SlotRunStartByThread)[5], 0);
  EXPECT_EQ((*Added.V.SlotRunStartByThread)[130], 128);
  // The column: known thread by thread once it is an event's operand.
  AbstractValue Column = eventValue(F.reg("%r13"));
  ASSERT_TRUE(Column.PerThread);
  EXPECT_TRUE(Column.PerThreadExact);
  EXPECT_EQ((*Column.PerThread)[0], 0);
  EXPECT_EQ((*Column.PerThread)[128], 128);
}

TEST(PtxRegisterValues, WideProductOfARoleSelectionIsKnownThreadByThread) {
  // nvcc's OrderedSequenceBarrier element for two warpgroups: the wait's
  // barrier is `bars + mul.wide.u16(selp.u16(1, 0, wg1), 8)`, the
  // arrive's `bars + (phase << 3)` where the phase register is the role's
  // selp before the loop and flipped inside it.
  Instance F(R"(
	.reg .pred 	%p<8>;
	.reg .b16 	%rs<2>;
	.reg .b32 	%r<20>;
	mov.u32 	%r1, %tid.x;
	shr.u32 	%r2, %r1, 5;
	and.b32 	%r3, %r2, -4;
	setp.ne.s32 	%p3, %r3, 4;
	selp.u32 	%r12, 1, 0, %p3;
	setp.eq.s32 	%p7, %r3, 4;
	selp.u16 	%rs1, 1, 0, %p7;
	mul.wide.u16 	%r9, %rs1, 8;
	mov.u32 	%r10, bars;
	add.s32 	%r6, %r10, %r9;
	shl.b32 	%r11, %r12, 3;
	add.s32 	%r7, %r10, %r11;
	mov.u32 	%r5, 0;
$L__LOOP:
	mbarrier.arrive.shared::cta.b64 _, [%r7];
	xor.b32 	%r12, %r12, 1;
	add.s32 	%r5, %r5, 1;
	setp.ne.s32 	%p1, %r5, 8;
	@%p1 bra 	$L__LOOP;
	ret;
)",
             {"bars"});
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  // The 32-bit product of two 16-bit operands: 8 in warpgroup 1.
  AbstractValue Offset = eventValue(F.reg("%r9"));
  ASSERT_TRUE(Offset.PerThread);
  EXPECT_EQ((*Offset.PerThread)[0], 0);
  EXPECT_EQ((*Offset.PerThread)[130], 8);
  PtxValue Wait = F.reg("%r6");
  ASSERT_TRUE(Wait.V.SlotRunStartByThread);
  EXPECT_EQ((*Wait.V.SlotRunStartByThread)[0], 0);
  EXPECT_EQ((*Wait.V.SlotRunStartByThread)[130], 8);
  // The phase register has two definitions: unknown flow-insensitively,
  // the role's selection where the arrive reads the address made from it.
  EXPECT_FALSE(F.reg("%r7").V.SlotRunStartByThread);
  const auto &Is = F.Parsed.Instructions;
  ASSERT_EQ(Is[13].base(), "mbarrier");
  PtxValue Arrive = F.Values->operandAt(Is[13].Operands[1].Elements[0], 13);
  ASSERT_TRUE(Arrive.V.SlotRunStartByThread);
  EXPECT_EQ((*Arrive.V.SlotRunStartByThread)[0], 8);
  EXPECT_EQ((*Arrive.V.SlotRunStartByThread)[130], 0);
}

TEST(PtxRegisterValues, LongChainsOfTheThreadIndexStayFunctionsOfIt) {
  // nvcc's signed `warp % 4 * 32 << 16`, the lane quarter of a role's TMEM
  // address: more operations than one expression node holds, tabulated.
  Instance F(R"(
	.reg .b32 	%r<40>;
	mov.u32 	%r1, %tid.x;
	shr.u32 	%r23, %r1, 5;
	shr.s32 	%r26, %r23, 31;
	shr.u32 	%r27, %r26, 30;
	add.s32 	%r28, %r23, %r27;
	and.b32 	%r29, %r28, 2044;
	sub.s32 	%r30, %r23, %r29;
	shl.b32 	%r31, %r30, 21;
	ret;
)");
  ASSERT_TRUE(F.Parsed.Diagnostics.empty()) << diags(F.Parsed);
  PtxValue Quarter = F.reg("%r31");
  ASSERT_TRUE(Quarter.Tid);
  EXPECT_EQ(Quarter.Tid->evaluate(0), 0);
  EXPECT_EQ(Quarter.Tid->evaluate(32 * 5), int64_t(32) << 16);
  EXPECT_EQ(Quarter.Tid->evaluate(32 * 7 + 3), int64_t(96) << 16);
  EXPECT_EQ(Quarter.V.Uniform, Uniformity::WarpUniform);
}
