//===- SharedAccessTest.cpp - decodeSharedAccess and aligned barriers -----===//
//
// Part of tmemcheck. Which operands of non-tcgen05 instructions are shared-
// memory or generic addresses (tmem-shared-access), and which barriers are
// aligned (tmem-divergent-barrier).
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/SharedAccess.h"
#include "tmemcheck/Model/TmemOp.h"
#include "tmemcheck/Ptx/Parser.h"

#include "gtest/gtest.h"

using namespace tmemcheck;
using namespace tmemcheck::ptx;

namespace {

Instruction parse(llvm::StringRef Src) {
  ParsedAsm P = parseInlineAsm(Src, std::vector<AsmOperandInfo>(8));
  EXPECT_TRUE(P.Diagnostics.empty()) << Src.str();
  EXPECT_EQ(P.Instructions.size(), 1u) << Src.str();
  return P.Instructions.empty() ? Instruction() : P.Instructions.front();
}

std::vector<int> addresses(llvm::StringRef Src, bool *Generic = nullptr) {
  std::optional<SharedAccessOp> S = decodeSharedAccess(parse(Src));
  if (!S)
    return {-1};
  if (Generic)
    *Generic = S->Generic;
  return std::vector<int>(S->AddressOperands.begin(), S->AddressOperands.end());
}

TEST(SharedAccessTest, LoadsStoresAtomics) {
  EXPECT_EQ(addresses("ld.shared.b32 %0, [%1];"), std::vector<int>{1});
  EXPECT_EQ(addresses("ld.shared::cta.u32 %0, [%1+4];"), std::vector<int>{1});
  EXPECT_EQ(addresses("st.shared.v2.f32 [%0], {%1, %2};"), std::vector<int>{0});
  EXPECT_EQ(addresses("atom.shared.add.u32 %0, [%1], 1;"), std::vector<int>{1});
  EXPECT_EQ(addresses("red.shared.add.u32 [%0], %1;"), std::vector<int>{0});
  bool Generic = false;
  EXPECT_EQ(addresses("ld.f32 %0, [%1];", &Generic), std::vector<int>{1});
  EXPECT_TRUE(Generic);
  // Other state spaces are not shared memory.
  EXPECT_EQ(addresses("ld.global.f32 %0, [%1];"), std::vector<int>{-1});
  EXPECT_EQ(addresses("ld.param.u32 %0, [%1];"), std::vector<int>{-1});
  EXPECT_EQ(addresses("st.global.u32 [%0], %1;"), std::vector<int>{-1});
}

TEST(SharedAccessTest, MatrixAndCopies) {
  EXPECT_EQ(addresses("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, "
                      "%3}, [%4];"),
            std::vector<int>{1});
  EXPECT_EQ(addresses("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, "
                      "%2};"),
            std::vector<int>{0});
  EXPECT_EQ(addresses("cp.async.cg.shared.global [%0], [%1], 16;"),
            std::vector<int>{0});
  // Destination, then the mbarrier of complete_tx.
  EXPECT_EQ(addresses("cp.async.bulk.shared::cluster.global.mbarrier::"
                      "complete_tx::bytes [%0], [%1], 256, [%2];"),
            (std::vector<int>{0, 3}));
  // A store to global memory reads shared memory: the source.
  EXPECT_EQ(addresses("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], "
                      "256;"),
            std::vector<int>{1});
  EXPECT_EQ(addresses("cvta.shared.u64 %0, %1;"), std::vector<int>{1});
  // The other direction's source is a generic address, not checked.
  EXPECT_EQ(addresses("cvta.to.shared.u64 %0, %1;"), std::vector<int>{-1});
  EXPECT_EQ(addresses("mov.u32 %0, %1;"), std::vector<int>{-1});
  EXPECT_EQ(addresses("add.u32 %0, %1, 4;"), std::vector<int>{-1});
}

TEST(SharedAccessTest, AlignedBarriers) {
  struct Case {
    const char *Src;
    bool Aligned;
  };
  for (Case C :
       {Case{"bar.sync 0;", true}, Case{"bar.cta.sync 1, 64;", true},
        Case{"barrier.sync.aligned 0;", true},
        Case{"barrier.cta.sync.aligned 2, 128;", true},
        Case{"bar.arrive 1, 128;", true}, Case{"barrier.sync 0;", false},
        Case{"barrier.cta.arrive 1, 128;", false}}) {
    std::optional<SyncOp> S = decodeSyncOp(parse(C.Src));
    ASSERT_TRUE(S) << C.Src;
    EXPECT_EQ(S->Aligned, C.Aligned) << C.Src;
  }
}

} // namespace
