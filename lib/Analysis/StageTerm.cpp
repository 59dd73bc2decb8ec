//===- StageTerm.cpp - A value as a function of a stage variable ----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/StageTerm.h"

namespace tmemcheck {

namespace {

constexpr int64_t MaxMagnitude = int64_t(1) << 31;

bool small(int64_t X) { return X > -MaxMagnitude && X < MaxMagnitude; }

int64_t positiveMod(int64_t X, int64_t M) { return ((X % M) + M) % M; }

} // namespace

std::optional<StageTerm> StageTerm::plus(int64_t C) const {
  if (Complemented)
    return std::nullopt;
  if (!small(C))
    return std::nullopt;
  StageTerm T = *this;
  if (isConstant()) {
    T.Offset = constantValue() + C;
    T.Scale = 1;
    return small(T.Offset) ? std::optional<StageTerm>(T) : std::nullopt;
  }
  if (C % Scale != 0)
    return std::nullopt;
  (Modulus ? T.Offset : T.Addend) += C / Scale;
  return T;
}

std::optional<StageTerm> StageTerm::times(int64_t C) const {
  if (Complemented)
    return std::nullopt;
  if (!small(C))
    return std::nullopt;
  if (C == 0 || isConstant()) {
    int64_t V = constantValue() * C;
    return small(V) ? std::optional<StageTerm>(constant(V)) : std::nullopt;
  }
  StageTerm T = *this;
  T.Scale *= C;
  return small(T.Scale) ? std::optional<StageTerm>(T) : std::nullopt;
}

std::optional<StageTerm> StageTerm::shiftedLeft(int64_t C) const {
  if (C < 0 || C >= 31)
    return std::nullopt;
  return times(int64_t(1) << C);
}

std::optional<StageTerm> StageTerm::modulo(int64_t C) const {
  if (Complemented)
    return std::nullopt;
  if (C <= 0 || !small(C))
    return std::nullopt;
  if (isConstant()) {
    int64_t V = constantValue();
    return V >= 0 ? std::optional<StageTerm>(constant(V % C)) : std::nullopt;
  }
  if (Scale != 1 || (Modulus && Modulus % C != 0))
    return std::nullopt;
  // ((v + a) mod M + o) mod C = (v + a + o) mod C when C divides M.
  StageTerm T = *this;
  T.Addend = positiveMod(Addend + Offset, C);
  T.Offset = 0;
  T.Modulus = C;
  return T;
}

std::optional<StageTerm> StageTerm::masked(int64_t C) const {
  if (Complemented) {
    // ~x & C = C - (x & C); for a one-bit C = 2^s that is the other value
    // of bit s: `~(tile << 3) & 8` is ((tile + 1) mod 2) * 8.
    StageTerm T = *this;
    T.Complemented = false;
    std::optional<StageTerm> Bit = T.masked(C);
    if (!Bit || C <= 0 || (C & (C - 1)) != 0 || Bit->Modulus != 2 ||
        Bit->Offset != 0)
      return std::nullopt;
    Bit->Addend = positiveMod(Bit->Addend + 1, 2);
    return Bit;
  }
  if (isConstant()) {
    int64_t V = constantValue();
    return V >= 0 ? std::optional<StageTerm>(constant(V & C)) : std::nullopt;
  }
  // x & (2^k - 1) is x mod 2^k for the non-negative stage counters, and
  // (x * 2^s) & ((2^k - 1) << s) is (x mod 2^k) * 2^s.
  if (C <= 0 || !small(C))
    return std::nullopt;
  if (Scale > 1 && (Scale & (Scale - 1)) == 0 && C % Scale == 0 &&
      Modulus == 0) {
    StageTerm Unscaled = *this;
    Unscaled.Scale = 1;
    std::optional<StageTerm> M = Unscaled.masked(C / Scale);
    return M ? M->times(Scale) : std::nullopt;
  }
  if (((C + 1) & C) != 0)
    return std::nullopt;
  return modulo(C + 1);
}

std::optional<StageTerm> StageTerm::complemented() const {
  if (isConstant())
    return constant(~constantValue());
  if (Complemented)
    return std::nullopt;
  StageTerm T = *this;
  T.Complemented = true;
  return T;
}

std::optional<StageTerm> StageTerm::xored(int64_t C) const {
  if (Complemented)
    return std::nullopt;
  if (isConstant())
    return constant(constantValue() ^ C);
  if (C == 0)
    return *this;
  // `stage ^ 1` with stage in {0, 1}: the other stage, (stage + 1) mod 2.
  if (C != 1 || Modulus != 2 || Offset != 0 || Scale != 1)
    return std::nullopt;
  StageTerm T = *this;
  T.Addend = positiveMod(Addend + 1, 2);
  return T;
}

std::optional<StageRelation> stageRelation(const StageTerm &Element,
                                           const StageTerm &Columns) {
  if (Element.isConstant() || Columns.isConstant() || Element.Complemented ||
      Columns.Complemented ||
      Element.Var != Columns.Var || Element.Modulus != Columns.Modulus)
    return std::nullopt;
  StageRelation R;
  R.Modulus = Element.Modulus;
  R.Shift = Element.Addend - Columns.Addend;
  if (R.Modulus)
    R.Shift = positiveMod(R.Shift, R.Modulus);
  R.ElementOffset = Element.Offset;
  R.ColumnOffset = Columns.Offset;
  R.ElementScale = Element.Scale;
  R.ColumnScale = Columns.Scale;
  return R;
}

} // namespace tmemcheck
