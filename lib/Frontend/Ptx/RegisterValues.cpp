//===- RegisterValues.cpp - Abstract values of PTX registers --------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "RegisterValues.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SaveAndRestore.h"

#include <climits>
#include <set>

using namespace llvm;

namespace tmemcheck {

namespace {
bool sameExpr(const std::shared_ptr<const TidExpr> &A,
              const std::shared_ptr<const TidExpr> &B) {
  if (!A || !B)
    return !A && !B;
  if (A == B)
    return true;
  if (A->K == TidExpr::Kind::Table || B->K == TidExpr::Kind::Table)
    return A->K == B->K && *A->Values == *B->Values;
  return A->K == B->K && A->Op == B->Op && A->Value == B->Value &&
         A->Bits == B->Bits && A->Signed == B->Signed && sameExpr(A->L, B->L) &&
         sameExpr(A->R, B->R);
}
} // namespace

namespace {
/// Two optional per-thread tables with the same contents.
template <typename T>
bool sameTable(const std::shared_ptr<const std::vector<T>> &A,
               const std::shared_ptr<const std::vector<T>> &B) {
  return A == B || (A && B && *A == *B);
}

/// \p Table with \p Offset added to every entry.
std::shared_ptr<const ThreadTable> shiftedTable(const ThreadTable &Table,
                                                int64_t Offset) {
  auto Out = std::make_shared<ThreadTable>(Table);
  for (int64_t &X : *Out)
    X += Offset;
  return Out;
}

/// The constant part of slot address \p V's offset in each thread: its run
/// start, the same in all, or the role's own (SlotRunStartByThread).
std::optional<ThreadTable> runStartsByThread(const AbstractValue &V) {
  if (V.SlotRunStart)
    return ThreadTable(MaxThreads, *V.SlotRunStart);
  if (V.SlotRunStartByThread)
    return *V.SlotRunStartByThread;
  return std::nullopt;
}
} // namespace

bool operator==(const PtxValue &A, const PtxValue &B) {
  const AbstractValue &X = A.V, &Y = B.V;
  if (bool(A.TrueFor) != bool(B.TrueFor) ||
      (A.TrueFor && *A.TrueFor != *B.TrueFor))
    return false;
  return A.Defined == B.Defined && A.Key == B.Key && sameExpr(A.Tid, B.Tid) &&
         X.KnownLowHalf == Y.KnownLowHalf && A.SlotOffset == B.SlotOffset &&
         A.SlotRead == B.SlotRead && X.LaneVariant == Y.LaneVariant &&
         X.PerThreadExact == Y.PerThreadExact &&
         X.PerThreadFromAllocation == Y.PerThreadFromAllocation &&
         bool(X.PerThread) == bool(Y.PerThread) &&
         (!X.PerThread || *X.PerThread == *Y.PerThread) &&
         A.WarpsWhen[0] == B.WarpsWhen[0] && A.WarpsWhen[1] == B.WarpsWhen[1] &&
         X.Constant == Y.Constant && X.Uniform == Y.Uniform &&
         X.IsWarpIndex == Y.IsWarpIndex && X.Address == Y.Address &&
         X.Slot == Y.Slot && X.SlotArray == Y.SlotArray &&
         X.SlotRunStart == Y.SlotRunStart && X.SlotIndexed == Y.SlotIndexed &&
         sameTable(X.SlotRunStartByThread, Y.SlotRunStartByThread) &&
         X.ClusterMapped == Y.ClusterMapped && X.LaneOffset == Y.LaneOffset &&
         X.ColumnOffset == Y.ColumnOffset && X.Choices == Y.Choices &&
         X.ColumnChoices == Y.ColumnChoices;
}

PtxValue unknownValue() {
  PtxValue P;
  P.V.Uniform = Uniformity::Unknown;
  P.Defined = true;
  return P;
}

namespace {
/// At most this many values make a value set (a pipeline's stage index,
/// `(i + 1 == N) ? 0 : i + 1`); more are unknown.
constexpr size_t MaxChoices = 8;

std::vector<int64_t> valueSet(std::vector<int64_t> Values) {
  return normalizeChoices(std::move(Values), MaxChoices);
}

std::vector<int64_t> choicesOf(const PtxValue &P) {
  return possibleConstants(P.V);
}
} // namespace

std::optional<int64_t> lowHalf(const PtxValue &P) {
  if (P.V.Constant)
    return *P.V.Constant & 0xFFFF;
  return P.V.KnownLowHalf;
}

uint64_t PtxIdentities::slot(StringRef Var, int64_t Offset) {
  auto [It, New] =
      Ids.try_emplace(("slot:" + Var + "+" + Twine(Offset)).str(), Next);
  if (New)
    ++Next;
  return It->second;
}

uint64_t PtxIdentities::element(uint64_t Array, std::optional<int64_t> Offset) {
  if (Offset && *Offset == 0)
    return Array;
  std::string Key = "elem:" + std::to_string(Array) + ":" +
                    (Offset ? std::to_string(*Offset) : std::string("*"));
  auto [It, New] = Ids.try_emplace(Key, Next);
  if (New)
    ++Next;
  return It->second;
}

uint64_t PtxIdentities::run(uint64_t Array, int64_t Start) {
  auto [It, New] = Ids.try_emplace(
      "run:" + std::to_string(Array) + ":" + std::to_string(Start), Next);
  if (New)
    ++Next;
  return It->second;
}

uint64_t PtxIdentities::variable(unsigned Instance, StringRef Reg) {
  auto [It, New] =
      Ids.try_emplace(("reg:" + Twine(Instance) + ":" + Reg).str(), Next);
  if (New)
    ++Next;
  return It->second;
}

std::optional<int64_t> TidExpr::evaluate(int64_t Tid) const {
  switch (K) {
  case Kind::Tid:
    return Tid;
  case Kind::Constant:
    return Value;
  case Kind::Table:
    if (Tid < 0 || size_t(Tid) >= Values->size())
      return std::nullopt;
    return (*Values)[Tid];
  case Kind::Binary:
    break;
  }
  if (Tid < 0 || Tid >= int64_t(MaxThreads)) {
    // Outside the block: evaluated directly (rare).
    std::optional<int64_t> A = L->evaluate(Tid), B = R->evaluate(Tid);
    if (!A || !B)
      return std::nullopt;
    TidExpr Leaf;
    Leaf.K = Kind::Binary;
    Leaf.Op = Op;
    Leaf.Bits = Bits;
    Leaf.Signed = Signed;
    auto CA = std::make_shared<TidExpr>(), CB = std::make_shared<TidExpr>();
    CA->Value = *A;
    CB->Value = *B;
    Leaf.L = CA;
    Leaf.R = CB;
    return Leaf.evaluate(0);
  }
  const Values1024 &T = binaryTable();
  if (T.Undefined.test(Tid))
    return std::nullopt;
  return T.V[Tid];
}

namespace {
enum class BinaryOp { Add, Sub, Mul, Shl, Shr, And, Or, Xor, Div, Rem, Other };

BinaryOp binaryOp(StringRef Op) {
  return StringSwitch<BinaryOp>(Op)
      .Case("add", BinaryOp::Add)
      .Case("sub", BinaryOp::Sub)
      .Case("mul", BinaryOp::Mul)
      .Case("shl", BinaryOp::Shl)
      .Case("shr", BinaryOp::Shr)
      .Case("and", BinaryOp::And)
      .Case("or", BinaryOp::Or)
      .Case("xor", BinaryOp::Xor)
      .Case("div", BinaryOp::Div)
      .Case("rem", BinaryOp::Rem)
      .Default(BinaryOp::Other);
}

/// `A op B` in \p Bits bits, signed or not; nullopt for a division by zero
/// or an operator that is not modelled.
std::optional<int64_t> applyBinary(BinaryOp Op, unsigned Bits, bool Signed,
                                   int64_t A, int64_t B) {
  uint64_t UA = uint64_t(A), UB = uint64_t(B);
  if (!Signed && Bits < 64) {
    UA &= (uint64_t(1) << Bits) - 1;
    UB &= (uint64_t(1) << Bits) - 1;
  }
  int64_t SA = Signed ? A : int64_t(UA), SB = Signed ? B : int64_t(UB);
  uint64_t V;
  switch (Op) {
  case BinaryOp::Add:
    V = UA + UB;
    break;
  case BinaryOp::Sub:
    V = UA - UB;
    break;
  case BinaryOp::Mul:
    V = UA * UB;
    break;
  case BinaryOp::Shl:
    V = UB >= Bits ? 0 : UA << UB;
    break;
  case BinaryOp::Shr:
    V = UB >= Bits ? (Signed && SA < 0 ? ~uint64_t(0) : 0)
        : Signed   ? uint64_t(SA >> UB)
                   : UA >> UB;
    break;
  case BinaryOp::And:
    V = UA & UB;
    break;
  case BinaryOp::Or:
    V = UA | UB;
    break;
  case BinaryOp::Xor:
    V = UA ^ UB;
    break;
  case BinaryOp::Div:
  case BinaryOp::Rem:
    if (UB == 0 || (Signed && SA == INT64_MIN && SB == -1))
      return std::nullopt;
    if (Op == BinaryOp::Div)
      V = Signed ? uint64_t(SA / SB) : UA / UB;
    else
      V = Signed ? uint64_t(SA % SB) : UA % UB;
    break;
  default:
    return std::nullopt;
  }
  if (Bits >= 64)
    return int64_t(V);
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  V &= Mask;
  if (Signed && (V >> (Bits - 1)) & 1)
    V |= ~Mask;
  return int64_t(V);
}
} // namespace

const TidExpr::Values1024 &TidExpr::binaryTable() const {
  if (Cache)
    return *Cache;
  auto T = std::make_shared<Values1024>();
  T->V.assign(MaxThreads, 0);
  BinaryOp O = binaryOp(Op);
  // Operand values per thread: constants and %tid.x directly, others
  // through their own tables.
  auto Operand = [](const TidExpr &E, unsigned Tid) -> std::optional<int64_t> {
    return E.K == Kind::Constant ? std::optional<int64_t>(E.Value)
                                 : E.evaluate(Tid);
  };
  for (unsigned Tid = 0; Tid < MaxThreads; ++Tid) {
    std::optional<int64_t> A = Operand(*L, Tid), B = Operand(*R, Tid);
    std::optional<int64_t> V =
        A && B ? applyBinary(O, Bits, Signed, *A, *B) : std::nullopt;
    if (V)
      T->V[Tid] = *V;
    else
      T->Undefined.set(Tid);
  }
  Cache = std::move(T);
  return *Cache;
}

namespace {

constexpr int64_t MaxWarp = INT32_MAX;

PtxValue constant(int64_t C) {
  PtxValue P;
  P.Defined = true;
  P.V.Constant = C;
  P.V.Uniform = Uniformity::CtaUniform;
  P.V.Spelling = std::to_string(C);
  P.Key = std::to_string(C);
  auto E = std::make_shared<TidExpr>();
  E->Value = C;
  P.Tid = std::move(E);
  return P;
}

int64_t truncate(int64_t V, unsigned Bits, bool Signed);

/// True if two lanes of some warp get different values of \p E (both
/// defined): AbstractValue::LaneVariant for a function of %tid.x.
bool laneVariant(const TidExpr &E) {
  for (int64_t T = 0; T < int64_t(MaxThreads); ++T) {
    if ((T & 31) == 0)
      continue;
    std::optional<int64_t> V = E.evaluate(T), V0 = E.evaluate(T & ~31);
    if (V && V0 && *V != *V0)
      return true;
  }
  return false;
}

/// The same in every lane of a warp, as a base that keeps a lane-variant
/// addend lane-variant.
bool uniformBase(const PtxValue &P) {
  return P.V.Uniform <= Uniformity::WarpUniform || P.SlotRead;
}

/// The value of \p P per thread, relative to a warp-uniform base
/// (AbstractValue::PerThread): a function of %tid.x exactly, its recorded
/// offsets, or the zero offsets of a uniform value. Null when not known.
std::shared_ptr<const ThreadTable> offsetsOf(const PtxValue &P, bool &Exact) {
  if (P.V.PerThread) {
    Exact = P.V.PerThreadExact;
    return P.V.PerThread;
  }
  if (P.Tid && !P.V.isSlotAddress() && !P.V.isTmemAddress()) {
    auto T = std::make_shared<ThreadTable>(MaxThreads);
    for (unsigned I = 0; I < MaxThreads; ++I) {
      std::optional<int64_t> V = P.Tid->evaluate(I);
      if (!V)
        return nullptr;
      (*T)[I] = *V;
    }
    Exact = true;
    return T;
  }
  if (uniformBase(P) && !P.V.isSlotAddress()) {
    static const auto Zeros = std::make_shared<const ThreadTable>(MaxThreads);
    Exact = false;
    return Zeros;
  }
  return nullptr;
}

/// Records \p T as the per-thread offsets of \p P and whether they make it
/// lane-variant.
void setOffsets(PtxValue &P, std::shared_ptr<const ThreadTable> T, bool Exact) {
  P.V.LaneVariant = false;
  if (T)
    for (unsigned I = 0; I < T->size() && !P.V.LaneVariant; ++I)
      P.V.LaneVariant = (*T)[I] != (*T)[I & ~31u];
  P.V.PerThreadExact = T && Exact;
  P.V.PerThreadFromAllocation = false;
  P.V.PerThread = std::move(T);
}
} // namespace

AbstractValue eventValue(const PtxValue &P) {
  if (P.V.PerThread || !P.Tid || P.V.Constant || P.V.isSlotAddress() ||
      P.V.isTmemAddress())
    return P.V;
  bool Exact = false;
  std::shared_ptr<const ThreadTable> T = offsetsOf(P, Exact);
  if (!T || !Exact)
    return P.V;
  PtxValue Q = P;
  setOffsets(Q, std::move(T), Exact);
  return Q.V;
}

namespace {

/// `L op R` on offsets from a warp-uniform base, 32- or 64-bit: `add`,
/// `sub`, and `mul`/`shl` when one side is exact and the same in every
/// thread (a constant). Null when not known, or when neither side depends
/// on the thread: on the lane, or with \p PerWarp on the warp too.
std::shared_ptr<const ThreadTable>
combineOffsets(StringRef Op, const PtxValue &L, const PtxValue &R,
               unsigned Bits, bool &Exact, bool PerWarp = false) {
  // The cheap tests first: offsetsOf tabulates an expression of %tid.x.
  if (Bits != 32 && Bits != 64)
    return nullptr;
  auto ByWarp = [&](const PtxValue &V) {
    return PerWarp && V.Tid && !V.V.Constant;
  };
  if (!L.V.LaneVariant && !R.V.LaneVariant && !L.V.PerThread &&
      !R.V.PerThread && !ByWarp(L) && !ByWarp(R))
    return nullptr;
  bool LE = false, RE = false;
  auto LT = offsetsOf(L, LE), RT = offsetsOf(R, RE);
  if (!LT || !RT)
    return nullptr;
  bool RConst = RE && llvm::all_equal(*RT), LConst = LE && llvm::all_equal(*LT);
  if (!(Op == "add" || Op == "sub" || (Op == "mul" && (RConst || LConst)) ||
        (Op == "shl" && RConst)))
    return nullptr;
  Exact = LE && RE;
  auto Out = std::make_shared<ThreadTable>(MaxThreads);
  for (unsigned I = 0; I < MaxThreads; ++I) {
    uint64_t A = uint64_t((*LT)[I]), B = uint64_t((*RT)[I]);
    uint64_t V = Op == "add"   ? A + B
                 : Op == "sub" ? A - B
                 : Op == "mul" ? A * B
                               : (B >= Bits ? 0 : A << B);
    (*Out)[I] = truncate(int64_t(V), Bits, false);
  }
  return Out;
}

PtxValue withUniformity(Uniformity U) {
  PtxValue P = unknownValue();
  P.V.Uniform = U;
  return P;
}

/// Bit width and signedness of an instruction's type suffix (.u32, .s64,
/// .b16); 0 if it has none.
std::pair<unsigned, bool> typeOf(const ptx::Instruction &I) {
  for (auto It = I.Parts.rbegin(); It != I.Parts.rend(); ++It) {
    StringRef P = *It;
    if (P.size() < 2 || !StringRef("usb").contains(P[0]))
      continue;
    unsigned Bits = 0;
    if (!P.drop_front().getAsInteger(10, Bits) &&
        (Bits == 8 || Bits == 16 || Bits == 32 || Bits == 64))
      return {Bits, P[0] == 's'};
  }
  return {0, false};
}

int64_t truncate(int64_t V, unsigned Bits, bool Signed) {
  if (Bits == 0 || Bits >= 64)
    return V;
  uint64_t Mask = (uint64_t(1) << Bits) - 1;
  uint64_t U = uint64_t(V) & Mask;
  if (Signed && (U >> (Bits - 1)) & 1)
    U |= ~Mask;
  return int64_t(U);
}

/// Joins the value of another definition of the same register into \p A.
void joinInto(PtxValue &A, const PtxValue &B) {
  if (!A.Defined) {
    A = B;
    return;
  }
  if (!B.Defined)
    return;
  AbstractValue &X = A.V;
  const AbstractValue &Y = B.V;
  std::optional<int64_t> LowA = lowHalf(A), LowB = lowHalf(B);
  X.KnownLowHalf = LowA == LowB ? LowA : std::nullopt;
  {
    std::vector<int64_t> CA = choicesOf(A), CB = choicesOf(B);
    std::vector<int64_t> Both;
    if (!CA.empty() && !CB.empty()) {
      Both = std::move(CA);
      Both.insert(Both.end(), CB.begin(), CB.end());
      Both = valueSet(std::move(Both));
    }
    X.Choices = Both.size() > 1 ? std::move(Both) : std::vector<int64_t>();
  }
  // Column offsets of two TMEM addresses of one slot: either.
  if (X.isTmemAddress() && Y.isTmemAddress() && X.Slot == Y.Slot) {
    auto Columns = [](const AbstractValue &V) {
      return V.ColumnOffset ? std::vector<int64_t>{*V.ColumnOffset}
                            : V.ColumnChoices;
    };
    std::vector<int64_t> CA = Columns(X), CB = Columns(Y), Both;
    if (!CA.empty() && !CB.empty()) {
      Both = std::move(CA);
      Both.insert(Both.end(), CB.begin(), CB.end());
      Both = valueSet(std::move(Both));
    }
    X.ColumnChoices =
        Both.size() > 1 ? std::move(Both) : std::vector<int64_t>();
  } else {
    X.ColumnChoices.clear();
  }
  X.Uniform = join(X.Uniform, Y.Uniform);
  if (X.Constant != Y.Constant) {
    X.Constant.reset();
    X.Spelling.clear();
  }
  X.IsWarpIndex = X.IsWarpIndex && Y.IsWarpIndex;
  if (X.Address != Y.Address || X.Slot != Y.Slot) {
    X.SlotRunStartByThread.reset();
    X.Address = AddressKind::None;
    X.Slot = X.SlotArray = 0;
    X.SlotName.clear();
    X.LaneOffset = X.ColumnOffset = std::nullopt;
  } else {
    if (X.SlotRunStart != Y.SlotRunStart)
      X.SlotRunStart.reset();
    if (!sameTable(X.SlotRunStartByThread, Y.SlotRunStartByThread))
      X.SlotRunStartByThread.reset();
    X.SlotIndexed = X.SlotIndexed || Y.SlotIndexed;
    X.ClusterMapped = X.ClusterMapped || Y.ClusterMapped;
    if (X.LaneOffset != Y.LaneOffset)
      X.LaneOffset.reset();
    if (X.ColumnOffset != Y.ColumnOffset)
      X.ColumnOffset.reset();
  }
  if (X.Term != Y.Term)
    X.Term.reset();
  if (X.TmemDerivedSlot != Y.TmemDerivedSlot)
    X.TmemDerivedSlot = 0;
  if (X.ElementTerm != Y.ElementTerm)
    X.ElementTerm.reset();
  if (X.ColumnTerm != Y.ColumnTerm)
    X.ColumnTerm.reset();
  if (A.Key != B.Key)
    A.Key.clear();
  A.KeyOperations = std::max(A.KeyOperations, B.KeyOperations);
  // Lanes of one warp may have seen different definitions: lane-variant
  // only when both are the same function of %tid.x.
  X.LaneVariant = X.LaneVariant && Y.LaneVariant && A.Tid && B.Tid &&
                  sameExpr(A.Tid, B.Tid);
  A.SlotRead = A.SlotRead && B.SlotRead && X.Slot == Y.Slot;
  // Offsets from two bases that may differ: not a function of the lane.
  const bool SameOffsets =
      X.PerThread && Y.PerThread && *X.PerThread == *Y.PerThread;
  if (!(SameOffsets && X.PerThreadExact && Y.PerThreadExact))
    X.PerThreadExact = false;
  if (!(SameOffsets && X.PerThreadFromAllocation && Y.PerThreadFromAllocation &&
        X.Slot == Y.Slot))
    X.PerThreadFromAllocation = false;
  if (!X.PerThreadExact && !X.PerThreadFromAllocation)
    X.PerThread.reset();
  if (!sameExpr(A.Tid, B.Tid))
    A.Tid.reset();
  if (!A.TrueFor || !B.TrueFor || *A.TrueFor != *B.TrueFor)
    A.TrueFor.reset();
  if (A.SlotOffset != B.SlotOffset)
    A.SlotOffset.reset();
  for (int I = 0; I < 2; ++I)
    if (A.WarpsWhen[I] != B.WarpsWhen[I])
      A.WarpsWhen[I].reset();
}

std::optional<int64_t> fold(StringRef Op, int64_t L, int64_t R) {
  uint64_t UL = uint64_t(L), UR = uint64_t(R);
  return StringSwitch<std::optional<int64_t>>(Op)
      .Case("add", int64_t(UL + UR))
      .Case("sub", int64_t(UL - UR))
      .Case("mul", int64_t(UL * UR))
      .Case("shl",
            UR < 64 ? std::optional<int64_t>(int64_t(UL << UR)) : std::nullopt)
      .Case("shr",
            UR < 64 ? std::optional<int64_t>(int64_t(UL >> UR)) : std::nullopt)
      .Case("and", L & R)
      .Case("or", L | R)
      .Case("xor", L ^ R)
      .Case("div", R != 0 && !(L == INT64_MIN && R == -1)
                       ? std::optional<int64_t>(L / R)
                       : std::nullopt)
      .Case("rem", R != 0 && !(L == INT64_MIN && R == -1)
                       ? std::optional<int64_t>(L % R)
                       : std::nullopt)
      .Case("min", std::min(L, R))
      .Case("max", std::max(L, R))
      .Default(std::nullopt);
}

/// `setp` comparison names as C operators (signed and unsigned integer
/// forms); empty for float-only and unordered forms.
StringRef comparisonOperator(StringRef Cmp) {
  return StringSwitch<StringRef>(Cmp)
      .Case("eq", "==")
      .Case("ne", "!=")
      .Cases({"lt", "lo"}, "<")
      .Cases({"le", "ls"}, "<=")
      .Cases({"gt", "hi"}, ">")
      .Cases({"ge", "hs"}, ">=")
      .Default("");
}

StringRef reversed(StringRef Op) {
  return StringSwitch<StringRef>(Op)
      .Case("<", ">")
      .Case("<=", ">=")
      .Case(">", "<")
      .Case(">=", "<=")
      .Default(Op);
}

/// The warp indices satisfying `warp OP C` and its negation.
void warpArms(StringRef Op, int64_t C, PtxValue &P) {
  using Range = std::pair<int64_t, int64_t>;
  if (Op == "==")
    P.WarpsWhen[0] = Range{C, C};
  else if (Op == "!=")
    P.WarpsWhen[1] = Range{C, C};
  else if (Op == "<")
    P.WarpsWhen[0] = Range{0, C - 1}, P.WarpsWhen[1] = Range{C, MaxWarp};
  else if (Op == "<=")
    P.WarpsWhen[0] = Range{0, C}, P.WarpsWhen[1] = Range{C + 1, MaxWarp};
  else if (Op == ">")
    P.WarpsWhen[0] = Range{C + 1, MaxWarp}, P.WarpsWhen[1] = Range{0, C};
  else if (Op == ">=")
    P.WarpsWhen[0] = Range{C, MaxWarp}, P.WarpsWhen[1] = Range{0, C - 1};
}

/// Classifies a predicate by the threads it holds for: when they are whole
/// warps, sets its key and warp arms and \p U to WarpUniform (CtaUniform
/// when all or none do); false when it splits a warp.
bool classifyThreads(const ThreadSet &Truth, PtxValue &P,
                     std::optional<Uniformity> &U, unsigned BlockThreads) {
  // Only the threads the block has (`.reqntid`) count.
  const int Threads = int(BlockThreads), Warps = (Threads + 31) / 32;
  P.TrueFor = std::make_shared<const ThreadSet>(Truth);
  for (int T = 0; T < Threads; ++T)
    if (Truth[T] != Truth[T & ~31])
      return false; // splits a warp: thread-variant, decided by the caller
  std::vector<int> In[2];
  for (int W = 0; W < Warps; ++W)
    In[Truth[W * 32] ? 0 : 1].push_back(W);
  if (In[0].empty() || In[1].empty()) {
    U = Uniformity::CtaUniform;
    P.Key = In[0].empty() ? "0" : "1";
    return true;
  }
  U = Uniformity::WarpUniform;
  // Each arm's warps as an interval, when contiguous ([0]: true).
  for (int Arm = 0; Arm < 2; ++Arm) {
    const std::vector<int> &S = In[Arm];
    if (S.back() - S.front() + 1 != int(S.size()))
      continue;
    // The last warp of a block whose size `.reqntid` fixes is the last
    // warp; without it, more warps may follow.
    bool OpenEnded = S.back() == Warps - 1 && BlockThreads >= MaxThreads;
    P.WarpsWhen[Arm] =
        std::pair<int64_t, int64_t>{S.front(), OpenEnded ? MaxWarp : S.back()};
  }
  // A canonical key: equal sets of warps give equal keys.
  const std::vector<int> &T = In[0];
  if (P.WarpsWhen[0]) {
    int Lo = T.front(), Hi = T.back();
    if (Lo == Hi)
      P.Key = "%tid.x/32==" + std::to_string(Lo);
    else if (Lo == 0)
      P.Key = "%tid.x/32<=" + std::to_string(Hi);
    else if (Hi == Warps - 1)
      P.Key = "%tid.x/32>=" + std::to_string(Lo);
    else
      P.Key = "%tid.x/32 in " + std::to_string(Lo) + ".." + std::to_string(Hi);
  } else if (In[1].size() == 1) {
    P.Key = "%tid.x/32!=" + std::to_string(In[1].front());
  } else {
    P.Key = "%tid.x/32 in";
    for (int W : T)
      P.Key += " " + std::to_string(W);
  }
  return true;
}

/// Evaluates `a OP b` for every %tid.x of a block (at most 1024) and
/// classifies the result (classifyThreads).
bool selectsWarps(unsigned BlockThreads, StringRef Op, bool Signed,
                  const TidExpr &A, const TidExpr &B, PtxValue &P,
                  std::optional<Uniformity> &U) {
  enum {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge
  } C = Op == "=="   ? Eq
        : Op == "!=" ? Ne
        : Op == "<"  ? Lt
        : Op == "<=" ? Le
        : Op == ">"  ? Gt
                     : Ge;
  const bool Unsigned64 = !Signed && A.Bits > 32;
  const bool Narrow = !Signed && A.Bits <= 32;
  ThreadSet Truth;
  for (unsigned T = 0; T < MaxThreads; ++T) {
    std::optional<int64_t> L = A.evaluate(T), R = B.evaluate(T);
    if (!L || !R)
      return false;
    int64_t X = *L, Y = *R;
    if (Narrow) {
      X = int64_t(uint32_t(X));
      Y = int64_t(uint32_t(Y));
    }
    bool V;
    switch (C) {
    case Eq:
      V = X == Y;
      break;
    case Ne:
      V = X != Y;
      break;
    case Lt:
      V = Unsigned64 ? uint64_t(X) < uint64_t(Y) : X < Y;
      break;
    case Le:
      V = Unsigned64 ? uint64_t(X) <= uint64_t(Y) : X <= Y;
      break;
    case Gt:
      V = Unsigned64 ? uint64_t(X) > uint64_t(Y) : X > Y;
      break;
    default:
      V = Unsigned64 ? uint64_t(X) >= uint64_t(Y) : X >= Y;
      break;
    }
    Truth.set(T, V);
  }
  return classifyThreads(Truth, P, U, BlockThreads);
}

/// A predicate known thread by thread: warp-uniform when it selects whole
/// warps, thread-variant otherwise.
PtxValue predicateOf(const ThreadSet &Truth, unsigned BlockThreads) {
  size_t Count = 0;
  for (unsigned T = 0; T < BlockThreads; ++T)
    Count += Truth[T];
  if (Count == 0 || Count == BlockThreads)
    return constant(Count ? 1 : 0);
  PtxValue P = unknownValue();
  std::optional<Uniformity> U;
  P.V.Uniform = classifyThreads(Truth, P, U, BlockThreads)
                    ? *U
                    : Uniformity::ThreadVariant;
  auto E = std::make_shared<TidExpr>();
  E->K = TidExpr::Kind::Table;
  auto Values = std::make_shared<ThreadTable>(MaxThreads);
  for (unsigned T = 0; T < MaxThreads; ++T)
    (*Values)[T] = Truth[T];
  E->Values = std::move(Values);
  P.Tid = std::move(E);
  return P;
}

/// An integer known thread by thread (ThreadValues).
PtxValue integerOf(const ThreadTable &Values) {
  if (llvm::all_equal(Values))
    return constant(Values.front());
  PtxValue P = unknownValue();
  bool WarpUniform = true, IsWarp = true;
  for (unsigned T = 0; T < MaxThreads; ++T) {
    WarpUniform &= Values[T] == Values[T & ~31u];
    IsWarp &= Values[T] == int64_t(T / 32);
  }
  P.V.Uniform =
      WarpUniform ? Uniformity::WarpUniform : Uniformity::ThreadVariant;
  P.V.LaneVariant = !WarpUniform;
  if (IsWarp) {
    P.V.IsWarpIndex = true;
    P.Key = "%tid.x/32";
  }
  auto E = std::make_shared<TidExpr>();
  E->K = TidExpr::Kind::Table;
  E->Values = std::make_shared<const ThreadTable>(Values);
  P.Tid = std::move(E);
  // A role's choice of a few values (`selp(128, 0, wg1)`) is also one of
  // them wherever it is used (`base + stage_column`).
  P.V.Choices = valueSet(Values);
  return P;
}

/// The value of \p E for each thread; nullopt where it is undefined.
std::optional<ThreadTable> tableOf(const TidExpr &E) {
  ThreadTable T(MaxThreads);
  for (unsigned I = 0; I < MaxThreads; ++I) {
    std::optional<int64_t> V = E.evaluate(I);
    if (!V)
      return std::nullopt;
    T[I] = *V;
  }
  return T;
}

/// The value of \p P in each thread, when it is a function of %tid.x.
std::optional<ThreadTable> tableOf(const PtxValue &P) {
  if (P.V.isSlotAddress() || P.V.isTmemAddress())
    return std::nullopt;
  if (P.V.Constant)
    return ThreadTable(MaxThreads, *P.V.Constant);
  if (P.TrueFor) {
    ThreadTable T(MaxThreads);
    for (unsigned I = 0; I < MaxThreads; ++I)
      T[I] = P.TrueFor->test(I);
    return T;
  }
  if (!P.Tid)
    return std::nullopt;
  return tableOf(*P.Tid);
}

/// tableOf(\p P).has_value(), without building the table.
bool hasTable(const PtxValue &P) {
  if (P.V.isSlotAddress() || P.V.isTmemAddress())
    return false;
  if (P.V.Constant || P.TrueFor)
    return true;
  if (!P.Tid)
    return false;
  for (unsigned I = 0; I < MaxThreads; ++I)
    if (!P.Tid->evaluate(I))
      return false;
  return true;
}

/// Whether every value \p P may take is known and fits in \p Bits (signed
/// or not): a constant, a value set, or a function of %tid.x. The operands
/// of `mul.wide` are read at their own width.
bool fitsIn(const PtxValue &P, unsigned Bits, bool Signed) {
  auto Fits = [&](int64_t V) { return truncate(V, Bits, Signed) == V; };
  if (P.V.isSlotAddress() || P.V.isTmemAddress())
    return false;
  if (std::vector<int64_t> Cs = choicesOf(P); !Cs.empty())
    return llvm::all_of(Cs, Fits);
  std::optional<ThreadTable> T = hasTable(P) ? tableOf(P) : std::nullopt;
  return T && llvm::all_of(*T, Fits);
}
/// Names \p P by the key \p Combine builds from the keys of its operands
/// \p A and \p B, when both have one and the result stays within
/// PtxValue::MaxKeyOperations; no name otherwise.
template <typename CombineFn>
void setCombinedKey(PtxValue &P, const PtxValue &A, const PtxValue &B,
                    CombineFn Combine) {
  unsigned Operations = A.KeyOperations + B.KeyOperations + 1;
  if (A.Key.empty() || B.Key.empty() || Operations > PtxValue::MaxKeyOperations)
    return;
  P.Key = Combine();
  P.KeyOperations = Operations;
}

/// `setp.CMP.type p, a, b`.
PtxValue compare(unsigned BlockThreads, StringRef Cmp, bool Signed, PtxValue A,
                 PtxValue B) {
  PtxValue P = unknownValue();
  P.V.Uniform = join(A.V.Uniform, B.V.Uniform);
  StringRef Op = comparisonOperator(Cmp);
  if (Op.empty())
    return P;
  if (A.V.Constant && !B.V.Constant) {
    std::swap(A, B);
    Op = reversed(Op);
  }
  if (A.V.Constant && B.V.Constant) {
    int64_t L = *A.V.Constant, R = *B.V.Constant;
    bool T = Op == "=="   ? L == R
             : Op == "!=" ? L != R
             : Op == "<"  ? L < R
             : Op == "<=" ? L <= R
             : Op == ">"  ? L > R
                          : L >= R;
    return constant(T ? 1 : 0);
  }
  // Conditions on %tid.x alone: which threads take them, for every
  // possible %tid.x (nvcc writes `warp_idx == 0` as `tid.x > 31`, and
  // `warp == 0 || warp >= 4` as `tid.x - 128 > -97u`).
  if (A.Tid && B.Tid && !(A.V.Constant && B.V.Constant)) {
    std::optional<Uniformity> U;
    if (selectsWarps(BlockThreads, Op, Signed, *A.Tid, *B.Tid, P, U)) {
      P.V.Uniform = *U;
      return P;
    }
  }
  if (A.V.IsWarpIndex && B.V.Constant)
    warpArms(Op, *B.V.Constant, P);
  setCombinedKey(P, A, B, [&] { return A.Key + Op.str() + B.Key; });
  return P;
}

} // namespace

RegisterValues::RegisterValues(const InstanceCode &Code,
                               const StringMap<std::string> &SharedVars,
                               const std::vector<std::string> *KernelParams,
                               StringMap<PtxValue> ParamBindings,
                               PtxIdentities &Ids)
    : Code(Code), SharedVars(SharedVars), KernelParams(KernelParams),
      Params(std::move(ParamBindings)), Ids(Ids) {
  InstanceKey = Ids.nextInstanceKey();
  auto Intern = [&](const ptx::Operand *O) {
    auto [It, New] = RegIds.try_emplace(O->Text, RegNames.size());
    if (New) {
      RegNames.push_back(It->first());
      DefCountById.push_back(0);
    }
    OperandIds.try_emplace(O, It->second);
    return It->second;
  };
  for (const ptx::Instruction &I : Code.Instructions) {
    DestsOf.push_back(destinations(I));
    SourcesOf.push_back(sources(I));
    DestIdsOf.emplace_back();
    SourceIdsOf.emplace_back();
    for (const ptx::Operand *D : DestsOf.back()) {
      DefSites[D->Text].push_back(DestsOf.size() - 1);
      unsigned Id = Intern(D);
      DestIdsOf.back().push_back(Id);
      ++DefCountById[Id];
    }
    for (const ptx::Operand *S : SourcesOf.back())
      SourceIdsOf.back().push_back(Intern(S));
  }
  ValueOf.assign(RegNames.size(), nullptr);
  VariableIdById.assign(RegNames.size(), 0);
  // Blocks as runs of instructions, for reachingDefinitions().
  const size_t Blocks = Code.Succs.size();
  bool Contiguous = Code.BlockOf.size() == Code.Instructions.size();
  BlockFirst.assign(Blocks, ~0u);
  for (size_t Idx = 0; Contiguous && Idx < Code.BlockOf.size(); ++Idx) {
    unsigned B = Code.BlockOf[Idx];
    if (B >= Blocks ||
        (Idx > 0 && B != Code.BlockOf[Idx - 1] && BlockFirst[B] != ~0u))
      Contiguous = false;
    else if (BlockFirst[B] == ~0u)
      BlockFirst[B] = Idx;
  }
  if (Contiguous) {
    Preds.resize(Blocks);
    for (unsigned B = 0; B < Blocks; ++B)
      for (unsigned S : Code.Succs[B])
        if (S < Blocks)
          Preds[S].push_back(B);
  } else {
    BlockFirst.clear();
  }
  solve();
  // What the per-thread walk learns can decide further branches on %tid.x:
  // a few rounds (one is typical).
  for (unsigned Round = 0; Round < 4 && !GaveUp && refineByThread(); ++Round)
    solve();
}

bool RegisterValues::refineByThread() {
  /// Walks per instance (each costs blocks × 1024 cells).
  constexpr unsigned MaxWalks = 32;
  if (Code.Succs.empty())
    return false;
  // Candidates: registers with several definitions, each a function of
  // %tid.x, whose join lost what they are.
  std::vector<std::string> Candidates;
  StringMap<bool> Viable, Predicate;
  // What instruction \p Idx writes, its sources read with the definitions
  // that reach it: nvcc's role dispatch copies predicates that are
  // themselves set in every arm (`mov.pred %p750, %p744` after `mov.pred
  // %p744, 0`), whose flow-insensitive values are unknown. Only for such
  // copies (`mov`): a loop counter's `add` would cost a deep read for
  // nothing.
  auto EvaluateAt = [&](unsigned Idx) {
    llvm::SaveAndRestore<std::optional<ReadPoint>> Saved(
        Point, ReadPoint{Idx, ReadPointDepth});
    return evaluate(Code.Instructions[Idx]);
  };
  // A branch predicate set once, from a register nvcc reuses: `shr %r10,
  // %r9, 2; setp.eq %p25, %r10, 0; @%p25 bra` right before the role
  // dispatch rewrites %r10 with the role's number in each arm. Its
  // flow-insensitive value knows nothing; read at the setp, with the
  // definitions that reach it, it is a function of %tid.x.
  // (By register id: the walks ask it for every branch of the kernel. A
  // predicate no instruction of the instance names has neither a value nor
  // a definition.)
  std::vector<std::shared_ptr<const ThreadSet>> TruthById(RegNames.size());
  std::vector<uint8_t> TruthDone(RegNames.size(), 0);
  auto Holds = [&](const ptx::Operand &Pred) -> const ThreadSet * {
    const unsigned Id = registerId(Pred);
    if (Id == ~0u)
      return nullptr;
    if (const PtxValue *Flow = ValueOf[Id]; Flow && Flow->TrueFor)
      return Flow->TrueFor.get();
    std::shared_ptr<const ThreadSet> *Cached = &TruthById[Id];
    const bool New = !TruthDone[Id];
    TruthDone[Id] = 1;
    if (New) {
      auto Sites = DefSites.find(Pred.Text);
      if (Sites != DefSites.end() && Sites->second.size() == 1) {
        unsigned Def = Sites->second.front();
        llvm::SaveAndRestore<std::optional<ReadPoint>> Saved(
            Point, ReadPoint{Def, ReadPointDepth});
        std::vector<PtxValue> Outs = guardedOutputs(Def);
        const std::vector<const ptx::Operand *> &Dests = DestsOf[Def];
        for (size_t D = 0; D < Dests.size() && D < Outs.size(); ++D)
          if (Dests[D]->Text == Pred.Text && Outs[D].TrueFor &&
              !Outs[D].V.Constant)
            *Cached = Outs[D].TrueFor;
      }
    }
    return Cached->get();
  };
  auto Candidate = [&](StringRef Name) {
    return hasSeveralDefinitions(Name) && !Overrides.count(Name);
  };
  for (size_t Idx = 0; Idx < Code.Instructions.size(); ++Idx) {
    const ptx::Instruction &I = Code.Instructions[Idx];
    const std::vector<const ptx::Operand *> &Dests = DestsOf[Idx];
    if (llvm::none_of(
            Dests, [&](const ptx::Operand *D) { return Candidate(D->Text); }))
      continue;
    // What solve() left for an unguarded instruction is what it evaluates
    // to now: the fixpoint evaluated it after its sources' last change.
    std::vector<PtxValue> Vals = !I.Pred && Outputs[Idx].size() == Dests.size()
                                     ? Outputs[Idx]
                                     : evaluate(I);
    bool ReadAtDefinition = false;
    for (size_t D = 0; D < Dests.size(); ++D) {
      StringRef Name = Dests[D]->Text;
      if (!Candidate(Name))
        continue;
      if (!ReadAtDefinition && I.base() == "mov" && D < Vals.size() &&
          !hasTable(Vals[D])) {
        Vals = EvaluateAt(Idx);
        ReadAtDefinition = true;
      }
      // A definition under a guard whose threads are unknown leaves the
      // register unknown to the walk (nvcc's `@%px mov %r945, 1` after
      // elect.sync): not worth a walk.
      auto [It, New] = Viable.try_emplace(Name, true);
      It->second = It->second && D < Vals.size() && hasTable(Vals[D]) &&
                   (!I.Pred || Holds(I.Pred->Predicate));
      auto [PIt, PNew] = Predicate.try_emplace(Name, true);
      PIt->second = PIt->second && (I.base() == "setp" || I.hasPart("pred"));
      if (New)
        Candidates.push_back(Name.str());
    }
  }
  // What a definition writes, per thread; a walk asks at every visit of
  // its block. Cleared when a walk learns a value (later definitions may
  // read it).
  std::map<std::pair<unsigned, std::string>, std::optional<ThreadTable>>
      Defined;
  auto DefinedValue = [&](unsigned Idx,
                          StringRef Reg) -> std::optional<ThreadTable> {
    auto [Memo, New] = Defined.try_emplace({Idx, Reg.str()});
    if (!New)
      return Memo->second;
    const ptx::Instruction &I = Code.Instructions[Idx];
    std::vector<const ptx::Operand *> Dests = destinations(I);
    std::vector<PtxValue> Vals = evaluate(I);
    for (size_t D = 0; D < Dests.size() && D < Vals.size(); ++D)
      if (Dests[D]->Text == Reg && Vals[D].Defined) {
        Memo->second = tableOf(Vals[D]);
        if (!Memo->second && I.base() == "mov") {
          std::vector<PtxValue> At = EvaluateAt(Idx);
          if (D < At.size() && At[D].Defined)
            Memo->second = tableOf(At[D]);
        }
        break;
      }
    return Memo->second;
  };
  ThreadFlowOracle Oracle{DefinedValue, Holds};
  // The instructions that read or write each candidate, in order: a walk
  // visits only those (a large kernel has tens of thousands of others).
  StringMap<std::vector<unsigned>> Touching;
  for (const std::string &Name : Candidates)
    if (Viable.lookup(Name))
      Touching[Name];
  for (unsigned Idx = 0; Idx < Code.Instructions.size(); ++Idx) {
    for (const ptx::Operand *S : SourcesOf[Idx])
      if (auto It = Touching.find(S->Text); It != Touching.end())
        if (It->second.empty() || It->second.back() != Idx)
          It->second.push_back(Idx);
    for (const ptx::Operand *D : DestsOf[Idx])
      if (auto It = Touching.find(D->Text); It != Touching.end())
        if (It->second.empty() || It->second.back() != Idx)
          It->second.push_back(Idx);
  }
  bool Learnt = false;
  unsigned Walks = 0;
  std::vector<ThreadTable> WalkScratch;
  for (const std::string &Name : Candidates) {
    if (!Viable.lookup(Name) || WalkFailed.contains(Name) ||
        Walks++ >= MaxWalks)
      continue;
    auto Cur = Values.find(Name);
    if (Cur != Values.end() && (Cur->second.V.Constant || Cur->second.Tid))
      continue; // already known
    std::optional<ThreadTable> T = threadValuesAtReads(
        Code, Name, Oracle, &Touching[Name], possibleThreads(), &WalkScratch);
    if (!T) {
      WalkFailed.insert(Name);
      continue;
    }
    PtxValue P;
    if (Predicate.lookup(Name)) {
      ThreadSet Truth;
      for (unsigned X = 0; X < MaxThreads; ++X)
        Truth.set(X, (*T)[X] != 0);
      P = predicateOf(Truth, blockThreads());
    } else {
      P = integerOf(*T);
    }
    // Later walks of this round read it too: nvcc's dispatch copies one
    // role flag into the next (`mov.pred %p750, %p745`), and each round
    // costs a fixpoint.
    valueSlot(registerId(Name)) = P; // a candidate: a destination, with an id
    Overrides[Name] = std::move(P);
    Defined.clear();
    Learnt = true;
  }
  return Learnt;
}

unsigned RegisterValues::destinationOperands(const ptx::Instruction &I) {
  // `a|b` destinations become two operands (Parser.cpp).
  StringRef Base = I.base();
  size_t N = I.Operands.size();
  if (Base == "elect")
    return N == 3 ? 2 : 1;
  if (Base == "setp") {
    bool BoolOp = I.hasPart("and") || I.hasPart("or") || I.hasPart("xor");
    return N == (BoolOp ? 5u : 4u) ? 2 : 1;
  }
  if (Base == "shfl")
    return N == 6 ? 2 : 1;
  return 1;
}

std::vector<const ptx::Operand *>
RegisterValues::destinations(const ptx::Instruction &I) {
  std::vector<const ptx::Operand *> Out;
  if (I.Operands.empty())
    return Out;
  StringRef Base = I.base();
  // Instructions whose first operand is read, not written.
  static const std::set<std::string> NoDest = {"st",
                                               "red",
                                               "bar",
                                               "barrier",
                                               "bra",
                                               "call",
                                               "ret",
                                               "exit",
                                               "trap",
                                               "fence",
                                               "membar",
                                               "prefetch",
                                               "prefetchu",
                                               "cp",
                                               "cp.async",
                                               "mbarrier",
                                               "griddepcontrol",
                                               "setmaxnreg",
                                               "discard",
                                               "applypriority",
                                               "createpolicy",
                                               "stmatrix",
                                               "pmevent",
                                               "nanosleep",
                                               "brkpt",
                                               "cvta"};
  if (Base == "tcgen05") {
    if (I.Parts.size() > 1 && I.Parts[1] == "ld" &&
        I.Operands[0].K == ptx::Operand::Kind::Vector)
      for (const ptx::Operand &E : I.Operands[0].Elements)
        if (E.K == ptx::Operand::Kind::Register)
          Out.push_back(&E);
    return Out;
  }
  if (Base == "mbarrier") {
    // try_wait / test_wait write a predicate, arrive a state.
    if (I.Operands[0].K == ptx::Operand::Kind::Register)
      Out.push_back(&I.Operands[0]);
    return Out;
  }
  if (Base == "cvta") {
    if (I.Operands[0].K == ptx::Operand::Kind::Register)
      Out.push_back(&I.Operands[0]);
    return Out;
  }
  if (NoDest.count(Base.str()))
    return Out;
  const ptx::Operand &First = I.Operands[0];
  if (First.K == ptx::Operand::Kind::Register)
    Out.push_back(&First);
  else if (First.K == ptx::Operand::Kind::Vector)
    for (const ptx::Operand &E : First.Elements)
      if (E.K == ptx::Operand::Kind::Register)
        Out.push_back(&E);
  if (destinationOperands(I) == 2 &&
      I.Operands[1].K == ptx::Operand::Kind::Register)
    Out.push_back(&I.Operands[1]);
  return Out;
}

std::vector<const ptx::Operand *>
RegisterValues::sources(const ptx::Instruction &I) {
  std::vector<const ptx::Operand *> Dests = destinations(I);
  std::vector<const ptx::Operand *> Out;
  std::function<void(const ptx::Operand &)> Walk = [&](const ptx::Operand &O) {
    if (O.K == ptx::Operand::Kind::Register) {
      if (std::find(Dests.begin(), Dests.end(), &O) == Dests.end())
        Out.push_back(&O);
      return;
    }
    for (const ptx::Operand &E : O.Elements)
      Walk(E);
  };
  if (I.Pred)
    Out.push_back(&I.Pred->Predicate);
  for (const ptx::Operand &O : I.Operands)
    Walk(O);
  return Out;
}

bool RegisterValues::hasSeveralDefinitions(StringRef Name) const {
  return definitionCount(Name) > 1;
}

unsigned RegisterValues::definitionCount(StringRef Name) const {
  unsigned Id = registerId(Name);
  return Id == ~0u ? 0 : DefCountById[Id];
}

PtxValue RegisterValues::special(StringRef Name) const {
  StringRef Base = Name.split('.').first;
  auto Linear = [] {
    auto E = std::make_shared<TidExpr>();
    E->K = TidExpr::Kind::Tid;
    return std::shared_ptr<const TidExpr>(std::move(E));
  };
  auto Const = [](int64_t C) {
    auto E = std::make_shared<TidExpr>();
    E->Value = C;
    return std::shared_ptr<const TidExpr>(std::move(E));
  };
  auto Bin = [](StringRef Op, std::shared_ptr<const TidExpr> L,
                std::shared_ptr<const TidExpr> R) {
    auto E = std::make_shared<TidExpr>();
    E->K = TidExpr::Kind::Binary;
    E->Op = Op.str();
    E->Size = L->Size + R->Size + 1;
    E->L = std::move(L);
    E->R = std::move(R);
    return std::shared_ptr<const TidExpr>(std::move(E));
  };
  auto ThreadValue = [&](std::shared_ptr<const TidExpr> E, StringRef Key) {
    PtxValue P = withUniformity(Uniformity::ThreadVariant);
    P.Tid = std::move(E);
    P.V.LaneVariant = laneVariant(*P.Tid);
    if (!P.V.LaneVariant)
      P.V.Uniform = Uniformity::WarpUniform;
    P.Key = Key.str();
    return P;
  };
  // The block shape: each dimension's extent when fixed, or 1 when bounded
  // by 1 (`.maxntid 128, 1, 1`).
  const BlockShape &Shape = Code.Shape;
  auto Extent = [&](unsigned D) -> std::optional<unsigned> {
    if (Shape.Required && (*Shape.Required)[D])
      return (*Shape.Required)[D];
    if (Shape.Maximum && (*Shape.Maximum)[D] == 1)
      return 1u;
    return std::nullopt;
  };
  std::optional<unsigned> X = Extent(0), Y = Extent(1), Z = Extent(2);
  bool OneD = Y == 1u && Z == 1u;
  if (Name == "%tid.x") {
    // 1-D (or unknown) blocks: %tid.x is the linear id.
    if (!OneD && X && Y && Z && *X * *Y * *Z <= MaxThreads)
      return ThreadValue(Bin("rem", Linear(), Const(*X)), "%tid.x");
    return ThreadValue(Linear(), "%tid.x");
  }
  if (Name == "%tid.y" || Name == "%tid.z") {
    unsigned D = Name == "%tid.y" ? 1 : 2;
    if (Extent(D) == 1u)
      return constant(0);
    if (X && Y && Z && *X * *Y * *Z <= MaxThreads) {
      if (D == 1)
        return ThreadValue(
            Bin("rem", Bin("div", Linear(), Const(*X)), Const(*Y)), Name);
      return ThreadValue(Bin("div", Linear(), Const(*X * *Y)), Name);
    }
  }
  if (Name == "%ntid.x" || Name == "%ntid.y" || Name == "%ntid.z") {
    unsigned D = Name.back() - 'x';
    if (std::optional<unsigned> E = Extent(D); E && (D != 0 || Shape.Required))
      return constant(*E);
  }
  if (Name == "%warpid") {
    // The warp's number in the CTA (PTX ISA: unique per warp of a CTA);
    // taken as the linear id / 32, which is what it numbers.
    PtxValue P = ThreadValue(Bin("shr", Linear(), Const(5)), "%tid.x/32");
    P.V.IsWarpIndex = true;
    return P;
  }
  if (Name == "%laneid")
    return ThreadValue(Bin("and", Linear(), Const(31)), "%laneid");
  if (Base == "%tid" || Base == "%laneid" || Base.starts_with("%lanemask")) {
    PtxValue P = withUniformity(Uniformity::ThreadVariant);
    P.Key = Name.str();
    return P;
  }
  if (Base == "%ctaid" || Base == "%nctaid" || Base == "%ntid" ||
      Base == "%clusterid" || Base == "%nclusterid" ||
      Base == "%cluster_ctaid" || Base == "%cluster_nctaid" ||
      Base == "%cluster_ctarank" || Base == "%cluster_nctarank" ||
      Base == "%nwarpid" || Base == "%gridid" || Base == "%nsmid") {
    PtxValue P = withUniformity(Uniformity::CtaUniform);
    P.Key = Name.str();
    return P;
  }
  return unknownValue();
}

bool RegisterValues::isKernelParam(StringRef Name) const {
  return KernelParams && llvm::is_contained(*KernelParams, Name);
}

/// The key of a kernel parameter's address (`mov.b64 %rd, k_param_0`); an
/// address whose key holds it points into the kernel's parameters.
static std::string paramAddressKey(StringRef Name) {
  return ("&param:" + Name).str();
}

std::vector<PtxValue> RegisterValues::kernelParamLoad(const ptx::Instruction &I,
                                                      size_t Count,
                                                      unsigned Bytes) const {
  std::vector<PtxValue> Out(Count, unknownValue());
  const ptx::Operand &Addr = I.Operands[1];
  StringRef Base = Addr.Elements.front().Text;
  std::string BaseKey;
  if (isKernelParam(Base)) {
    BaseKey = paramAddressKey(Base);
  } else if (Base.starts_with("%")) {
    // A register holding a parameter's address, offset by constants
    // (CUTLASS passes its Params struct by value and nvcc reads its fields
    // through `mov.u64 %rd2, %rd21; ld.param.v2.u32 {..}, [%rd2]`).
    PtxValue A = reg(Base);
    if (A.V.Uniform == Uniformity::CtaUniform &&
        StringRef(A.Key).contains("&param:"))
      BaseKey = A.Key;
  }
  if (BaseKey.empty())
    return Out;
  for (size_t E = 0; E < Count; ++E) {
    PtxValue &P = Out[E];
    P = withUniformity(Uniformity::CtaUniform);
    P.Key = "param[" + BaseKey + "+" +
            std::to_string(Addr.AddressOffset + int64_t(E * Bytes)) + "]";
    P.KeyOperations = 1;
  }
  return Out;
}

PtxValue RegisterValues::symbol(StringRef Name) const {
  if (isKernelParam(Name)) {
    PtxValue P = withUniformity(Uniformity::CtaUniform);
    P.Key = paramAddressKey(Name);
    return P;
  }
  auto It = SharedVars.find(Name);
  if (It == SharedVars.end())
    return unknownValue();
  PtxValue P = withUniformity(Uniformity::CtaUniform);
  P.V.Address = AddressKind::SlotAddress;
  P.V.Slot = Ids.slot(Name, 0);
  P.V.SlotArray = P.V.Slot;
  P.V.SlotName = It->second;
  P.V.Spelling = It->second;
  P.SlotOffset = 0;
  P.V.SlotRunStart = 0;
  return P;
}

unsigned RegisterValues::registerId(const ptx::Operand &O) const {
  if (auto It = OperandIds.find(&O); It != OperandIds.end())
    return It->second;
  return registerId(O.Text);
}

unsigned RegisterValues::registerId(StringRef Name) const {
  auto It = RegIds.find(Name);
  return It == RegIds.end() ? ~0u : It->second;
}

PtxValue &RegisterValues::valueSlot(unsigned Id) {
  if (!ValueOf[Id])
    ValueOf[Id] = &Values[RegNames[Id]];
  return *ValueOf[Id];
}

bool RegisterValues::sourceDefined(const ptx::Operand &S) const {
  if (S.K == ptx::Operand::Kind::Register && !GaveUp && !(Point && !Solving))
    if (unsigned Id = registerId(S); Id != ~0u) {
      if (const PtxValue *V = ValueOf[Id])
        return V->Defined;
      if (Solving && DefCountById[Id])
        return false;
    }
  return operand(S).Defined;
}

PtxValue RegisterValues::regById(unsigned Id) const {
  if (GaveUp)
    return unknownValue();
  if (Point && !Solving)
    return reg(RegNames[Id]);
  if (const PtxValue *V = ValueOf[Id])
    return *V;
  if (Solving && DefCountById[Id])
    return PtxValue(); // defined later in the fixpoint
  return reg(RegNames[Id]);
}

PtxValue RegisterValues::reg(StringRef Name) const {
  if (GaveUp)
    return unknownValue();
  if (Point && !Solving) {
    ReadPoint At = *Point;
    Point.reset(); // regAt() reads the flow-insensitive values
    PtxValue V = regAt(Name, At);
    Point = At;
    return V;
  }
  auto It = Values.find(Name);
  if (It != Values.end())
    return It->second;
  if (Solving && definitionCount(Name))
    return PtxValue(); // defined later in the fixpoint
  if (Name.starts_with("%")) {
    auto [Cached, New] = Specials.try_emplace(Name);
    if (New)
      Cached->second = special(Name);
    return Cached->second;
  }
  return unknownValue();
}

std::optional<std::pair<std::string, int64_t>>
RegisterValues::equalityTested(const ptx::Operand &Pred) const {
  if (Pred.K != ptx::Operand::Kind::Register)
    return std::nullopt;
  auto Sites = DefSites.find(Pred.Text);
  if (Sites == DefSites.end() || Sites->second.size() != 1)
    return std::nullopt;
  const ptx::Instruction &Setp = Code.Instructions[Sites->second.front()];
  if (Setp.base() != "setp" || Setp.Pred || Setp.Operands.size() != 3 ||
      !(Setp.hasPart("eq") || Setp.hasPart("ne")))
    return std::nullopt;
  const ptx::Operand *X = &Setp.Operands[1], *N = &Setp.Operands[2];
  if (X->K == ptx::Operand::Kind::Immediate)
    std::swap(X, N);
  if (X->K != ptx::Operand::Kind::Register ||
      N->K != ptx::Operand::Kind::Immediate || definitionCount(X->Text) != 1)
    return std::nullopt;
  // As an equality: setp.ne is its negation.
  if (Setp.hasPart("ne"))
    return std::nullopt;
  return std::make_pair(X->Text, N->Imm);
}

PtxValue RegisterValues::restrictedTo(PtxValue V, int64_t N, bool Equal) const {
  std::vector<int64_t> Cs = choicesOf(V);
  if (Cs.empty())
    return Equal ? constant(N) : V;
  auto It = llvm::find(Cs, N);
  if (Equal)
    return It == Cs.end() ? PtxValue() : constant(N);
  if (It == Cs.end())
    return V;
  Cs.erase(It);
  if (Cs.empty())
    return PtxValue(); // this arm is never selected
  if (Cs.size() == 1) {
    PtxValue C = constant(Cs.front());
    C.V.Uniform = V.V.Uniform;
    return C;
  }
  V.V.Choices = std::move(Cs);
  return V;
}

const std::vector<unsigned> &
RegisterValues::reachingDefinitions(StringRef Name, unsigned Instr) const {
  static const std::vector<unsigned> None;
  auto Sites = DefSites.find(Name);
  if (Sites == DefSites.end())
    return None;
  // Keyed by the register's DefSites entry (a stable address).
  auto [It, New] = Reaching.try_emplace({&*Sites, Instr});
  std::vector<unsigned> &Result = It->second;
  if (!New || Preds.empty() || Instr >= Code.BlockOf.size())
    return Result;
  const std::vector<unsigned> &Defs = Sites->second;
  std::set<unsigned> Found;
  // The definitions in [first of B, Before), last first, down to one that
  // always writes: true if one did (it hides the earlier ones).
  auto Scan = [&](unsigned B, unsigned Before) {
    auto Lo = std::lower_bound(Defs.begin(), Defs.end(), BlockFirst[B]);
    auto Hi = std::lower_bound(Defs.begin(), Defs.end(), Before);
    while (Hi != Lo) {
      --Hi;
      Found.insert(*Hi);
      if (!Code.Instructions[*Hi].Pred)
        return true;
    }
    return false;
  };
  auto End = [&](unsigned B) {
    return B + 1 < BlockFirst.size() ? BlockFirst[B + 1]
                                     : unsigned(Code.Instructions.size());
  };
  const unsigned Start = Code.BlockOf[Instr];
  std::vector<unsigned> Work;
  if (!Scan(Start, Instr))
    Work = Preds[Start];
  std::vector<uint8_t> Seen(Preds.size(), 0);
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (Seen[B])
      continue;
    Seen[B] = 1;
    if (!Scan(B, End(B)))
      Work.insert(Work.end(), Preds[B].begin(), Preds[B].end());
  }
  Result.assign(Found.begin(), Found.end());
  return Result;
}

