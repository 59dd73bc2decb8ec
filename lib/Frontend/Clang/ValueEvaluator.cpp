//===- ValueEvaluator.cpp - Abstract values of Clang expressions ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "ValueEvaluator.h"
#include "CuteTmemTensors.h"
#include "LoopTrips.h"

#include "tmemcheck/Analysis/ValueRange.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <numeric>
#include <tuple>

using namespace clang;

namespace tmemcheck {

namespace {

constexpr unsigned MaxEvalDepth = 32;

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Next = E->IgnoreParenImpCasts();
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Next))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Next))
      Next = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Next))
      Next = C->getSubExpr();
    else if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(Next))
      Next = S->getReplacement();
    else if (const auto *CE = dyn_cast<ConstantExpr>(Next))
      Next = CE->getSubExpr();
    else if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Next))
      Next = FC->getSubExpr();
    else if (const auto *SC = dyn_cast<CXXStaticCastExpr>(Next))
      Next = SC->getSubExpr();
    else if (const auto *CS = dyn_cast<CStyleCastExpr>(Next))
      Next = CS->getSubExpr();
    else if (const auto *RC = dyn_cast<CXXReinterpretCastExpr>(Next))
      Next = RC->getSubExpr();
    if (Next == E)
      return E;
    E = Next;
  }
  return E;
}

uint64_t hashIdentity(const void *P, int64_t Extra = 0) {
  uint64_t Key[2] = {reinterpret_cast<uintptr_t>(P),
                     static_cast<uint64_t>(Extra)};
  return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
             reinterpret_cast<const uint8_t *>(Key), sizeof(Key))) |
         1;
}

/// TMEM addresses are 32-bit: only (unsigned) int slots can hold one.
bool isSlotTypeImpl(QualType T) {
  T = T.getCanonicalType();
  return T->isSpecificBuiltinType(BuiltinType::UInt) ||
         T->isSpecificBuiltinType(BuiltinType::Int);
}

/// Uniformity of the CUDA built-in variables (`threadIdx.x` is a property
/// reference on a variable named threadIdx).
std::optional<Uniformity> builtinVariableUniformity(const Expr *E) {
  const Expr *Base = nullptr;
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E)) {
    if (const auto *MP =
            dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      Base = MP->getBaseExpr();
  } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    Base = ME->getBase();
  }
  if (!Base)
    return std::nullopt;
  Base = Base->IgnoreParenImpCasts();
  if (const auto *OV = dyn_cast<OpaqueValueExpr>(Base))
    if (OV->getSourceExpr())
      Base = OV->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(Base);
  if (!DRE)
    return std::nullopt;
  StringRef Name = DRE->getDecl()->getName();
  if (Name == "threadIdx")
    return Uniformity::ThreadVariant;
  if (Name == "blockIdx" || Name == "blockDim" || Name == "gridDim")
    return Uniformity::CtaUniform;
  return std::nullopt;
}

/// Uniformity of well-known helpers and special-register builtins, by name.
std::optional<Uniformity> knownCallUniformity(StringRef Name) {
  return llvm::StringSwitch<std::optional<Uniformity>>(Name)
      .Cases({"__nvvm_read_ptx_sreg_tid_x", "__nvvm_read_ptx_sreg_tid_y",
              "__nvvm_read_ptx_sreg_tid_z", "__nvvm_read_ptx_sreg_laneid"},
             Uniformity::ThreadVariant)
      .Cases({"elect_one_sync", "elect_sync", "lane_id", "laneid",
              "get_lane_id", "__lane_id", "lane_idx", "elect_one"},
             Uniformity::ThreadVariant)
      .Cases({"__nvvm_read_ptx_sreg_warpid", "canonical_warp_idx",
              "canonical_warp_idx_sync", "warp_idx", "get_warp_idx", "warp_id",
              "get_warp_id"},
             Uniformity::WarpUniform)
      .Cases({"canonical_warp_group_idx", "warp_group_idx", "warpgroup_idx"},
             Uniformity::WarpUniform)
      .Cases({"__nvvm_read_ptx_sreg_ctaid_x", "__nvvm_read_ptx_sreg_ctaid_y",
              "__nvvm_read_ptx_sreg_ctaid_z", "__nvvm_read_ptx_sreg_ntid_x"},
             Uniformity::CtaUniform)
      .Cases({"__nvvm_read_ptx_sreg_ntid_y", "__nvvm_read_ptx_sreg_ntid_z",
              "__nvvm_read_ptx_sreg_nctaid_x", "block_rank_in_cluster"},
             Uniformity::CtaUniform)
      .Default(std::nullopt);
}

/// `threadIdx.x` (the property, or the special-register builtin).
bool isThreadIdxX(const Expr *E) {
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    if (const auto *MP =
            dyn_cast<MSPropertyRefExpr>(PO->getSyntacticForm()->IgnoreParens()))
      return builtinVariableUniformity(E) == Uniformity::ThreadVariant &&
             MP->getPropertyDecl()->getName() == "x";
  if (const auto *CE = dyn_cast<CallExpr>(E))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      return FD->getIdentifier() &&
             FD->getName() == "__nvvm_read_ptx_sreg_tid_x";
  return false;
}

/// A positive number V is a multiple of: its magnitude when constant, else
/// its known factor, else 1.
int64_t factorOf(const AbstractValue &V) {
  if (V.Constant)
    return *V.Constant == 0 ? 0
                            : (*V.Constant < 0 ? -*V.Constant : *V.Constant);
  return V.KnownFactor.value_or(1);
}

/// `Bound` splits the threads of a 1-D block between whole warps when
/// compared with threadIdx.x by `<` (`tid < 32 * n`).
bool isWarpMultiple(const AbstractValue &Bound) {
  if (Bound.Uniform != Uniformity::CtaUniform &&
      Bound.Uniform != Uniformity::WarpUniform)
    return false;
  int64_t F = factorOf(Bound);
  return F % 32 == 0;
}

bool isWarpDivisor(const AbstractValue &V) {
  return V.Constant && *V.Constant > 0 && *V.Constant % 32 == 0;
}

/// `x << 16` (or more): an addend that moves lanes, never columns.
bool isLaneOnlyAddend(const Expr *E, const ASTContext &Ctx) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || BO->getOpcode() != BO_Shl)
    return false;
  const Expr *Amount = BO->getRHS();
  Expr::EvalResult R;
  return !Amount->isValueDependent() && Amount->EvaluateAsInt(R, Ctx) &&
         R.Val.getInt().getExtValue() >= 16;
}

/// The term of `L op R` when one side is a term and the other a constant
/// (StageTerm.h).
std::optional<StageTerm> binaryTerm(BinaryOperatorKind Op,
                                    const AbstractValue &L,
                                    const AbstractValue &R) {
  const AbstractValue *T = L.Term && R.Constant ? &L : nullptr;
  bool TermOnLeft = true;
  if (!T && R.Term && L.Constant &&
      (Op == BO_Add || Op == BO_Mul || Op == BO_And || Op == BO_Xor)) {
    T = &R;
    TermOnLeft = false;
  }
  if (!T || T->Term->isConstant())
    return std::nullopt;
  int64_t C = TermOnLeft ? *R.Constant : *L.Constant;
  switch (Op) {
  case BO_Add:
    return T->Term->plus(C);
  case BO_Sub:
    return T->Term->plus(-C);
  case BO_Mul:
    return T->Term->times(C);
  case BO_Shl:
    return T->Term->shiftedLeft(C);
  case BO_Rem:
    return T->Term->modulo(C);
  case BO_And:
    return T->Term->masked(C);
  case BO_Xor:
    return T->Term->xored(C);
  default:
    return std::nullopt;
  }
}

/// True when \p V is known to change only the lane field (bits 31..16) of
/// a TMEM address it is added to: `((warp % 4) * 32) << 16` in a local.
bool movesLanesOnly(const AbstractValue &V) {
  if (V.KnownFactor && *V.KnownFactor % 65536 == 0)
    return true;
  return !V.Choices.empty() && llvm::all_of(V.Choices, [](int64_t C) {
    return C >= 0 && (C & 0xFFFF) == 0;
  });
}

/// The varying part of a TMEM column offset after adding \p Addend (of
/// unknown value) to \p Base: the addend's term when the base had none.
std::optional<StageTerm> columnTermAfter(const AbstractValue &Base,
                                         const AbstractValue &Addend,
                                         int64_t Sign) {
  if (Sign < 0 || Base.ColumnTerm || !Addend.Term || Addend.Term->isConstant())
    return std::nullopt;
  return Addend.Term;
}

/// The interval arithmetic (ValueRange.h) of a binary operator, if any.
std::optional<RangeOp> rangeOpOf(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add:
    return RangeOp::Add;
  case BO_Sub:
    return RangeOp::Sub;
  case BO_Mul:
    return RangeOp::Mul;
  case BO_Shl:
    return RangeOp::Shl;
  default:
    return std::nullopt;
  }
}

/// Collects variables whose value can change after their initialisation.
class ModificationFinder : public RecursiveASTVisitor<ModificationFinder> {
public:
  ModificationFinder(llvm::DenseSet<const VarDecl *> &Out,
                     llvm::DenseMap<const VarDecl *, const Expr *> &Steps,
                     ElectionWriteMap &Elections,
                     llvm::DenseSet<const VarDecl *> &OtherWrites,
                     llvm::DenseMap<const VarDecl *, const Expr *> &Deferred,
                     llvm::DenseMap<const VarDecl *, const ForStmt *> &Loops,
                     llvm::DenseMap<const VarDecl *, AddressUse> &Addressed,
                     LocalFieldWrites &FieldWrites,
                     llvm::DenseSet<const VarDecl *> &WholeWrites)
      : Out(Out), Steps(Steps), Elections(Elections), OtherWrites(OtherWrites),
        Deferred(Deferred), Loops(Loops), Addressed(Addressed),
        FieldWrites(FieldWrites), WholeWrites(WholeWrites) {}

  /// `T v; v = init;`: a scalar local declared without an initialiser and
  /// assigned by the very next statement starts with that value, as if it
  /// were initialised (generated kernels write their shared-memory base
  /// so). That assignment is not a modification; any other write is.
  bool VisitCompoundStmt(CompoundStmt *CS) {
    const Stmt *Prev = nullptr;
    llvm::SmallPtrSet<const VarDecl *, 4> Declared;
    for (const Stmt *S : CS->body()) {
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D))
            Declared.insert(V);
      if (const auto *BO = dyn_cast<BinaryOperator>(S);
          BO && BO->getOpcode() == BO_Assign)
        if (auto Key = localField(BO->getLHS());
            Key && Declared.count(Key->first))
          DeclaringBlockWrites.insert(BO);
      if (const auto *DS = dyn_cast_or_null<DeclStmt>(Prev);
          DS && DS->isSingleDecl())
        if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
            V && V->hasLocalStorage() && !V->isStaticLocal() && !V->getInit() &&
            !isa<ParmVarDecl>(V) && V->getType()->isScalarType() &&
            !V->getType()->isReferenceType())
          if (const auto *BO = dyn_cast<BinaryOperator>(S);
              BO && BO->getOpcode() == BO_Assign && refersTo(BO->getLHS(), V)) {
            DeferredAssignments.insert(BO);
            Deferred[V] = BO->getRHS();
          }
      Prev = S;
    }
    return true;
  }

  /// `for (int k = init; ...; ++k / k += step)` with k changed nowhere else
  /// is an induction variable: its uniformity is that of init and step.
  bool TraverseForStmt(ForStmt *FS) {
    const VarDecl *Induction = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(FS->getInit()))
      if (DS->isSingleDecl())
        Induction = dyn_cast<VarDecl>(DS->getSingleDecl());
    const Expr *Step = nullptr;
    bool IsStep = false;
    if (Induction && FS->getInc()) {
      const Expr *Inc = FS->getInc()->IgnoreParenImpCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(Inc))
        IsStep = UO->isIncrementDecrementOp() &&
                 refersTo(UO->getSubExpr(), Induction);
      if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc))
        if ((CA->getOpcode() == BO_AddAssign ||
             CA->getOpcode() == BO_SubAssign) &&
            refersTo(CA->getLHS(), Induction)) {
          IsStep = true;
          Step = CA->getRHS();
        }
    }
    if (IsStep) {
      // Visit everything but the increment, then remember the step.
      TraverseStmt(FS->getInit());
      TraverseStmt(FS->getCond());
      TraverseStmt(FS->getBody());
      if (Step)
        TraverseStmt(const_cast<Expr *>(Step));
      if (!Out.contains(Induction)) {
        Steps[Induction] = Step ? Step : FS->getInc();
        Loops[Induction] = FS;
      }
      return true;
    }
    return RecursiveASTVisitor::TraverseForStmt(FS);
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp() && !DeferredAssignments.contains(BO)) {
      auto Key = BO->getOpcode() == BO_Assign ? localField(BO->getLHS())
                                              : std::nullopt;
      if (Key) {
        LocalFieldWrite &W = FieldWrites[*Key];
        ++W.Count;
        W.Value = BO->getRHS();
        W.InDeclaringBlock = DeclaringBlockWrites.contains(BO);
      }
      mark(BO->getLHS(), /*AddressOf=*/false, /*FieldWrite=*/Key.has_value());
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
    // A non-const method may change any field of its object.
    if (const CXXMethodDecl *M = MC->getMethodDecl(); M && !M->isConst())
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(
              MC->getImplicitObjectArgument()
                  ? MC->getImplicitObjectArgument()->IgnoreParenImpCasts()
                  : nullptr))
        if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl()))
          WholeWrites.insert(V);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      mark(UO->getSubExpr(), UO->getOpcode() == UO_AddrOf);
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OC) {
    if (OC->isAssignmentOp() && OC->getNumArgs() > 0)
      mark(OC->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // Passing by non-const reference may modify.
    const FunctionDecl *FD = CE->getDirectCallee();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (!FD || I >= FD->getNumParams()) {
        if (!FD)
          mark(CE->getArg(I));
        continue;
      }
      QualType T = FD->getParamDecl(I)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        mark(CE->getArg(I));
    }
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    llvm::SmallVector<ElectedOutput, 2> Elected = electedOutputs(*S);
    for (unsigned I = 0; I < S->getNumOutputs(); ++I) {
      const auto *E = llvm::find_if(
          Elected, [&](const ElectedOutput &O) { return O.Index == I; });
      const auto *DRE =
          dyn_cast<DeclRefExpr>(S->getOutputExpr(I)->IgnoreParenImpCasts());
      const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      if (E == Elected.end() || !V) {
        mark(S->getOutputExpr(I));
        continue;
      }
      // Written with an elect.sync predicate: modified, but its value is
      // still known to be an election (ValueEvaluator::electionValue).
      Out.insert(V);
      Elections[V].push_back(
          {*E, llvm::StringRef(S->getOutputConstraint(I)).starts_with("+")});
    }
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (const auto *V = dyn_cast<VarDecl>(C.getCapturedVar())) {
          Out.insert(V);
          OtherWrites.insert(V);
          WholeWrites.insert(V);
        }
    return true;
  }

