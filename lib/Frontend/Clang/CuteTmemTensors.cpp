//===- CuteTmemTensors.cpp - CuTe's TMEM tensors as addresses -------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "CuteTmemTensors.h"

#include "tmemcheck/Analysis/ValueRange.h"

#include "clang/AST/DeclTemplate.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace tmemcheck {

namespace {

/// Tensors are made from tensors through CuTe's layout algebra and the
/// copy algorithms' parameters, several calls deep.
constexpr unsigned MaxDepth = 160;

/// `cute::Name<...>` (through references and aliases), or nullptr.
const ClassTemplateSpecializationDecl *cuteSpecialization(QualType T,
                                                          StringRef Name) {
  if (T.isNull())
    return nullptr;
  const auto *S = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!S || !S->getIdentifier() || S->getName() != Name)
    return nullptr;
  const DeclContext *DC = S->getDeclContext();
  while (DC && DC->isInlineNamespace())
    DC = DC->getParent();
  const auto *NS = dyn_cast_or_null<NamespaceDecl>(DC);
  if (!NS || !NS->getIdentifier() || NS->getName() != "cute" ||
      !NS->getParent()->isTranslationUnit())
    return nullptr;
  return S;
}

/// The template arguments of \p S, packs expanded.
llvm::SmallVector<TemplateArgument, 4>
templateArguments(const ClassTemplateSpecializationDecl *S) {
  llvm::SmallVector<TemplateArgument, 4> Out;
  for (const TemplateArgument &A : S->getTemplateArgs().asArray()) {
    if (A.getKind() == TemplateArgument::Pack)
      Out.append(A.pack_begin(), A.pack_end());
    else
      Out.push_back(A);
  }
  return Out;
}

QualType typeArgument(const ClassTemplateSpecializationDecl *S, unsigned I) {
  llvm::SmallVector<TemplateArgument, 4> Args = templateArguments(S);
  if (I >= Args.size() || Args[I].getKind() != TemplateArgument::Type)
    return {};
  return Args[I].getAsType();
}

/// The value of `cute::C<v>` (`Int<4>`, `_65536`).
std::optional<int64_t> staticValue(QualType T) {
  const ClassTemplateSpecializationDecl *S = cuteSpecialization(T, "C");
  if (!S)
    return std::nullopt;
  llvm::SmallVector<TemplateArgument, 4> Args = templateArguments(S);
  if (Args.size() != 1 || Args[0].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  const llvm::APSInt &V = Args[0].getAsIntegral();
  if (V.getSignificantBits() > 63)
    return std::nullopt;
  return V.getExtValue();
}

/// One mode of a flattened layout: its extent and stride, each std::nullopt
/// when only known at run time.
struct Mode {
  std::optional<int64_t> Extent, Stride;
};

/// The modes of a congruent shape and stride, or false when either is not
/// made of `cute::tuple`s of `C<v>` and integers.
bool flattenModes(QualType Shape, QualType Stride,
                  llvm::SmallVectorImpl<Mode> &Out, unsigned Depth = 0) {
  if (Depth > 16 || Shape.isNull() || Stride.isNull())
    return false;
  if (const ClassTemplateSpecializationDecl *ST =
          cuteSpecialization(Shape, "tuple")) {
    const ClassTemplateSpecializationDecl *DT =
        cuteSpecialization(Stride, "tuple");
    if (!DT)
      return false;
    llvm::SmallVector<TemplateArgument, 4> SA = templateArguments(ST),
                                           DA = templateArguments(DT);
    if (SA.size() != DA.size())
      return false;
    for (size_t I = 0; I < SA.size(); ++I)
      if (SA[I].getKind() != TemplateArgument::Type ||
          DA[I].getKind() != TemplateArgument::Type ||
          !flattenModes(SA[I].getAsType(), DA[I].getAsType(), Out, Depth + 1))
        return false;
    return true;
  }
  Mode M;
  M.Extent = staticValue(Shape);
  M.Stride = staticValue(Stride);
  auto IsDynamic = [](QualType T) {
    return T.getNonReferenceType()->isIntegerType();
  };
  if ((!M.Extent && !IsDynamic(Shape)) || (!M.Stride && !IsDynamic(Stride)))
    return false;
  Out.push_back(M);
  return true;
}

/// The bounds of the column field of \p V: a TMEM address's column offset,
/// an integer's bits 15..0.
std::optional<IntRange> columnBounds(const AbstractValue &V) {
  return V.isTmemAddress() ? columnRange(V) : lowHalfRange(V);
}

/// True when \p E names \p VD (through wrappers).
bool mentions(const Expr *E, const VarDecl *VD) {
  if (!E || !VD)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      DRE && DRE->getDecl() == VD)
    return true;
  for (const Stmt *Child : E->children())
    if (mentions(dyn_cast_or_null<Expr>(Child), VD))
      return true;
  return false;
}

