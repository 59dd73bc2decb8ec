//===- ThreadConditions.cpp - Which threads run a block -------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Analysis/ThreadConditions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <climits>
#include <iterator>
#include <optional>

namespace tmemcheck {

namespace {

/// A condition `lhs OP C` with the arm taken, as the interval of values
/// of `lhs` that take that arm (`warp_idx >= 4`, true arm: [4, +inf)).
bool intervalAtom(const std::pair<std::string, unsigned> &Cond,
                  std::string &Lhs, long long &Lo, long long &Hi) {
  llvm::StringRef Text = Cond.first;
  static const char *const Ops[] = {"==", "!=", "<=", ">=", "<", ">"};
  for (const char *Op : Ops) {
    size_t Pos = Text.find(Op);
    if (Pos == llvm::StringRef::npos)
      continue;
    llvm::StringRef OpText(Op);
    // `<` must not match the first character of `<=` / `<<`.
    if (OpText.size() == 1 && Pos + 1 < Text.size() &&
        (Text[Pos + 1] == '=' || Text[Pos + 1] == Op[0]))
      continue;
    llvm::StringRef L = Text.take_front(Pos).trim("() ");
    llvm::StringRef R = Text.drop_front(Pos + OpText.size()).trim("() ");
    long long C;
    if (L.empty() || R.getAsInteger(0, C))
      return false;
    bool True = Cond.second == 0;
    const long long Min = LLONG_MIN / 2, Max = LLONG_MAX / 2;
    if (OpText == "==" || OpText == "!=") {
      if ((OpText == "==") != True)
        return false; // x != C is not an interval
      Lo = Hi = C;
    } else if (OpText == "<") {
      Lo = True ? Min : C;
      Hi = True ? C - 1 : Max;
    } else if (OpText == "<=") {
      Lo = True ? Min : C + 1;
      Hi = True ? C : Max;
    } else if (OpText == ">") {
      Lo = True ? C + 1 : Min;
      Hi = True ? Max : C;
    } else { // >=
      Lo = True ? C : Min;
      Hi = True ? Max : C - 1;
    }
    Lhs = L.str();
    return true;
  }
  return false;
}

/// The values for which \p Cond holds, as sorted disjoint ranges: what
/// intervalAtom reads, `x != C`, and the PTX front end's warp sets
/// (`%tid.x/32 in 8..11`, `%tid.x/32 in 0 1 2 3 12`) on either arm.
bool valueRanges(const std::pair<std::string, unsigned> &Cond,
                 std::string &Lhs,
                 std::vector<std::pair<long long, long long>> &Ranges) {
  const long long Min = LLONG_MIN / 2, Max = LLONG_MAX / 2;
  long long Lo, Hi;
  Ranges.clear();
  if (intervalAtom(Cond, Lhs, Lo, Hi)) {
    Ranges.push_back({Lo, Hi});
    return true;
  }
  llvm::StringRef Text = Cond.first;
  std::vector<std::pair<long long, long long>> Holds;
  if (size_t Pos = Text.find(" in "); Pos != llvm::StringRef::npos) {
    Lhs = Text.take_front(Pos).trim().str();
    llvm::SmallVector<llvm::StringRef, 16> Parts;
    Text.drop_front(Pos + 4).split(Parts, ' ', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef P : Parts) {
      auto [A, B] = P.split("..");
      long long X = 0, Y = 0;
      if (A.getAsInteger(0, X) || (!B.empty() && B.getAsInteger(0, Y)))
        return false;
      Holds.push_back({X, B.empty() ? X : Y});
    }
  } else {
    // `x == C` on its false arm, `x != C` on its true arm (intervalAtom
    // reads the other two): every value but C.
    bool Eq = Text.contains("=="), Ne = Text.contains("!=");
    if (Eq == Ne)
      return false;
    size_t At = Text.find(Eq ? "==" : "!=");
    long long C;
    Lhs = Text.take_front(At).trim("() ").str();
    if (Lhs.empty() || Text.drop_front(At + 2).trim("() ").getAsInteger(0, C))
      return false;
    if ((Cond.second == 0) == Eq)
      Ranges = {{C, C}};
    else
      Ranges = {{Min, C - 1}, {C + 1, Max}};
    return true;
  }
  if (Lhs.empty() || Holds.empty())
    return false;
  std::sort(Holds.begin(), Holds.end());
  if (Cond.second == 0) {
    Ranges = std::move(Holds);
    return true;
  }
  // The false arm: the complement.
  long long Next = Min;
  for (auto [A, B] : Holds) {
    if (A > Next)
      Ranges.push_back({Next, A - 1});
    Next = std::max(Next, B + 1);
  }
  if (Next <= Max)
    Ranges.push_back({Next, Max});
  return true;
}

bool rangesMeet(const std::vector<std::pair<long long, long long>> &A,
                const std::vector<std::pair<long long, long long>> &B) {
  for (auto [LoA, HiA] : A)
    for (auto [LoB, HiB] : B)
      if (LoA <= HiB && LoB <= HiA)
        return true;
  return false;
}

/// Role tests of a template pattern compare the warp index with values
/// that depend on template parameters (`warp_idx == 0` against
/// `warp_idx >= kNumNonEpilogueThreads / 32`). Kernels write role chains
/// with exclusive roles; when a bound is not a number, an equality role
/// test and a different true test on the same index are taken as
/// exclusive (tmemcheck stays silent rather than guess an overlap).
/// roleTest reads one side of such a pair: true arm, `lhs OP rhs`.
bool roleTest(const std::pair<std::string, unsigned> &C, std::string &Lhs,
              std::string &Op, std::string &Rhs) {
  llvm::StringRef T = C.first;
  for (const char *O : {"==", ">=", "<=", "<", ">"}) {
    size_t Pos = T.find(O);
    if (Pos == llvm::StringRef::npos || Pos == 0)
      continue;
    if (llvm::StringRef(O).size() == 1 && Pos + 1 < T.size() &&
        (T[Pos + 1] == '=' || T[Pos + 1] == O[0]))
      continue;
    Lhs = T.take_front(Pos).trim("() ").str();
    Op = O;
    Rhs = T.drop_front(Pos + llvm::StringRef(O).size()).trim("() ").str();
    return C.second == 0 && !Lhs.empty() && !Rhs.empty() &&
           Lhs.find_first_of("&|") == std::string::npos &&
           Rhs.find_first_of("&|") == std::string::npos;
  }
  return false;
}

} // namespace

ThreadConditions::Atom
ThreadConditions::parseAtom(const std::pair<std::string, unsigned> &Cond) {
  Atom A;
  A.Text = intern(Cond.first);
  A.Arm = Cond.second;
  std::string Lhs;
  if (intervalAtom(Cond, Lhs, A.Lo, A.Hi)) {
    A.Interval = true;
    A.IntervalLhs = intern(Lhs);
  }
  std::string Op, Rhs;
  if (RoleTexts.contains(Cond.first) && roleTest(Cond, Lhs, Op, Rhs)) {
    A.Role = true;
    A.RoleLhs = intern(Lhs);
    A.RoleOp = intern(Op);
    A.RoleRhs = intern(Rhs);
    long long Unused;
    A.RoleSymbolic = llvm::StringRef(Rhs).getAsInteger(0, Unused);
    A.RoleEquality = Op == "==";
  }
  return A;
}

unsigned ThreadConditions::intern(llvm::StringRef Text) {
  return Strings.try_emplace(Text, Strings.size()).first->second;
}

unsigned
ThreadConditions::atomId(const std::pair<std::string, unsigned> &Cond) {
  auto [It, New] = AtomIds.try_emplace(
      std::make_pair(intern(Cond.first), Cond.second), Atoms.size());
  if (New)
    Atoms.push_back(parseAtom(Cond));
  return It->second;
}

void ThreadConditions::atomsOf(const Conditions &C,
                               std::vector<unsigned> &Out) {
  Out.clear();
  for (const auto &X : C)
    Out.push_back(atomId(X));
}

const std::vector<unsigned> &ThreadConditions::blockAtoms(unsigned B) {
  if (!AtomsDone[B]) {
    atomsOf(of(B), BlockAtoms[B]);
    AtomsDone[B] = 1;
  }
  return BlockAtoms[B];
}

bool ThreadConditions::clash(const Atom &X, const Atom &Y) {
  // The two arms of one condition.
  if (X.Text == Y.Text && X.Arm != Y.Arm)
    return true;
  // Disjoint intervals of one value.
  if (X.Interval && Y.Interval && X.IntervalLhs == Y.IntervalLhs &&
      (X.Hi < Y.Lo || Y.Hi < X.Lo))
    return true;
  // symbolic role tests (roleTest): numbers are left to the intervals.
  return X.Role && Y.Role && X.RoleLhs == Y.RoleLhs &&
         (X.RoleSymbolic || Y.RoleSymbolic) &&
         (X.RoleEquality || Y.RoleEquality) &&
         (X.RoleOp != Y.RoleOp || X.RoleRhs != Y.RoleRhs);
}

bool ThreadConditions::compatibleAtoms(llvm::ArrayRef<unsigned> A,
                                       llvm::ArrayRef<unsigned> B) const {
  for (unsigned X : A)
    for (unsigned Y : B)
      if (clash(Atoms[X], Atoms[Y]))
        return false;
  return true;
}

ThreadConditions::ThreadConditions(const KernelGraph &G,
                                   const ControlDependence &CD)
    : G(G), CD(CD), Cache(G.Blocks.size()), Done(G.Blocks.size(), 0),
      InProgress(G.Blocks.size(), 0), AnyRouteCache(G.Blocks.size()),
      AnyRouteDone(G.Blocks.size(), 0), BlockAtoms(G.Blocks.size()),
      AtomsDone(G.Blocks.size(), 0) {
  for (const Block &B : G.Blocks)
    if (!B.BranchKey.empty() && !B.BranchIsLoop && B.BranchUniformity &&
        (*B.BranchUniformity == Uniformity::WarpUniform ||
         *B.BranchUniformity == Uniformity::ThreadVariant))
      RoleTexts.insert(B.BranchKey);
}

const ThreadConditions::Conditions &ThreadConditions::of(unsigned B) {
  if (Done[B])
    return Cache[B];
  Done[B] = 1; // breaks cycles through loop conditions
  // Each direct controlling arm is one route into the block (`if (a || b)`
  // has two); only the conditions every route implies hold for it.
  std::optional<Conditions> Common;
  InProgress[B] = 1;
  for (auto [Branch, Arm] : CD.controllingArms(B)) {
    // A loop's back edge makes its header depend on its own condition; that
    // route adds nothing the entry route does not already say.
    if (Branch == B || InProgress[Branch])
      continue;
    Conditions Route = of(Branch);
    const Block &Br = G.Blocks[Branch];
    if (Br.BranchUniformity && *Br.BranchUniformity != Uniformity::CtaUniform &&
        !Br.BranchKey.empty())
      Route.insert({Br.BranchKey, Arm});
    if (!Common) {
      Common = std::move(Route);
      continue;
    }
    Conditions Both;
    std::set_intersection(Common->begin(), Common->end(), Route.begin(),
                          Route.end(), std::inserter(Both, Both.begin()));
    Common = std::move(Both);
  }
  InProgress[B] = 0;
  Cache[B] = Common ? std::move(*Common) : Conditions();
  return Cache[B];
}

unsigned ThreadConditions::classOf(unsigned Block) {
  if (BlockClass.size() <= Block)
    BlockClass.resize(Block + 1, ~0u);
  unsigned &C = BlockClass[Block];
  if (C == ~0u) {
    const std::vector<unsigned> &Atoms = blockAtoms(Block);
    auto [It, New] = ClassIds.try_emplace(Atoms, ClassAtoms.size());
    if (New)
      ClassAtoms.push_back(&Atoms);
    C = It->second;
  }
  return C;
}

bool ThreadConditions::compatible(unsigned A, unsigned B) {
  unsigned CA = classOf(A), CB = classOf(B);
  if (CA > CB)
    std::swap(CA, CB);
  if (ClassPairs.size() <= CA)
    ClassPairs.resize(CA + 1);
  std::vector<int8_t> &Row = ClassPairs[CA];
  if (Row.size() <= CB)
    Row.resize(CB + 1, -1);
  if (Row[CB] < 0)
    Row[CB] = compatibleAtoms(*ClassAtoms[CA], *ClassAtoms[CB]);
  return Row[CB];
}

bool ThreadConditions::compatibleWith(
    unsigned A, const std::pair<std::string, unsigned> &Cond) {
  unsigned C = atomId(Cond);
  return compatibleAtoms(blockAtoms(A), C);
}

bool ThreadConditions::compatible(const Conditions &CA, const Conditions &CB) {
  std::vector<unsigned> AA, AB;
  atomsOf(CA, AA);
  atomsOf(CB, AB);
  return compatibleAtoms(AA, AB);
}

bool ThreadConditions::exclusive(unsigned A, unsigned B) {
  if (!compatible(A, B))
    return true;
  // The warps each can run in (the block shape closes the complements).
  auto WA = warpRange(A), WB = warpRange(B);
  if (WA && WB && (WA->second < WB->first || WB->second < WA->first))
    return true;
  for (const auto &X : of(A))
    for (const auto &Y : of(B)) {
      std::string LX, LY;
      std::vector<std::pair<long long, long long>> RX, RY;
      if (valueRanges(X, LX, RX) && valueRanges(Y, LY, RY) && LX == LY &&
          !rangesMeet(RX, RY))
        return true;
    }
  return false;
}

const ThreadConditions::Conditions &ThreadConditions::anyRouteOf(unsigned B) {
  if (AnyRouteDone[B])
    return AnyRouteCache[B];
  AnyRouteDone[B] = 1; // breaks cycles through loop conditions
  Conditions C;
  for (auto [Branch, Arm] : CD.controllingArms(B)) {
    const tmemcheck::Block &Br = G.Blocks[Branch];
    if (Br.BranchUniformity && *Br.BranchUniformity != Uniformity::CtaUniform &&
        !Br.BranchKey.empty())
      C.insert({Br.BranchKey, Arm});
    const Conditions &Outer = anyRouteOf(Branch);
    C.insert(Outer.begin(), Outer.end());
  }
  AnyRouteCache[B] = std::move(C);
  return AnyRouteCache[B];
}

std::optional<std::pair<int64_t, int64_t>>
ThreadConditions::warpRange(unsigned Block) {
  // Every warp test on any route into the block, taken together (an `||`
  // of two tests can only narrow the result to nothing, never to a wrong
  // single warp).
  std::optional<std::pair<int64_t, int64_t>> R;
  std::vector<unsigned> Work{Block};
  std::set<unsigned> Seen;
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    if (!Seen.insert(B).second)
      continue;
    for (auto [Branch, Arm] : CD.controllingArms(B)) {
      if (Arm < 2)
        if (const auto &W = G.Blocks[Branch].WarpsOnArm[Arm]) {
          if (!R)
            R = *W;
          else
            R = {std::max(R->first, W->first), std::min(R->second, W->second)};
        }
      Work.push_back(Branch);
    }
  }
  return R;
}

bool ThreadConditions::splitReaches(unsigned Branch, unsigned Block) {
  return compatible(anyRouteOf(Branch), anyRouteOf(Block));
}

bool ThreadConditions::subsetOf(unsigned A, unsigned B) {
  const Conditions &CA = of(A);
  const Conditions &CB = of(B);
  return std::includes(CA.begin(), CA.end(), CB.begin(), CB.end());
}

} // namespace tmemcheck