private:
  static bool refersTo(const Expr *E, const VarDecl *V) {
    const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl() == V;
  }
  /// `v.f` of a local object v (not a reference) and a scalar field f.
  static std::optional<std::pair<const VarDecl *, const FieldDecl *>>
  localField(const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    if (!ME || ME->isArrow())
      return std::nullopt;
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    const auto *DRE =
        dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    const auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!FD || !V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) ||
        V->getType()->isReferenceType() || !FD->getType()->isScalarType())
      return std::nullopt;
    return std::make_pair(V, FD);
  }
  void mark(const Expr *E, bool AddressOf = false, bool FieldWrite = false) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        AddressUse &U = Addressed[V];
        (AddressOf ? U.AddressTaken : U.OtherMarks) += 1;
      }
    while (true) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        E = AS->getBase()->IgnoreParenImpCasts();
      else if (const auto *ME = dyn_cast<MemberExpr>(E))
        E = ME->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DRE->getDecl())) {
        Out.insert(V);
        OtherWrites.insert(V);
        if (!FieldWrite)
          WholeWrites.insert(V);
      }
  }
  llvm::DenseSet<const VarDecl *> &Out;
  llvm::DenseMap<const VarDecl *, const Expr *> &Steps;
  ElectionWriteMap &Elections;
  llvm::DenseSet<const VarDecl *> &OtherWrites;
  llvm::DenseMap<const VarDecl *, const Expr *> &Deferred;
  llvm::DenseMap<const VarDecl *, const ForStmt *> &Loops;
  llvm::DenseMap<const VarDecl *, AddressUse> &Addressed;
  LocalFieldWrites &FieldWrites;
  llvm::DenseSet<const VarDecl *> &WholeWrites;
  llvm::SmallPtrSet<const BinaryOperator *, 4> DeferredAssignments;
  llvm::SmallPtrSet<const BinaryOperator *, 4> DeclaringBlockWrites;
};

/// Most values a value set (AbstractValue::Choices) holds before it is
/// given up as unknown.
constexpr size_t MaxChoices = 16;

/// Folds `A op B`, or std::nullopt where C++ leaves it undefined or the
/// result does not fit (division by zero, shifts out of range, overflow).
std::optional<int64_t> foldBinary(BinaryOperatorKind Op, int64_t A, int64_t B) {
  int64_t R = 0;
  switch (Op) {
  case BO_Add:
    return __builtin_add_overflow(A, B, &R) ? std::nullopt
                                            : std::optional<int64_t>(R);
  case BO_Sub:
    return __builtin_sub_overflow(A, B, &R) ? std::nullopt
                                            : std::optional<int64_t>(R);
  case BO_Mul:
    return __builtin_mul_overflow(A, B, &R) ? std::nullopt
                                            : std::optional<int64_t>(R);
  case BO_Div:
  case BO_Rem:
    if (B == 0 || (A == INT64_MIN && B == -1))
      return std::nullopt;
    return Op == BO_Div ? A / B : A % B;
  case BO_Shl:
    if (B < 0 || B >= 63 || A < 0 || A > (INT64_MAX >> B))
      return std::nullopt;
    return A << B;
  case BO_Shr:
    if (B < 0 || B >= 63)
      return std::nullopt;
    return A >> B;
  case BO_And:
    return A & B;
  case BO_Or:
    return A | B;
  case BO_Xor:
    return A ^ B;
  case BO_LT:
    return A < B;
  case BO_GT:
    return A > B;
  case BO_LE:
    return A <= B;
  case BO_GE:
    return A >= B;
  case BO_EQ:
    return A == B;
  case BO_NE:
    return A != B;
  case BO_LAnd:
    return A && B;
  case BO_LOr:
    return A || B;
  default:
    return std::nullopt;
  }
}

/// The few values `L op R` can take when one side is not constant:
/// `x % C` (x unsigned) is one of 0..C-1, `x & M` one of the sub-masks of M,
/// and value sets combine element-wise (`(tile % 2) * 128` is 0 or 128).
/// Empty when not a small known set.
std::vector<int64_t> binaryChoices(BinaryOperatorKind Op,
                                   const AbstractValue &L,
                                   const AbstractValue &R, QualType LType) {
  std::vector<int64_t> Ls = possibleConstants(L), Rs = possibleConstants(R);
  if (Ls.empty() && Op == BO_Rem && R.Constant && *R.Constant > 0 &&
      static_cast<size_t>(*R.Constant) <= MaxChoices &&
      LType->isUnsignedIntegerOrEnumerationType()) {
    std::vector<int64_t> Out;
    for (int64_t I = 0; I < *R.Constant; ++I)
      Out.push_back(I);
    return Out;
  }
  if (Op == BO_And && (Ls.empty() != Rs.empty())) {
    const AbstractValue &Mask = Ls.empty() ? R : L;
    if (Mask.Constant && *Mask.Constant >= 0 &&
        llvm::popcount(static_cast<uint64_t>(*Mask.Constant)) <= 4) {
      // Every sub-mask of M, enumerated the usual way.
      std::vector<int64_t> Out;
      int64_t M = *Mask.Constant;
      for (int64_t Sub = M;; Sub = (Sub - 1) & M) {
        Out.push_back(Sub);
        if (Sub == 0)
          break;
      }
      return normalizeChoices(std::move(Out), MaxChoices);
    }
  }
  if (Ls.empty() || Rs.empty() || Ls.size() * Rs.size() > MaxChoices * 4)
    return {};
  std::vector<int64_t> Out;
  for (int64_t A : Ls)
    for (int64_t B : Rs) {
      std::optional<int64_t> C = foldBinary(Op, A, B);
      if (!C)
        return {};
      Out.push_back(*C);
    }
  return normalizeChoices(std::move(Out), MaxChoices);
}

/// Per-thread values (AbstractValue::PerThread) of a 1-D block.
constexpr unsigned BlockThreads = 1024;
using ThreadValues = std::vector<int64_t>;
using ThreadValuesPtr = std::shared_ptr<const ThreadValues>;

/// The offsets of a warp-uniform value from its base: all zero.
const ThreadValuesPtr &zeroOffsets() {
  static const ThreadValuesPtr Zeros =
      std::make_shared<const ThreadValues>(BlockThreads, 0);
  return Zeros;
}

/// \p V reduced to \p Bits bits, sign-extended when \p Signed.
int64_t truncateTo(int64_t V, unsigned Bits, bool Signed) {
  if (Bits == 0 || Bits >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (Signed && ((U >> (Bits - 1)) & 1))
    U |= ~Mask;
  return int64_t(U);
}

/// True if two lanes of some warp hold different values.
bool variesWithinWarp(const ThreadValues &T) {
  for (unsigned I = 0; I < T.size(); ++I)
    if (T[I] != T[I & ~31u])
      return true;
  return false;
}

/// threadIdx.x, and the lane id threadIdx.x % 32, per thread.
const ThreadValuesPtr &threadIndexValues() {
  static const ThreadValuesPtr T = [] {
    auto V = std::make_shared<ThreadValues>(BlockThreads);
    for (unsigned I = 0; I < BlockThreads; ++I)
      (*V)[I] = I;
    return V;
  }();
  return T;
}
const ThreadValuesPtr &laneIdValues() {
  static const ThreadValuesPtr T = [] {
    auto V = std::make_shared<ThreadValues>(BlockThreads);
    for (unsigned I = 0; I < BlockThreads; ++I)
      (*V)[I] = I % 32;
    return V;
  }();
  return T;
}

/// Sets V's per-thread values and whether they make it lane-variant.
void setPerThread(AbstractValue &V, ThreadValuesPtr T, bool Exact);

/// A TMEM address read from a shared-memory slot is the same in every
/// thread that reads that one word: a warp-uniform base. Not when the
/// slot's index is unknown (`slots[lane]`, named "slots[]").
void markSlotRead(AbstractValue &V) {
  if (llvm::StringRef(V.SlotName).contains("[]"))
    return;
  setPerThread(V, zeroOffsets(), /*Exact=*/false);
  // One word, the same in every thread: the allocation start, from which
  // per-thread offsets added later are measured.
  V.PerThreadFromAllocation = V.isAllocationStart();
}

/// Sets V's per-thread values and whether they make it lane-variant.
void setPerThread(AbstractValue &V, ThreadValuesPtr T, bool Exact) {
  // Shared tables are set on many values: look each one at once.
  thread_local std::map<const ThreadValues *, std::pair<ThreadValuesPtr, bool>>
      Varies;
  if (Varies.size() > 4096)
    Varies.clear();
  bool LaneVariant = false;
  if (T) {
    auto [It, New] = Varies.try_emplace(T.get(), T, false);
    if (New)
      It->second.second = variesWithinWarp(*T);
    LaneVariant = It->second.second;
  }
  V.LaneVariant = LaneVariant;
  V.PerThreadExact = T && Exact;
  V.PerThreadFromAllocation = false;
  V.PerThread = std::move(T);
}

/// The per-thread table of constant \p C. Tables are immutable, so one per
/// constant serves every use (and lets combinePerThread memoise by table).
ThreadValuesPtr constantValues(int64_t C) {
  thread_local std::map<int64_t, ThreadValuesPtr> Tables;
  if (Tables.size() > 4096)
    Tables.clear();
  ThreadValuesPtr &T = Tables[C];
  if (!T)
    T = std::make_shared<const ThreadValues>(BlockThreads, C);
  return T;
}

/// The per-thread values of \p V (base and offsets), when known: its own,
/// a constant's, or the zero offsets of a warp-uniform value. \p Exact
/// tells whether the base is 0.
/// True if \p V is known in every thread and lies in the TMEM lane field
/// alone there (`(warp * 32) << 16`): added to an address, it moves lanes.
bool inLaneFieldInEveryThread(const AbstractValue &V) {
  return V.PerThread && V.PerThreadExact &&
         llvm::all_of(*V.PerThread, [](int64_t X) {
           return X >= 0 && X <= INT64_C(0xFFFFFFFF) && (X & 0xFFFF) == 0;
         });
}

ThreadValuesPtr perThreadOf(const AbstractValue &V, bool &Exact) {
  if (V.PerThread) {
    Exact = V.PerThreadExact;
    return V.PerThread;
  }
  if (V.Constant && !V.isSlotAddress() && !V.isTmemAddress()) {
    Exact = true;
    return constantValues(*V.Constant);
  }
  if (V.Uniform <= Uniformity::WarpUniform && !V.isSlotAddress()) {
    Exact = false;
    return zeroOffsets();
  }
  return nullptr;
}

/// Bits and signedness of integer type \p T, or {0, false} if not one.
std::pair<unsigned, bool> intShape(QualType T, const ASTContext &Ctx) {
  if (T.isNull() || T->isDependentType() || !T->isIntegralOrEnumerationType())
    return {0, false};
  return {Ctx.getIntWidth(T), T->isSignedIntegerOrEnumerationType()};
}

ThreadValuesPtr combineTables(BinaryOperatorKind Op, const ThreadValues &LT,
                              const ThreadValues &RT, unsigned Bits,
                              bool Signed, bool Exact);

/// `L op R` per thread (design-notes "Lane-variant values"): anything when
/// both are exact functions of threadIdx.x; with a warp-uniform base only
/// the operations under which `base + offset` stays so: `+`, `-` and `*` or
/// `<<` by a constant. Null when not known.
ThreadValuesPtr combinePerThread(BinaryOperatorKind Op, const AbstractValue &L,
                                 const AbstractValue &R, unsigned Bits,
                                 bool Signed, bool &Exact) {
  if (!L.PerThread && !R.PerThread)
    return nullptr; // nothing thread-dependent is known here
  bool LE = false, RE = false;
  ThreadValuesPtr LT = perThreadOf(L, LE), RT = perThreadOf(R, RE);
  if (!LT || !RT || Bits == 0)
    return nullptr;
  Exact = LE && RE;
  bool Linear = Op == BO_Add || Op == BO_Sub ||
                ((Op == BO_Mul || Op == BO_Shl) && R.Constant) ||
                (Op == BO_Mul && L.Constant);
  if (!Exact && !Linear)
    return nullptr;
  // The same operation on the same tables (`threadIdx.x / 32` in every
  // kernel of a file) is computed once per thread of the tool. The memo
  // holds its operands, so their addresses are not reused while it lives.
  using Key = std::tuple<int, const ThreadValues *, const ThreadValues *,
                         unsigned, bool, bool>;
  thread_local std::map<
      Key, std::tuple<ThreadValuesPtr, ThreadValuesPtr, ThreadValuesPtr>>
      Memo;
  if (Memo.size() > 4096)
    Memo.clear();
  Key K{int(Op), LT.get(), RT.get(), Bits, Signed, Exact};
  if (auto It = Memo.find(K); It != Memo.end())
    return std::get<2>(It->second);
  ThreadValuesPtr Result = combineTables(Op, *LT, *RT, Bits, Signed, Exact);
  Memo[K] = {LT, RT, Result};
  return Result;
}

/// combinePerThread's arithmetic, thread by thread.
ThreadValuesPtr combineTables(BinaryOperatorKind Op, const ThreadValues &LT,
                              const ThreadValues &RT, unsigned Bits,
                              bool Signed, bool Exact) {
  auto Out = std::make_shared<ThreadValues>(BlockThreads);
  for (unsigned I = 0; I < BlockThreads; ++I) {
    int64_t A = LT[I], B = RT[I];
    std::optional<int64_t> C;
    if (!Exact && (Op == BO_Add || Op == BO_Sub || Op == BO_Mul)) {
      // Offsets wrap with the type, as the values do.
      uint64_t UA = uint64_t(A), UB = uint64_t(B);
      C = int64_t(Op == BO_Add ? UA + UB : Op == BO_Sub ? UA - UB : UA * UB);
    } else if (!Exact && Op == BO_Shl) {
      C = B >= 0 && B < 64 ? std::optional<int64_t>(int64_t(uint64_t(A) << B))
                           : std::nullopt;
    } else {
      C = foldBinary(Op, A, B);
    }
    if (!C)
      return nullptr;
    (*Out)[I] = truncateTo(*C, Bits, Signed);
  }
  return Out;
}

/// The byte offsets \p Start + \p Index * \p Stride of each thread's
/// element; null if one overflows or is negative.
std::shared_ptr<const std::vector<int64_t>>
perThreadByteOffsets(int64_t Start, const ThreadValues &Index, int64_t Stride) {
  auto Out = std::make_shared<std::vector<int64_t>>(Index.size());
  for (size_t T = 0; T < Index.size(); ++T) {
    int64_t Bytes = 0;
    if (__builtin_mul_overflow(Index[T], Stride, &Bytes) ||
        __builtin_add_overflow(Bytes, Start, &Bytes) || Bytes < 0)
      return nullptr;
    (*Out)[T] = Bytes;
  }
  return Out;
}

/// The column windows of a CuTe tensor's address \p Src broadcast from a
/// lane \p Lane warp-uniform (`warp_uniform(t.data().get())`): each thread
/// gets lane L's window, or when L is not known the union of its warp's.
ColumnWindows broadcastWindows(const AbstractValue &Src,
                               const AbstractValue &Lane) {
  const std::vector<IntRange> *W = Src.ColumnWindowByThread.get();
  if (!W || W->size() != BlockThreads)
    return nullptr;
  auto Out = std::make_shared<std::vector<IntRange>>(BlockThreads);
  for (unsigned Warp = 0; Warp < BlockThreads; Warp += 32) {
    IntRange U = (*W)[Warp];
    if (Lane.Constant && *Lane.Constant >= 0 && *Lane.Constant < 32) {
      U = (*W)[Warp + unsigned(*Lane.Constant)];
    } else {
      for (unsigned T = Warp; T < Warp + 32; ++T)
        U = IntRange{std::min(U.Lo, (*W)[T].Lo), std::max(U.Hi, (*W)[T].Hi)};
    }
    std::fill(Out->begin() + Warp, Out->begin() + Warp + 32, U);
  }
  return Out;
}

} // namespace

