//===- DivergentBarrierCheck.cpp - tmem-divergent-barrier -----------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include <fmt/format.h>

#include <set>
#include <utility>

namespace tmemcheck {

namespace {

/// An aligned barrier instruction of the graph and the block it is in.
struct BarrierSite {
  const Event *E;
  unsigned Block;
};

bool isAlignedBarrier(const Event &E) {
  return E.K == Event::Kind::Sync && E.Sync && E.Sync->Aligned &&
         (E.Sync->Kind == SyncOpKind::BarrierSync ||
          E.Sync->Kind == SyncOpKind::BarrierArrive);
}

/// The barrier id of \p E when it is a constant (`__syncthreads()` is
/// barrier 0).
std::optional<int64_t> barrierId(const Event &E) {
  int K = E.Sync->BarrierIdOperand;
  if (K < 0)
    return E.Opcode == "__syncthreads()" ? std::optional<int64_t>(0)
                                         : std::nullopt;
  if (size_t(K) >= E.Operands.size())
    return std::nullopt;
  return E.Operands[K].Value.Constant;
}

/// `bar.sync id` without a thread count: every thread of the CTA takes part.
bool waitsForWholeCta(const Event &E) {
  return E.Sync->Kind == SyncOpKind::BarrierSync &&
         E.Sync->ThreadCountOperand < 0;
}

/// Flags aligned barriers (`bar.sync`, `bar.arrive`, `barrier.sync.aligned`,
/// `__syncthreads()`) that the threads they synchronise reach at different
/// instructions (rule B1, PTX ISA "bar, barrier": with .aligned every
/// thread must execute the same barrier instruction; in conditional code
/// only if the condition is uniform across those threads):
///  - the arms of a branch on a warp- or lane-dependent condition (warp
///    roles, partitions) that each carry their own CTA-wide `bar.sync id`
///    with the same id and no thread count before the arms meet again: the
///    warps of the two arms rendezvous at two different instructions
///    (Triton #11525: two exits, each ending in `bar.sync 0`);
///  - the arms of a lane-divergent branch that each reach an aligned
///    barrier: lanes of one warp at different barrier instructions.
/// A barrier at the point where the arms reconverge is one instruction and
/// fine; so are named barriers with a thread count (`bar.sync 1, 64` by the
/// warps that stay) and role branches that each use their own barrier id.
class DivergentBarrierCheck : public Check {
public:
  DivergentBarrierCheck() : Check("tmem-divergent-barrier", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    // A TMEM tool: kernels without tcgen05 instructions are not its
    // concern (a Hopper CuTe DSL kernel whose compiler gave two arms of a
    // warp test their own copy of one `bar.sync 1` is left alone).
    bool UsesTmem = false;
    G.forEachEvent(
        [&](const Event &E) { UsesTmem |= E.K == Event::Kind::Tmem; });
    if (!UsesTmem)
      return;
    std::vector<std::vector<const Event *>> BarriersIn(G.Blocks.size());
    unsigned Count = 0;
    for (unsigned B = 0; B < G.Blocks.size(); ++B)
      for (const Event &E : G.Blocks[B].Events)
        if (isAlignedBarrier(E)) {
          BarriersIn[B].push_back(&E);
          ++Count;
        }
    if (Count < 2)
      return;
    const ControlDependence &CD = Ctx.control();
    std::set<std::pair<unsigned, unsigned>> Reported;
    for (unsigned C = 0; C < G.Blocks.size(); ++C) {
      const Block &Branch = G.Blocks[C];
      if (Branch.Succs.size() != 2 || !Branch.BranchUniformity ||
          Branch.BranchIsLoop ||
          (*Branch.BranchUniformity != Uniformity::WarpUniform &&
           *Branch.BranchUniformity != Uniformity::ThreadVariant))
        continue;
      if (Ctx.budget().exhausted())
        return;
      // The blocks each arm runs before the arms meet again.
      int Join = CD.ipdom(C);
      std::vector<uint8_t> Arm[2];
      for (unsigned A = 0; A < 2; ++A)
        Arm[A] = armRegion(G, C, Branch.Succs[A], Join);
      std::vector<BarrierSite> Only[2];
      for (unsigned A = 0; A < 2; ++A)
        for (unsigned B = 0; B < G.Blocks.size(); ++B)
          if (Arm[A][B] && !Arm[1 - A][B])
            for (const Event *E : BarriersIn[B])
              Only[A].push_back({E, B});
      if (Only[0].empty() || Only[1].empty())
        continue;
      bool LaneSplit = *Branch.BranchUniformity == Uniformity::ThreadVariant;
      for (const BarrierSite &X : Only[0])
        for (const BarrierSite &Y : Only[1]) {
          bool SameCtaBarrier = waitsForWholeCta(*X.E) &&
                                waitsForWholeCta(*Y.E) && barrierId(*X.E) &&
                                barrierId(*X.E) == barrierId(*Y.E);
          bool LanesApart = LaneSplit &&
                            Ctx.threads().splitReaches(C, X.Block) &&
                            Ctx.threads().splitReaches(C, Y.Block);
          if (!SameCtaBarrier && !LanesApart)
            continue;
          const BarrierSite &First = X.E->Id < Y.E->Id ? X : Y;
          const BarrierSite &Second = X.E->Id < Y.E->Id ? Y : X;
          if (!Reported.insert({First.E->Id, Second.E->Id}).second)
            continue;
          report(G, *Second.E, *First.E, Branch, LanesApart, Out);
        }
    }
  }

private:
  /// Blocks reachable from \p Start without passing \p Join (the arms'
  /// meeting point, -1: the exit) or the branch \p C itself again.
  static std::vector<uint8_t> armRegion(const KernelGraph &G, unsigned C,
                                        unsigned Start, int Join) {
    std::vector<uint8_t> In(G.Blocks.size(), 0);
    std::vector<unsigned> Work;
    auto Visit = [&](unsigned B) {
      if (int(B) == Join || B == C || In[B])
        return;
      In[B] = 1;
      Work.push_back(B);
    };
    Visit(Start);
    while (!Work.empty()) {
      unsigned B = Work.back();
      Work.pop_back();
      for (unsigned S : G.Blocks[B].Succs)
        Visit(S);
    }
    return In;
  }

