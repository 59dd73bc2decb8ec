//===- SyncOp.cpp - Decoding synchronisation instructions -----------------===//
//
// Part of tmemcheck. Barriers, mbarriers, elect.sync and the async-proxy
// fence: the instructions that order tcgen05 work across threads (rules
// §5.3).
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/TmemOp.h"

#include "llvm/ADT/ArrayRef.h"

using namespace llvm;

namespace tmemcheck {

namespace {

/// Index of the first `[...]` operand, or -1.
int firstAddressOperand(const ptx::Instruction &I) {
  for (size_t K = 0; K < I.Operands.size(); ++K)
    if (I.Operands[K].K == ptx::Operand::Kind::Address)
      return int(K);
  return -1;
}

/// Fills the operands of `bar.sync a{, b}` style barriers.
SyncOp namedBarrier(const ptx::Instruction &I, SyncOpKind Kind) {
  SyncOp S;
  S.Kind = Kind;
  S.Aligned = I.base() == "bar" || I.hasPart("aligned");
  if (!I.Operands.empty())
    S.BarrierIdOperand = 0;
  if (I.Operands.size() > 1)
    S.ThreadCountOperand = 1;
  return S;
}

} // namespace

std::optional<SyncOp> decodeSyncOp(const ptx::Instruction &I) {
  ArrayRef<std::string> Parts = I.Parts;
  if (Parts.size() < 2)
    return std::nullopt;
  StringRef Base = Parts[0];
  StringRef Op = Parts[1];

  if (Base == "bar" || Base == "barrier") {
    // bar{.cta}.sync / barrier{.cta}.sync{.aligned} / ...arrive.
    size_t K = 1;
    if (Parts[K] == "cta" && Parts.size() > 2)
      ++K;
    StringRef What = Parts[K];
    if (What == "sync")
      return namedBarrier(I, SyncOpKind::BarrierSync);
    if (What == "arrive")
      return namedBarrier(I, SyncOpKind::BarrierArrive);
    if (Base == "barrier" && What == "cluster" && Parts.size() > K + 1) {
      StringRef Dir = Parts[K + 1];
      if (Dir != "arrive" && Dir != "wait")
        return std::nullopt;
      SyncOp S;
      S.Kind = SyncOpKind::ClusterBarrier;
      S.IsArrive = Dir == "arrive";
      return S;
    }
    return std::nullopt;
  }

  if (Base == "mbarrier") {
    SyncOp S;
    if (Op == "init")
      S.Kind = SyncOpKind::MbarrierInit;
    else if (Op == "arrive" || Op == "arrive_drop")
      S.Kind = SyncOpKind::MbarrierArrive;
    else if (Op == "expect_tx")
      S.Kind = SyncOpKind::MbarrierExpectTx;
    else if (Op == "try_wait" || Op == "test_wait")
      S.Kind = SyncOpKind::MbarrierWait;
    else
      return std::nullopt;
    S.MbarOperand = firstAddressOperand(I);
    return S;
  }

  if (Base == "elect" && Op == "sync") {
    SyncOp S;
    S.Kind = SyncOpKind::ElectSync;
    return S;
  }

  if (Base == "fence" && Op == "proxy" && Parts.size() > 2 &&
      Parts[2] == "async") {
    SyncOp S;
    S.Kind = SyncOpKind::FenceProxyAsync;
    return S;
  }
  return std::nullopt;
}

} // namespace tmemcheck