bool isSlotType(QualType T) { return isSlotTypeImpl(T); }

namespace {

/// Finds, in a member function's body, a change of field \p FD of `this`
/// that no recorded assignment stands for: an increment, a compound
/// assignment, its address taken. Plain assignments `this->f = v` are
/// recorded where they are translated (an RAII allocator's slot).
bool changesField(const Stmt *S, const FieldDecl *FD) {
  if (!S)
    return false;
  auto IsThisField = [&](const Expr *E) {
    const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    return ME && ME->getMemberDecl() == FD &&
           isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
  };
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    if ((UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
        IsThisField(UO->getSubExpr()))
      return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    if (BO->isCompoundAssignmentOp() && IsThisField(BO->getLHS()))
      return true;
  for (const Stmt *Child : S->children())
    if (changesField(Child, FD))
      return true;
  return false;
}

} // namespace

bool ValueEvaluator::isFieldChangedByMethods(const FieldDecl *FD) {
  auto [It, New] = ChangedFields.try_emplace(FD, false);
  if (!New)
    return It->second;
  // A field its methods change (PipelineState's `++index_` in operator++)
  // has no one value: what its constructor set is not what a later read
  // sees.
  bool Changed = false;
  if (const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent()))
    for (const CXXMethodDecl *M : RD->methods()) {
      const FunctionDecl *Def = nullptr;
      if (M->hasBody(Def) && Def && changesField(Def->getBody(), FD)) {
        Changed = true;
        break;
      }
    }
  ChangedFields[FD] = Changed;
  return Changed;
}

void ValueEvaluator::collectModifiedVars(const FunctionDecl *FD) {
  if (!FD || !ScannedFunctions.insert(FD).second)
    return;
  if (Stmt *Body = FD->getBody()) {
    ModificationFinder Finder(ModifiedVars, InductionSteps, ElectionWrites,
                              OtherWrites, DeferredInits, InductionLoops,
                              AddressUses, FieldWrites, WholeObjectWrites);
    Finder.TraverseStmt(Body);
  }
}

std::optional<AbstractValue> ValueEvaluator::electionValue(const VarDecl *V,
                                                           const Frame &F,
                                                           unsigned Depth) {
  if (!isModified(V) || OtherWrites.contains(V) || InductionSteps.count(V))
    return std::nullopt;
  auto It = ElectionWrites.find(V);
  if (It == ElectionWrites.end() || It->second.empty())
    return std::nullopt;
  for (const ElectionWrite &W : It->second) {
    if (W.Output.Unelected)
      continue; // selp: both values written
    // `@p mov %0, 1` leaves the other lanes' value: with "+r" that is the
    // initial value, which must differ from the elected one. With "=r" the
    // other lanes' value is undefined; the helpers that write it so test
    // it as the election.
    if (!W.ReadWrite)
      continue;
    const Expr *Init = V->getInit();
    if (!Init)
      return std::nullopt;
    AbstractValue I = evaluateImpl(Init, F, Depth + 1);
    if (!I.Constant || *I.Constant == W.Output.Elected)
      return std::nullopt;
  }
  AbstractValue R;
  R.Uniform = Uniformity::ThreadVariant;
  return R;
}

const Expr *ValueEvaluator::initialValue(const VarDecl *V) {
  if (const Expr *Init = V->getAnyInitializer())
    return Init;
  if (isModified(V))
    return nullptr;
  auto It = DeferredInits.find(V);
  return It != DeferredInits.end() ? It->second : nullptr;
}

bool ValueEvaluator::addressedOnceOnly(const VarDecl *V) {
  if (const auto *FD =
          dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()))
    collectModifiedVars(FD);
  auto It = AddressUses.find(V);
  return It != AddressUses.end() && It->second.AddressTaken == 1 &&
         It->second.OtherMarks == 0 && !InductionSteps.count(V) &&
         !ElectionWrites.count(V);
}

bool ValueEvaluator::isModified(const VarDecl *V) {
  if (const auto *FD =
          dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod()))
    collectModifiedVars(FD);
  return ModifiedVars.contains(V) || InductionSteps.count(V);
}

const Frame &declaringFrame(const VarDecl *VD, const Frame &F) {
  const DeclContext *DC = VD->getDeclContext();
  if (!F.Function || DC == F.Function || !F.Parent)
    return F;
  for (const Frame *P = F.Parent; P; P = P->Parent)
    if (P->Function == DC)
      return *P;
  return F;
}

std::pair<const Expr *, const Frame *> boundTo(const VarDecl *VD,
                                               const Frame &F) {
  const Frame &DF = declaringFrame(VD, F);
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    auto It = DF.Args.find(P);
    if (It != DF.Args.end() && DF.Parent)
      return {It->second, DF.Parent};
    return {nullptr, nullptr};
  }
  if (const Expr *Init = VD->getInit())
    return {Init, &DF};
  return {nullptr, nullptr};
}

std::optional<AbstractValue>
ValueEvaluator::fieldOfChosenObject(const FieldDecl *FD, const Frame &F,
                                    unsigned Depth) {
  if (Depth > MaxEvalDepth || isFieldChangedByMethods(FD))
    return std::nullopt;
  // The object the member function runs on, through the references and
  // parameters that carry it, up to the conditional that picks it.
  const Expr *Obj = F.This;
  const Frame *Where = F.Parent;
  const ConditionalOperator *Choice = nullptr;
  // Members on the way (`impl_.consumer_wait(...)` of a wrapping
  // pipeline), innermost last.
  llvm::SmallVector<const FieldDecl *, 2> Members;
  for (unsigned Steps = 0; Obj && Where && Steps < MaxEvalDepth; ++Steps) {
    const Expr *S = strip(Obj);
    if ((Choice = dyn_cast<ConditionalOperator>(S)))
      break;
    if (const auto *ME = dyn_cast<MemberExpr>(S);
        ME && (!ME->isArrow() ||
               isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))) {
      const auto *M = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!M)
        return std::nullopt;
      Members.push_back(M);
      Obj = ME->getBase();
      continue;
    }
    // `consumer_wait(state.index(), ...)` from another member function:
    // the caller's object.
    if (isa<CXXThisExpr>(S)) {
      Obj = Where->This;
      Where = Where->Parent;
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(S);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->getType()->isReferenceType())
      return std::nullopt;
    auto [Bound, In] = boundTo(VD, *Where);
    Obj = Bound;
    Where = In;
  }
  if (!Choice || !Where)
    return std::nullopt;
  AbstractValue Cond = evaluateImpl(Choice->getCond(), *Where, Depth + 1);
  if (!Cond.PerThread || !Cond.PerThreadExact)
    return std::nullopt;
  AbstractValue Arm[2];
  for (int I = 0; I < 2; ++I) {
    const Expr *A = I == 0 ? Choice->getTrueExpr() : Choice->getFalseExpr();
    uint64_t Key = objectKey(A, *Where);
    for (auto M = Members.rbegin(); M != Members.rend(); ++M)
      Key = memberObjectKey(Key, *M);
    auto It = Fields.find({Key, FD});
    if (It == Fields.end() || !It->second.second)
      return std::nullopt;
    Arm[I] = evaluateImpl(It->second.first, *It->second.second, Depth + 1);
  }
  const ThreadValues &C = *Cond.PerThread;
  // A barrier pointer of each object: the array each thread's points into.
  if (Arm[0].isSlotAddress() && Arm[1].isSlotAddress()) {
    auto ArrayOf = [](const AbstractValue &V) {
      return V.SlotArray ? V.SlotArray : V.Slot;
    };
    if (!ArrayOf(Arm[0]) || !ArrayOf(Arm[1]) || Arm[0].SlotArrayByThread ||
        Arm[1].SlotArrayByThread)
      return std::nullopt;
    auto Arrays = std::make_shared<std::vector<uint64_t>>(C.size());
    for (size_t T = 0; T < C.size(); ++T)
      (*Arrays)[T] = ArrayOf(Arm[C[T] ? 0 : 1]);
    AbstractValue V;
    V.Address = AddressKind::SlotAddress;
    V.Uniform = join(Cond.Uniform, Uniformity::WarpUniform);
    V.SlotName = Arm[0].SlotName == Arm[1].SlotName
                     ? Arm[0].SlotName
                     : Arm[0].SlotName + "|" + Arm[1].SlotName;
    if (Arm[0].SlotElementBytes == Arm[1].SlotElementBytes)
      V.SlotElementBytes = Arm[0].SlotElementBytes;
    V.SlotArrayByThread = std::move(Arrays);
    return V;
  }
  // A number each object holds.
  if (Arm[0].Address != AddressKind::None || Arm[1].Address != AddressKind::None)
    return std::nullopt;
  bool E0 = false, E1 = false;
  ThreadValuesPtr T0 = perThreadOf(Arm[0], E0), T1 = perThreadOf(Arm[1], E1);
  if (!T0 || !T1 || !E0 || !E1)
    return std::nullopt;
  auto Out = std::make_shared<ThreadValues>(C.size());
  for (size_t T = 0; T < C.size(); ++T)
    (*Out)[T] = (*(C[T] ? T0 : T1))[T];
  AbstractValue V;
  V.Uniform = join(Cond.Uniform, join(Arm[0].Uniform, Arm[1].Uniform));
  setPerThread(V, std::move(Out), /*Exact=*/true);
  return V;
}