std::vector<PtxValue> RegisterValues::guardedOutputs(unsigned Idx) const {
  const ptx::Instruction &I = Code.Instructions[Idx];
  std::vector<PtxValue> Vals = evaluate(I);
  if (!I.Pred)
    return Vals;
  Uniformity Guard = operand(I.Pred->Predicate).V.Uniform;
  for (PtxValue &V : Vals) {
    if (!V.Defined)
      continue; // a source is not known yet (optimistic start)
    // Written only where the guard holds: the register's value depends on
    // the guard as well.
    V.V.Uniform = join(V.V.Uniform, Guard);
    // Lanes the guard skips keep an older value: no longer one function
    // of the lane.
    if (Guard > Uniformity::WarpUniform) {
      V.V.LaneVariant = false;
      V.V.PerThread.reset();
      V.V.PerThreadExact = false;
      V.V.PerThreadFromAllocation = false;
    }
  }
  return Vals;
}

unsigned RegisterValues::reachSetId(const std::vector<unsigned> &Reach) const {
  auto [It, New] = ReachSetByAddress.try_emplace(&Reach, 0);
  if (New)
    It->second =
        ReachSetIds.try_emplace(Reach, ReachSetIds.size()).first->second;
  return It->second;
}

bool RegisterValues::readsTheSameEverywhere(unsigned Id, unsigned Depth) const {
  // How deep a cone is followed; deeper ones are taken not to settle (the
  // read-point evaluation then runs as before).
  constexpr unsigned MaxConeDepth = 64;
  int8_t &State = Settled[Id];
  if (State == 0 || State == 1)
    return State;
  if (State == 2 || Depth > MaxConeDepth || !Tables)
    return false; // a cycle, or too deep to tell
  if (DefCountById[Id] != 1 || Widened[Id] || Overrides.count(RegNames[Id])) {
    State = 0;
    return false;
  }
  State = 2;
  bool Same = true;
  const unsigned Def = Tables->DefsById[Id].front();
  for (unsigned Src : SourceIdsOf[Def])
    if (DefCountById[Src] != 0 && !readsTheSameEverywhere(Src, Depth + 1)) {
      Same = false;
      break;
    }
  State = Same;
  return Same;
}

