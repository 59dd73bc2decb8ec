//===- CuteTmemTensors.h - CuTe's TMEM tensors as addresses -----*- C++ -*-===//
//
// Part of tmemcheck. CuTe kernels do not write TMEM addresses: they make a
// tensor over a `cute::tmem_ptr` (`partition_fragment_C`, at address 0),
// move its data (`tStS.data() = tStS.data().get() + S0`), partition it by
// thread and slice it, and `copy()` hands the slice's
// `raw_pointer_cast(src.data())` to the atom's asm. Following CuTe's layout
// algebra call by call is neither possible (the thread's coordinate is a
// run-time value) nor needed: every tensor made from another one holds
// elements of it, so its data lies in the columns the other spans. This
// model keeps, per tensor, its data pointer as an AbstractValue (exact,
// one of a few, or bounded by ColumnRange / LowHalfRange) and the end of
// the columns it spans (ColumnSpanEnd), from the static layouts CuTe's
// types carry. The hand-off analysis then tells the accumulator stages and
// the S/O/P regions of one kernel apart (Completion's mayOverlap).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_CLANG_CUTETMEMTENSORS_H
#define TMEMCHECK_LIB_FRONTEND_CLANG_CUTETMEMTENSORS_H

#include "ValueEvaluator.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace tmemcheck {

/// The element type of `cute::tmem_ptr<T>` (through references), or a null
/// type when \p T is not one.
clang::QualType tmemPointerElement(clang::QualType T);

/// The layout type of `cute::Tensor<ViewEngine<tmem_ptr<T>>, Layout>`
/// (through references) and T; null types when \p T is not one.
std::pair<clang::QualType, clang::QualType> tmemTensorLayout(clang::QualType T);

/// The columns the static layout \p Layout (`cute::Layout<Shape, Stride>`)
/// of a TMEM tensor with elements of \p ElementBits spans: one more than
/// the largest column offset of its elements. std::nullopt when a mode
/// with a non-zero stride has a run-time extent, or for other types.
std::optional<int64_t> layoutColumnExtent(clang::QualType Layout,
                                          unsigned ElementBits);

/// The data pointers of one kernel's CuTe TMEM tensors.
class CuteTmemTensors {
public:
  CuteTmemTensors(clang::ASTContext &Ctx, ValueEvaluator &Eval)
      : Ctx(Ctx), Eval(Eval) {}

  /// The value of \p E when it is a TMEM address CuTe spells: a
  /// `tmem_ptr`, `raw_pointer_cast(p)` or `p.get()` of one. std::nullopt
  /// for any other expression (the evaluator's own rules apply).
  std::optional<AbstractValue> evaluate(const clang::Expr *E, const Frame &F,
                                        unsigned Depth);

  /// `t.data() = v` on a TMEM tensor t: remembers t's new data pointer
  /// (evaluated now, so that `t.data() = t.data().get() + 32` reads the
  /// old one). False for other calls.
  bool recordDataAssignment(const clang::CXXOperatorCallExpr *Assign,
                            const Frame &F);

  /// A new kernel: the tensors of the previous one are gone.
  void clear() { Views.clear(); }

private:
  /// The data pointer of the TMEM tensor \p E, with ColumnSpanEnd set when
  /// the columns it spans are known.
  std::optional<AbstractValue> viewOf(const clang::Expr *E, const Frame &F,
                                      unsigned Depth);
  std::optional<AbstractValue> pointerValue(const clang::Expr *E,
                                            const Frame &F, unsigned Depth);
  /// A tensor made by \p CE, a call returning one.
  std::optional<AbstractValue> madeBy(const clang::CallExpr *CE, const Frame &F,
                                      unsigned Depth);
  /// The data pointer \p Start of a tensor of type \p Tensor, with the end
  /// of its span from its layout.
  AbstractValue withExtent(AbstractValue Start, clang::QualType Tensor);

  clang::ASTContext &Ctx;
  ValueEvaluator &Eval;
  /// Tensor objects (ValueEvaluator::objectKey) whose data was assigned.
  llvm::DenseMap<uint64_t, AbstractValue> Views;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_CLANG_CUTETMEMTENSORS_H
