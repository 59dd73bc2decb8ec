//===- DivergentCollectiveCheck.cpp - tmem-divergent-collective -----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Analysis/BlockThreads.h"
#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Whether two lanes of one warp that may both run the block (\p Threads,
/// null for every thread) hold different values of \p V. A value known
/// thread by thread is compared in those lanes only: the lanes of warps
/// that never run the block (the producer warps of an epilogue whose
/// `(tid - 128) / 32` rounds differently below 128) do not count.
bool differsInRunningLanes(const AbstractValue &V, const ThreadMask &Threads) {
  if (!V.LaneVariant)
    return false;
  if (!V.PerThread || !Threads)
    return true;
  const std::vector<int64_t> &T = *V.PerThread;
  const size_t N = std::min(T.size(), Threads->size());
  for (size_t Warp = 0; Warp < N; Warp += 32) {
    std::optional<int64_t> First;
    for (size_t L = Warp; L < Warp + 32 && L < N; ++L) {
      if (!(*Threads)[L])
        continue;
      if (!First)
        First = T[L];
      else if (T[L] != *First)
        return true;
    }
  }
  return false;
}

/// The operand of warp-collective \p E that provably differs between the
/// lanes of a warp that may run it (\p Threads), with what it is, or
/// nullptr. Checked in this order: the TMEM address (ld, st, dealloc), the
/// column count (alloc, dealloc), the slot address (alloc).
const OperandValue *laneVariantOperand(const Event &E,
                                       const ThreadMask &Threads,
                                       const char *&What) {
  struct Candidate {
    int Index;
    const char *What;
  };
  const TmemOp &Op = *E.Op;
  bool HasAddress = Op.Kind == TmemOpKind::Load ||
                    Op.Kind == TmemOpKind::Store ||
                    Op.Kind == TmemOpKind::Dealloc;
  const Candidate Candidates[] = {
      {HasAddress ? Op.TmemAddrOperand : -1, "TMEM address"},
      {Op.NColsOperand, "column count"},
      {Op.Kind == TmemOpKind::Alloc ? Op.SlotOperand : -1,
       "shared-memory slot address"}};
  for (const Candidate &C : Candidates) {
    if (C.Index < 0 || static_cast<size_t>(C.Index) >= E.Operands.size())
      continue;
    const OperandValue &V = E.Operands[C.Index];
    if (differsInRunningLanes(V.Value, Threads)) {
      What = C.What;
      return &V;
    }
  }
  return nullptr;
}

/// Flags a warp-collective (`.sync.aligned`) tcgen05 instruction that runs
/// under a condition that differs between the lanes of a warp: alloc inside
/// `if (threadIdx.x == 0)`, ld after some lanes returned (rule A2, rules §2).
/// Loop conditions are exempt: lanes leave a loop together in the idioms
/// kernels use, and tmemcheck cannot prove otherwise.
///
/// Also flags one whose operands differ between the lanes of a warp
/// (rules §2 "taddr: T (same in all lanes)", A1, §10 #16): `tcgen05.ld` at
/// `taddr + (threadIdx.x << 16)`, alloc of `32 * (lane % 2 + 1)` columns.
/// Only operands that provably differ (a function of the lane that is not
/// constant in a warp, plus a warp-uniform base) count; opaque values never
/// do.
class DivergentCollectiveCheck : public Check {
public:
  DivergentCollectiveCheck()
      : Check("tmem-divergent-collective", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const ControlDependence &CD = Ctx.control();
    for (unsigned B = 0; B < G.Blocks.size(); ++B) {
      const Block &Blk = G.Blocks[B];
      for (const Event &E : Blk.Events) {
        if (E.K != Event::Kind::Tmem || !E.Op || !E.Op->isWarpCollective())
          continue;
        reportLaneVariantOperand(G, E, Ctx.blockThreads().of(B), Out);
        const Block *Divergent = nullptr;
        for (unsigned C : CD.allControllers(B)) {
          const Block &Cond = G.Blocks[C];
          // `if (warp_idx == 1 && elect_one_sync()) ... else if (warp_idx ==
          // 2) alloc`: the lanes the election splits never reach the alloc,
          // so that split does not divide the allocating warp.
          if (Cond.BranchUniformity == Uniformity::ThreadVariant &&
              !Cond.BranchIsLoop && Ctx.threads().splitReaches(C, B)) {
            Divergent = &Cond;
            break;
          }
        }
        if (!Divergent)
          continue;
        Finding F = makeKernelLevelFinding(
            G, E,
            fmt::format("tcgen05.{} is warp-collective (.sync.aligned) but "
                        "runs under a condition that differs between the "
                        "lanes of a warp (rule A2)",
                        kindName(E.Op->Kind).str()));
        F.Notes.push_back(
            {Divergent->BranchLoc,
             "this condition depends on the lane; branch on a warp-uniform "
             "value such as threadIdx.x / 32 instead"});
        Out.report(std::move(F));
      }
    }
  }

private:
  void reportLaneVariantOperand(const KernelGraph &G, const Event &E,
                                const ThreadMask &Threads, FindingSink &Out) {
    const char *What = nullptr;
    if (!laneVariantOperand(E, Threads, What))
      return;
    llvm::StringRef Kind = kindName(E.Op->Kind);
    bool IsAddress = llvm::StringRef(What) == "TMEM address";
    Finding F = makeKernelLevelFinding(
        G, E,
        fmt::format("tcgen05.{}'s {} differs between the lanes of a warp (it "
                    "depends on threadIdx.x); every lane of the warp must "
                    "pass the same {} (rules §2, {}§10 #16)",
                    Kind.str(), What, What,
                    llvm::StringRef(What) == "column count" ? "A1, " : ""));
    F.Notes.push_back(
        {F.Loc,
         IsAddress && Kind != "dealloc"
             ? "each lane already reaches its own TMEM lane (32x32b: lane "
               "i of the warp reads lane base + i); select the warp's "
               "quarter with a warp-uniform offset such as ((warp_idx % 4) "
               "* 32) << 16"
             : "compute it from warp-uniform values (constants, kernel "
               "parameters, threadIdx.x / 32, a __shfl_sync broadcast)"});
    Out.report(std::move(F));
  }
};

} // namespace

std::unique_ptr<Check> createDivergentCollectiveCheck() {
  return std::make_unique<DivergentCollectiveCheck>();
}

} // namespace tmemcheck