bool RegisterValues::readsOnlySettled(unsigned Idx) const {
  int8_t &State = SettledInstruction[Idx];
  if (State < 0) {
    State = Outputs[Idx].size() == DestsOf[Idx].size();
    for (unsigned Src : SourceIdsOf[Idx])
      if (State && DefCountById[Src] != 0 && !readsTheSameEverywhere(Src, 1))
        State = 0;
  }
  return State;
}

PtxValue RegisterValues::regAt(StringRef Name, ReadPoint At) const {
  auto Flow = Values.find(Name);
  auto Sites = DefSites.find(Name);
  if (Flow == Values.end() || Sites == DefSites.end() || Overrides.count(Name))
    return reg(Name);
  if (unsigned Id = registerId(Name);
      Id != ~0u && readsTheSameEverywhere(Id, 0))
    return Flow->second;
  // A register with one definition reads the same wherever it is read:
  // that definition reaches the read point or none does, and either way
  // all of them are taken (All below), so the read point is not part of
  // the key and the reaching definitions are not needed.
  //
  // The value is a function of the definitions that reach the point (and
  // the depth), not of the point itself: reads with the same reaching
  // definitions (all of them, say, in a loop) share it.
  const bool Single = Sites->second.size() == 1;
  static const std::vector<unsigned> None;
  const std::vector<unsigned> &Reach =
      Single ? None : reachingDefinitions(Name, At.Instr);
  const bool All = Reach.empty() || Reach.size() == Sites->second.size();
  auto Key = std::make_tuple(static_cast<const void *>(&*Sites),
                             All ? ~0u : reachSetId(Reach), At.Depth);
  if (auto It = ValuesAt.find(Key); It != ValuesAt.end())
    return It->second;
  PtxValue V;
  if (At.Depth == 0 && All) {
    V = Flow->second;
  } else {
    for (unsigned Def : All ? Sites->second : Reach) {
      // A definition that reads only registers reading the same everywhere
      // gives what the fixpoint recorded for it at any depth.
      const bool Recorded = At.Depth == 0 || readsOnlySettled(Def);
      std::vector<PtxValue> Guarded;
      if (!Recorded) {
        llvm::SaveAndRestore<std::optional<ReadPoint>> Saved(
            Point, ReadPoint{Def, At.Depth - 1});
        Guarded = guardedOutputs(Def);
      }
      const std::vector<PtxValue> &Outs = Recorded ? Outputs[Def] : Guarded;
      const std::vector<const ptx::Operand *> &Dests = DestsOf[Def];
      for (size_t D = 0; D < Dests.size() && D < Outs.size(); ++D)
        if (Dests[D]->Text == Name && Outs[D].Defined)
          joinInto(V, Outs[D]);
    }
    // Which of several definitions a thread sees depends on the branches
    // to them (solve()): keep the flow-insensitive uniformity then.
    if (Sites->second.size() > 1 && (All || Reach.size() > 1))
      V.V.Uniform = join(V.V.Uniform, Flow->second.V.Uniform);
    if (!V.Defined)
      V = Flow->second;
  }
  return ValuesAt.emplace(std::move(Key), V).first->second;
}

