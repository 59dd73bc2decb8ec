//===- StageTerm.h - A value as a function of a stage variable --*- C++ -*-===//
//
// Part of tmemcheck. Pipelined kernels select the stage of an mbarrier array
// and the TMEM columns of an accumulator stage with the same variable of the
// thread's program: `tmem_empty[tile % 2]` and `base + (tile % 2) * 128`.
// Neither value is a constant, but in one thread they are functions of one
// variable, and the function that maps the columns to the barrier element
// must be the same in the thread that releases the columns and in the one
// that waits before rewriting them (tmem-reuse-race). A StageTerm is that
// function's shape; front ends compute it, the analysis only compares.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_STAGETERM_H
#define TMEMCHECK_ANALYSIS_STAGETERM_H

#include <cstdint>
#include <optional>
#include <tuple>

namespace tmemcheck {

/// The integer (((Var + Addend) mod Modulus) + Offset) * Scale, where Var is
/// the value a variable of one thread's program holds (a loop counter, a
/// stage index; 0 for none: the term is the constant Offset * Scale) and
/// Modulus 0 means no reduction (the value is then (Var + Addend) * Scale,
/// Offset folded into Addend). Arithmetic that leaves this shape gives no
/// term.
struct StageTerm {
  uint64_t Var = 0;
  int64_t Addend = 0;
  int64_t Modulus = 0;
  int64_t Offset = 0;
  int64_t Scale = 1;
  /// The value is the bitwise complement of the above (`~(tile << 3)`, how
  /// nvcc starts `(stage ^ 1) * 8`); only a mask can take it further.
  bool Complemented = false;

  static StageTerm variable(uint64_t Var) {
    StageTerm T;
    T.Var = Var;
    return T;
  }
  static StageTerm constant(int64_t C) {
    StageTerm T;
    T.Offset = C;
    return T;
  }
  bool isConstant() const { return Var == 0; }
  /// The value of a constant term.
  int64_t constantValue() const { return Offset * Scale; }

  /// The term of `this + C`, `this * C`, `this << C`, `this % C`,
  /// `this & C` and `this ^ C`; std::nullopt when the result leaves the
  /// shape (a mask that is not 2^k - 1, a xor that is not `+1 mod 2`).
  std::optional<StageTerm> plus(int64_t C) const;
  std::optional<StageTerm> times(int64_t C) const;
  std::optional<StageTerm> shiftedLeft(int64_t C) const;
  std::optional<StageTerm> modulo(int64_t C) const;
  std::optional<StageTerm> masked(int64_t C) const;
  std::optional<StageTerm> xored(int64_t C) const;
  std::optional<StageTerm> complemented() const;

  friend bool operator==(const StageTerm &A, const StageTerm &B) {
    return std::tie(A.Var, A.Addend, A.Modulus, A.Offset, A.Scale,
                    A.Complemented) == std::tie(B.Var, B.Addend, B.Modulus,
                                                B.Offset, B.Scale,
                                                B.Complemented);
  }
  friend bool operator!=(const StageTerm &A, const StageTerm &B) {
    return !(A == B);
  }
};

/// How one thread maps the stage of the TMEM columns it accesses (\p
/// Columns, the varying part of their offset) to the element of an mbarrier
/// array it synchronises on (\p Element): equal keys in two threads mean
/// the same columns go with the same barrier element. std::nullopt when
/// the two are not functions of one variable in a comparable form.
struct StageRelation {
  int64_t Modulus = 0;
  int64_t Shift = 0; ///< element stage minus column stage, mod Modulus.
  int64_t ElementOffset = 0, ColumnOffset = 0;
  int64_t ElementScale = 1, ColumnScale = 1;

  friend bool operator==(const StageRelation &A, const StageRelation &B) {
    return std::tie(A.Modulus, A.Shift, A.ElementOffset, A.ColumnOffset,
                    A.ElementScale, A.ColumnScale) ==
           std::tie(B.Modulus, B.Shift, B.ElementOffset, B.ColumnOffset,
                    B.ElementScale, B.ColumnScale);
  }
};
std::optional<StageRelation> stageRelation(const StageTerm &Element,
                                           const StageTerm &Columns);

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_STAGETERM_H