bool isNamed(const NamedDecl *D, StringRef Name) {
  return D && D->getIdentifier() && D->getName() == Name;
}

/// True if \p D is declared in CuTe (namespace cute, members of its
/// classes included).
bool inCute(const Decl *D) {
  for (const DeclContext *DC = D ? D->getDeclContext() : nullptr; DC;
       DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getIdentifier() && NS->getName() == "cute")
      return true;
  return false;
}

/// \p E without wrappers and copies (`Tensor t = u;`, a tensor or pointer
/// passed by value): what it was copied from.
const Expr *throughCopies(const Expr *E) {
  for (const Expr *S = stripWrappers(E);;) {
    const auto *CC = dyn_cast_or_null<CXXConstructExpr>(S);
    if (!CC || CC->getNumArgs() != 1 || !CC->getConstructor() ||
        !CC->getConstructor()->isCopyOrMoveConstructor())
      return S;
    S = stripWrappers(CC->getArg(0));
  }
}

/// Address 0, where `make_tmem_ptr()` and CuTe's fragments start.
AbstractValue zeroAddress() {
  AbstractValue Zero;
  Zero.Constant = 0;
  Zero.Uniform = Uniformity::CtaUniform;
  return Zero;
}

} // namespace

QualType tmemPointerElement(QualType T) {
  if (const ClassTemplateSpecializationDecl *S =
          cuteSpecialization(T, "tmem_ptr"))
    return typeArgument(S, 0);
  return {};
}

std::pair<QualType, QualType> tmemTensorLayout(QualType T) {
  const ClassTemplateSpecializationDecl *S = cuteSpecialization(T, "Tensor");
  if (!S)
    return {};
  QualType EngineT = typeArgument(S, 0);
  const ClassTemplateSpecializationDecl *Engine =
      cuteSpecialization(EngineT, "ViewEngine");
  if (!Engine)
    Engine = cuteSpecialization(EngineT, "ConstViewEngine");
  if (!Engine)
    return {};
  QualType Element = tmemPointerElement(typeArgument(Engine, 0));
  if (Element.isNull())
    return {};
  return {typeArgument(S, 1), Element};
}

std::optional<int64_t> layoutColumnExtent(QualType Layout,
                                          unsigned ElementBits) {
  const ClassTemplateSpecializationDecl *L =
      cuteSpecialization(Layout, "Layout");
  if (!L || ElementBits == 0 || ElementBits > 32 ||
      !llvm::isPowerOf2_32(ElementBits))
    return std::nullopt;
  // tmem_ptr<T> + i moves by rotr(i, log2(32 / bits(T))): the element
  // offset's bits below 16 + Shift are the column's, shifted.
  const unsigned Shift = llvm::Log2_32(32 / ElementBits);
  const int64_t LaneUnit = INT64_C(1) << (16 + Shift);
  llvm::SmallVector<Mode, 8> Modes;
  if (!flattenModes(typeArgument(L, 0), typeArgument(L, 1), Modes))
    return std::nullopt;
  int64_t Largest = 0;
  for (const Mode &M : Modes) {
    if (M.Stride == 0 || M.Extent == 1)
      continue;
    if (!M.Extent || !M.Stride || *M.Stride < 0 || *M.Extent <= 0)
      return std::nullopt;
    Largest += (*M.Extent - 1) * (*M.Stride % LaneUnit);
    if (Largest >= LaneUnit) // the columns would carry into the lanes
      return std::nullopt;
  }
  return (Largest >> Shift) + 1;
}