PtxValue RegisterValues::operandAt(const ptx::Operand &O,
                                   unsigned Instr) const {
  if (GaveUp || Instr >= Code.Instructions.size())
    return operand(O);
  llvm::SaveAndRestore<std::optional<ReadPoint>> Saved(
      Point, ReadPoint{Instr, ReadPointDepth});
  return operand(O);
}

uint64_t RegisterValues::variableId(unsigned Id) const {
  if (!VariableIdById[Id])
    VariableIdById[Id] = Ids.variable(InstanceKey, RegNames[Id]);
  return VariableIdById[Id];
}

PtxValue RegisterValues::operand(const ptx::Operand &O) const {
  switch (O.K) {
  case ptx::Operand::Kind::Immediate:
    return constant(O.Imm);
  case ptx::Operand::Kind::Register: {
    // (A register no instruction of the instance names has no definition.)
    const unsigned Id = registerId(O);
    PtxValue P = Id == ~0u ? reg(O.Text) : regById(Id);
    if (P.V.Spelling.empty())
      P.V.Spelling = O.writtenName().str();
    // A register set in several places (a loop counter, a stage carried
    // round a loop): unknown, but one value at each point that reads it.
    if (P.Defined && !P.V.Constant && !P.V.Term && !P.V.isSlotAddress() &&
        !P.V.isTmemAddress() && Id != ~0u && DefCountById[Id] > 1)
      P.V.Term = StageTerm::variable(variableId(Id));
    return P;
  }
  case ptx::Operand::Kind::Symbol:
    return symbol(O.Text);
  case ptx::Operand::Kind::Address: {
    if (O.Elements.empty())
      return unknownValue();
    PtxValue P = operand(O.Elements.front());
    if (P.V.isSlotAddress() && O.AddressOffset != 0) {
      // `[slot+4]`: the next slot of an array.
      if (P.SlotOffset)
        P.SlotOffset = *P.SlotOffset + O.AddressOffset;
      if (P.V.SlotRunStart)
        P.V.SlotRunStart = *P.V.SlotRunStart + O.AddressOffset;
      if (P.V.SlotRunStartByThread)
        P.V.SlotRunStartByThread =
            shiftedTable(*P.V.SlotRunStartByThread, O.AddressOffset);
      P.V.Slot = Ids.element(P.V.SlotArray, P.SlotOffset);
    }
    return P;
  }
  default:
    return unknownValue();
  }
}