const Expr *ValueEvaluator::fieldSource(const Expr *Object, const FieldDecl *FD,
                                        const Frame &F, const Frame *&Where,
                                        unsigned Depth) {
  if (!Object || Depth > MaxEvalDepth)
    return nullptr;
  const Expr *O = strip(Object);
  // A copy of an object holds its fields.
  while (const auto *CC = dyn_cast<CXXConstructExpr>(O)) {
    if (CC->getNumArgs() != 1 || !CC->getConstructor() ||
        !CC->getConstructor()->isCopyOrMoveConstructor() ||
        !(CC->getConstructor()->isDefaulted() || CC->isElidable()))
      return nullptr;
    O = strip(CC->getArg(0));
  }
  // `{a, b}`: the initialiser of the field's position.
  if (const auto *IL = dyn_cast<InitListExpr>(O)) {
    if (IL->getNumInits() == 0 || isa<DesignatedInitExpr>(IL->getInit(0)))
      return nullptr;
    const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
    if (!RD || RD->getNumBases() || RD->isUnion() ||
        O->getType()->getAsRecordDecl() != FD->getParent() ||
        FD->getFieldIndex() >= IL->getNumInits())
      return nullptr;
    Where = &F;
    return IL->getInit(FD->getFieldIndex());
  }
  // `this->member.f`: the member's constructor initialiser.
  if (const auto *ME = dyn_cast<MemberExpr>(O)) {
    const auto *M = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!M || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()) ||
        isFieldChangedByMethods(M))
      return nullptr;
    const auto *Record = thisFieldRecord(M, F);
    if (!Record || !Record->second)
      return nullptr;
    return fieldSource(Record->first, FD, *Record->second, Where, Depth + 1);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(O);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage())
    return nullptr;
  // A parameter or reference: the object it is bound to.
  if (isa<ParmVarDecl>(VD) || VD->getType()->isReferenceType()) {
    if (isa<ParmVarDecl>(VD) && !VD->getType()->isReferenceType() &&
        isModified(VD))
      return nullptr;
    auto [Bound, In] = boundTo(VD, F);
    return Bound ? fieldSource(Bound, FD, *In, Where, Depth + 1) : nullptr;
  }
  isModified(VD); // scans the declaring function's writes
  if (WholeObjectWrites.contains(VD))
    return nullptr;
  auto W = FieldWrites.find({VD, FD});
  if (W != FieldWrites.end()) {
    if (W->second.Count != 1 || !W->second.InDeclaringBlock)
      return nullptr;
    Where = &declaringFrame(VD, F);
    return W->second.Value;
  }
  if (const Expr *Init = VD->getInit())
    return fieldSource(Init, FD, declaringFrame(VD, F), Where, Depth + 1);
  return nullptr;
}

const std::pair<const Expr *, const Frame *> *
ValueEvaluator::thisFieldRecord(const FieldDecl *FD, const Frame &F) const {
  auto It = Fields.find({F.ObjectKey, FD});
  if (It == Fields.end())
    It = Fields.find({uniqueObjectOf(FD->getParent()), FD});
  return It == Fields.end() ? nullptr : &It->second;
}

uint64_t ValueEvaluator::uniqueObjectOf(const RecordDecl *RD) const {
  auto It = ObjectsOfClass.find(RD);
  return It != ObjectsOfClass.end() && It->second.size() == 1
             ? It->second.front()
             : 0;
}

uint64_t ValueEvaluator::objectKey(const Expr *Object, const Frame &F) {
  if (!Object)
    return 0;
  // A copy (a pipeline passed by value into the collective's `store`) has
  // the fields of its source: it is followed as the same object.
  Object = strip(Object);
  while (const auto *CC = dyn_cast<CXXConstructExpr>(Object)) {
    if (CC->getNumArgs() != 1 || !CC->getConstructor() ||
        !CC->getConstructor()->isCopyOrMoveConstructor())
      break;
    Object = strip(CC->getArg(0));
  }
  if (isa<CXXThisExpr>(Object))
    return F.ObjectKey;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Object))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return objectKey(VD, F);
  // A member subobject (`impl_.consumer_release(s)`, CUTLASS's pipelines
  // wrap one another): its own identity under the enclosing object's.
  if (const auto *ME = dyn_cast<MemberExpr>(Object);
      ME && (!ME->isArrow() ||
             isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())))
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl()))
      if (uint64_t Key = memberObjectKey(objectKey(ME->getBase(), F), FD))
        return Key;
  // Not followed (a pipeline unpacked from a tuple by a structured
  // binding): the only object of its class this kernel built, if only one.
  if (const CXXRecordDecl *RD = Object->getType()->getAsCXXRecordDecl())
    return uniqueObjectOf(RD);
  return 0;
}

uint64_t ValueEvaluator::memberObjectKey(uint64_t Enclosing,
                                         const FieldDecl *FD) {
  if (!Enclosing || !FD)
    return 0;
  return llvm::hash_combine(Enclosing, FD) | 1;
}

uint64_t ValueEvaluator::objectKey(const VarDecl *VD, const Frame &InF) {
  if (!VD || !VD->hasLocalStorage())
    return 0;
  // A parameter bound to an object of the caller, by reference or as a
  // copy, and a local reference: that object.
  if (VD->getType()->isReferenceType() ||
      (isa<ParmVarDecl>(VD) && VD->getType()->isRecordType())) {
    auto [Bound, Where] = boundTo(VD, InF);
    if (Bound)
      return objectKey(Bound, *Where);
    if (VD->getType()->isReferenceType())
      return 0;
  }
  // A lambda's capture of a variable of its enclosing function.
  const Frame &F = declaringFrame(VD, InF);
  return (reinterpret_cast<uintptr_t>(VD) * 31 + F.Id) | 1;
}

uint64_t ValueEvaluator::slotIdentity(const Expr *E, const Frame &F,
                                      std::string *Name, unsigned Depth) {
  if (!E || Depth > MaxEvalDepth)
    return 0;
  E = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return 0;
    if (VD->hasAttr<CUDASharedAttr>()) {
      if (Name)
        *Name = VD->getName().str();
      return hashIdentity(VD);
    }
    // A reference bound to a slot: `uint32_t &slot = storage.tmem_base;`.
    if (VD->getType()->isReferenceType())
      if (auto [Bound, Where] = boundTo(VD, F); Bound)
        return slotIdentity(Bound, *Where, Name, Depth + 1);
    return 0;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    uint64_t Base = slotIdentity(AS->getBase(), F, Name, Depth + 1);
    if (!Base) {
      // `storage[0]` with `int *storage = (int *)(smem_raw + 616)`.
      AbstractValue P = evaluateImpl(AS->getBase(), F, Depth + 1);
      AbstractValue Index = evaluateImpl(AS->getIdx(), F, Depth + 1);
      if (!P.isSlotAddress() || !Index.Constant)
        return 0;
      if (*Index.Constant != 0) {
        P = offsetSlot(P, AS->getBase(), Index, /*Negate=*/false);
        if (!P.isSlotAddress())
          return 0;
      }
      if (Name)
        *Name = P.SlotName;
      return P.Slot;
    }
    AbstractValue Index = evaluateImpl(AS->getIdx(), F, Depth + 1);
    if (Name)
      *Name += Index.Constant ? "[" + std::to_string(*Index.Constant) + "]"
                              : std::string("[]");
    // An element whose index is not known stands for "some element" (a
    // pipeline stage); mbarriers are matched by their array anyway.
    return hashIdentity(reinterpret_cast<const void *>(Base),
                        Index.Constant ? *Index.Constant : INT64_MIN);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // A field names the slot whatever object it is reached through (the
    // shared storage struct is usually a reference to dynamic shared memory).
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return 0;
    // Fields of `this` or of a local object are register copies (an RAII
    // allocator's `tmem_addr`), not the shared-memory slot itself.
    const Expr *Base = ME->getBase()->IgnoreParenImpCasts();
    // `regs[i].x`, `pair.first.x`: look through to the variable that holds
    // the object.
    while (true) {
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Base))
        Base = AS->getBase()->IgnoreParenImpCasts();
      else if (const auto *Inner = dyn_cast<MemberExpr>(Base);
               Inner && !Inner->isArrow())
        Base = Inner->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    if (isa<CXXThisExpr>(Base))
      return 0;
    if (const auto *BaseRef = dyn_cast<DeclRefExpr>(Base))
      if (const auto *BV = dyn_cast<VarDecl>(BaseRef->getDecl()))
        if (BV->hasLocalStorage() && !BV->getType()->isReferenceType() &&
            !BV->getType()->isPointerType() && !BV->hasAttr<CUDASharedAttr>())
          return 0;
    if (Name)
      *Name = FD->getName().str();
    // The fields above it tell apart two objects of one type in the shared
    // storage (FMHA's `pipelines.s0` and `pipelines.s1_corr`: both
    // PipelineAsync<1>, whose barrier arrays are the same field).
    return hashIdentity(
        FD, static_cast<int64_t>(memberPath(ME->getBase(), F, Depth + 1)));
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_Deref) {
    AbstractValue P = evaluateImpl(UO->getSubExpr(), F, Depth + 1);
    if (P.isSlotAddress()) {
      if (Name)
        *Name = P.SlotName;
      return P.Slot;
    }
  }
  return 0;
}

namespace {
const Expr *addressedObject(const Expr *P, const Frame *&F, unsigned Depth);
} // namespace

uint64_t ValueEvaluator::memberPath(const Expr *E, const Frame &F,
                                    unsigned Depth) {
  if (!E || Depth > MaxEvalDepth)
    return 0;
  E = strip(E);
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    return memberPath(AS->getBase(), F, Depth + 1);
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return 0;
    const Expr *Base = ME->getBase();
    // `p->f` with p = `&obj`: the path of obj.
    if (ME->isArrow()) {
      const Frame *Where = &F;
      Base = addressedObject(Base, Where, 0);
      if (!Base || !Where)
        return hashIdentity(FD);
      return hashIdentity(
          FD, static_cast<int64_t>(memberPath(Base, *Where, Depth + 1)));
    }
    return hashIdentity(FD,
                        static_cast<int64_t>(memberPath(Base, F, Depth + 1)));
  }
  // References and reference parameters stand for what they are bound to.
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && VD->getType()->isReferenceType())
      if (auto [Bound, Where] = boundTo(VD, F); Bound)
        return memberPath(Bound, *Where, Depth + 1);
  // A root: the storage itself (`*reinterpret_cast<SharedStorage *>(smem)`,
  // a __shared__ variable).
  return 0;
}

