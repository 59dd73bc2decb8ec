//===- Value.h - Abstract operand values ------------------------*- C++ -*-===//
//
// Part of tmemcheck. What the front end could learn about the value of an
// instruction operand: a constant, or unknown with a uniformity class
// (design.md "Semantics" §3).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_ANALYSIS_VALUE_H
#define TMEMCHECK_ANALYSIS_VALUE_H

#include <cstdint>
#include <optional>
#include <string>

namespace tmemcheck {

/// How a value varies across the threads of a CTA. Ordered from most to
/// least uniform; joining two values takes the larger.
enum class Uniformity : uint8_t {
  CtaUniform,    ///< same in every thread of the CTA (params, blockIdx).
  WarpUniform,   ///< same in every lane of a warp (warp index).
  Unknown,       ///< nothing known (opaque calls, memory): never a finding.
  ThreadVariant, ///< differs between lanes (threadIdx, lane id, elect).
};

inline Uniformity join(Uniformity A, Uniformity B) { return A < B ? B : A; }

/// The abstract value of one operand.
struct AbstractValue {
  std::optional<int64_t> Constant;
  Uniformity Uniform = Uniformity::ThreadVariant;
  /// The operand as written in the source (for messages), e.g. "kCols".
  std::string Spelling;
  /// A stable identity of the variable this value was read from when the
  /// operand is a plain variable (used to match ld destinations to reads);
  /// 0 when none.
  uint64_t VariableId = 0;
  std::string VariableName;

  bool isConstant() const { return Constant.has_value(); }
};

} // namespace tmemcheck

#endif // TMEMCHECK_ANALYSIS_VALUE_H