/// The stage term of `Base d, L, R` when one operand is a term and the
/// other a constant (StageTerm.h).
static std::optional<StageTerm>
binaryTerm(StringRef Base, const AbstractValue &L, const AbstractValue &R) {
  bool Commutes =
      Base == "add" || Base == "mul" || Base == "and" || Base == "xor";
  const AbstractValue *T = L.Term && R.Constant ? &L : nullptr;
  int64_t C = 0;
  if (T)
    C = *R.Constant;
  else if (Commutes && R.Term && L.Constant) {
    T = &R;
    C = *L.Constant;
  }
  if (!T || T->Term->isConstant())
    return std::nullopt;
  if (Base == "add")
    return T->Term->plus(C);
  if (Base == "sub")
    return T->Term->plus(-C);
  if (Base == "mul")
    return T->Term->times(C);
  if (Base == "shl")
    return T->Term->shiftedLeft(C);
  if (Base == "rem")
    return T->Term->modulo(C);
  if (Base == "and")
    return T->Term->masked(C);
  if (Base == "xor")
    return T->Term->xored(C);
  return std::nullopt;
}

/// The value of a two-operand integer instruction `Base d, L, R`.
namespace {
/// Bits 15..0 of `Base l, r` from bits 15..0 of its operands, where they
/// decide them: carries and products only move upwards, so the low half of
/// a sum, difference, product or left shift depends on the operands' low
/// halves alone (a lane field added to a column, `(tid << 16) | 96`).
std::optional<int64_t> lowHalfOf(StringRef Base, std::optional<int64_t> L,
                                 std::optional<int64_t> R) {
  constexpr int64_t Mask = 0xFFFF;
  if (Base == "and" && (L == 0 || R == 0))
    return 0;
  if (Base == "or" && (L == Mask || R == Mask))
    return Mask;
  if (Base == "shl" && R && *R >= 16)
    return 0;
  if (Base == "mul" && (L == 0 || R == 0))
    return 0;
  if (!L || !R)
    return std::nullopt;
  if (Base == "add")
    return (*L + *R) & Mask;
  if (Base == "sub")
    return (*L - *R) & Mask;
  if (Base == "mul")
    return (*L * *R) & Mask;
  if (Base == "and")
    return *L & *R;
  if (Base == "or")
    return *L | *R;
  if (Base == "xor")
    return *L ^ *R;
  if (Base == "shl" && *R >= 0)
    return (*L << *R) & Mask;
  return std::nullopt;
}
} // namespace

std::shared_ptr<const TidExpr>
RegisterValues::tabulated(const std::shared_ptr<const TidExpr> &E) const {
  if (E->Size <= 1)
    return E;
  auto [It, New] = TabulatedNodes.try_emplace(E.get());
  if (New) {
    It->second.Source = E;
    if (std::optional<ThreadTable> Values = tableOf(*E)) {
      auto Table = std::make_shared<TidExpr>();
      Table->K = TidExpr::Kind::Table;
      Table->Values = std::make_shared<const ThreadTable>(std::move(*Values));
      It->second.Table = std::move(Table);
    }
  }
  return It->second.Table;
}