std::optional<int64_t> ValueEvaluator::constantInt(const Expr *E) {
  auto It = Constants.find(E);
  if (It != Constants.end())
    return It->second;
  std::optional<int64_t> Result;
  // A read of a variable that is neither const nor constexpr is never a
  // constant (most operands are such reads): no need to ask Clang.
  bool ReadsMutable = false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      ReadsMutable = !VD->isConstexpr() && !VD->getType()->isReferenceType() &&
                     !VD->getType().isConstQualified() &&
                     VD->getType()->isIntegralOrEnumerationType();
  Expr::EvalResult R;
  if (!ReadsMutable && E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
    Result = R.Val.getInt().getExtValue();
  Constants[E] = Result;
  return Result;
}

AbstractValue ValueEvaluator::offsetSlot(const AbstractValue &Base,
                                         const Expr *BaseExpr,
                                         const AbstractValue &Addend,
                                         bool Negate) {
  AbstractValue V;
  V.Uniform = join(Base.Uniform, Addend.Uniform);
  // Some element of the array each thread's object points into (no one
  // array to name).
  if (!Base.SlotArray && Base.isSlotAddress() && Base.SlotArrayByThread) {
    V.Address = AddressKind::SlotAddress;
    V.SlotArrayByThread = Base.SlotArrayByThread;
    V.SlotName = Base.SlotName.substr(0, Base.SlotName.rfind('[')) + "[]";
    return V;
  }
  if (!Base.SlotArray)
    return V;
  std::string ArrayName = Base.SlotName.substr(0, Base.SlotName.rfind('['));
  V.Address = AddressKind::SlotAddress;
  V.SlotArray = Base.SlotArray;
  // Some element of the same array (a pipeline stage, `bar + stage * 8`):
  // no slot of its own (an alloc into it names no region), but mbarriers
  // are matched by their array, so a commit and a wait on a stage still
  // meet.
  auto SomeElement = [&] {
    V.Slot = 0;
    V.SlotName = ArrayName + "[]";
    return V;
  };
  // The constant part of the byte offset, and whether an unknown index was
  // added (`smem + 440 + stage * 8`: the run of mbarriers at 440), which
  // tells apart the pipelines carved from one buffer (BarrierRuns.h).
  std::optional<int64_t> BaseRun =
      Base.SlotRunStart ? Base.SlotRunStart : Base.SlotByteOffset;
  auto KeepRun = [&](std::optional<int64_t> Bytes) {
    if (Bytes && BaseRun) {
      V.SlotRunStart = *BaseRun + *Bytes;
      V.SlotIndexed = Base.SlotIndexed;
    } else if (!Bytes && BaseRun && !Negate) {
      V.SlotRunStart = BaseRun;
      V.SlotIndexed = true;
    }
  };
  // `bars + stage` from a pointer to element k: element `stage + k`.
  if (!Addend.Constant && Addend.Term && !Negate && Base.ElementTerm &&
      Base.ElementTerm->isConstant() && Base.SlotElementBytes > 0)
    if (const auto *PT = BaseExpr->getType()->getAs<PointerType>();
        PT && !PT->getPointeeType()->isIncompleteType() &&
        !PT->getPointeeType()->isDependentType() &&
        Ctx.getTypeSizeInChars(PT->getPointeeType()).getQuantity() ==
            Base.SlotElementBytes)
      V.ElementTerm = Addend.Term->plus(Base.ElementTerm->constantValue());
  // Pointer arithmetic moves by the pointee (after the casts written on the
  // pointer), integer arithmetic on a shared address by bytes.
  int64_t Stride = 1;
  QualType T = BaseExpr->getType();
  if (const auto *PT = T->getAs<PointerType>()) {
    QualType Pointee = PT->getPointeeType();
    if (Pointee->isIncompleteType() || Pointee->isDependentType())
      return SomeElement();
    Stride = Ctx.getTypeSizeInChars(Pointee).getQuantity();
  } else if (!T->isIntegerType()) {
    return SomeElement();
  }
  std::optional<int64_t> AddedBytes;
  int64_t Added = 0;
  if (Addend.Constant &&
      !__builtin_mul_overflow(*Addend.Constant, Stride, &Added) &&
      Added != INT64_MIN)
    AddedBytes = Negate ? -Added : Added;
  KeepRun(AddedBytes);
  // An index the role picks (`barrier_ptr_[group_id]` of an ordered
  // sequence barrier, `full[warp_idx - 4]`): each thread's own element,
  // so the barrier runs tell the roles' barriers apart (BarrierRuns.h).
  if (!AddedBytes && BaseRun && !Base.SlotIndexed && Addend.PerThread &&
      Addend.PerThreadExact)
    if (auto ByThread = perThreadByteOffsets(*BaseRun, *Addend.PerThread,
                                             Negate ? -Stride : Stride)) {
      V.SlotRunStart.reset();
      V.SlotIndexed = false;
      V.SlotRunStartByThread = std::move(ByThread);
    }
  if (!Base.SlotByteOffset || Base.SlotElementBytes <= 0 || !Addend.Constant)
    return SomeElement();
  int64_t Bytes =
      *Base.SlotByteOffset + (Negate ? -1 : 1) * *Addend.Constant * Stride;
  if (Bytes < 0 || Bytes % Base.SlotElementBytes != 0)
    return SomeElement();
  int64_t Index = Bytes / Base.SlotElementBytes;
  V.Slot = hashIdentity(reinterpret_cast<const void *>(Base.SlotArray), Index);
  V.SlotName = ArrayName + "[" + std::to_string(Index) + "]";
  V.ElementTerm = StageTerm::constant(Index);
  V.SlotByteOffset = Bytes;
  V.SlotElementBytes = Base.SlotElementBytes;
  return V;
}

AbstractValue ValueEvaluator::addressOf(const Expr *LV, const Frame &F,
                                        unsigned Depth) {
  AbstractValue V;
  V.Uniform = Uniformity::Unknown;
  if (!LV || Depth > MaxEvalDepth)
    return V;
  const Expr *Sub = strip(LV);
  V.Slot = slotIdentity(Sub, F, &V.SlotName, Depth + 1);
  if (V.Slot) {
    V.Address = AddressKind::SlotAddress;
    V.Uniform = Uniformity::CtaUniform;
    V.SlotArray = V.Slot;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
      V.SlotArray = slotIdentity(AS->getBase(), F, nullptr, Depth + 1);
      // `ptr[0]` of a pointer a pipeline keeps: the array it points into,
      // as `ptr[stage]` names it.
      if (!V.SlotArray && AS->getBase()->getType()->isPointerType())
        if (AbstractValue P = evaluateImpl(AS->getBase(), F, Depth + 1);
            P.isSlotAddress() && P.SlotArray)
          V.SlotArray = P.SlotArray;
      AbstractValue Index = evaluateImpl(AS->getIdx(), F, Depth + 1);
      V.ElementTerm = Index.Constant
                          ? std::optional(StageTerm::constant(*Index.Constant))
                          : Index.Term;
      // `&bars[k]` of an array: its byte offset in the array, as `bars + k`
      // has, so a pointer kept to it reaches the elements by offset
      // (an ordered barrier's `barrier_ptr_[stage * 2 + group_id]`).
      if (const ArrayType *AT =
              Ctx.getAsArrayType(AS->getBase()->IgnoreImpCasts()->getType());
          AT && !AT->getElementType()->isIncompleteType() &&
          !AT->getElementType()->isDependentType()) {
        const int64_t Bytes =
            Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
        if (Index.Constant && *Index.Constant >= 0) {
          V.SlotElementBytes = Bytes;
          V.SlotByteOffset = *Index.Constant * Bytes;
        } else if (Index.PerThread && Index.PerThreadExact) {
          // `&full[warp_idx - 4]`: each role's own element.
          V.SlotRunStartByThread =
              perThreadByteOffsets(0, *Index.PerThread, Bytes);
        }
      }
    }
    return V;
  }
  // Through pointers the program keeps (CUTLASS's pipelines hold
  // `empty_barrier_ptr_ = &storage.empty_barrier_[0]` and reach a stage as
  // `empty_barrier_ptr_[stage]`): the pointer's value moved by the index.
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub)) {
    if (AS->getBase()->getType()->isPointerType()) {
      AbstractValue P = evaluateImpl(AS->getBase(), F, Depth + 1);
      if (!P.isSlotAddress())
        return V;
      AbstractValue Index = evaluateImpl(AS->getIdx(), F, Depth + 1);
      if (Index.Constant && *Index.Constant == 0)
        return P;
      return offsetSlot(P, AS->getBase(), Index, /*Negate=*/false);
    }
    return V;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(Sub);
      UO && UO->getOpcode() == UO_Deref)
    return evaluateImpl(UO->getSubExpr(), F, Depth + 1);
  // An lvalue a helper returns (`{ return barrier_ptr_[stage * 2 + id]; }`,
  // OrderedSequenceBarrier's get_barrier_for_current_stage): the address of
  // what it returns, its parameters bound to the call's arguments.
  if (const auto *CE = dyn_cast<CallExpr>(Sub)) {
    const FunctionDecl *Def = nullptr;
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->getReturnType()->isLValueReferenceType() &&
        FD->hasBody(Def) && Def)
      if (const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
          Body && Body->size() == 1)
        if (const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
            Ret && Ret->getRetValue())
          return addressOf(Ret->getRetValue(), helperFrame(CE, Def, F),
                           Depth + 1);
    return V;
  }
  // A field of an object whose address is known: `&this->barrier_` in
  // ClusterBarrier::arrive, whose object is `empty_barrier_ptr_[stage]`.
  if (const auto *ME = dyn_cast<MemberExpr>(Sub)) {
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD || FD->isBitField())
      return V;
    const Expr *Base = strip(ME->getBase());
    AbstractValue P = isa<CXXThisExpr>(Base) ? addressOfThis(F, Depth + 1)
                      : ME->isArrow()        ? evaluateImpl(Base, F, Depth + 1)
                                             : addressOf(Base, F, Depth + 1);
    if (!P.isSlotAddress())
      return V;
    const RecordDecl *RD = FD->getParent();
    if (RD->isInvalidDecl() || RD->isDependentType())
      return V;
    int64_t Offset =
        Ctx.getASTRecordLayout(RD).getFieldOffset(FD->getFieldIndex()) / 8;
    if (Offset == 0)
      return P;
    // Another slot inside the object: its own identity, the same array.
    P.Slot = P.Slot
                 ? hashIdentity(reinterpret_cast<const void *>(P.Slot), Offset)
                 : 0;
    P.SlotName += "." + FD->getName().str();
    if (P.SlotByteOffset)
      *P.SlotByteOffset += Offset;
    P.ElementTerm.reset();
    return P;
  }
  return V;
}

AbstractValue ValueEvaluator::addressOfThis(const Frame &F, unsigned Depth) {
  AbstractValue V;
  V.Uniform = Uniformity::Unknown;
  if (!F.This || !F.Parent)
    return V;
  // A member call through a pointer (`p->arrive()`) has the pointer as its
  // object argument; through an object, the object's lvalue.
  if (F.This->getType()->isPointerType())
    return evaluateImpl(F.This, *F.Parent, Depth + 1);
  return addressOf(F.This, *F.Parent, Depth + 1);
}

/// The static constexpr integral `value` of class \p RD or one of its
/// bases (cute::C<v>, cute::integral_constant<T, v>,
/// std::integral_constant<T, v>).
static std::optional<int64_t> staticValueMember(const CXXRecordDecl *RD,
                                                ASTContext &Ctx,
                                                unsigned Depth = 0) {
  if (!RD || !RD->hasDefinition() || RD->isDependentContext() || Depth > 8)
    return std::nullopt;
  RD = RD->getDefinition();
  for (const NamedDecl *ND : RD->lookup(&Ctx.Idents.get("value")))
    if (const auto *VD = dyn_cast<VarDecl>(ND);
        VD && VD->isStaticDataMember() &&
        VD->getType()->isIntegralOrEnumerationType() &&
        (VD->isConstexpr() || VD->getType().isConstQualified()))
      if (const APValue *Val = VD->evaluateValue();
          Val && Val->isInt() && Val->getInt().getSignificantBits() <= 63)
        return Val->getInt().getExtValue();
  for (const CXXBaseSpecifier &B : RD->bases())
    if (std::optional<int64_t> V = staticValueMember(
            B.getType()->getAsCXXRecordDecl(), Ctx, Depth + 1))
      return V;
  return std::nullopt;
}

std::optional<int64_t> ValueEvaluator::integralConstantValue(const Expr *E) {
  const Expr *S = strip(E);
  if (!S || S->isTypeDependent() || S->isValueDependent())
    return std::nullopt;
  // The conversion to the value type (`operator value_type()`).
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S);
      MC && isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()) &&
      MC->getImplicitObjectArgument())
    S = strip(MC->getImplicitObjectArgument());
  const CXXRecordDecl *RD = S->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->isEmpty())
    return std::nullopt;
  return staticValueMember(RD, Ctx);
}

ValueEvaluator::ValueEvaluator(ASTContext &Ctx)
    : Ctx(Ctx), Tensors(std::make_unique<CuteTmemTensors>(Ctx, *this)),
      Counters(std::make_unique<WrappingCounters>(Ctx)) {}

ValueEvaluator::~ValueEvaluator() = default;

void ValueEvaluator::beginKernel() {
  ObjectsOfClass.clear();
  Tensors->clear();
}

const Expr *stripWrappers(const Expr *E) { return strip(E); }

std::optional<IntRange> ValueEvaluator::inductionRange(const VarDecl *VD,
                                                       const Frame &F,
                                                       unsigned Depth) {
  auto It = InductionLoops.find(VD);
  if (It == InductionLoops.end() || !VD->getInit())
    return std::nullopt;
  const ForStmt &For = *It->second;
  std::optional<int64_t> Start =
      evaluateImpl(VD->getInit(), F, Depth + 1).Constant;
  std::optional<int64_t> Step;
  const Expr *Inc =
      For.getInc() ? For.getInc()->IgnoreParenImpCasts() : nullptr;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (UO->isIncrementOp())
      Step = 1;
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if (CA->getOpcode() == BO_AddAssign)
      Step = evaluateImpl(CA->getRHS(), F, Depth + 1).Constant;
  }
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      For.getCond() ? For.getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Start || !Step || *Step <= 0 || !Cond ||
      referencedVar(Cond->getLHS()) != VD)
    return std::nullopt;
  std::optional<int64_t> End =
      evaluateImpl(Cond->getRHS(), F, Depth + 1).Constant;
  if (!End)
    return std::nullopt;
  int64_t Last;
  switch (Cond->getOpcode()) {
  case BO_LT:
    Last = *End - 1;
    break;
  case BO_LE:
    Last = *End;
    break;
  case BO_NE:
    if (*Step != 1)
      return std::nullopt;
    Last = *End - 1;
    break;
  default:
    return std::nullopt;
  }
  if (Last < *Start || Last - *Start > (INT64_C(1) << 32))
    return std::nullopt;
  // The last value the index takes: the start plus whole steps.
  Last = *Start + (Last - *Start) / *Step * *Step;
  return IntRange{*Start, Last};
}

AbstractValue ValueEvaluator::evaluate(const Expr *E, const Frame &F) {
  return evaluateImpl(E, F, 0);
}

AbstractValue ValueEvaluator::evaluateImpl(const Expr *E, const Frame &F,
                                           unsigned Depth) {
  AbstractValue V = evaluateUncast(E, F, Depth);
  if (!V.PerThread || !E)
    return V;
  // strip() looks through conversions; the per-thread values must not:
  // `(uint16_t)(threadIdx.x << 16)` is 0 in every thread. Integer
  // conversions are applied innermost first; any other conversion drops
  // them.
  llvm::SmallVector<QualType, 4> Conversions;
  for (const Expr *Cur = E;;) {
    Cur = Cur->IgnoreParens();
    if (const auto *CE = dyn_cast<CastExpr>(Cur)) {
      switch (CE->getCastKind()) {
      case CK_NoOp:
      case CK_LValueToRValue:
        break;
      case CK_IntegralCast:
        Conversions.push_back(CE->getType());
        break;
      default:
        setPerThread(V, nullptr, false);
        return V;
      }
      Cur = CE->getSubExpr();
      continue;
    }
    if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(Cur))
      Cur = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(Cur))
      Cur = B->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(Cur))
      Cur = C->getSubExpr();
    else if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(Cur))
      Cur = S->getReplacement();
    else if (const auto *CE = dyn_cast<ConstantExpr>(Cur))
      Cur = CE->getSubExpr();
    else
      break;
  }
  if (Conversions.empty())
    return V;
  auto Out = std::make_shared<ThreadValues>(*V.PerThread);
  for (QualType T : llvm::reverse(Conversions)) {
    auto [Bits, Signed] = intShape(T, Ctx);
    if (Bits == 0) {
      setPerThread(V, nullptr, false);
      return V;
    }
    for (int64_t &X : *Out)
      X = truncateTo(X, Bits, Signed);
  }
  setPerThread(V, std::move(Out), V.PerThreadExact);
  return V;
}

namespace {

/// The object a pointer expression addresses when it is spelled `&x` at
/// the end of a chain of parameters and const locals (CuTe passes a TMEM
/// address as `&tmem_addr` to `explode`, which reads `s[0]`): x, and the
/// frame it is evaluated in. Null otherwise.
const Expr *addressedObject(const Expr *P, const Frame *&F, unsigned Depth) {
  for (; P && F && Depth < 32; ++Depth) {
    P = P->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(P);
        UO && UO->getOpcode() == UO_AddrOf)
      return UO->getSubExpr();
    const auto *DRE = dyn_cast<DeclRefExpr>(P);
    if (!DRE)
      return nullptr;
    if (const auto *PV = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      auto It = F->Args.find(PV);
      if (It == F->Args.end() || !F->Parent)
        return nullptr;
      P = It->second;
      F = F->Parent;
      continue;
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || !VD->getInit() ||
        !(VD->getType().isConstQualified() || VD->getType()->isReferenceType()))
      return nullptr;
    P = VD->getInit();
  }
  return nullptr;
}

} // namespace