std::optional<AbstractValue>
CuteTmemTensors::evaluate(const Expr *E, const Frame &F, unsigned Depth) {
  const Expr *S = stripWrappers(E);
  if (!S)
    return std::nullopt;
  const Expr *Pointer = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    if (isNamed(MC->getMethodDecl(), "get") &&
        !tmemPointerElement(MC->getImplicitObjectArgument()->getType())
             .isNull())
      Pointer = MC->getImplicitObjectArgument();
  } else if (const auto *CE = dyn_cast<CallExpr>(S);
             CE && CE->getNumArgs() == 1 &&
             isNamed(CE->getDirectCallee(), "raw_pointer_cast") &&
             !tmemPointerElement(CE->getArg(0)->getType()).isNull()) {
    Pointer = CE->getArg(0);
  }
  if (!Pointer && !tmemPointerElement(S->getType()).isNull())
    Pointer = S;
  if (!Pointer)
    return std::nullopt;
  if (std::optional<AbstractValue> V = pointerValue(Pointer, F, Depth))
    return V;
  // What this model cannot follow is unknown: a tmem_ptr's `addr_` is a
  // register, never a shared-memory slot the evaluator could read it from.
  AbstractValue Unknown;
  Unknown.Uniform = Uniformity::Unknown;
  return Unknown;
}

std::optional<AbstractValue>
CuteTmemTensors::pointerValue(const Expr *E, const Frame &F, unsigned Depth) {
  if (Depth > MaxDepth)
    return std::nullopt;
  const Expr *S = throughCopies(E);
  if (!S)
    return std::nullopt;
  if (const auto *CC = dyn_cast<CXXConstructExpr>(S)) {
    if (CC->getNumArgs() == 0) // tmem_ptr(): address 0
      return zeroAddress();
    if (CC->getNumArgs() >= 1 && CC->getArg(0)->getType()->isIntegerType())
      return Eval.evaluateAt(CC->getArg(0), F, 0);
    return std::nullopt;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const Expr *Object = MC->getImplicitObjectArgument();
    if (isNamed(MC->getMethodDecl(), "data") && Object &&
        !tmemTensorLayout(Object->getType()).first.isNull())
      return viewOf(Object, F, Depth + 1);
    return std::nullopt;
  }
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S)) {
    // `p + i`: for 32-bit elements, i columns (or lanes) on.
    if (OC->getOperator() != OO_Plus || OC->getNumArgs() != 2)
      return std::nullopt;
    QualType Element = tmemPointerElement(OC->getArg(0)->getType());
    if (Element.isNull() || Ctx.getTypeSize(Element) != 32)
      return std::nullopt;
    std::optional<AbstractValue> Base =
        pointerValue(OC->getArg(0), F, Depth + 1);
    AbstractValue Addend = Eval.evaluateAt(OC->getArg(1), F, 0);
    if (!Base || !Addend.Constant || *Addend.Constant < 0 ||
        *Addend.Constant > 0xFFFF)
      return std::nullopt;
    AbstractValue Out = *Base;
    const int64_t C = *Addend.Constant;
    if (Out.Constant)
      *Out.Constant += C;
    else if (Out.ColumnOffset)
      *Out.ColumnOffset += C;
    else if (Out.ColumnRange)
      Out.ColumnRange =
          IntRange{Out.ColumnRange->Lo + C, Out.ColumnRange->Hi + C};
    else if (Out.LowHalfRange)
      Out.LowHalfRange =
          IntRange{Out.LowHalfRange->Lo + C, Out.LowHalfRange->Hi + C};
    else
      return std::nullopt;
    Out.Choices.clear();
    Out.ColumnChoices.clear();
    Out.PerThread.reset();
    if (Out.ColumnSpanEnd)
      *Out.ColumnSpanEnd += C;
    Out.ColumnWindowByThread = shiftWindows(Out.ColumnWindowByThread, C, C);
    return Out;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (isNamed(FD, "make_tmem_ptr")) {
      if (CE->getNumArgs() == 0)
        return zeroAddress();
      return Eval.evaluateAt(CE->getArg(0), F, 0);
    }
    if (isNamed(FD, "recast_ptr") && CE->getNumArgs() == 1)
      return pointerValue(CE->getArg(0), F, Depth + 1);
    return std::nullopt;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->hasLocalStorage() && !Eval.isModified(VD)) {
      auto [Bound, Where] = boundTo(VD, F);
      if (Bound)
        return pointerValue(Bound, *Where, Depth + 1);
    }
  return std::nullopt;
}

