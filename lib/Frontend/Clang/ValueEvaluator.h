//===- ValueEvaluator.h - Abstract values of Clang expressions --*- C++ -*-===//
//
// Part of tmemcheck. Evaluates expressions of device code to AbstractValues
// (constant or unknown, with a uniformity class) inside an inlining frame
// that binds the parameters of the function being analysed to the argument
// expressions of its call site.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_VALUEEVALUATOR_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_VALUEEVALUATOR_H

#include "ClangSourceLoc.h"
#include "ElectionAsm.h"
#include "WrappingCounters.h"

#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Analysis/Value.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <memory>
#include <optional>

namespace tmemcheck {

/// A write of an elect.sync predicate into a variable (ElectionAsm.h).
struct ElectionWrite {
  ElectedOutput Output;
  bool ReadWrite = false; ///< "+r": the other lanes keep the initial value.
};
using ElectionWriteMap =
    llvm::DenseMap<const clang::VarDecl *, llvm::SmallVector<ElectionWrite, 1>>;

/// How often a local has its address taken, and is changed in other ways.
struct AddressUse {
  unsigned AddressTaken = 0;
  unsigned OtherMarks = 0;
};

/// The assignments `v.f = e` to a field of a local object: how many, the
/// last value, and whether it is a statement of the block that declares
/// v (not under a branch).
struct LocalFieldWrite {
  unsigned Count = 0;
  const clang::Expr *Value = nullptr;
  bool InDeclaringBlock = false;
};
using LocalFieldWrites =
    llvm::DenseMap<std::pair<const clang::VarDecl *, const clang::FieldDecl *>,
                   LocalFieldWrite>;

/// One activation of a function on the inlining stack: which function, the
/// caller's frame, and the argument expression bound to each parameter.
struct Frame {
  const clang::FunctionDecl *Function = nullptr;
  const Frame *Parent = nullptr;
  unsigned Id = 0;
  llvm::DenseMap<const clang::ParmVarDecl *, const clang::Expr *> Args;
  /// The object expression a member function or constructor runs on.
  const clang::Expr *This = nullptr;
  /// Identity of that object (a local of some frame) when known: fields of
  /// `this` are looked up under it.
  uint64_t ObjectKey = 0;
  /// The object a by-value result of this call initialises (`T x = [&] {
  /// return T(args); }();`, CUTLASS's pipelines built by a lambda called on
  /// the spot): the object a `return T(args)` of this frame constructs.
  uint64_t ReturnObjectKey = 0;
  /// The call (or construct) expression in the caller that entered this
  /// frame; null for the kernel and for implicit destructor calls.
  const clang::Stmt *CallStmt = nullptr;
  CallStack Stack; ///< call sites, outermost first.
  unsigned depth() const { return Stack.size(); }
};

/// The frame of the function that declares \p VD, walking up from \p F: a
/// lambda reads the variables of its enclosing function through its
/// captures (CUTLASS's epilogue loop uses the pipelines `store` received).
/// \p F itself when no frame up the chain declares it.
const Frame &declaringFrame(const clang::VarDecl *VD, const Frame &F);

/// What \p VD stands for at \p F: a parameter's argument and the caller's
/// frame, or a local's initialiser and its frame; null when unknown.
std::pair<const clang::Expr *, const Frame *> boundTo(const clang::VarDecl *VD,
                                                      const Frame &F);

/// True for the types a shared-memory slot holding a TMEM address has.
bool isSlotType(clang::QualType T);

/// \p E without the parentheses, conversions, temporaries and casts that
/// do not change what it stands for.
const clang::Expr *stripWrappers(const clang::Expr *E);

class CuteTmemTensors;

/// Evaluates expressions to abstract values.
class ValueEvaluator {
public:
  explicit ValueEvaluator(clang::ASTContext &Ctx);
  ~ValueEvaluator();