AbstractValue ValueEvaluator::evaluateUncast(const Expr *E, const Frame &F,
                                             unsigned Depth) {
  AbstractValue Unknown;
  Unknown.Uniform = Uniformity::Unknown;
  if (!E || Depth > MaxEvalDepth)
    return Unknown;
  // A CuTe TMEM tensor's data pointer (`raw_pointer_cast(src.data())`).
  if (std::optional<AbstractValue> V = Tensors->evaluate(E, F, Depth))
    return *V;
  // A value its type decides (`stage == _0{}` of cute::C<v> operands,
  // std::integral_constant): the type's static `value`, also where the
  // operand is a function parameter, which Clang does not fold.
  if (std::optional<int64_t> C = integralConstantValue(E)) {
    AbstractValue V;
    V.Constant = *C;
    V.Uniform = Uniformity::CtaUniform;
    return V;
  }
  // `p[0]` / `*p` with p = `&x` passed down: the value of x.
  {
    const Expr *S = E->IgnoreParenImpCasts();
    const Expr *Ptr = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      if (AS->getBase()->getType()->isPointerType() &&
          !AS->getIdx()->isValueDependent())
        if (std::optional<llvm::APSInt> I =
                AS->getIdx()->getIntegerConstantExpr(Ctx);
            I && I->isZero())
          Ptr = AS->getBase();
    } else if (const auto *UO = dyn_cast<UnaryOperator>(S);
               UO && UO->getOpcode() == UO_Deref) {
      Ptr = UO->getSubExpr();
    }
    const Frame *Where = &F;
    if (Ptr)
      if (const Expr *Obj = addressedObject(Ptr, Where, 0))
        if (!Obj->getType()->isArrayType() && Where)
          if (const auto *DRE = dyn_cast<DeclRefExpr>(Obj->IgnoreParens());
              DRE && !DRE->getDecl()->hasAttr<CUDASharedAttr>()) {
            // CuTe's copy_unpack: `uint32_t tmem_addr = raw_pointer_cast(
            // src.data());` whose address, taken once and nowhere else
            // written, is read back through `s[0]` by the atom.
            if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
                VD && VD->hasLocalStorage() && VD->getInit() &&
                VD->getType()->isIntegerType() && addressedOnceOnly(VD))
              return evaluateImpl(VD->getInit(), declaringFrame(VD, *Where),
                                  Depth + 1);
            return evaluateImpl(Obj, *Where, Depth + 1);
          }
  }
  // A __shared__ array used as a pointer (`__cvta_generic_to_shared(slot)`
  // with `__shared__ uint32_t slot[1]`) is the address of its element 0,
  // the slot `slot[0]` reads.
  const Expr *Decay = E->IgnoreParens();
  while (const auto *IC = dyn_cast<ImplicitCastExpr>(Decay)) {
    if (IC->getCastKind() == CK_ArrayToPointerDecay)
      break;
    Decay = IC->getSubExpr()->IgnoreParens();
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(Decay);
      IC && IC->getCastKind() == CK_ArrayToPointerDecay) {
    std::string Name;
    uint64_t Array = slotIdentity(IC->getSubExpr(), F, &Name, Depth + 1);
    // An array member of an object whose address is known (cute::array's
    // `__elems_` in `data()`): the address of its first element.
    if (!Array)
      if (AbstractValue A = addressOf(IC->getSubExpr(), F, Depth + 1);
          A.isSlotAddress())
        return A;
    if (Array) {
      AbstractValue V = Unknown;
      V.Address = AddressKind::SlotAddress;
      V.Uniform = Uniformity::CtaUniform;
      V.Slot = hashIdentity(reinterpret_cast<const void *>(Array), 0);
      V.SlotArray = Array;
      V.SlotName = Name + "[0]";
      V.ElementTerm = StageTerm::constant(0);
      if (const ArrayType *AT = Ctx.getAsArrayType(IC->getSubExpr()->getType());
          AT && !AT->getElementType()->isIncompleteType() &&
          !AT->getElementType()->isDependentType()) {
        V.SlotByteOffset = 0;
        V.SlotElementBytes =
            Ctx.getTypeSizeInChars(AT->getElementType()).getQuantity();
      }
      return V;
    }
  }
  E = strip(E);

  if (!E->isValueDependent() && !E->isTypeDependent() &&
      E->getType()->isIntegralOrEnumerationType()) {
    if (std::optional<int64_t> C = constantInt(E)) {
      AbstractValue V;
      V.Constant = *C;
      V.Uniform = Uniformity::CtaUniform;
      return V;
    }
  }

  if (auto U = builtinVariableUniformity(E)) {
    AbstractValue V;
    V.Uniform = *U;
    V.IsThreadIndexX = isThreadIdxX(E);
    if (V.IsThreadIndexX)
      setPerThread(V, threadIndexValues(), /*Exact=*/true);
    return V;
  }

  // `this` as a value (`reinterpret_cast<uint64_t *>(this)`): the address
  // of the object the member function runs on.
  if (isa<CXXThisExpr>(E))
    return addressOfThis(F, Depth + 1);

  // A field of the object a member function runs on, set by its
  // constructor or an earlier member function.
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl())) {
        const auto *Record = thisFieldRecord(FD, F);
        if (Record && Record->second && !isFieldChangedByMethods(FD))
          return evaluateImpl(Record->first, *Record->second, Depth + 1);
        // `(c ? a : b).f` with c known thread by thread: each thread's
        // object's field.
        if (!Record)
          if (std::optional<AbstractValue> V =
                  fieldOfChosenObject(FD, F, Depth + 1))
            return *V;
        // A stage index its methods keep in [0, K), started there: 0 with
        // one stage, else bounded.
        if (Record && Record->second)
          if (std::optional<int64_t> K = Counters->limitOf(FD)) {
            AbstractValue First =
                evaluateImpl(Record->first, *Record->second, Depth + 1);
            if (First.Constant && *First.Constant >= 0 &&
                *First.Constant < *K) {
              AbstractValue V;
              if (*K == 1) {
                V.Constant = 0;
                V.Uniform = Uniformity::CtaUniform;
              } else {
                V.Uniform = Uniformity::Unknown;
                V.Range = IntRange{0, *K - 1};
              }
              return V;
            }
          }
      }

  // A scalar field of another object: a local's field assignment
  // (`params.group_id = role == Softmax1 ? 1 : 0`), reached through the
  // references and copies that carry the object (an ordered barrier's
  // `params_.group_id`, copied from its constructor's argument).
  if (const auto *ME = dyn_cast<MemberExpr>(E);
      ME && E->getType()->isIntegralOrEnumerationType())
    if (const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
        FD && !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts())) {
      const Frame *Where = nullptr;
      if (const Expr *Src = fieldSource(ME->getBase(), FD, F, Where, Depth + 1))
        return evaluateImpl(Src, *Where, Depth + 1);
    }

  // Addresses of shared-memory slots and the TMEM addresses read from them.
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf)
      return addressOf(UO->getSubExpr(), F, Depth + 1);
    if (UO->getOpcode() == UO_Deref) {
      AbstractValue V = Unknown;
      V.Slot = slotIdentity(UO, F, &V.SlotName, Depth + 1);
      if (V.Slot) {
        V.Address = AddressKind::TmemAddress;
        V.LaneOffset = V.ColumnOffset = 0;
        markSlotRead(V);
      }
      return V;
    }
  }
  if (isa<DeclRefExpr>(E) || isa<MemberExpr>(E) || isa<ArraySubscriptExpr>(E)) {
    if (isSlotTypeImpl(E->getType())) {
      std::string Name;
      if (uint64_t Slot = slotIdentity(E, F, &Name, Depth + 1)) {
        AbstractValue V = Unknown;
        V.Address = AddressKind::TmemAddress;
        V.Slot = Slot;
        V.SlotName = Name;
        V.LaneOffset = V.ColumnOffset = 0;
        markSlotRead(V);
        return V;
      }
    }
  }

  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      // A parameter of the function around a lambda, captured.
      if (const Frame &DF = declaringFrame(P, F); &DF != &F)
        return evaluateImpl(E, DF, Depth + 1);
      auto It = F.Args.find(P);
      if (It != F.Args.end() && F.Parent)
        return evaluateImpl(It->second, *F.Parent, Depth + 1);
      // The parameters of the entry point are the same in every thread: a
      // kernel's, and a __device__ entry point's, which the whole CTA is
      // assumed to enter with the same arguments (AnalysisRoots).
      if (!F.Parent && F.Function && !isModified(P)) {
        AbstractValue V;
        V.Uniform = Uniformity::CtaUniform;
        return V;
      }
      return Unknown;
    }
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
      if (VD->hasAttr<CUDASharedAttr>())
        return Unknown;
      if (std::optional<AbstractValue> Elected = electionValue(VD, F, Depth))
        return *Elected;
      if (isModified(VD) && !ModifiedVars.contains(VD)) {
        // A loop induction variable: unknown value, uniform if its start
        // and step are.
        AbstractValue V = Unknown;
        auto It = InductionSteps.find(VD);
        const Expr *Step = It->second;
        Uniformity StepU = Uniformity::CtaUniform;
        if (Step && !isa<UnaryOperator>(Step->IgnoreParenImpCasts()))
          StepU = evaluateImpl(Step, F, Depth + 1).Uniform;
        Uniformity InitU =
            VD->getInit() ? evaluateImpl(VD->getInit(), F, Depth + 1).Uniform
                          : Uniformity::Unknown;
        V.Uniform = join(InitU, StepU);
        V.Term = StageTerm::variable(hashIdentity(VD, F.Id));
        V.Range = inductionRange(VD, F, Depth);
        return V;
      }
      if (const Expr *Init = initialValue(VD))
        if ((VD->getType().isConstQualified() || !isModified(VD)) &&
            !VD->getType()->isReferenceType() &&
            !VD->getType()->isArrayType() &&
            !isa<InitListExpr>(Init->IgnoreParenImpCasts()))
          return evaluateImpl(Init, F, Depth + 1);
      // A local the program changes (`stage = (stage + 1) % 2`): its value
      // here is unknown, but the same in every use that sees it.
      if (VD->hasLocalStorage() && VD->getType()->isIntegerType() &&
          !VD->getType()->isReferenceType()) {
        AbstractValue V = Unknown;
        V.Term = StageTerm::variable(hashIdentity(VD, F.Id));
        return V;
      }
      return Unknown;
    }
    return Unknown;
  }

  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->isCommaOp())
      return Unknown;
    AbstractValue L = evaluateImpl(BO->getLHS(), F, Depth + 1);
    AbstractValue R = evaluateImpl(BO->getRHS(), F, Depth + 1);
    AbstractValue V;
    V.Uniform = join(L.Uniform, R.Uniform);
    // TMEM address arithmetic: `base + col`, `base | (lane << 16)`.
    BinaryOperatorKind Op = BO->getOpcode();
    if ((Op == BO_Add || Op == BO_Or || Op == BO_Sub) &&
        (L.isTmemAddress() || (R.isTmemAddress() && Op != BO_Sub))) {
      const AbstractValue &Base = L.isTmemAddress() ? L : R;
      const Expr *AddendExpr = L.isTmemAddress() ? BO->getRHS() : BO->getLHS();
      const AbstractValue &Addend = L.isTmemAddress() ? R : L;
      V.Address = AddressKind::TmemAddress;
      V.Slot = Base.Slot;
      V.SlotName = Base.SlotName;
      int64_t Sign = Op == BO_Sub ? -1 : 1;
      // `taddr + 64 + row` with `row = (warp * 32) << 16` in every thread:
      // the lane field moves, the columns stay.
      const bool LaneFieldOnly = isLaneOnlyAddend(AddendExpr, Ctx) ||
                                 (Sign > 0 && inLaneFieldInEveryThread(Addend));
      if (Addend.Constant) {
        int64_t C = *Addend.Constant * Sign;
        if (Base.LaneOffset)
          V.LaneOffset = *Base.LaneOffset + (C >> 16);
        if (Base.ColumnOffset)
          V.ColumnOffset = *Base.ColumnOffset + (C & 0xFFFF);
        for (int64_t Col : Base.ColumnChoices)
          V.ColumnChoices.push_back(Col + (C & 0xFFFF));
        if (Base.ColumnRange && C >= 0) {
          AbstractValue Columns;
          Columns.Constant = C & 0xFFFF;
          applyColumnRange(Base, Columns, 1, V);
        }
        if (C < 0) { // borrows across the fields: give up on both
          V.LaneOffset = V.ColumnOffset = std::nullopt;
          V.ColumnChoices.clear();
        }
        V.ColumnTerm = Base.ColumnTerm;
      } else if (LaneFieldOnly || (Sign > 0 && movesLanesOnly(Addend))) {
        V.ColumnOffset = Base.ColumnOffset;
        V.ColumnChoices = Base.ColumnChoices;
        V.ColumnRange = Base.ColumnRange;
        V.ColumnSpanEnd = Base.ColumnSpanEnd;
        V.ColumnWindowByThread = Base.ColumnWindowByThread;
        V.ColumnTerm = Base.ColumnTerm;
      } else if (Sign > 0 && Base.ColumnOffset && !Addend.Choices.empty() &&
                 Addend.Choices.front() >= 0 &&
                 Addend.Choices.back() <= 0xFFFF) {
        // `base + (tile % 2) * 128`: one of a few accumulator stages.
        V.LaneOffset = Base.LaneOffset;
        for (int64_t C : Addend.Choices)
          V.ColumnChoices.push_back(*Base.ColumnOffset + C);
      }
      // `base + i * 16` with i a loop index: somewhere in those columns.
      if (!Addend.Constant && !LaneFieldOnly)
        applyColumnRange(Base, Addend, int(Sign), V);
      if (!Addend.Constant && !LaneFieldOnly)
        V.ColumnTerm = movesLanesOnly(Addend)
                           ? Base.ColumnTerm
                           : columnTermAfter(Base, Addend, Sign);
      // Per thread: `base + (threadIdx.x << 16)`. `base | x` only when the
      // bits cannot meet: an allocation start (lane field 0, as alloc
      // writes it) or'ed with values in the lane field alone.
      bool Exact = false;
      if (Op == BO_Or) {
        bool AE = false;
        ThreadValuesPtr AT = perThreadOf(Addend, AE);
        bool Disjoint =
            Base.isAllocationStart() && Base.PerThread && AT && AE &&
            llvm::all_of(*AT, [](int64_t X) {
              return X >= 0 && X <= INT64_C(0xFFFFFFFF) && (X & 0xFFFF) == 0;
            });
        if (Disjoint)
          setPerThread(V,
                       combinePerThread(BO_Add, Base, Addend, 32, false, Exact),
                       false);
      } else {
        setPerThread(V, combinePerThread(Op, L, R, 32, false, Exact), false);
        // `taddr + f(warp)` with taddr read from the allocation's slot (one
        // word, the same in every thread): each thread's offset from the
        // allocation start, which the hand-off analysis compares.
        bool AE = false;
        const bool FromAllocation = Base.PerThreadFromAllocation;
        if (V.PerThread && FromAllocation && perThreadOf(Addend, AE) && AE)
          V.PerThreadFromAllocation = true;
      }
      return V;
    }
    // `smem + 616` (the integer shared address of a dynamic buffer) and
    // `smem_raw + 616` (a pointer into it) name the element at that byte.
    if ((Op == BO_Add || Op == BO_Sub) &&
        (L.isSlotAddress() || (R.isSlotAddress() && Op == BO_Add)))
      return offsetSlot(L.isSlotAddress() ? L : R,
                        L.isSlotAddress() ? BO->getLHS() : BO->getRHS(),
                        L.isSlotAddress() ? R : L, Op == BO_Sub);
    // `threadIdx.x / 32` and `threadIdx.x >> 5` are warp indices.
    if (L.Uniform == Uniformity::ThreadVariant &&
        R.Uniform == Uniformity::CtaUniform) {
      bool RawTid = builtinVariableUniformity(strip(BO->getLHS())) ==
                    Uniformity::ThreadVariant;
      if (BO->getOpcode() == BO_Div && isWarpDivisor(R)) {
        V.Uniform = Uniformity::WarpUniform;
        V.IsWarpIndex = RawTid && *R.Constant == 32;
      }
      if (BO->getOpcode() == BO_Shr && R.Constant && *R.Constant >= 5) {
        V.Uniform = Uniformity::WarpUniform;
        V.IsWarpIndex = RawTid && *R.Constant == 5;
      }
    }
    // `threadIdx.x < 64` selects whole warps of a 1-D block, and so does
    // `tid < n * 32` with `const int tid = threadIdx.x` and a uniform n.
    if (BO->isRelationalOp()) {
      auto IsTid = [](const Expr *E, const AbstractValue &EV) {
        return EV.IsThreadIndexX ||
               builtinVariableUniformity(strip(E)) == Uniformity::ThreadVariant;
      };
      const AbstractValue *Bound = nullptr;
      BinaryOperatorKind Rel = BO->getOpcode();
      if (IsTid(BO->getLHS(), L) && R.Uniform != Uniformity::ThreadVariant) {
        Bound = &R;
      } else if (IsTid(BO->getRHS(), R) &&
                 L.Uniform != Uniformity::ThreadVariant) {
        Bound = &L;
        Rel = BinaryOperator::reverseComparisonOp(Rel);
      }
      if (Bound && Bound->Constant) {
        int64_t C = *Bound->Constant;
        if (Rel == BO_LE || Rel == BO_GT)
          ++C;
        if (C >= 0 && C % 32 == 0)
          V.Uniform = Uniformity::WarpUniform;
      } else if (Bound && (Rel == BO_LT || Rel == BO_GE) &&
                 isWarpMultiple(*Bound)) {
        V.Uniform = Uniformity::WarpUniform;
      }
    }
    if (L.Constant && R.Constant) {
      V.Constant = foldBinary(Op, *L.Constant, *R.Constant);
    } else {
      int64_t FL = factorOf(L), FR = factorOf(R), Factor = 1;
      if (Op == BO_Mul && FL > 0 && FR > 0 && FL <= INT32_MAX &&
          FR <= INT32_MAX)
        Factor = FL * FR;
      else if (Op == BO_Shl && R.Constant && *R.Constant >= 0 &&
               *R.Constant < 31 && FL > 0 && FL <= INT32_MAX)
        Factor = FL << *R.Constant;
      else if (Op == BO_Add || Op == BO_Sub)
        Factor = std::gcd(FL, FR);
      if (Factor > 1)
        V.KnownFactor = Factor;
      V.Choices = binaryChoices(Op, L, R, BO->getLHS()->getType());
      if (V.Choices.size() == 1) {
        V.Constant = V.Choices.front();
        V.Choices.clear();
      }
      if (!V.Constant && V.Choices.empty() && !V.isSlotAddress())
        if (std::optional<RangeOp> RO = rangeOpOf(Op))
          applyRangeArithmetic(*RO, L, R, V);
      auto [Bits, Signed] = intShape(BO->getType(), Ctx);
      bool Exact = false;
      if (!V.Constant && !V.isSlotAddress())
        if (ThreadValuesPtr T = combinePerThread(Op, L, R, Bits, Signed, Exact))
          setPerThread(V, std::move(T), Exact);
      if (!V.Constant)
        V.Term = binaryTerm(Op, L, R);
    }
    if (!V.Constant)
      V.TmemDerivedSlot =
          L.tmemProvenance() ? L.tmemProvenance() : R.tmemProvenance();
    return V;
  }

  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf ||
        UO->getOpcode() == UO_Deref)
      return Unknown;
    AbstractValue S = evaluateImpl(UO->getSubExpr(), F, Depth + 1);
    AbstractValue V;
    V.Uniform = S.Uniform;
    V.TmemDerivedSlot = S.tmemProvenance();
    if (UO->getOpcode() == UO_Not && S.Term && !S.Constant)
      V.Term = S.Term->complemented();
    if (S.Constant) {
      switch (UO->getOpcode()) {
      case UO_Minus:
        V.Constant = -*S.Constant;
        break;
      case UO_Not:
        V.Constant = ~*S.Constant;
        break;
      case UO_LNot:
        V.Constant = !*S.Constant;
        break;
      case UO_Plus:
        V.Constant = *S.Constant;
        break;
      default:
        break;
      }
    } else if (S.PerThread &&
               (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Not ||
                UO->getOpcode() == UO_Plus)) {
      // -x and ~x = -x - 1 keep lanes apart; with an unknown base only
      // the offsets are negated.
      auto [Bits, Signed] = intShape(UO->getType(), Ctx);
      if (Bits) {
        auto T = std::make_shared<ThreadValues>(BlockThreads);
        for (unsigned I = 0; I < BlockThreads; ++I) {
          uint64_t X = uint64_t((*S.PerThread)[I]);
          uint64_t Y = UO->getOpcode() == UO_Plus                      ? X
                       : UO->getOpcode() == UO_Not && S.PerThreadExact ? ~X
                                                                       : 0 - X;
          (*T)[I] = truncateTo(int64_t(Y), Bits, Signed);
        }
        setPerThread(V, std::move(T), S.PerThreadExact);
      }
    }
    return V;
  }

  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    AbstractValue C = evaluateImpl(CO->getCond(), F, Depth + 1);
    AbstractValue T = evaluateImpl(CO->getTrueExpr(), F, Depth + 1);
    AbstractValue Fl = evaluateImpl(CO->getFalseExpr(), F, Depth + 1);
    if (C.Constant)
      return *C.Constant ? T : Fl;
    AbstractValue V;
    V.Uniform = join(C.Uniform, join(T.Uniform, Fl.Uniform));
    bool TE = false, FE = false;
    ThreadValuesPtr TT =
        C.PerThread && C.PerThreadExact ? perThreadOf(T, TE) : nullptr;
    ThreadValuesPtr FT = TT ? perThreadOf(Fl, FE) : nullptr;
    if (TT && FT && TE && FE) {
      // `threadIdx.x % 2 ? 64 : 32`, selected thread by thread.
      auto Sel = std::make_shared<ThreadValues>(BlockThreads);
      for (unsigned I = 0; I < BlockThreads; ++I)
        (*Sel)[I] = (*C.PerThread)[I] ? (*TT)[I] : (*FT)[I];
      setPerThread(V, std::move(Sel), true);
    }
    if (T.Constant && Fl.Constant && *T.Constant == *Fl.Constant) {
      V.Constant = T.Constant;
      setPerThread(V, nullptr, false);
    } else {
      std::vector<int64_t> Ts = possibleConstants(T),
                           Fs = possibleConstants(Fl);
      if (!Ts.empty() && !Fs.empty()) {
        Ts.insert(Ts.end(), Fs.begin(), Fs.end());
        V.Choices = normalizeChoices(std::move(Ts), MaxChoices);
      }
    }
    return V;
  }

  if (const auto *CE = dyn_cast<CallExpr>(E))
    return evaluateCall(CE, F, Depth);

  if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(E))
    return evaluateImpl(DA->getExpr(), F, Depth + 1);

  return Unknown;
}