PtxValue RegisterValues::binary(StringRef Base, const PtxValue &L,
                                const PtxValue &R, unsigned Bits, bool Signed,
                                bool Wide) const {
  PtxValue P = withUniformity(join(L.V.Uniform, R.V.Uniform));
  if (L.V.Constant && R.V.Constant && !Wide && Bits && !L.V.isSlotAddress() &&
      !R.V.isSlotAddress()) {
    if (std::optional<int64_t> C = fold(Base, *L.V.Constant, *R.V.Constant))
      return constant(truncate(*C, Bits, Signed));
    return P;
  }
  // Identities with a constant operand, so that `tid.z * ntid.y` is 0
  // in a block whose z extent is 1 whatever %ntid.y is, and the linear
  // thread id CuTe DSL computes, `(tid.z * ntid.y + tid.y) * ntid.x +
  // tid.x`, is %tid.x there.
  if (!L.V.isSlotAddress() && !R.V.isSlotAddress() && !L.V.isTmemAddress() &&
      !R.V.isTmemAddress() && Bits) {
    auto Is = [](const PtxValue &V, int64_t C) {
      return V.V.Constant && *V.V.Constant == C;
    };
    if ((Base == "mul" || Base == "and") && (Is(L, 0) || Is(R, 0))) {
      return constant(0);
    }
    if (!Wide &&
        ((Is(R, 0) && (Base == "add" || Base == "sub" || Base == "or" ||
                       Base == "xor" || Base == "shl" || Base == "shr")) ||
         (Is(R, 1) && (Base == "mul" || Base == "div")))) {
      return L;
    }
    if (!Wide &&
        ((Is(L, 0) && (Base == "add" || Base == "or" || Base == "xor")) ||
         (Is(L, 1) && Base == "mul"))) {
      return R;
    }
  }
  // Slot addresses plus an offset: another element of the array (of
  // an unknown one: the class of its elements).
  if ((Base == "add" || Base == "or") &&
      (L.V.isSlotAddress() || R.V.isSlotAddress()) &&
      !(L.V.isSlotAddress() && R.V.isSlotAddress())) {
    PtxValue S = L.V.isSlotAddress() ? L : R;
    const PtxValue &C = L.V.isSlotAddress() ? R : L;
    if (S.SlotOffset && C.V.Constant)
      S.SlotOffset = *S.SlotOffset + *C.V.Constant;
    else
      S.SlotOffset.reset();
    // Only a choice per role: warp-uniform, of a few values (a per-lane
    // index into a shared array stays an index).
    std::optional<ThreadTable> ByThread =
        Base == "add" && !C.V.Constant && !S.V.SlotIndexed &&
                C.V.Uniform <= Uniformity::WarpUniform &&
                (S.V.SlotRunStart || S.V.SlotRunStartByThread)
            ? tableOf(C)
            : std::nullopt;
    if (ByThread && normalizeChoices(*ByThread, MaxChoices).empty())
      ByThread.reset();
    if (C.V.Constant && S.V.SlotRunStart && Base == "add") {
      S.V.SlotRunStart = *S.V.SlotRunStart + *C.V.Constant;
    } else if (C.V.Constant && S.V.SlotRunStartByThread && Base == "add") {
      S.V.SlotRunStartByThread =
          shiftedTable(*S.V.SlotRunStartByThread, *C.V.Constant);
    } else if (ByThread) {
      // `bars + selp(8, 24, is_wg0)`: a run that depends on the role.
      ThreadTable Starts = *runStartsByThread(S.V);
      for (unsigned T = 0; T < MaxThreads; ++T)
        Starts[T] += (*ByThread)[T];
      S.V.SlotRunStart.reset();
      S.V.SlotRunStartByThread =
          std::make_shared<const ThreadTable>(std::move(Starts));
    } else if (!C.V.Constant) {
      S.V.SlotIndexed = true;
      S.V.SlotRunStartByThread.reset();
    } else {
      S.V.SlotRunStart.reset();
      S.V.SlotRunStartByThread.reset();
    }
    // `bars + 8 * stage`: the element as a term of the stage, in bytes
    // from the run start (constant offsets move the run start).
    if (!C.V.Constant)
      S.V.ElementTerm = !S.V.ElementTerm && Base == "add" && C.V.Term &&
                                !C.V.Term->isConstant()
                            ? C.V.Term
                            : std::nullopt;
    else if (Base != "add")
      S.V.ElementTerm.reset();
    S.V.Slot = Ids.element(S.V.SlotArray, S.SlotOffset);
    S.V.Uniform = join(S.V.Uniform, C.V.Uniform);
    S.Key.clear();
    S.Tid.reset();
    return S;
  }
  // TMEM address arithmetic: `base + col`, `base | (lane << 16)`.
  if ((Base == "add" || Base == "or" || Base == "sub") &&
      (L.V.isTmemAddress() || (R.V.isTmemAddress() && Base != "sub"))) {
    const PtxValue &B = L.V.isTmemAddress() ? L : R;
    const PtxValue &A = L.V.isTmemAddress() ? R : L;
    P.V.Address = AddressKind::TmemAddress;
    P.V.Slot = B.V.Slot;
    P.V.SlotName = B.V.SlotName;
    P.V.Spelling = B.V.SlotName;
    if (A.V.Constant) {
      int64_t C = *A.V.Constant * (Base == "sub" ? -1 : 1);
      if (C >= 0 && !(Base == "or" &&
                      ((B.V.ColumnOffset.value_or(1) & C & 0xFFFF) != 0))) {
        if (B.V.LaneOffset)
          P.V.LaneOffset = *B.V.LaneOffset + (C >> 16);
        if (B.V.ColumnOffset)
          P.V.ColumnOffset = *B.V.ColumnOffset + (C & 0xFFFF);
        for (int64_t Column : B.V.ColumnChoices)
          P.V.ColumnChoices.push_back(Column + (C & 0xFFFF));
        P.V.ColumnTerm = B.V.ColumnTerm;
      }
    } else if (std::vector<int64_t> Cs = choicesOf(A);
               Base == "add" && Cs.size() > 1 && B.V.ColumnOffset &&
               llvm::all_of(Cs,
                            [](int64_t C) { return C >= 0 && C <= 0xFFFF; })) {
      // `base + stage * 128` with a stage of a few values: one of a few
      // columns.
      for (int64_t C : Cs)
        P.V.ColumnChoices.push_back(*B.V.ColumnOffset + C);
      P.V.ColumnChoices = valueSet(std::move(P.V.ColumnChoices));
      if (A.V.Term && !A.V.Term->isConstant())
        P.V.ColumnTerm = A.V.Term;
    } else if (std::optional<int64_t> Low = lowHalf(A);
               Low && Base != "sub" &&
               !(Base == "or" && (B.V.ColumnOffset.value_or(1) & *Low))) {
      // A lane field (`tid << 16`), maybe over a column field that is the
      // same in every thread (`(tid << 16 & 0x600000) | 96`).
      if (B.V.ColumnOffset)
        P.V.ColumnOffset = *B.V.ColumnOffset + *Low;
      if (Base == "add" || *Low == 0)
        for (int64_t Column : B.V.ColumnChoices)
          P.V.ColumnChoices.push_back(Column + *Low);
      P.V.ColumnTerm = B.V.ColumnTerm;
    } else if (Base == "add" && !B.V.ColumnTerm && A.V.Term &&
               !A.V.Term->isConstant()) {
      P.V.ColumnTerm = A.V.Term; // `base + stage * 128`
    }
    // `base + (tid << 16)`: a uniform base moved by a lane-variant amount
    // (or the reverse). `base | x` only when the bits cannot meet: an
    // allocation start (lane field 0, as alloc writes it) or'ed with
    // values in the lane field alone.
    bool Exact = false;
    if (Base == "or") {
      bool AE = false;
      auto AT = offsetsOf(A, AE);
      bool Disjoint =
          B.SlotRead && B.V.isAllocationStart() && AT && AE &&
          llvm::all_of(*AT, [](int64_t X) {
            return X >= 0 && X <= INT64_C(0xFFFFFFFF) && (X & 0xFFFF) == 0;
          });
      if (Disjoint)
        setOffsets(P, combineOffsets("add", B, A, 32, Exact), false);
    } else {
      // A role's columns (`taddr + selp(0, 128, wg1)`, warp-uniform) are
      // kept thread by thread as well as lane fields.
      setOffsets(P, combineOffsets(Base, L, R, 32, Exact, /*PerWarp=*/true),
                 false);
      // `taddr + 32`: still one value in every thread.
      P.SlotRead = !P.V.PerThread && uniformBase(L) && uniformBase(R);
      // `taddr + f(tid)`, f known thread by thread: each thread's offset
      // from the allocation start (the base is one word, read by all).
      bool AExact = false;
      const bool FromAllocation = B.V.PerThread
                                      ? B.V.PerThreadFromAllocation
                                      : B.SlotRead && B.V.isAllocationStart();
      if (P.V.PerThread && FromAllocation && offsetsOf(A, AExact) && AExact)
        P.V.PerThreadFromAllocation = true;
    }
    return P;
  }
  // Functions of %tid.x: kept as expressions (selectsWarps), and the
  // warp index of a 1-D block recognised by its values.
  static const std::set<std::string> TidOps = {
      "add", "sub", "mul", "shl", "shr", "and", "or", "xor", "div", "rem"};
  // Operands of a long chain are tabulated first: the node stays small.
  PtxValue TL, TR;
  const PtxValue *LP = &L, *RP = &R;
  if (L.Tid && R.Tid && !Wide && Bits && TidOps.count(Base.str()) &&
      L.Tid->Size + R.Tid->Size >= 16) {
    TL = L;
    TR = R;
    TL.Tid = tabulated(L.Tid);
    TR.Tid = tabulated(R.Tid);
    if (TL.Tid && TR.Tid) {
      LP = &TL;
      RP = &TR;
    }
  }
  const PtxValue &LT = *LP, &RT = *RP;
  if (LT.Tid && RT.Tid && !Wide && Bits && TidOps.count(Base.str()) &&
      LT.Tid->Size + RT.Tid->Size < 16) {
    // The fixpoint evaluates an instruction again with the same operand
    // expressions: the node and what its table says are computed once.
    auto KeyOf = [](const TidExpr &E) -> TidOperandKey {
      if (E.K == TidExpr::Kind::Constant)
        return {nullptr, E.Value};
      return {&E, 0};
    };
    auto [Memo, New] = TidNodes.try_emplace(std::make_tuple(
        Base.str(), Bits, Signed, KeyOf(*LT.Tid), KeyOf(*RT.Tid)));
    TidNode &Node = Memo->second;
    if (New) {
      auto E = std::make_shared<TidExpr>();
      E->K = TidExpr::Kind::Binary;
      E->Op = Base.str();
      E->Bits = Bits;
      E->Signed = Signed;
      E->L = LT.Tid;
      E->R = RT.Tid;
      E->Size = LT.Tid->Size + RT.Tid->Size + 1;
      bool IsWarp = true, WarpUniform = true;
      // Over the threads the block has: `.reqntid 32, 4, 1` makes
      // `tid.y * 32 + tid.x` the linear id for threads 0..127 only.
      const int64_t Threads = blockThreads();
      for (int64_t T = 0; T < Threads && (IsWarp || WarpUniform); ++T) {
        std::optional<int64_t> V = E->evaluate(T), V0 = E->evaluate(T & ~31);
        IsWarp = IsWarp && V && *V == T / 32;
        WarpUniform = WarpUniform && V && V0 && *V == *V0;
      }
      Node.E = std::move(E);
      Node.IsWarp = IsWarp;
      Node.WarpUniform = WarpUniform;
    }
    const bool IsWarp = Node.IsWarp, WarpUniform = Node.WarpUniform;
    // Operands truncated by a conversion (PerThread) are combined below.
    if (!L.V.PerThread && !R.V.PerThread) {
      if (!Node.LaneVariant)
        Node.LaneVariant = laneVariant(*Node.E);
      P.V.LaneVariant = *Node.LaneVariant;
    }
    P.Tid = Node.E;
    if (WarpUniform)
      P.V.Uniform = join(
          Uniformity::WarpUniform,
          join(L.V.Uniform == Uniformity::ThreadVariant ? Uniformity::CtaUniform
                                                        : L.V.Uniform,
               R.V.Uniform == Uniformity::ThreadVariant ? Uniformity::CtaUniform
                                                        : R.V.Uniform));
    if (IsWarp) {
      P.V.IsWarpIndex = true;
      P.Key = "%tid.x/32";
    }
  }
  if (!Wide)
    setCombinedKey(P, L, R, [&] {
      return ("(" + L.Key + " " + Base + " " + R.Key + ")").str();
    });
  if (!P.V.Constant && !Wide)
    P.V.Term = binaryTerm(Base, L.V, R.V);
  if (!P.V.Constant && !P.V.isTmemAddress())
    P.V.TmemDerivedSlot =
        L.V.tmemProvenance() ? L.V.tmemProvenance() : R.V.tmemProvenance();
  // Value sets: each pair of values.
  if (!P.V.Constant && !Wide && Bits && !P.V.isSlotAddress() &&
      !P.V.isTmemAddress()) {
    std::vector<int64_t> CL = choicesOf(L), CR = choicesOf(R), Out;
    bool All =
        !CL.empty() && !CR.empty() && CL.size() * CR.size() <= 4 * MaxChoices;
    for (size_t I = 0; All && I < CL.size(); ++I)
      for (size_t J = 0; All && J < CR.size(); ++J) {
        std::optional<int64_t> C = fold(Base, CL[I], CR[J]);
        All = C.has_value();
        if (C)
          Out.push_back(truncate(*C, Bits, Signed));
      }
    if (All) {
      Out = valueSet(std::move(Out));
      if (Out.size() == 1)
        return constant(Out.front());
      if (Out.size() > 1)
        P.V.Choices = std::move(Out);
    }
  }
  if (!P.V.Constant && !Wide && (Bits == 0 || Bits >= 16))
    P.V.KnownLowHalf =
        lowHalfOf(Base, lowHalf(L),
                  Base == "shl" && !R.V.Constant ? std::nullopt : lowHalf(R));
  // Not a function of %tid.x alone, but of one plus a warp-uniform base:
  // `(taddr + (tid << 16)) + lane`.
  if ((!P.Tid || L.V.PerThread || R.V.PerThread) && !Wide &&
      !P.V.isSlotAddress()) {
    bool Exact = false;
    if (auto T = combineOffsets(Base, L, R, Bits, Exact))
      setOffsets(P, std::move(T), Exact);
  }
  return P;
}

