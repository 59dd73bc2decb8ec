//===- SharedAccess.cpp - Instructions taking shared addresses ------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/SharedAccess.h"

#include "llvm/ADT/StringRef.h"

using namespace llvm;

namespace tmemcheck {

namespace {

/// A state-space qualifier of an address (`.shared::cta` included).
bool isSpace(StringRef Part) {
  return Part == "global" || Part == "local" || Part == "param" ||
         Part == "const" || Part.starts_with("shared");
}

bool isShared(StringRef Part) { return Part.starts_with("shared"); }

/// The state spaces an instruction names, in order (`cp.async.bulk.shared::
/// cluster.global` gives {shared::cluster, global}: destination, source).
SmallVector<StringRef, 2> spaces(const ptx::Instruction &I) {
  SmallVector<StringRef, 2> Out;
  for (const std::string &P : I.Parts)
    if (isSpace(P))
      Out.push_back(P);
  return Out;
}

bool isAddress(const ptx::Instruction &I, size_t K) {
  return K < I.Operands.size() &&
         I.Operands[K].K == ptx::Operand::Kind::Address;
}

/// The `[...]` operands after the first two of an instruction that completes
/// on an mbarrier (`.mbarrier::complete_tx::bytes`): the mbarrier.
void addMbarrierOperands(const ptx::Instruction &I, SharedAccessOp &S) {
  bool HasMbarrier = false;
  for (const std::string &P : I.Parts)
    HasMbarrier |= StringRef(P).starts_with("mbarrier");
  if (!HasMbarrier)
    return;
  for (size_t K = 2; K < I.Operands.size(); ++K)
    if (isAddress(I, K))
      S.AddressOperands.push_back(int(K));
}

} // namespace

std::optional<SharedAccessOp> decodeSharedAccess(const ptx::Instruction &I) {
  if (I.Parts.empty() || I.Operands.empty())
    return std::nullopt;
  StringRef Base = I.base();
  SmallVector<StringRef, 2> Spaces = spaces(I);
  SharedAccessOp S;

  // ld/st/atom/red (and their .async forms): shared or generic.
  if (Base == "ld" || Base == "st" || Base == "atom" || Base == "red" ||
      Base == "ldu" || Base == "prefetch") {
    if (!Spaces.empty() && !isShared(Spaces.front()))
      return std::nullopt;
    S.Generic = Spaces.empty();
    // The address is the first `[...]` operand: ld d, [a]; st [a], b;
    // atom d, [a], b; red [a], b.
    for (size_t K = 0; K < I.Operands.size(); ++K)
      if (isAddress(I, K)) {
        S.AddressOperands.push_back(int(K));
        break;
      }
    if (I.hasPart("async"))
      addMbarrierOperands(I, S);
    if (S.AddressOperands.empty())
      return std::nullopt;
    return S;
  }

  // ldmatrix d, [a]; stmatrix [a], r: shared (generic if unqualified).
  if (Base == "ldmatrix" || Base == "stmatrix") {
    size_t K = Base == "ldmatrix" ? 1 : 0;
    if (!isAddress(I, K))
      return std::nullopt;
    S.Generic = Spaces.empty();
    S.AddressOperands.push_back(int(K));
    return S;
  }

  // cp.async{.ca,.cg}.shared.global [dst], [src], ...; cp.async.bulk{.tensor}
  // and cp.reduce.async.bulk: the first space names [dst], the second [src];
  // the mbarrier of complete_tx is shared too.
  if (Base == "cp" && I.hasPart("async")) {
    for (size_t N = 0; N < Spaces.size() && N < 2; ++N)
      if (isShared(Spaces[N]) && isAddress(I, N))
        S.AddressOperands.push_back(int(N));
    addMbarrierOperands(I, S);
    if (S.AddressOperands.empty())
      return std::nullopt;
    return S;
  }

  // cvta.shared d, a: a is a shared address made generic (not cvta.to).
  if (Base == "cvta") {
    if (I.hasPart("to") || Spaces.empty() || !isShared(Spaces.front()) ||
        I.Operands.size() < 2)
      return std::nullopt;
    S.AddressOperands.push_back(1);
    return S;
  }

  // mapa.shared::cluster d, a, cta: a is a shared address.
  if (Base == "mapa" && I.Operands.size() >= 2) {
    S.Generic = Spaces.empty();
    S.AddressOperands.push_back(1);
    return S;
  }
  return std::nullopt;
}

bool isSmemDescriptorBuilder(llvm::StringRef Name) {
  std::string L = Name.lower();
  llvm::StringRef N(L);
  if (N.contains("instr") || N.contains("idesc"))
    return false;
  return (N.contains("desc") &&
          (N.contains("smem") || N.contains("umma") || N.contains("make") ||
           N.contains("encode"))) ||
         N == "matrix_descriptor_encode";
}

} // namespace tmemcheck