  AbstractValue evaluate(const clang::Expr *E, const Frame &F);
  /// evaluate() from inside a nested evaluation \p Depth levels deep.
  AbstractValue evaluateAt(const clang::Expr *E, const Frame &F,
                           unsigned Depth) {
    return evaluateImpl(E, F, Depth);
  }

  /// The data pointers of the kernel's CuTe TMEM tensors.
  CuteTmemTensors &tensors() { return *Tensors; }

  /// A name for the value of \p E in \p F that stays the same wherever it
  /// is evaluated in the kernel (Block::ValueKey): made of constants, the
  /// entry point's scalar parameters while nothing writes them, helper
  /// parameters bound to such values, and locals that nothing changes after
  /// an initialiser of that kind (named by that initialiser). std::nullopt
  /// when \p E reads anything else (memory, a field, a call, a variable the
  /// program changes, the thread's identity).
  std::optional<std::string> valueKey(const clang::Expr *E, const Frame &F,
                                      unsigned Depth = 0);

  /// For an lvalue \p E naming one element of a one-dimensional local array
  /// (`regs[3]`, possibly through reference parameters): the element's
  /// constant index; std::nullopt otherwise.
  std::optional<int64_t> variableElement(const clang::Expr *E, const Frame &F);

  /// A stable identity for the storage \p E designates (a local variable or
  /// array, possibly reached through reference parameters), or 0.
  uint64_t variableIdentity(const clang::Expr *E, const Frame &F,
                            std::string *Name = nullptr);

  /// Identity of the object a member call or constructor runs on: a local
  /// object of some frame, a member of one, followed through references,
  /// copies and lambda captures; 0 when unknown.
  uint64_t objectKey(const clang::Expr *Object, const Frame &F);
  uint64_t objectKey(const clang::VarDecl *VD, const Frame &F);
  /// The only object of class \p RD whose fields this kernel recorded, or 0
  /// when there are none or several.
  uint64_t uniqueObjectOf(const clang::RecordDecl *RD) const;
  /// Identity of member \p FD of the object \p Enclosing (0 if unknown).
  static uint64_t memberObjectKey(uint64_t Enclosing,
                                  const clang::FieldDecl *FD);

  /// Remembers that field \p FD of object \p Object was set to \p Value
  /// (evaluated in \p F): a constructor's member initialiser or an
  /// assignment `this->f = v`. RAII allocators keep their slot this way.
  void recordField(uint64_t Object, const clang::FieldDecl *FD,
                   const clang::Expr *Value, const Frame *F) {
    if (!Object)
      return;
    Fields[{Object, FD}] = {Value, F};
    ObjectsOfClass[FD->getParent()].insert(Object);
  }

  /// A new kernel: objects of the previous one no longer stand for an
  /// object whose identity is lost.
  void beginKernel();

  /// True if \p V is assigned, incremented, has its address taken or is
  /// an asm output anywhere in its function (so its initialiser is not its
  /// value everywhere).
  bool isModified(const clang::VarDecl *V);

