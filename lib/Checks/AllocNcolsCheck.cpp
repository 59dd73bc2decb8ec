//===- AllocNcolsCheck.cpp - tmem-alloc-ncols -----------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/StringRef.h"

#include <fmt/format.h>

namespace tmemcheck {

namespace {

/// The column count operand of an alloc or dealloc event, if it has one.
const OperandValue *columnCountOperand(const Event &E) {
  if (E.K != Event::Kind::Tmem || !E.Op ||
      (E.Op->Kind != TmemOpKind::Alloc && E.Op->Kind != TmemOpKind::Dealloc))
    return nullptr;
  int Idx = E.Op->NColsOperand;
  if (Idx < 0 || static_cast<size_t>(Idx) >= E.Operands.size())
    return nullptr;
  return &E.Operands[Idx];
}

/// The written literal of \p V when it is the operand's value.
const WrittenLiteral *rewritableLiteral(const KernelGraph &G,
                                        const OperandValue &V) {
  const WrittenLiteral *L = G.literalOf(V);
  if (!L || !V.Value.Constant || L->Value != *V.Value.Constant)
    return nullptr;
  return L;
}

/// \p L rewritten to \p Cols, keeping its suffix (`96u` -> `128u`).
FixIt rewrite(const WrittenLiteral &L, unsigned Cols) {
  llvm::StringRef Text = L.Text;
  size_t SuffixStart = Text.find_last_not_of("uUlLzZ") + 1;
  return FixIt{L.File, L.Offset, static_cast<unsigned>(L.Text.size()),
               std::to_string(Cols) + Text.substr(SuffixStart).str()};
}

/// Flags tcgen05.alloc / tcgen05.dealloc whose column count is a known
/// constant that is not a power of two in [32, 512] (rule A1). ptxas checks
/// only immediates of alloc (EXP-1); counts that reach the instruction in a
/// register — every CCCL and CUTLASS wrapper, template arguments, constexpr
/// variables — and dealloc immediates (EXP-3) pass it silently.
class AllocNcolsCheck : public Check {
public:
  AllocNcolsCheck() : Check("tmem-alloc-ncols", Severity::Error) {}

  void checkKernel(AnalysisContext &Ctx, FindingSink &Out) override {
    const KernelGraph &G = Ctx.graph();
    // Computed on the first dealloc finding that could use it.
    std::optional<std::optional<unsigned>> DeallocTarget;
    G.forEachEvent([&](const Event &E) {
      const OperandValue *V = columnCountOperand(E);
      if (!V || !V->Value.Constant ||
          isLegalAllocColumnCount(*V->Value.Constant))
        return;
      bool IsAlloc = E.Op->Kind == TmemOpKind::Alloc;
      int64_t N = *V->Value.Constant;
      Finding F = makeKernelLevelFinding(
          G, E,
          fmt::format("tcgen05.{} {} {} columns; the column count must be a "
                      "power of two in [32, 512] (rule A1)",
                      IsAlloc ? "alloc" : "dealloc",
                      IsAlloc ? "requests" : "frees", N));
      std::optional<unsigned> Legal = roundUpToLegalAllocColumnCount(N);
      // A dealloc must free what an alloc got; only an alloc has a "right"
      // size to suggest.
      if (IsAlloc)
        F.Notes.insert(F.Notes.begin(),
                       {F.Loc, Legal ? fmt::format("use {} columns, the next "
                                                   "legal size",
                                                   *Legal)
                                     : "a CTA can hold at most 512 columns"});
      // The literal is rewritten in place: an alloc to the next legal size,
      // a dealloc to the size every alloc of the kernel will have (when its
      // own count rounds up to that size too).
      const WrittenLiteral *L = rewritableLiteral(G, *V);
      if (L && Legal && !IsAlloc && !DeallocTarget)
        DeallocTarget = deallocTarget(G);
      if (L && Legal && (IsAlloc || *DeallocTarget == Legal))
        F.Fixes.push_back(rewrite(*L, *Legal));
      Out.report(std::move(F));
    });
  }

private:
  /// The one column count every alloc of the kernel has once the alloc
  /// fix-its are applied, if all are known: a dealloc may then be rounded
  /// to it. None when an alloc is unknown, stays illegal, or the kernel
  /// might allocate where the graph cannot see (opaque calls, budget).
  static std::optional<unsigned> deallocTarget(const KernelGraph &G) {
    if (G.Truncated)
      return std::nullopt;
    std::optional<unsigned> Target;
    bool Consistent = true;
    G.forEachEvent([&](const Event &E) {
      if (E.K == Event::Kind::OpaqueCall)
        Consistent = false;
      const OperandValue *V = columnCountOperand(E);
      if (!V || E.Op->Kind != TmemOpKind::Alloc)
        return;
      std::optional<unsigned> Final;
      if (V->Value.Constant && isLegalAllocColumnCount(*V->Value.Constant))
        Final = static_cast<unsigned>(*V->Value.Constant);
      else if (V->Value.Constant && rewritableLiteral(G, *V))
        Final = roundUpToLegalAllocColumnCount(*V->Value.Constant);
      if (!Final || (Target && *Target != *Final))
        Consistent = false;
      Target = Final;
    });
    return Consistent ? Target : std::nullopt;
  }
};

} // namespace

std::unique_ptr<Check> createAllocNcolsCheck() {
  return std::make_unique<AllocNcolsCheck>();
}

} // namespace tmemcheck
