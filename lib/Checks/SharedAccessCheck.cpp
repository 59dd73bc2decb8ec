//===- SharedAccessCheck.cpp - tmem-shared-access -------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"
#include "FlowSteps.h"

#include "tmemcheck/Analysis/Lifecycle.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// Flags the two confusions of a TMEM address with a shared-memory address
/// (rules M3, §10 #26 and #27), which nvcc and ptxas accept silently:
///  - a TMEM address (read from a slot that tcgen05.alloc writes, or
///    derived from one) used where shared or generic memory is addressed:
///    ld/st/atom/red, ldmatrix/stmatrix, cp.async* and TMA operands,
///    cvta.shared / `__cvta_shared_to_generic`, a dereferenced pointer made
///    from it, an mbarrier operand, a shared-memory matrix descriptor;
///  - the shared-memory address of such a slot (`&slot`, the slot symbol in
///    PTX) passed where a tcgen05 instruction wants the TMEM address.
/// Reading the slot (`ld.shared` of its address) is the correct use and is
/// not an access of this kind; nor are the alloc's `[dst]` and commit's
/// mbarrier operands, which are shared-memory addresses.
class SharedAccessCheck : public Check {
public:
  SharedAccessCheck() : Check("tmem-shared-access", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    const LifecycleAnalysis &L = Ctx.lifecycle();
    if (L.regions().empty())
      return;
    G.forEachEvent([&](const Event &E) {
      switch (E.K) {
      case Event::Kind::SharedAccess:
        for (int K : E.Shared->AddressOperands)
          if (reportTmemAsShared(G, L, E, K, Out,
                                 E.Shared->Descriptor
                                     ? "shared-memory matrix descriptor"
                                     : nullptr))
            break;
        break;
      case Event::Kind::Sync:
        if (E.Sync->MbarOperand >= 0)
          reportTmemAsShared(G, L, E, E.Sync->MbarOperand, Out);
        break;
      case Event::Kind::Tmem:
        checkTmemOperands(G, L, E, Out);
        break;
      default:
        break;
      }
    });
  }

private:
  /// The alloc slot whose TMEM address operand \p K of \p E holds, or null.
  static const Region *tmemRegion(const LifecycleAnalysis &L, const Event &E,
                                  int K, bool WantTmem) {
    if (K < 0 || size_t(K) >= E.Operands.size())
      return nullptr;
    const AbstractValue &V = E.Operands[K].Value;
    if (WantTmem)
      return V.isTmemAddress() ? L.region(V.Slot) : nullptr;
    if (!V.isSlotAddress())
      return nullptr;
    if (const Region *R = L.region(V.Slot))
      return R;
    // `&slot + x` or `slots + x`, x unknown, names the class of locations
    // of the variable or array the slot is in: still a shared-memory
    // address, never a TMEM one.
    if (const Region *R = L.region(V.SlotArray))
      return R;
    if (!V.SlotArray)
      return nullptr;
    for (const Region &R : L.regions())
      for (const Event *A : R.Allocs) {
        int K = A->Op->SlotOperand;
        if (K >= 0 && size_t(K) < A->Operands.size() &&
            A->Operands[K].Value.isSlotAddress() &&
            A->Operands[K].Value.SlotArray == V.SlotArray)
          return &R;
      }
    return nullptr;
  }

  static std::string instructionName(const Event &E) {
    if (E.Opcode.empty() && E.Op)
      return "tcgen05." + kindName(E.Op->Kind).str();
    return E.Opcode;
  }

  void addAllocNote(Finding &F, const Region &R, const Event &E) const {
    if (!R.Allocs.empty())
      F.Notes.push_back({locationSeenFrom(*R.Allocs.front(), E),
                         fmt::format("tcgen05.alloc writes the TMEM address "
                                     "into '{}' here",
                                     R.Name)});
  }

  /// The code flow, in program order, of a TMEM address used as a shared
  /// one: the alloc that stores it into the slot, the last read of the slot
  /// before \p E (where the address is loaded), then \p E.
  static void addAddressFlow(const KernelGraph &G, Finding &F, const Region &R,
                             const Event &E) {
    const Event *Alloc = nullptr;
    for (const Event *A : R.Allocs)
      if (!Alloc || A->Id < E.Id)
        Alloc = A;
    if (Alloc)
      addEventFlowStep(F, *Alloc, E,
                       fmt::format("tcgen05.alloc stores the TMEM address "
                                   "into '{}'",
                                   R.Name));
    const Event *Read = nullptr;
    G.forEachEvent([&](const Event &X) {
      if (X.K == Event::Kind::SlotRead && X.Slot == R.Slot && X.Id < E.Id &&
          (!Read || X.Id > Read->Id))
        Read = &X;
    });
    if (Read)
      addEventFlowStep(
          F, *Read, E,
          fmt::format("the TMEM address is read from '{}' here", R.Name));
  }