AbstractValue ValueEvaluator::evaluateCall(const CallExpr *CE, const Frame &F,
                                           unsigned Depth) {
  AbstractValue Unknown;
  Unknown.Uniform = Uniformity::Unknown;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return Unknown;
  StringRef Name = FD->getIdentifier() ? FD->getName() : StringRef();
  if (auto U = knownCallUniformity(Name)) {
    AbstractValue V;
    V.Uniform = *U;
    if (Name == "__nvvm_read_ptx_sreg_tid_x") {
      V.IsThreadIndexX = true;
      setPerThread(V, threadIndexValues(), true);
    } else if (Name == "__nvvm_read_ptx_sreg_laneid") {
      setPerThread(V, laneIdValues(), true);
    } else if (*U == Uniformity::ThreadVariant && Name.contains("lane")) {
      // A helper named like a lane id (`lane_id()`): classified by name,
      // lane-variant only when its body says so (`threadIdx.x & 31`).
      AbstractValue Body = evaluateSingleReturn(CE, F, Depth);
      if (Body.PerThread && Body.PerThreadExact)
        setPerThread(V, Body.PerThread, true);
    } else if (*U == Uniformity::WarpUniform) {
      // A warp or warpgroup index helper with a body (CUTLASS's
      // canonical_warp_idx_sync: `__shfl_sync(~0u, threadIdx.x / 32, 0)`):
      // its value in each warp, when the body gives it.
      AbstractValue Body = evaluateSingleReturn(CE, F, Depth);
      if (Body.PerThread && Body.PerThreadExact &&
          Body.Uniform <= Uniformity::WarpUniform) {
        setPerThread(V, Body.PerThread, true);
        V.IsWarpIndex = Body.IsWarpIndex;
      }
    }
    return V;
  }
  // cuda::ptx's special-register readers are inline asm.
  if (CE->getNumArgs() == 0 &&
      (Name == "get_sreg_laneid" || Name == "get_sreg_tid_x")) {
    AbstractValue V;
    V.Uniform = Uniformity::ThreadVariant;
    V.IsThreadIndexX = Name == "get_sreg_tid_x";
    setPerThread(V, V.IsThreadIndexX ? threadIndexValues() : laneIdValues(),
                 true);
    return V;
  }
  // Address-space conversions of a slot's address keep naming the slot.
  if ((Name.contains("cvta_generic_to_shared") || Name.contains("smem") ||
       Name.contains("shared")) &&
      CE->getNumArgs() >= 1 && CE->getArg(0)->getType()->isPointerType()) {
    AbstractValue P = evaluateImpl(CE->getArg(0), F, Depth + 1);
    if (P.isSlotAddress())
      return P;
  }
  // A shuffle from a fixed lane broadcasts one value to the whole warp.
  if (Name.starts_with("__shfl_sync") && CE->getNumArgs() >= 3) {
    AbstractValue Src = evaluateImpl(CE->getArg(1), F, Depth + 1);
    AbstractValue Lane = evaluateImpl(CE->getArg(2), F, Depth + 1);
    AbstractValue V;
    V.Uniform = Lane.Uniform <= Uniformity::WarpUniform
                    ? join(Uniformity::WarpUniform,
                           std::min(Src.Uniform, Uniformity::WarpUniform))
                    : Uniformity::Unknown;
    if (Src.Uniform == Uniformity::CtaUniform || Src.Constant)
      V.Constant = Src.Constant;
    // Bounds that hold in every lane hold in the one broadcast (CUTLASS's
    // `warp_uniform(t.data().get())` of a tensor partitioned by thread).
    if (!V.Constant && Lane.Uniform <= Uniformity::WarpUniform &&
        Src.Address == AddressKind::None) {
      V.Choices = Src.Choices;
      V.Range = Src.Range;
      V.LowHalfRange = Src.LowHalfRange;
      V.ColumnSpanEnd = Src.ColumnSpanEnd;
      V.KnownLowHalf = Src.KnownLowHalf;
      V.ColumnWindowByThread = broadcastWindows(Src, Lane);
    }
    // `__shfl_sync(~0u, threadIdx.x / 32, 0)` (CUTLASS's
    // canonical_warp_idx_sync): each warp gets lane L's value, and the warp
    // index stays the warp index.
    bool SrcExact = false;
    ThreadValuesPtr ST = perThreadOf(Src, SrcExact);
    if (!V.Constant && ST && SrcExact && Lane.Constant && *Lane.Constant >= 0 &&
        *Lane.Constant < 32) {
      auto Out = std::make_shared<ThreadValues>(BlockThreads);
      for (unsigned T = 0; T < BlockThreads; ++T)
        (*Out)[T] = (*ST)[(T & ~31u) + unsigned(*Lane.Constant)];
      setPerThread(V, std::move(Out), /*Exact=*/true);
      V.IsWarpIndex = Src.IsWarpIndex;
    }
    return V;
  }
  // min/max: uniform when both operands are; CUDA's integer overloads end
  // in libdevice declarations (`__nv_min`) that have no body to look into.
  bool IsMin = llvm::is_contained({"min", "umin", "llmin", "ullmin", "__nv_min",
                                   "__nv_umin", "__nv_llmin", "__nv_ullmin"},
                                  Name);
  bool IsMax = llvm::is_contained({"max", "umax", "llmax", "ullmax", "__nv_max",
                                   "__nv_umax", "__nv_llmax", "__nv_ullmax"},
                                  Name);
  if ((IsMin || IsMax) && CE->getNumArgs() == 2 &&
      CE->getType()->isIntegerType()) {
    AbstractValue A = evaluateImpl(CE->getArg(0), F, Depth + 1);
    AbstractValue B = evaluateImpl(CE->getArg(1), F, Depth + 1);
    AbstractValue V;
    V.Uniform = join(A.Uniform, B.Uniform);
    if (A.Constant && B.Constant) {
      V.Constant = IsMin ? std::min(*A.Constant, *B.Constant)
                         : std::max(*A.Constant, *B.Constant);
    } else if (int64_t G = std::gcd(factorOf(A), factorOf(B)); G > 1) {
      V.KnownFactor = G;
    }
    return V;
  }
  // Small helpers of the form `{ return expr; }` are evaluated through.
  return evaluateSingleReturn(CE, F, Depth);
}