AbstractValue CuteTmemTensors::withExtent(AbstractValue Start,
                                          QualType Tensor) {
  auto [Layout, Element] = tmemTensorLayout(Tensor);
  Start.ColumnSpanEnd.reset();
  if (Layout.isNull())
    return Start;
  std::optional<int64_t> Extent =
      layoutColumnExtent(Layout, unsigned(Ctx.getTypeSize(Element)));
  std::optional<IntRange> Columns = columnBounds(Start);
  if (Extent && Columns)
    Start.ColumnSpanEnd = Columns->Hi + *Extent;
  // A start known thread by thread (`stage == 0 ? S0 : S1` with a stage
  // the role picks): each thread's own columns. A start inside each
  // thread's window of the tensor it came from: the new tensor ends at most
  // Extent - 1 columns past that window.
  if (ColumnWindows W = Extent ? windowsFromStart(Start, *Extent) : nullptr)
    Start.ColumnWindowByThread = std::move(W);
  else if (Extent && Start.ColumnSpanEnd)
    Start.ColumnWindowByThread =
        widenWindows(Start.ColumnWindowByThread, *Extent - 1);
  else
    Start.ColumnWindowByThread.reset();
  return Start;
}

std::optional<AbstractValue>
CuteTmemTensors::viewOf(const Expr *E, const Frame &F, unsigned Depth) {
  if (Depth > MaxDepth)
    return std::nullopt;
  const Expr *S = throughCopies(E);
  if (!S || isa<CXXConstructExpr>(S))
    return std::nullopt;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage())
      return std::nullopt;
    if (uint64_t Key = Eval.objectKey(VD, F)) {
      auto It = Views.find(Key);
      if (It != Views.end())
        return It->second;
    }
    auto [Bound, Where] = boundTo(VD, F);
    if (!Bound)
      return std::nullopt;
    return viewOf(Bound, *Where, Depth + 1);
  }
  if (const auto *CE = dyn_cast<CallExpr>(S))
    return madeBy(CE, F, Depth + 1);
  return std::nullopt;
}