  /// The value a local starts with: its initialiser, or for a scalar
  /// declared without one the assignment that directly follows the
  /// declaration (`int smem; smem = (int)__cvta_generic_to_shared(buf);`),
  /// which then does not count as a modification.
  const clang::Expr *initialValue(const clang::VarDecl *V);

private:
  AbstractValue evaluateImpl(const clang::Expr *E, const Frame &F,
                             unsigned Depth);
  /// evaluateImpl without the integer conversions written around \p E
  /// (evaluateImpl applies them to the per-thread values).
  AbstractValue evaluateUncast(const clang::Expr *E, const Frame &F,
                               unsigned Depth);
  AbstractValue evaluateCall(const clang::CallExpr *CE, const Frame &F,
                             unsigned Depth);
  /// A call of a helper of the form `{ return expr; }`: expr, its
  /// parameters bound to the arguments; unknown for other calls.
  AbstractValue evaluateSingleReturn(const clang::CallExpr *CE, const Frame &F,
                                     unsigned Depth);
  /// The frame of helper \p Def called by \p CE from \p F: its parameters
  /// bound to the arguments, its object to the call's (kept alive in
  /// HelperFrames).
  const Frame &helperFrame(const clang::CallExpr *CE,
                           const clang::FunctionDecl *Def, const Frame &F);
  /// A helper that decides its result by a chain of early returns
  /// (`int wg = warp / 4; if (wg == 0) return Softmax0; ... return Empty;`,
  /// CUTLASS's warp_idx_to_WarpRole): its value thread by thread when every
  /// test and result is known so, else as uniform as they all are.
  /// std::nullopt when \p Body is not of that form.
  std::optional<AbstractValue>
  evaluateReturnChain(const clang::CompoundStmt &Body, const Frame &Callee,
                      unsigned Depth);
  /// \p Base (a slot address written as \p BaseExpr) moved by \p Addend
  /// elements of the pointee, or bytes when \p BaseExpr is an integer.
  AbstractValue offsetSlot(const AbstractValue &Base,
                           const clang::Expr *BaseExpr,
                           const AbstractValue &Addend, bool Negate);
  /// The address of the lvalue \p LV: a shared-memory slot's, also when it
  /// is reached through a pointer the program keeps or as a field of an
  /// object whose address is known; unknown otherwise.
  AbstractValue addressOf(const clang::Expr *LV, const Frame &F,
                          unsigned Depth);
  /// The address of the object the member function of \p F runs on.
  AbstractValue addressOfThis(const Frame &F, unsigned Depth);
  /// The chain of fields the object lvalue \p E is reached through, from
  /// its root storage (0 for the root itself), following references.
  uint64_t memberPath(const clang::Expr *E, const Frame &F, unsigned Depth);
  /// Identity of the shared-memory slot the lvalue \p E designates, or 0.
  uint64_t slotIdentity(const clang::Expr *E, const Frame &F, std::string *Name,
                        unsigned Depth);

public:
  /// Identity of the 32-bit shared-memory slot \p E reads, or 0.
  uint64_t slotIdentity(const clang::Expr *E, const Frame &F,
                        std::string *Name = nullptr) {
    return slotIdentity(E, F, Name, 0);
  }

private:
  void collectModifiedVars(const clang::FunctionDecl *FD);
  /// True if a member function of its class changes field \p FD in a way
  /// no recorded assignment stands for (increments, compound assignments,
  /// its address taken): its recorded value is then not its value.
  bool isFieldChangedByMethods(const clang::FieldDecl *FD);
  llvm::DenseMap<const clang::FieldDecl *, bool> ChangedFields;
  /// A helper of several statements that elects a lane with inline asm
  /// (CuTe's `elect_one_sync`: declarations, the asm, `return pred;`) is
  /// evaluated through its only return statement; nullptr for other bodies.
  const clang::ReturnStmt *electionHelperReturn(const clang::CompoundStmt &B);
  /// The value of a local written only through elect.sync predicate outputs
  /// of inline asm (`@p mov %0, 1` into a variable initialised to 0,
  /// `selp %0, 1, 0, p`): an election, lane-variant. std::nullopt for any
  /// other variable.
  std::optional<AbstractValue> electionValue(const clang::VarDecl *V,
                                             const Frame &F, unsigned Depth);
  /// The value of \p E when its type decides it: an empty class with a
  /// static constexpr `value` (cute::C<v>, std::integral_constant), or the
  /// conversion of one to its value type. std::nullopt otherwise.
  std::optional<int64_t> integralConstantValue(const clang::Expr *E);
  /// Clang's constant evaluation of an integral \p E (EvaluateAsInt),
  /// remembered: it does not depend on the call site, and an inlined helper
  /// is evaluated again for every kernel that calls it.
  std::optional<int64_t> constantInt(const clang::Expr *E);