namespace {

/// The return statements of a body (not of the lambdas in it), and whether
/// an inline asm in it writes an elect.sync predicate into an output.
class ElectionHelperScan : public RecursiveASTVisitor<ElectionHelperScan> {
public:
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *R) {
    Returns.push_back(R);
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    Elects |= !electedOutputs(*S).empty();
    return true;
  }
  llvm::SmallVector<const ReturnStmt *, 2> Returns;
  bool Elects = false;
};

} // namespace

const ReturnStmt *
ValueEvaluator::electionHelperReturn(const CompoundStmt &Body) {
  auto [It, New] = ElectionHelpers.try_emplace(&Body, nullptr);
  if (!New)
    return It->second;
  ElectionHelperScan Scan;
  Scan.TraverseStmt(const_cast<CompoundStmt *>(&Body));
  if (Scan.Elects && Scan.Returns.size() == 1)
    It->second = Scan.Returns.front();
  return It->second;
}

AbstractValue ValueEvaluator::evaluateSingleReturn(const CallExpr *CE,
                                                   const Frame &F,
                                                   unsigned Depth) {
  AbstractValue Unknown;
  Unknown.Uniform = Uniformity::Unknown;
  const FunctionDecl *FD = CE->getDirectCallee();
  const FunctionDecl *Def = nullptr;
  if (!FD)
    return Unknown;
  if (FD->hasBody(Def) && Def) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
    const ReturnStmt *Single = nullptr;
    if (Body && Body->size() == 1)
      Single = dyn_cast<ReturnStmt>(Body->body_front());
    if (Body && !Single)
      Single = electionHelperReturn(*Body);
    if (const ReturnStmt *Ret = Single)
      if (Ret->getRetValue() && Depth < MaxEvalDepth)
        return evaluateImpl(Ret->getRetValue(), helperFrame(CE, Def, F),
                            Depth + 1);
    if (Body && !Single && Depth < MaxEvalDepth &&
        CE->getType()->isIntegralOrEnumerationType())
      if (std::optional<AbstractValue> V =
              evaluateReturnChain(*Body, helperFrame(CE, Def, F), Depth + 1))
        return *V;
  }
  return Unknown;
}

std::optional<std::string>
ValueEvaluator::valueKey(const Expr *E, const Frame &F, unsigned Depth) {
  if (!E || Depth > MaxEvalDepth)
    return std::nullopt;
  E = E->IgnoreParens();
  if (E->getType().isNull() || E->isTypeDependent() || E->isValueDependent() ||
      E->getType().isVolatileQualified())
    return std::nullopt;
  if (E->isPRValue() && E->getType()->isIntegralOrEnumerationType())
    if (std::optional<int64_t> C = constantInt(E))
      return std::to_string(*C);
  if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return valueKey(S->getReplacement(), F, Depth + 1);
  if (const auto *CE = dyn_cast<ConstantExpr>(E))
    return valueKey(CE->getSubExpr(), F, Depth + 1);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      return valueKey(Cast->getSubExpr(), F, Depth + 1);
    case CK_IntegralCast:
    case CK_IntegralToBoolean:
    case CK_BooleanToSignedIntegral:
    case CK_IntegralToFloating:
    case CK_FloatingToIntegral:
    case CK_FloatingToBoolean:
    case CK_FloatingCast:
      if (std::optional<std::string> K =
              valueKey(Cast->getSubExpr(), F, Depth + 1))
        return "(" +
               Cast->getType().getCanonicalType().getAsString(
                   Ctx.getPrintingPolicy()) +
               ")" + *K;
      return std::nullopt;
    default:
      return std::nullopt;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = UO->getOpcode();
    if (Op != UO_LNot && Op != UO_Not && Op != UO_Minus && Op != UO_Plus)
      return std::nullopt;
    if (std::optional<std::string> K = valueKey(UO->getSubExpr(), F, Depth + 1))
      return UnaryOperator::getOpcodeStr(Op).str() + "(" + *K + ")";
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp() || BO->isCommaOp() || BO->isPtrMemOp())
      return std::nullopt;
    std::optional<std::string> L = valueKey(BO->getLHS(), F, Depth + 1);
    std::optional<std::string> R =
        L ? valueKey(BO->getRHS(), F, Depth + 1) : std::nullopt;
    if (!R)
      return std::nullopt;
    return "(" + *L + BO->getOpcodeStr().str() + *R + ")";
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    std::optional<std::string> C = valueKey(CO->getCond(), F, Depth + 1);
    std::optional<std::string> T =
        C ? valueKey(CO->getTrueExpr(), F, Depth + 1) : std::nullopt;
    std::optional<std::string> Fl =
        T ? valueKey(CO->getFalseExpr(), F, Depth + 1) : std::nullopt;
    if (!Fl)
      return std::nullopt;
    return "(" + *C + "?" + *T + ":" + *Fl + ")";
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  if (!DRE)
    return std::nullopt;
  if (const auto *EC = dyn_cast<EnumConstantDecl>(DRE->getDecl()))
    return std::to_string(EC->getInitVal().getExtValue());
  const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
  if (!VD || !VD->getType()->isScalarType() || VD->getType()->isPointerType() ||
      VD->getType()->isReferenceType() || VD->hasAttr<CUDASharedAttr>() ||
      isModified(VD))
    return std::nullopt;
  const Frame &DF = declaringFrame(VD, F);
  if (const auto *P = dyn_cast<ParmVarDecl>(VD)) {
    // A helper's parameter is its argument, as the caller computed it.
    auto It = DF.Args.find(P);
    if (It != DF.Args.end() && DF.Parent)
      return valueKey(It->second, *DF.Parent, Depth + 1);
    if (DF.Parent || !DF.Function)
      return std::nullopt;
    return P->getName().str();
  }
  const Expr *Init = initialValue(VD);
  if (!VD->hasLocalStorage() || VD->isStaticLocal() || !Init)
    return std::nullopt;
  return valueKey(Init, DF, Depth + 1);
}

const Frame &ValueEvaluator::helperFrame(const CallExpr *CE,
                                         const FunctionDecl *Def,
                                         const Frame &F) {
  auto Callee = std::make_unique<Frame>();
  Callee->Function = Def;
  Callee->Parent = &F;
  Callee->Id = F.Id;
  // A member function's object (`storage.full_barrier_.data()`, an
  // operator's first argument) is `this`, not a parameter.
  unsigned First = 0;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    Callee->This = MC->getImplicitObjectArgument();
  } else if (const auto *MD = dyn_cast<CXXMethodDecl>(Def);
             MD && MD->isInstance() && isa<CXXOperatorCallExpr>(CE) &&
             CE->getNumArgs() > 0) {
    Callee->This = CE->getArg(0);
    First = 1;
  }
  if (Callee->This)
    Callee->ObjectKey = objectKey(Callee->This, F);
  for (unsigned I = 0; I < Def->getNumParams() && I + First < CE->getNumArgs();
       ++I)
    Callee->Args[Def->getParamDecl(I)] = CE->getArg(I + First);
  HelperFrames.push_back(std::move(Callee));
  return *HelperFrames.back();
}

std::optional<AbstractValue>
ValueEvaluator::evaluateReturnChain(const CompoundStmt &Body,
                                    const Frame &Callee, unsigned Depth) {
  // The form: local declarations, `if (test) return value;` (no else, no
  // init statement), and a last `return value;`. Anything else (loops,
  // assignments, other statements) is not a decision chain.
  auto ReturnOf = [](const Stmt *S) -> const Expr * {
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
      S = CS->size() == 1 ? CS->body_front() : nullptr;
    const auto *R = dyn_cast_or_null<ReturnStmt>(S);
    return R ? R->getRetValue() : nullptr;
  };
  if (Body.body_empty() || !ReturnOf(Body.body_back()))
    return std::nullopt;
  std::vector<std::pair<const Expr *, const Expr *>> Arms; // test, value
  for (const Stmt *S : Body.body()) {
    if (isa<NullStmt>(S))
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *VD = dyn_cast<VarDecl>(D);
        if (!VD || !VD->getInit() || VD->isStaticLocal() || isModified(VD))
          return std::nullopt;
      }
      continue;
    }
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      const Expr *Value = ReturnOf(If->getThen());
      if (!Value || If->getElse() || If->getInit() ||
          If->getConditionVariable() || If->isConsteval())
        return std::nullopt;
      Arms.push_back({If->getCond(), Value});
      continue;
    }
    if (S != Body.body_back())
      return std::nullopt;
    Arms.push_back({nullptr, ReturnOf(S)});
  }
  if (Arms.size() < 2)
    return std::nullopt;

  AbstractValue V;
  V.Uniform = Uniformity::CtaUniform;
  bool Exact = true;
  std::optional<int64_t> Same; // the result when every arm gives it
  bool AllSame = true;
  auto Result = std::make_shared<ThreadValues>(BlockThreads, 0);
  std::vector<uint8_t> Decided(BlockThreads, 0);
  for (auto [Test, Value] : Arms) {
    AbstractValue R = evaluateImpl(Value, Callee, Depth + 1);
    V.Uniform = join(V.Uniform, R.Uniform);
    if (!R.Constant || (Same && *Same != *R.Constant))
      AllSame = false;
    else
      Same = R.Constant;
    bool RE = false, TE = true;
    ThreadValuesPtr RT = perThreadOf(R, RE), TT;
    if (Test) {
      AbstractValue C = evaluateImpl(Test, Callee, Depth + 1);
      V.Uniform = join(V.Uniform, C.Uniform);
      TT = perThreadOf(C, TE);
    }
    Exact = Exact && RT && RE && (!Test || (TT && TE));
    if (!Exact)
      continue;
    for (unsigned T = 0; T < BlockThreads; ++T)
      if (!Decided[T] && (!TT || (*TT)[T])) {
        (*Result)[T] = (*RT)[T];
        Decided[T] = 1;
      }
  }
  if (Exact) {
    // Thread by thread: a constant, a value per warp, or per lane.
    bool Constant =
        llvm::all_of(*Result, [&](int64_t X) { return X == Result->front(); });
    if (Constant) {
      AbstractValue C;
      C.Uniform = Uniformity::CtaUniform;
      C.Constant = Result->front();
      return C;
    }
    V = AbstractValue();
    setPerThread(V, std::move(Result), /*Exact=*/true);
    V.Uniform =
        V.LaneVariant ? Uniformity::ThreadVariant : Uniformity::WarpUniform;
    return V;
  }
  if (AllSame && Same) { // whichever arm is taken
    V = AbstractValue();
    V.Uniform = Uniformity::CtaUniform;
    V.Constant = Same;
  }
  return V;
}

std::optional<int64_t> ValueEvaluator::variableElement(const Expr *E,
                                                       const Frame &F) {
  const Frame *Cur = &F;
  std::optional<int64_t> Index;
  unsigned Subscripts = 0;
  for (unsigned Steps = 0; E && Cur && Steps < MaxEvalDepth; ++Steps) {
    E = strip(E);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      if (++Subscripts > 1)
        return std::nullopt;
      Index = evaluate(AS->getIdx(), *Cur).Constant;
      E = AS->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      E = ME->getBase();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return std::nullopt;
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl());
        P && P->getType()->isReferenceType()) {
      auto It = Cur->Args.find(P);
      if (It == Cur->Args.end() || !Cur->Parent)
        return std::nullopt;
      E = It->second;
      Cur = Cur->Parent;
      continue;
    }
    return Index;
  }
  return std::nullopt;
}

uint64_t ValueEvaluator::variableIdentity(const Expr *E, const Frame &F,
                                          std::string *Name) {
  const Frame *Cur = &F;
  for (unsigned Steps = 0; E && Cur && Steps < MaxEvalDepth; ++Steps) {
    E = strip(E);
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AS->getBase();
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return 0;
      E = ME->getBase();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    if (!DRE)
      return 0;
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      // A reference parameter names the caller's storage.
      if (!P->getType()->isReferenceType())
        break;
      auto It = Cur->Args.find(P);
      if (It == Cur->Args.end() || !Cur->Parent)
        return 0;
      E = It->second;
      Cur = Cur->Parent;
      continue;
    }
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
      return 0;
    if (Name)
      *Name = VD->getName().str();
    uint64_t Key[2] = {reinterpret_cast<uintptr_t>(VD), Cur->Id};
    return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
               reinterpret_cast<const uint8_t *>(Key), sizeof(Key))) |
           1;
  }
  // By-value parameters are locals of their own frame.
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(E))
    if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (Name)
        *Name = P->getName().str();
      uint64_t Key[2] = {reinterpret_cast<uintptr_t>(P), Cur->Id};
      return llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>(
                 reinterpret_cast<const uint8_t *>(Key), sizeof(Key))) |
             1;
    }
  return 0;
}

} // namespace tmemcheck