std::optional<AbstractValue>
CuteTmemTensors::madeBy(const CallExpr *CE, const Frame &F, unsigned Depth) {
  if (tmemTensorLayout(CE->getType()).first.isNull())
    return std::nullopt;
  const FunctionDecl *FD = CE->getDirectCallee();
  // make_tensor(ptr, layout): the tensor starts at ptr.
  if (isNamed(FD, "make_tensor") && CE->getNumArgs() >= 1 &&
      !tmemPointerElement(CE->getArg(0)->getType()).isNull()) {
    std::optional<AbstractValue> Start = pointerValue(CE->getArg(0), F, Depth);
    if (!Start)
      return std::nullopt;
    return withExtent(*Start, CE->getType());
  }
  llvm::SmallVector<const Expr *, 4> Inputs;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Inputs.push_back(MC->getImplicitObjectArgument());
  Inputs.append(CE->arg_begin(), CE->arg_end());
  bool AnyAddress = false;
  llvm::SmallVector<const Expr *, 2> Parents;
  for (const Expr *In : Inputs) {
    if (!In)
      continue;
    QualType T = In->getType();
    if (!tmemTensorLayout(T).first.isNull())
      Parents.push_back(In);
    else if (!tmemPointerElement(T).isNull() ||
             T.getNonReferenceType()->isIntegerType())
      AnyAddress = true;
  }
  // Only CuTe's own functions are known not to move what they return. A
  // helper of the kernel's own that returns a TMEM tensor may have moved
  // it (`auto v = stats();`, `auto v = at_v1(frag);`): its columns are not
  // known here.
  if (!inCute(FD))
    return std::nullopt;
  // A tensor made from no address at all: CuTe's fragments
  // (`partition_fragment_C`, tmem_frg::make) start at make_tmem_ptr(), 0;
  // the kernel moves them onto its allocation.
  if (Parents.empty()) {
    if (AnyAddress)
      return std::nullopt;
    return withExtent(zeroAddress(), CE->getType());
  }
  // A tensor made from tensors (a partition, a slice, a composition, a
  // divide) holds elements of them: its data is somewhere in their span,
  // in each thread in that thread's span of them.
  std::optional<AbstractValue> Out;
  bool AllWindowed = true;
  std::vector<IntRange> Windows;
  for (const Expr *P : Parents) {
    std::optional<AbstractValue> V = viewOf(P, F, Depth);
    std::optional<IntRange> Columns = V ? columnBounds(*V) : std::nullopt;
    if (!V || !Columns || !V->ColumnSpanEnd || *V->ColumnSpanEnd <= Columns->Lo)
      return std::nullopt;
    AbstractValue D;
    D.Uniform = Uniformity::Unknown;
    D.Address = V->Address;
    D.Slot = V->Slot;
    D.SlotName = V->SlotName;
    IntRange R{Columns->Lo, *V->ColumnSpanEnd - 1};
    if (Out) {
      if (Out->Address != D.Address || Out->Slot != D.Slot)
        return std::nullopt;
      std::optional<IntRange> Prev = columnBounds(*Out);
      R = IntRange{std::min(R.Lo, Prev->Lo), std::max(R.Hi, Prev->Hi)};
    }
    if (D.isTmemAddress())
      D.ColumnRange = R;
    else
      D.LowHalfRange = R;
    D.ColumnSpanEnd = R.Hi + 1;
    Out = std::move(D);
    const std::vector<IntRange> *PW = V->ColumnWindowByThread.get();
    if (!PW || (!Windows.empty() && PW->size() != Windows.size())) {
      AllWindowed = false;
    } else if (Windows.empty()) {
      Windows = *PW;
    } else {
      for (size_t T = 0; T < Windows.size(); ++T)
        Windows[T] = IntRange{std::min(Windows[T].Lo, (*PW)[T].Lo),
                              std::max(Windows[T].Hi, (*PW)[T].Hi)};
    }
  }
  if (Out && AllWindowed && !Windows.empty())
    Out->ColumnWindowByThread =
        std::make_shared<const std::vector<IntRange>>(std::move(Windows));
  return Out;
}

bool CuteTmemTensors::recordDataAssignment(const CXXOperatorCallExpr *Assign,
                                           const Frame &F) {
  if (Assign->getOperator() != OO_Equal || Assign->getNumArgs() != 2)
    return false;
  const auto *LHS =
      dyn_cast<CXXMemberCallExpr>(stripWrappers(Assign->getArg(0)));
  if (!LHS || !isNamed(LHS->getMethodDecl(), "data"))
    return false;
  const Expr *Object = stripWrappers(LHS->getImplicitObjectArgument());
  if (!Object || tmemTensorLayout(Object->getType()).first.isNull())
    return false;
  uint64_t Key = Eval.objectKey(Object, F);
  if (!Key)
    return false;
  AbstractValue Unknown;
  Unknown.Uniform = Uniformity::Unknown;
  std::optional<AbstractValue> V = pointerValue(Assign->getArg(1), F, 0);
  if (!V) {
    Views[Key] = Unknown;
    return true;
  }
  // The span: from the tensor's own layout, or, for `t.data() =
  // t.data().get() + k`, the old span moved by k when that is tighter.
  std::optional<int64_t> Moved = V->ColumnSpanEnd;
  const auto *Named = dyn_cast<DeclRefExpr>(Object);
  const VarDecl *Self = Named ? dyn_cast<VarDecl>(Named->getDecl()) : nullptr;
  AbstractValue Start = withExtent(*V, Object->getType());
  if (Moved && mentions(Assign->getArg(1), Self)) {
    Start.ColumnSpanEnd =
        Start.ColumnSpanEnd ? std::min(*Start.ColumnSpanEnd, *Moved) : *Moved;
    // Each thread's window moves with the tensor, as the span does.
    Start.ColumnWindowByThread = V->ColumnWindowByThread;
  }
  Views[Key] = std::move(Start);
  return true;
}

} // namespace tmemcheck