std::vector<PtxValue>
RegisterValues::evaluate(const ptx::Instruction &I) const {
  const size_t Index = &I - Code.Instructions.data();
  const std::vector<const ptx::Operand *> &Dests = DestsOf[Index];
  std::vector<PtxValue> Out(Dests.size(), unknownValue());
  if (Dests.empty())
    return Out;
  StringRef Base = I.base();
  auto Src = [&](size_t Index) {
    return Index < I.Operands.size() ? operand(I.Operands[Index])
                                     : unknownValue();
  };
  auto [Bits, Signed] = typeOf(I);
  for (const ptx::Operand *S : SourcesOf[Index])
    if (!sourceDefined(*S))
      return std::vector<PtxValue>(Dests.size()); // not known yet
  size_t FirstSrc = destinationOperands(I);

  if (Base == "mov" || Base == "cvt" || Base == "cvta") {
    if (I.Operands.size() == 2 &&
        I.Operands[1].K != ptx::Operand::Kind::Vector &&
        I.Operands[0].K != ptx::Operand::Kind::Vector) {
      PtxValue P = Src(1);
      if (P.V.Constant && Bits && !P.V.isSlotAddress())
        P = constant(truncate(*P.V.Constant, Bits, Signed));
      // A narrowing conversion may make lanes meet: the per-thread values
      // are truncated (modulo 2^k, which keeps a warp-uniform base one).
      unsigned Narrow = 0;
      if (Base == "cvt")
        for (StringRef Part : I.Parts)
          if (Part.size() >= 2 && StringRef("usb").contains(Part[0]) &&
              (Part.drop_front() == "8" || Part.drop_front() == "16"))
            Narrow = Narrow
                         ? std::min<unsigned>(Narrow, Part[1] == '8' ? 8 : 16)
                         : (Part[1] == '8' ? 8 : 16);
      if (Narrow && !P.V.Constant) {
        bool Exact = false;
        std::shared_ptr<ThreadTable> T;
        if (auto Offsets = offsetsOf(P, Exact)) {
          T = std::make_shared<ThreadTable>(*Offsets);
          for (int64_t &X : *T)
            X = truncate(X, Narrow, false);
        }
        setOffsets(P, std::move(T), Exact);
      }
      // The name of a variable is its address in that state space.
      Out[0] = P;
    } else if (Base == "mov" && I.Operands.size() == 2 && Out.size() == 1 &&
               I.Operands[1].K == ptx::Operand::Kind::Vector) {
      // `mov.b64 %rd, {lo, hi}`: a descriptor packed from two halves.
      PtxValue P = unknownValue();
      for (const ptx::Operand &E : I.Operands[1].Elements)
        if (!P.V.TmemDerivedSlot)
          P.V.TmemDerivedSlot = operand(E).V.tmemProvenance();
      Out[0] = P;
    }
    return Out;
  }
  if (Base == "ld") {
    const ptx::Operand *Addr = I.Operands.size() > 1 ? &I.Operands[1] : nullptr;
    if (!Addr || Addr->K != ptx::Operand::Kind::Address ||
        Addr->Elements.empty() || Out.empty())
      return Out;
    if (I.hasPart("param")) {
      StringRef Name = Addr->Elements.front().Text;
      if (Out.size() == 1 && Addr->AddressOffset == 0) {
        if (auto It = Params.find(Name); It != Params.end()) {
          Out[0] = It->second;
          return Out;
        }
        if (isKernelParam(Name)) {
          Out[0] = withUniformity(Uniformity::CtaUniform);
          Out[0].Key = Name.str();
          Out[0].V.Spelling = Name.str();
          return Out;
        }
      }
      if (KernelParams && Bits)
        return kernelParamLoad(I, Out.size(), (Bits + 7) / 8);
      return Out;
    }
    if (Out.size() != 1)
      return Out;
    PtxValue A = operand(*Addr);
    if (A.V.isSlotAddress() && Bits == 32) {
      // tcgen05.alloc writes the TMEM address to a 32-bit slot (§4).
      PtxValue P = unknownValue();
      P.V.Address = AddressKind::TmemAddress;
      P.V.Slot = A.V.Slot;
      P.V.SlotName = A.V.SlotName;
      P.V.Spelling = A.V.SlotName;
      P.V.LaneOffset = P.V.ColumnOffset = 0;
      P.SlotRead = A.SlotOffset.has_value();
      Out[0] = P;
    }
    return Out;
  }
  if (Base == "setp" && Out.size() >= 1 && I.Parts.size() > 1) {
    PtxValue P = compare(blockThreads(), I.Parts[1], Signed, Src(FirstSrc),
                         Src(FirstSrc + 1));
    bool BoolOp = I.hasPart("and") || I.hasPart("or") || I.hasPart("xor");
    if (BoolOp) {
      PtxValue C = Src(FirstSrc + 2);
      Uniformity U = join(P.V.Uniform, C.V.Uniform);
      P = unknownValue();
      P.V.Uniform = U;
    }
    Out[0] = P;
    for (size_t D = 1; D < Dests.size(); ++D) { // q = !p
      Out[D] = unknownValue();
      Out[D].V.Uniform = P.V.Uniform;
    }
    if (Dests.front() != &I.Operands[0]) // `_|q`
      Out[0] = Out.back();
    return Out;
  }
  if (Base == "elect") {
    // elect.sync d|p: d the elected lane (the same in the warp), p true in
    // that one lane.
    PtxValue Lane = withUniformity(Uniformity::WarpUniform);
    PtxValue Elected = withUniformity(Uniformity::ThreadVariant);
    Elected.Key = "elect.sync";
    for (size_t D = 0; D < Dests.size(); ++D)
      Out[D] = Dests[D] == &I.Operands[0] ? Lane : Elected;
    return Out;
  }
  // `mapa.shared::cluster d, a, rank`: the same variable in the CTA of that
  // rank. The code of every CTA is the same, so the barrier (or slot) it
  // names has the identity of `a`: a consumer release to the peer's copy
  // of `empty[stage]` is a release on that pipeline's barrier.
  if (Base == "mapa" && Out.size() == 1 && I.Operands.size() == 3) {
    PtxValue A = Src(1), Rank = Src(2);
    if (A.V.isSlotAddress()) {
      A.V.Uniform = join(A.V.Uniform, Rank.V.Uniform);
      A.V.ClusterMapped = true;
      A.Key.clear();
      A.Tid.reset();
      Out[0] = A;
      return Out;
    }
  }
  if (Base == "shfl" && Out.size() >= 1) {
    PtxValue V = Src(FirstSrc), Lane = Src(FirstSrc + 1);
    PtxValue Clamp = Src(FirstSrc + 2);
    if (I.hasPart("idx") && Lane.V.Uniform <= Uniformity::WarpUniform) {
      // A broadcast from one lane: the same value in the whole warp. A
      // function of the thread id read from a constant lane (c = 31: the
      // whole warp is one segment) is that function at the lane's thread
      // of each warp: CuTe DSL's warp index, `shfl.sync.idx(linear_tid >>
      // 5, 0)`, stays the warp index.
      if (V.V.Uniform > Uniformity::WarpUniform) {
        std::optional<ThreadTable> T =
            Lane.V.Constant && Clamp.V.Constant &&
                    (*Clamp.V.Constant & 31) == 31 &&
                    ((*Clamp.V.Constant >> 8) & 31) == 0
                ? tableOf(V)
                : std::nullopt;
        if (T) {
          ThreadTable Read(MaxThreads);
          for (unsigned X = 0; X < MaxThreads; ++X)
            Read[X] = (*T)[(X & ~31u) | unsigned(*Lane.V.Constant & 31)];
          V = integerOf(Read);
        } else {
          std::string Key = V.Key.empty() || Lane.Key.empty()
                                ? std::string()
                                : "shfl.idx(" + V.Key + "," + Lane.Key + ")";
          V = withUniformity(Uniformity::WarpUniform);
          V.Key = std::move(Key);
        }
      }
      Out[0] = V;
    } else {
      Out[0] = withUniformity(join(V.V.Uniform, Uniformity::ThreadVariant));
    }
    return Out;
  }
  // Predicates known thread by thread combine thread by thread.
  if (I.hasPart("pred") && Out.size() == 1) {
    PtxValue A = Src(1), B = Src(2);
    if (Base == "not" && A.TrueFor) {
      Out[0] = predicateOf(~*A.TrueFor, blockThreads());
      return Out;
    }
    if ((Base == "and" || Base == "or" || Base == "xor") && A.TrueFor &&
        B.TrueFor) {
      const ThreadSet &X = *A.TrueFor, &Y = *B.TrueFor;
      Out[0] = predicateOf(Base == "and"  ? X & Y
                           : Base == "or" ? X | Y
                                          : X ^ Y,
                           blockThreads());
      return Out;
    }
  }
  if (Base == "selp" && Out.size() == 1) {
    PtxValue A = Src(1), B = Src(2), C = Src(3);
    // `selp(bars_s0, bars_s1, is_wg0)`: each role's own barrier of one
    // array, told apart thread by thread.
    if (C.TrueFor && !C.V.Constant && A.V.isSlotAddress() &&
        B.V.isSlotAddress() && A.V.SlotArray &&
        A.V.SlotArray == B.V.SlotArray && !A.V.SlotIndexed &&
        !B.V.SlotIndexed) {
      std::optional<ThreadTable> SA = runStartsByThread(A.V),
                                 SB = runStartsByThread(B.V);
      if (SA && SB) {
        ThreadTable S(MaxThreads);
        for (unsigned X = 0; X < MaxThreads; ++X)
          S[X] = C.TrueFor->test(X) ? (*SA)[X] : (*SB)[X];
        PtxValue P = A;
        P.V.Uniform = join(join(A.V.Uniform, B.V.Uniform), C.V.Uniform);
        P.SlotOffset.reset();
        P.V.Slot = Ids.element(P.V.SlotArray, std::nullopt);
        P.V.SlotRunStart.reset();
        P.V.SlotRunStartByThread =
            std::make_shared<const ThreadTable>(std::move(S));
        P.V.ElementTerm.reset();
        P.Key.clear();
        P.Tid.reset();
        if (llvm::all_equal(*P.V.SlotRunStartByThread))
          P = A; // the same run in every thread
        Out[0] = P;
        return Out;
      }
    }
    if (C.TrueFor && !C.V.Constant) {
      // `selp.u32 r, 1, 0, p` of a predicate known thread by thread.
      std::optional<ThreadTable> TA = tableOf(A), TB = tableOf(B);
      if (TA && TB) {
        ThreadTable T(MaxThreads);
        for (unsigned X = 0; X < MaxThreads; ++X)
          T[X] =
              truncate(C.TrueFor->test(X) ? (*TA)[X] : (*TB)[X], Bits, Signed);
        Out[0] = integerOf(T);
        return Out;
      }
    }
    // `selp d, 0, x, p` with `setp.eq p, x, N`: the wrap of a pipeline's
    // stage index, `(i + 1 == N) ? 0 : i + 1`; x is not N where it is
    // selected.
    if (std::optional<std::pair<std::string, int64_t>> Eq =
            I.Operands.size() > 3 ? equalityTested(I.Operands[3])
                                  : std::nullopt)
      for (int Arm : {1, 2}) {
        const ptx::Operand &O = I.Operands[Arm];
        if (O.K != ptx::Operand::Kind::Register || O.Text != Eq->first)
          continue;
        // setp.eq: x is N in the true arm (1), not N in the false one.
        bool Equal = (Arm == 1) != I.Operands[3].Negated;
        PtxValue &Selected = Arm == 1 ? A : B;
        Selected = restrictedTo(Selected, Eq->second, Equal);
      }
    PtxValue P = A;
    joinInto(P, B);
    P.V.Uniform = join(P.V.Uniform, C.V.Uniform);
    P.Key.clear();
    P.V.IsWarpIndex = false;
    P.Tid.reset();
    if (C.V.Constant) // a decided selection
      P = *C.V.Constant ? A : B;
    Out[0] = P;
    return Out;
  }
  if ((Base == "not" || Base == "neg" || Base == "abs") && Out.size() == 1) {
    PtxValue A = Src(1);
    PtxValue P = withUniformity(A.V.Uniform);
    P.V.TmemDerivedSlot = A.V.tmemProvenance();
    if (Base == "not" && A.V.Term && !A.V.Constant)
      P.V.Term = A.V.Term->complemented();
    if (A.V.Constant && Bits) {
      int64_t C = *A.V.Constant;
      P = constant(truncate(Base == "not"   ? ~C
                            : Base == "neg" ? int64_t(0 - uint64_t(C))
                                            : (C < 0 ? -C : C),
                            Bits, Signed));
    }
    Out[0] = P;
    return Out;
  }
  static const std::set<std::string> Binary = {"add", "sub", "mul", "shl",
                                               "shr", "and", "or",  "xor",
                                               "div", "rem", "min", "max"};
  if (Binary.count(Base.str()) && Out.size() == 1 && I.Operands.size() == 3) {
    bool Wide = I.hasPart("wide") || I.hasPart("hi");
    PtxValue L = Src(1), R = Src(2);
    // `mul.wide.u16 d, a, b` is the whole product of two Bits-wide
    // operands, 2 * Bits wide: nvcc computes a role's barrier offset as
    // `mul.wide.u16 %r, selp.u16(1, 0, p), 8`. Operands known to fit in
    // Bits multiply exactly, as an ordinary mul of the wider type.
    if (Base == "mul" && I.hasPart("wide") && (Bits == 16 || Bits == 32) &&
        fitsIn(L, Bits, Signed) && fitsIn(R, Bits, Signed)) {
      Out[0] = binary(Base, L, R, 2 * Bits, Signed, /*Wide=*/false);
      return Out;
    }
    Out[0] = binary(Base, L, R, Bits, Signed, Wide);
    return Out;
  }
  // Anything else: unknown, as uniform as its sources when it only
  // combines them (mad, min, bfe, ...), thread-variant for lane-dependent
  // instructions, unknown for memory.
  static const std::set<std::string> Pure = {
      "mad",  "bfe",   "bfi",      "prmt",  "popc", "clz",  "brev",
      "fma",  "mul24", "mad24",    "sad",   "cnot", "lop3", "shf",
      "slct", "testp", "copysign", "bfind", "fns",  "szext"};
  // `mad.lo d, a, b, c` is a * b + c: nvcc folds `taddr + tid` into
  // `mad.lo %r, %tid, -65535, taddr + (tid << 16)`.
  if (Base == "mad" && I.hasPart("lo") && Out.size() == 1 &&
      I.Operands.size() == 4 && (Bits == 32 || Bits == 64)) {
    PtxValue A = Src(1), B = Src(2), C = Src(3);
    // Thread-id arithmetic, as CuTe DSL linearises the thread index:
    // `mad.lo d, ntid.y, tid.z, tid.y` is (a * b) + c, evaluated as the two
    // instructions it stands for.
    auto Plain = [](const PtxValue &V) {
      return V.Tid && V.V.Address == AddressKind::None;
    };
    if (Plain(A) && Plain(B) && Plain(C)) {
      Out[0] = binary("add", binary("mul", A, B, Bits, Signed, false), C, Bits,
                      Signed, false);
      return Out;
    }
    PtxValue Product = withUniformity(join(A.V.Uniform, B.V.Uniform));
    bool Exact = false;
    if (auto T = combineOffsets("mul", A, B, Bits, Exact)) {
      setOffsets(Product, std::move(T), Exact);
      // Only the per-thread facts: the result is not taken for a TMEM
      // address (its lane and column are not tracked through mad).
      PtxValue P = withUniformity(join(Product.V.Uniform, C.V.Uniform));
      if (auto Sum = combineOffsets("add", Product, C, Bits, Exact)) {
        setOffsets(P, std::move(Sum), Exact);
        Out[0] = P;
        return Out;
      }
    }
  }
  if (Pure.count(Base.str())) {
    Uniformity U = Uniformity::CtaUniform;
    for (const ptx::Operand *S : SourcesOf[Index])
      U = join(U, operand(*S).V.Uniform);
    // `bfi`, `lop3`, `shf` of a TMEM address: a descriptor field built
    // from it (AbstractValue::TmemDerivedSlot).
    uint64_t Derived = 0;
    for (const ptx::Operand *S : SourcesOf[Index])
      if (!Derived)
        Derived = operand(*S).V.tmemProvenance();
    for (PtxValue &P : Out) {
      P.V.Uniform = U;
      P.V.TmemDerivedSlot = Derived;
    }
  }
  return Out;
}