  void report(const KernelGraph &G, const Event &E, const Event &Other,
              const Block &Branch, bool LanesApart, FindingSink &Out) const {
    SourceLoc OtherLoc = Other.kernelLoc();
    std::string Message;
    if (LanesApart)
      Message = fmt::format(
          "lanes of one warp reach different aligned barriers, this '{}' "
          "and the one at line {}; an aligned barrier must be executed by "
          "all threads of the warp at the same instruction (rule B1)",
          E.Opcode, OtherLoc.Line);
    else
      Message = fmt::format(
          "the warps that branch apart reach barrier {} at two different "
          "instructions, this '{}' and the one at line {}; '{}' is aligned: "
          "every thread of the CTA must wait at the same barrier "
          "instruction (rule B1)",
          *barrierId(E), E.Opcode, OtherLoc.Line, E.Opcode);
    Finding F = makeKernelLevelFinding(G, E, std::move(Message));
    F.Notes.push_back({OtherLoc, "the threads of the other arm wait here"});
    F.Notes.push_back(
        {Branch.BranchLoc,
         LanesApart
             ? "this condition differs between the lanes of a warp"
             : "the threads split here; move one barrier after the point "
               "where the arms meet, or give each role its own named "
               "barrier with its thread count (bar.sync id, count)"});
    // The code flow: the split, the other arm's barrier, this one.
    addFlowStep(F, Branch.BranchLoc,
                LanesApart ? "the lanes of a warp split here"
                           : "the threads split here");
    addFlowStep(
        F, OtherLoc,
        fmt::format("the threads of one arm wait at this '{}'", Other.Opcode));
    Out.report(std::move(F));
  }
};

} // namespace

std::unique_ptr<Check> createDivergentBarrierCheck() {
  return std::make_unique<DivergentBarrierCheck>();
}

} // namespace tmemcheck