  /// A TMEM address in operand \p K of \p E, which addresses shared or
  /// generic memory there.
  bool reportTmemAsShared(const KernelGraph &G, const LifecycleAnalysis &L,
                          const Event &E, int K, FindingSink &Out,
                          const char *Role = nullptr) const {
    // A descriptor built from a TMEM address by masks and shifts is as
    // wrong as the address itself; other operands need the address.
    const Region *R = tmemRegion(L, E, K, /*WantTmem=*/true);
    if (!R && Role && K >= 0 && size_t(K) < E.Operands.size())
      R = L.region(E.Operands[K].Value.TmemDerivedSlot);
    if (!R)
      return false;
    std::string Message;
    if (E.K == Event::Kind::SharedAccess && E.Opcode == "dereference")
      Message = fmt::format(
          "a pointer made from the TMEM address read from '{}' is "
          "dereferenced; TMEM is not addressable memory, only tcgen05 "
          "instructions reach it (rule M3)",
          R->Name);
    else if (E.K == Event::Kind::SharedAccess &&
             E.Opcode == "__cvta_shared_to_generic")
      Message = fmt::format(
          "'__cvta_shared_to_generic' is given the TMEM address read from "
          "'{}', which is not a shared-memory address (rule M3)",
          R->Name);
    else if (Role)
      Message = fmt::format(
          "'{}' builds its {} from the TMEM address read from '{}'; a "
          "shared-memory matrix descriptor needs a shared-memory address "
          "(rule M3)",
          instructionName(E), Role, R->Name);
    else
      Message = fmt::format(
          "'{}' uses the TMEM address read from '{}' as a {} address; TMEM "
          "is reachable only through tcgen05 instructions (rule M3)",
          instructionName(E), R->Name,
          E.Shared && E.Shared->Generic ? "generic" : "shared-memory");
    Finding F = makeKernelLevelFinding(G, E, std::move(Message));
    addAllocNote(F, *R, E);
    addAddressFlow(G, F, *R, E);
    Out.report(std::move(F));
    return true;
  }

  void checkTmemOperands(const KernelGraph &G, const LifecycleAnalysis &L,
                         const Event &E, FindingSink &Out) const {
    const TmemOp &Op = *E.Op;
    // Operands that must be shared-memory addresses or descriptors.
    if (Op.Kind == TmemOpKind::Commit)
      reportTmemAsShared(G, L, E, Op.MbarOperand, Out);
    if (Op.Kind == TmemOpKind::Alloc)
      reportTmemAsShared(G, L, E, Op.SlotOperand, Out);
    if (Op.Kind == TmemOpKind::Mma) {
      if (!Op.ATmem)
        reportTmemAsShared(G, L, E, Op.ADescOrTmemOperand, Out,
                           "A matrix descriptor");
      reportTmemAsShared(G, L, E, Op.BDescOperand, Out, "B matrix descriptor");
    }
    if (Op.Kind == TmemOpKind::Copy)
      reportTmemAsShared(G, L, E, Op.SourceDescOperand, Out,
                         "source matrix descriptor");

    // Operands that must be TMEM addresses.
    struct Want {
      int Index;
      const char *What;
    };
    const Want Wants[] = {
        {Op.TmemAddrOperand,
         Op.Kind == TmemOpKind::Mma ? "D (accumulator)" : "TMEM address"},
        {Op.Kind == TmemOpKind::Mma && Op.ATmem ? Op.ADescOrTmemOperand : -1,
         "A (TMEM)"},
        {Op.SfaOperand, "scale-factor A"},
        {Op.SfbOperand, "scale-factor B"},
        {Op.SparseMetaOperand, "sparsity metadata"}};
    for (const Want &W : Wants) {
      const Region *R = tmemRegion(L, E, W.Index, /*WantTmem=*/false);
      if (!R)
        continue;
      Finding F = makeKernelLevelFinding(
          G, E,
          fmt::format("tcgen05.{}'s {} operand is the shared-memory address "
                      "of '{}', not the TMEM address tcgen05.alloc stored "
                      "there (rule M3, §10 #27)",
                      kindName(Op.Kind).str(), W.What, R->Name));
      F.Notes.push_back(
          {F.Loc, fmt::format("read the slot ('{}' in C++, ld.shared.b32 of "
                              "its address in PTX) and pass that value",
                              R->Name)});
      addAllocNote(F, *R, E);
      // The code flow: the alloc that stores the TMEM address into the
      // slot whose own address is passed here.
      if (!R->Allocs.empty())
        addEventFlowStep(F, *R->Allocs.front(), E,
                         fmt::format("tcgen05.alloc stores the TMEM address "
                                     "into '{}'; its shared-memory address "
                                     "is not it",
                                     R->Name));
      Out.report(std::move(F));
      return;
    }
  }
};

} // namespace

std::unique_ptr<Check> createSharedAccessCheck() {
  return std::make_unique<SharedAccessCheck>();
}

} // namespace tmemcheck