namespace {
/// What is kept of a register whose value keeps changing (a loop-carried
/// value that grows each trip): its uniformity and what kind of address it
/// is, which take finitely many values, so that the fixpoint settles.
PtxValue widened(const PtxValue &Old, const PtxValue &New, PtxIdentities &Ids) {
  PtxValue J = Old;
  joinInto(J, New);
  PtxValue W = unknownValue();
  W.Defined = J.Defined;
  W.V.Uniform = J.V.Uniform;
  W.V.IsWarpIndex = J.V.IsWarpIndex;
  if (J.V.Address != AddressKind::None) {
    W.V.Address = J.V.Address;
    W.V.Slot = J.V.Slot;
    W.V.SlotArray = J.V.SlotArray;
    W.V.SlotRunStart = J.V.SlotRunStart;
    W.V.SlotRunStartByThread.reset();
    W.V.SlotIndexed = true;
    W.V.SlotName = J.V.SlotName;
    W.V.Spelling = J.V.SlotName;
    // An element of the array at an offset that changed: the class of its
    // elements.
    if (W.V.isSlotAddress() && W.V.SlotArray)
      W.V.Slot = Ids.element(W.V.SlotArray, std::nullopt);
  }
  return W;
}
} // namespace

namespace {
/// The join of a register's definitions' outputs, kept up to date as one of
/// them changes. A register that an unrolled loop body redefines in every
/// copy (`%rd4` 64 times in a K-loop unrolled 64 times) was joined anew
/// over all its definitions each time one of them changed, quadratic in
/// the unroll; a change now costs the joins on one leaf-to-root path. The
/// leaves are the definitions in program order and every inner node joins
/// its left child with its right one, so the root is the left-to-right join
/// of all leaves (joinInto is associative, and an undefined value is its
/// identity on either side).
class JoinTree {
public:
  explicit JoinTree(size_t Leaves)
      : Width(llvm::PowerOf2Ceil(std::max<size_t>(Leaves, 1))),
        Nodes(2 * Width) {}
  void set(size_t Leaf, const PtxValue &V) {
    size_t Node = Width + Leaf;
    Nodes[Node] = V;
    for (Node /= 2; Node >= 1; Node /= 2) {
      Nodes[Node] = Nodes[2 * Node];
      joinInto(Nodes[Node], Nodes[2 * Node + 1]);
    }
  }
  const PtxValue &root() const { return Nodes[1]; }

private:
  size_t Width;
  std::vector<PtxValue> Nodes; ///< Nodes[1] the root, Nodes[Width + I] leaf I
};
} // namespace

void RegisterValues::buildFixpointTables() {
  const size_t N = Code.Instructions.size();
  // The definitions and readers of each register, and for registers with
  // several definitions the predicates of the branches that decide which
  // definition ran.
  StringMap<std::vector<unsigned>> Defs;
  StringMap<std::vector<std::string>> Deciders;  // register -> predicates
  StringMap<std::vector<std::string>> Dependent; // predicate -> registers
  StringSet<> SingleBlock; // several definitions, all in one block
  for (size_t Idx = 0; Idx < N; ++Idx) {
    for (const ptx::Operand *D : DestsOf[Idx])
      Defs[D->Text].push_back(Idx);
  }
  for (auto &Entry : Defs) {
    if (!hasSeveralDefinitions(Entry.first()))
      continue;
    std::set<unsigned> Blocks;
    for (unsigned Idx : Entry.second)
      Blocks.insert(Code.BlockOf[Idx]);
    // A branch that every definition is under through the same arm (the
    // warp test around a role's loop) decides whether a thread defines the
    // register, not which definition it sees.
    std::set<std::pair<unsigned, unsigned>> Common;
    if (Code.ControllingArms) {
      bool First = true;
      for (unsigned B : Blocks) {
        std::vector<std::pair<unsigned, unsigned>> Arms =
            Code.ControllingArms(B);
        std::set<std::pair<unsigned, unsigned>> Here(Arms.begin(), Arms.end());
        if (First) {
          Common = std::move(Here);
          First = false;
          continue;
        }
        std::set<std::pair<unsigned, unsigned>> Both;
        std::set_intersection(Common.begin(), Common.end(), Here.begin(),
                              Here.end(), std::inserter(Both, Both.begin()));
        Common = std::move(Both);
      }
    }
    auto SharedByAll = [&](unsigned C) {
      auto It = Common.lower_bound({C, 0});
      return It != Common.end() && It->first == C;
    };
    std::set<std::string> Preds;
    for (unsigned B : Blocks)
      for (unsigned C : Code.Controllers(B)) {
        if (SharedByAll(C))
          continue;
        int Br = Code.BranchOf[C];
        if (Br >= 0 && Code.Instructions[Br].Pred)
          Preds.insert(Code.Instructions[Br].Pred->Predicate.Text);
      }
    // Several definitions in one block that agree on a constant are not
    // decided by a branch.
    Deciders[Entry.first()].assign(Preds.begin(), Preds.end());
    for (const std::string &P : Preds)
      Dependent[P].push_back(Entry.first().str());
    if (Blocks.size() < 2)
      SingleBlock.insert(Entry.first());
  }

  // The same tables by register id, for the fixpoint's inner loop (the
  // lists keep the order above: which dependent is combined first can
  // matter to widening).
  Tables = std::make_unique<FixpointTables>();
  const unsigned R = RegNames.size();
  auto &[DefsById, ReadersById, DecidersById, DependentById, SingleBlockById] =
      *Tables;
  DefsById.resize(R);
  ReadersById.resize(R);
  DecidersById.resize(R);
  DependentById.resize(R);
  for (size_t Idx = 0; Idx < N; ++Idx) {
    for (unsigned D : DestIdsOf[Idx])
      DefsById[D].push_back(Idx);
    for (unsigned S : SourceIdsOf[Idx])
      ReadersById[S].push_back(Idx);
  }
  for (auto &Entry : Deciders)
    if (unsigned Id = registerId(Entry.first()); Id != ~0u)
      for (const std::string &P : Entry.second)
        DecidersById[Id].push_back(registerId(P));
  for (auto &Entry : Dependent)
    if (unsigned Id = registerId(Entry.first()); Id != ~0u)
      for (const std::string &D : Entry.second)
        DependentById[Id].push_back(registerId(D));
  SingleBlockById.assign(R, 0);
  for (auto &Entry : SingleBlock)
    if (unsigned Id = registerId(Entry.first()); Id != ~0u)
      SingleBlockById[Id] = 1;
}

void RegisterValues::solve() {
  const size_t N = Code.Instructions.size();
  if (!Tables)
    buildFixpointTables();
  const auto &[DefsById, ReadersById, DecidersById, DependentById,
               SingleBlockById] = *Tables;
  const unsigned R = RegNames.size();
  std::vector<const PtxValue *> OverrideById(R, nullptr);
  for (auto &Entry : Overrides)
    if (unsigned Id = registerId(Entry.first()); Id != ~0u)
      OverrideById[Id] = &Entry.second;

  // Registers with many definitions keep the join of their outputs in a
  // JoinTree: a leaf per (definition, destination operand naming it), in
  // the order the join below visits them.
  constexpr size_t JoinTreeFrom = 4;
  struct TreeLeaf {
    unsigned Dest;
    JoinTree *Tree;
    unsigned Leaf;
  };
  std::vector<std::unique_ptr<JoinTree>> TreeById(R);
  std::vector<std::vector<TreeLeaf>> LeavesOf(N);
  for (unsigned Id = 0; Id < R; ++Id) {
    if (DefsById[Id].size() < JoinTreeFrom)
      continue;
    std::vector<std::pair<unsigned, unsigned>> Leaves; // (instruction, dest)
    for (unsigned Idx : DefsById[Id])
      for (size_t D = 0; D < DestIdsOf[Idx].size(); ++D)
        if (DestIdsOf[Idx][D] == Id)
          Leaves.push_back({Idx, unsigned(D)});
    TreeById[Id] = std::make_unique<JoinTree>(Leaves.size());
    for (size_t L = 0; L < Leaves.size(); ++L)
      LeavesOf[Leaves[L].first].push_back(
          {Leaves[L].second, TreeById[Id].get(), unsigned(L)});
  }

  // The value of register \p Id from the current outputs of its
  // definitions.
  auto Combine = [&](unsigned Id) {
    if (OverrideById[Id])
      return *OverrideById[Id];
    PtxValue V;
    if (TreeById[Id]) {
      V = TreeById[Id]->root();
    } else {
      for (unsigned Idx : DefsById[Id]) {
        const std::vector<PtxValue> &Vals = Outputs[Idx];
        const std::vector<unsigned> &Dests = DestIdsOf[Idx];
        for (size_t D = 0; D < Dests.size() && D < Vals.size(); ++D)
          if (Dests[D] == Id && Vals[D].Defined)
            joinInto(V, Vals[D]);
      }
    }
    if (DefCountById[Id] < 2 || !V.Defined ||
        (SingleBlockById[Id] && V.V.Constant))
      return V;
    // Definitions that disagree: which one a thread sees depends on the
    // branches that lead to them.
    for (unsigned P : DecidersById[Id]) {
      const PtxValue *Cond = P == ~0u ? nullptr : ValueOf[P];
      if (!Cond || !Cond->Defined)
        continue;
      // A lane test on %tid.x alone deciding between definitions is often
      // nvcc's hoisting of a warp test (`p = warp == 2` set in the arms of
      // `if (tid == 0)`): which threads see which value is not followed,
      // so the value is unknown rather than thread-variant.
      Uniformity U = Cond->V.Uniform;
      if (U == Uniformity::ThreadVariant && Cond->TrueFor)
        U = Uniformity::Unknown;
      V.V.Uniform = join(V.V.Uniform, U);
    }
    return V;
  };

  Solving = true;
  // Values at read points depend on the flow-insensitive ones this
  // computes again.
  ValuesAt.clear();
  Settled.assign(R, -1);
  SettledInstruction.assign(N, -1);
  Widened.assign(R, 0);
  // Instructions to evaluate, in program order; every one at the start.
  std::vector<uint8_t> Dirty(N, 1);
  size_t DirtyCount = N;
  std::vector<unsigned> Changes(R, 0);
  Outputs.assign(N, {});
  // Each instruction is evaluated about once per change of a source; a
  // register that changes more than WidenAfter times is widened, so this
  // bound is only reached by pathological modules.
  constexpr unsigned WidenAfter = 8;
  const uint64_t MaxEvaluations = uint64_t(N) * 64 + 1024;
  uint64_t Evaluations = 0;
  std::vector<unsigned> Stack;
  auto Update = [&](unsigned First) {
    Stack.assign(1, First);
    while (!Stack.empty()) {
      unsigned Id = Stack.back();
      Stack.pop_back();
      if (Id == ~0u)
        continue;
      PtxValue V = Combine(Id);
      PtxValue *Cur = ValueOf[Id];
      if (Cur && *Cur == V)
        continue;
      if (Cur && ++Changes[Id] > WidenAfter && !OverrideById[Id]) {
        V = widened(*Cur, V, Ids);
        Widened[Id] = 1;
      }
      if (Cur && *Cur == V)
        continue;
      valueSlot(Id) = std::move(V);
      for (unsigned Reader : ReadersById[Id])
        if (!Dirty[Reader]) {
          Dirty[Reader] = 1;
          ++DirtyCount;
        }
      for (unsigned D : DependentById[Id])
        Stack.push_back(D);
    }
  };
  while (DirtyCount) {
    for (size_t Idx = 0; Idx < N && DirtyCount; ++Idx) {
      if (!Dirty[Idx])
        continue;
      Dirty[Idx] = 0;
      --DirtyCount;
      if (++Evaluations > MaxEvaluations) {
        Solving = false;
        GaveUp = true;
        return;
      }
      const std::vector<unsigned> &Dests = DestIdsOf[Idx];
      if (Dests.empty())
        continue;
      std::vector<PtxValue> Vals = guardedOutputs(Idx);
      if (Outputs[Idx] == Vals)
        continue;
      Outputs[Idx] = std::move(Vals);
      for (const TreeLeaf &L : LeavesOf[Idx]) {
        const std::vector<PtxValue> &Outs = Outputs[Idx];
        L.Tree->set(L.Leaf, L.Dest < Outs.size() && Outs[L.Dest].Defined
                                ? Outs[L.Dest]
                                : PtxValue());
      }
      for (unsigned D : Dests)
        Update(D);
    }
  }
  // Registers never defined by an evaluated instruction stay as they are;
  // overrides apply even where no definition was evaluated.
  // (Overrides are of candidates, registers instructions define: each has
  // an id.)
  for (auto &Entry : Overrides)
    valueSlot(registerId(Entry.first())) = Entry.second;
  Solving = false;
}

} // namespace tmemcheck
