//===- ValueRangeTest.cpp - Bounds of abstract values ---------------------===//
//
// Part of tmemcheck. The interval arithmetic behind loop indices and CuTe
// tensor spans (ValueRange.h), and the layout extents of CuTe's static TMEM
// layouts (CuteTmemTensors.h) on a small AST of stand-in types.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ValueRange.h"
#include "tmemcheck/Analysis/Completion.h"

#include "CuteTmemTensors.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace tmemcheck;

namespace {

AbstractValue constant(int64_t C) {
  AbstractValue V;
  V.Constant = C;
  return V;
}

AbstractValue bounded(int64_t Lo, int64_t Hi) {
  AbstractValue V;
  V.Range = IntRange{Lo, Hi};
  return V;
}

TEST(ValueRange, ArithmeticKeepsBounds) {
  AbstractValue Out;
  applyRangeArithmetic(RangeOp::Mul, bounded(0, 7), constant(16), Out);
  ASSERT_TRUE(Out.Range);
  EXPECT_EQ(*Out.Range, (IntRange{0, 112}));

  AbstractValue Sum;
  applyRangeArithmetic(RangeOp::Add, Out, constant(256), Sum);
  EXPECT_EQ(*Sum.Range, (IntRange{256, 368}));

  AbstractValue Diff;
  applyRangeArithmetic(RangeOp::Sub, bounded(4, 9), bounded(1, 3), Diff);
  EXPECT_EQ(*Diff.Range, (IntRange{1, 8}));

  AbstractValue Shifted;
  applyRangeArithmetic(RangeOp::Shl, bounded(0, 3), constant(5), Shifted);
  EXPECT_EQ(*Shifted.Range, (IntRange{0, 96}));

  // An unbounded operand gives no bounds.
  AbstractValue None;
  applyRangeArithmetic(RangeOp::Add, AbstractValue{}, constant(1), None);
  EXPECT_FALSE(None.Range);
  EXPECT_FALSE(None.LowHalfRange);
}

TEST(ValueRange, LowHalfMovesWithItsSpan) {
  // The data of a tensor partitioned by thread: lane unknown, columns
  // 256..383 of a tensor spanning up to 384.
  AbstractValue Data;
  Data.LowHalfRange = IntRange{256, 383};
  Data.ColumnSpanEnd = 384;
  AbstractValue Moved;
  applyRangeArithmetic(RangeOp::Add, Data, bounded(0, 48), Moved);
  ASSERT_TRUE(Moved.LowHalfRange);
  EXPECT_EQ(*Moved.LowHalfRange, (IntRange{256, 431}));
  EXPECT_EQ(Moved.ColumnSpanEnd, 432);
  // Past column 0xFFFF the lane field would change: no bounds.
  AbstractValue Far;
  applyRangeArithmetic(RangeOp::Add, Data, constant(0xFF00), Far);
  EXPECT_FALSE(Far.LowHalfRange);
}

TEST(ValueRange, TmemColumnsMoveByBoundedAddends) {
  AbstractValue Base;
  Base.Address = AddressKind::TmemAddress;
  Base.Slot = 7;
  Base.ColumnRange = IntRange{0, 127};
  Base.ColumnSpanEnd = 128;
  AbstractValue Out = Base;
  Out.ColumnRange.reset();
  applyColumnRange(Base, bounded(0, 64), 1, Out);
  ASSERT_TRUE(Out.ColumnRange);
  EXPECT_EQ(*Out.ColumnRange, (IntRange{0, 191}));
  EXPECT_EQ(Out.ColumnSpanEnd, 192);
}

/// Windows of a tensor started at column \p First in threads 0..127 and
/// at \p Second in threads 128..255 (one softmax body, two warpgroups).
AbstractValue twoStageStart(int64_t First, int64_t Second) {
  AbstractValue Start;
  auto T = std::make_shared<std::vector<int64_t>>(256, First);
  std::fill(T->begin() + 128, T->end(), Second);
  Start.PerThread = T;
  Start.PerThreadExact = true;
  return Start;
}

TEST(ValueRange, WindowsFollowEachThreadsStart) {
  ColumnWindows W = windowsFromStart(twoStageStart(0, 128), 128);
  ASSERT_TRUE(W);
  ASSERT_EQ(W->size(), 256u);
  EXPECT_EQ((*W)[0], (IntRange{0, 127}));
  EXPECT_EQ((*W)[200], (IntRange{128, 255}));
  // Only the threads asked about count.
  std::vector<uint8_t> Second(256, 0);
  std::fill(Second.begin() + 128, Second.end(), 1);
  EXPECT_EQ(windowUnion(*W, &Second), (IntRange{128, 255}));
  EXPECT_EQ(windowUnion(*W, nullptr), (IntRange{0, 255}));
  std::vector<uint8_t> None(256, 0);
  EXPECT_FALSE(windowUnion(*W, &None));
  // A start that is not exact thread by thread has no windows.
  AbstractValue Inexact = twoStageStart(0, 128);
  Inexact.PerThreadExact = false;
  EXPECT_FALSE(windowsFromStart(Inexact, 128));
  EXPECT_FALSE(windowsFromStart(twoStageStart(0, 128), 0));
}

TEST(ValueRange, WindowsMoveAndGrowWithTheTensor) {
  ColumnWindows W = windowsFromStart(twoStageStart(0, 128), 128);
  // `t.data() + 32` moves every window by 32; `+ [0, 16]` widens too.
  ColumnWindows Moved = shiftWindows(W, 32, 32);
  ASSERT_TRUE(Moved);
  EXPECT_EQ((*Moved)[0], (IntRange{32, 159}));
  ColumnWindows Spread = shiftWindows(W, 0, 16);
  ASSERT_TRUE(Spread);
  EXPECT_EQ((*Spread)[255], (IntRange{128, 271}));
  // A tensor of 64 columns started inside each window.
  ColumnWindows Grown = widenWindows(W, 63);
  ASSERT_TRUE(Grown);
  EXPECT_EQ((*Grown)[0], (IntRange{0, 190}));
  EXPECT_FALSE(widenWindows(W, -1));
  // Leaving the column field drops the windows: the union bounds stay.
  EXPECT_FALSE(shiftWindows(W, -1, -1));
  EXPECT_FALSE(shiftWindows(W, 0xFFFF, 0xFFFF));
  // Arithmetic on a tensor's address moves its windows with its span.
  AbstractValue Data;
  Data.LowHalfRange = IntRange{0, 255};
  Data.ColumnSpanEnd = 256;
  Data.ColumnWindowByThread = W;
  AbstractValue Out;
  applyRangeArithmetic(RangeOp::Add, Data, constant(16), Out);
  ASSERT_TRUE(Out.ColumnWindowByThread);
  EXPECT_EQ((*Out.ColumnWindowByThread)[130], (IntRange{144, 271}));
}

TEST(ValueRange, SpansDecideOverlap) {
  TmemRange S{7, std::nullopt, 8, IntRange{0, 127}};
  TmemRange O{7, std::nullopt, 8, IntRange{256, 383}};
  TmemRange Exact{7, 120, 16, std::nullopt};
  TmemRange Unknown{7, std::nullopt, 8, std::nullopt};
  EXPECT_FALSE(mayOverlap(S, O));
  EXPECT_TRUE(mayOverlap(S, Exact));
  EXPECT_FALSE(mayOverlap(O, Exact));
  EXPECT_TRUE(mayOverlap(O, Unknown));
  TmemRange OtherRegion{8, std::nullopt, 8, IntRange{0, 127}};
  EXPECT_FALSE(mayOverlap(S, OtherRegion));
}

/// The type of variable \p Name in \p AST.
clang::QualType typeOf(clang::ASTUnit &AST, llvm::StringRef Name) {
  for (clang::Decl *D : AST.getASTContext().getTranslationUnitDecl()->decls())
    if (auto *VD = llvm::dyn_cast<clang::VarDecl>(D))
      if (VD->getName() == Name)
        return VD->getType();
  return {};
}

TEST(CuteTmemTensors, LayoutExtentsFromStaticTypes) {
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          R"cpp(
namespace cute {
template <auto v> struct C {};
template <class... T> struct tuple {};
template <class Shape, class Stride> struct Layout {};
template <class T> struct tmem_ptr { unsigned addr_; };
template <class It> struct ViewEngine { It ptr_; };
template <class E, class L> struct Tensor {};
}
using namespace cute;
// 128 lanes x 128 fp32 columns.
Tensor<ViewEngine<tmem_ptr<float>>,
       Layout<tuple<C<128>, C<128>>, tuple<C<65536>, C<1>>>> acc;
// A thread's slice: 16 columns in 2 runs of 8, 8 columns apart.
Tensor<ViewEngine<tmem_ptr<float>>,
       Layout<tuple<C<8>, tuple<C<2>, C<4>>>, tuple<C<1>, tuple<C<8>, C<0>>>>>
    slice;
// Half-precision P: 2 elements per column.
Tensor<ViewEngine<tmem_ptr<short>>,
       Layout<tuple<C<128>, C<64>>, tuple<C<131072>, C<1>>>> p;
// A run-time extent with a non-zero stride: unknown.
Tensor<ViewEngine<tmem_ptr<float>>, Layout<tuple<int>, tuple<C<1>>>> dyn;
// Not TMEM.
Tensor<ViewEngine<float *>, Layout<tuple<C<4>>, tuple<C<1>>>> rmem;
)cpp",
          {"-std=c++17"});
  ASSERT_TRUE(AST);
  auto Extent = [&](llvm::StringRef Name) -> std::optional<int64_t> {
    auto [Layout, Element] = tmemTensorLayout(typeOf(*AST, Name));
    if (Layout.isNull())
      return std::nullopt;
    return layoutColumnExtent(
        Layout, unsigned(AST->getASTContext().getTypeSize(Element)));
  };
  EXPECT_EQ(Extent("acc"), 128);
  EXPECT_EQ(Extent("slice"), 16);
  EXPECT_EQ(Extent("p"), 32);
  EXPECT_EQ(Extent("dyn"), std::nullopt);
  EXPECT_TRUE(tmemTensorLayout(typeOf(*AST, "rmem")).first.isNull());
}

} // namespace