  clang::ASTContext &Ctx;
  std::unique_ptr<CuteTmemTensors> Tensors;
  /// Stage indices kept in [0, Stages) by their methods.
  std::unique_ptr<WrappingCounters> Counters;
  llvm::DenseSet<const clang::FunctionDecl *> ScannedFunctions;
  llvm::DenseSet<const clang::VarDecl *> ModifiedVars;
  /// Loop induction variables and their step (or increment) expression.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> InductionSteps;
  /// Address-of and other modifications of each local.
  llvm::DenseMap<const clang::VarDecl *, AddressUse> AddressUses;
  /// Field assignments of local objects (`params.group_id = role == R ? 1 :
  /// 0`), and the locals changed in any other way (passed by non-const
  /// reference, assigned whole, a non-const method called on them).
  LocalFieldWrites FieldWrites;
  llvm::DenseSet<const clang::VarDecl *> WholeObjectWrites;
  /// The expression field \p FD of the object \p Object holds, and the
  /// frame it is evaluated in: a local's single field assignment, its
  /// aggregate initialiser, through references, parameters and the
  /// constructor's member initialisers of `this`'s fields. Null if unknown.
  /// What field \p FD of `this` was set to (a constructor's member
  /// initialiser or `this->f = v`), under the frame's object or the only
  /// object of its class; null when nothing was recorded.
  const std::pair<const clang::Expr *, const Frame *> *
  thisFieldRecord(const clang::FieldDecl *FD, const Frame &F) const;
  /// Field \p FD of `this` when the object is picked per thread by a
  /// conditional (`is_softmax_0 ? pipeline_s0 : pipeline_s1` bound to a
  /// reference parameter): each thread's object's value, or the arrays of
  /// their barrier pointers.
  std::optional<AbstractValue> fieldOfChosenObject(const clang::FieldDecl *FD,
                                                   const Frame &F,
                                                   unsigned Depth);
  const clang::Expr *fieldSource(const clang::Expr *Object,
                                 const clang::FieldDecl *FD, const Frame &F,
                                 const Frame *&Where, unsigned Depth);
  /// True for a local whose address is taken once and that is changed in
  /// no other way (its pointer is only read, as CuTe's explode does).
  bool addressedOnceOnly(const clang::VarDecl *V);
  /// The `for` loop of each induction variable.
  llvm::DenseMap<const clang::VarDecl *, const clang::ForStmt *> InductionLoops;
  /// Bounds of induction variable \p VD: `for (int i = a; i < b; i += s)`
  /// with a, b and s > 0 constant in \p F, i is in [a, last]; std::nullopt
  /// for other loops.
  std::optional<IntRange> inductionRange(const clang::VarDecl *VD,
                                         const Frame &F, unsigned Depth);
  /// Variables written by elect.sync predicate outputs, and those written in
  /// any other way (both subsets of ModifiedVars).
  ElectionWriteMap ElectionWrites;
  llvm::DenseMap<const clang::CompoundStmt *, const clang::ReturnStmt *>
      ElectionHelpers;
  llvm::DenseSet<const clang::VarDecl *> OtherWrites;
  /// Locals declared without an initialiser and assigned by the next
  /// statement: the assigned value.
  llvm::DenseMap<const clang::VarDecl *, const clang::Expr *> DeferredInits;
  llvm::DenseMap<std::pair<uint64_t, const clang::FieldDecl *>,
                 std::pair<const clang::Expr *, const Frame *>>
      Fields;
  llvm::DenseMap<const clang::Expr *, std::optional<int64_t>> Constants;
  /// The objects of each class whose fields this kernel recorded. A member
  /// function whose object was not followed (a pipeline unpacked from a
  /// tuple by a structured binding) runs on the only one, if there is one.
  llvm::DenseMap<const clang::RecordDecl *, llvm::SmallSetVector<uint64_t, 2>>
      ObjectsOfClass;
  /// Frames created while evaluating through small helper functions.
  std::vector<std::unique_ptr<Frame>> HelperFrames;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_VALUEEVALUATOR_H
