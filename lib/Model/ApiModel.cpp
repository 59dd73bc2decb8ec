//===- ApiModel.cpp - Library wrappers modeled by name --------------------===//
//
// Part of tmemcheck. The table follows rules §7.2 (CUTLASS / CuTe). CCCL's
// cuda::ptx wrappers are not here: they expand to inline asm under Clang and
// are analysed through their bodies.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/ApiModel.h"

#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/StringRef.h"

namespace tmemcheck {

namespace {

ApiModel makeAlloc(std::string Name, CtaGroup G) {
  ApiModel M;
  M.Name = std::move(Name);
  M.Op.Kind = TmemOpKind::Alloc;
  M.Op.Group = G;
  M.Op.SlotOperand = 0;
  M.Op.NColsOperand = 1;
  M.OperandArgs = {/*slot*/ 1, /*ncols*/ 0};
  return M;
}

ApiModel makeDealloc(std::string Name, CtaGroup G) {
  ApiModel M;
  M.Name = std::move(Name);
  M.Op.Kind = TmemOpKind::Dealloc;
  M.Op.Group = G;
  M.Op.TmemAddrOperand = 0;
  M.Op.NColsOperand = 1;
  M.OperandArgs = {/*taddr*/ 0, /*ncols*/ 1};
  return M;
}

ApiModel makeSimple(std::string Name, TmemOpKind K, CtaGroup G) {
  ApiModel M;
  M.Name = std::move(Name);
  M.Op.Kind = K;
  M.Op.Group = G;
  M.Op.Issue = K == TmemOpKind::Commit ? IssueGranularity::SingleThread
                                       : IssueGranularity::WarpCollective;
  M.Op.Completion = K == TmemOpKind::Commit ? CompletionClass::Commit
                                            : CompletionClass::Synchronous;
  return M;
}

ApiModel makeCommit(std::string Name, CtaGroup G, bool Elects) {
  ApiModel M = makeSimple(Name, TmemOpKind::Commit, G);
  M.Op.MbarOperand = 0;
  M.OperandArgs = {/*mbar*/ 0};
  M.ElectsInside = Elects;
  return M;
}

const std::vector<ApiModel> &table() {
  static const std::vector<ApiModel> Models = [] {
    std::vector<ApiModel> T;
    for (auto [Class, G] :
         {std::pair{"cute::TMEM::Allocator1Sm", CtaGroup::One},
          std::pair{"cute::TMEM::Allocator2Sm", CtaGroup::Two}}) {
      std::string C = Class;
      T.push_back(makeAlloc(C + "::allocate", G));
      T.push_back(makeDealloc(C + "::free", G));
      T.push_back(makeSimple(C + "::release_allocation_lock",
                             TmemOpKind::RelinquishAllocPermit, G));
    }
    T.push_back(makeCommit("cutlass::arch::umma_arrive", CtaGroup::One, true));
    T.push_back(
        makeCommit("cutlass::arch::umma_arrive_2x1SM", CtaGroup::Two, true));
    T.push_back(makeCommit("cutlass::arch::umma_arrive_multicast",
                           CtaGroup::One, true));
    T.push_back(makeCommit("cutlass::arch::umma_arrive_multicast_2x1SM",
                           CtaGroup::Two, true));
    T.push_back(makeCommit("cutlass::arch::umma_arrive_multicast_no_elect",
                           CtaGroup::One, false));
    T.push_back(
        makeCommit("cutlass::arch::umma_arrive_multicast_2x1SM_no_elect",
                   CtaGroup::Two, false));
    T.push_back(makeSimple("cutlass::arch::fence_view_async_tmem_load",
                           TmemOpKind::WaitLoad, CtaGroup::Unspecified));
    T.push_back(makeSimple("cutlass::arch::fence_view_async_tmem_store",
                           TmemOpKind::WaitStore, CtaGroup::Unspecified));
    for (ApiModel &M : T)
      if (M.Op.Kind == TmemOpKind::WaitLoad ||
          M.Op.Kind == TmemOpKind::WaitStore)
        M.Op.Completion = CompletionClass::Synchronous;
    return T;
  }();
  return Models;
}

} // namespace

const ApiModel *findApiModel(llvm::StringRef QualifiedName) {
  for (const ApiModel &M : table())
    if (M.Name == QualifiedName)
      return &M;
  return nullptr;
}

const ApiModel *findApiModelByMember(llvm::StringRef TypeName,
                                     llvm::StringRef Member) {
  // Only the TMEM allocators are called through dependent object types in
  // practice (`using Allocator = conditional_t<..., Allocator1Sm,
  // Allocator2Sm>`); their cta_group is then unknown.
  if (!TypeName.contains("Allocator"))
    return nullptr;
  static const std::vector<ApiModel> Dependent = [] {
    std::vector<ApiModel> T;
    T.push_back(makeAlloc("allocate", CtaGroup::Unspecified));
    T.push_back(makeDealloc("free", CtaGroup::Unspecified));
    T.push_back(makeSimple("release_allocation_lock",
                           TmemOpKind::RelinquishAllocPermit,
                           CtaGroup::Unspecified));
    return T;
  }();
  for (const ApiModel &M : Dependent)
    if (M.Name == Member)
      return &M;
  return nullptr;
}

std::optional<TmemOp> tileLangLoadOp(llvm::StringRef QualifiedName,
                                     int64_t Repeat, bool Pack16) {
  llvm::StringRef Rest = QualifiedName;
  if (!Rest.consume_front("tl::tcgen05_ld_") || !Rest.consume_back("bNx"))
    return std::nullopt;
  auto [Lanes, Bits] = Rest.split("dp");
  std::optional<LdStShape> Shape;
  if (Lanes == "32" && Bits == "32")
    Shape = LdStShape::S32x32b;
  else if ((Lanes == "16" || Lanes == "32") && Bits == "64")
    Shape = LdStShape::S16x64b;
  else if ((Lanes == "16" || Lanes == "32") && Bits == "128")
    Shape = LdStShape::S16x128b;
  else if ((Lanes == "16" || Lanes == "32") && Bits == "256")
    Shape = LdStShape::S16x256b;
  if (!Shape || Repeat <= 0 || Repeat > 4096)
    return std::nullopt;
  TmemOp Op;
  Op.Kind = TmemOpKind::Load;
  Op.Issue = IssueGranularity::WarpCollective;
  Op.Completion = CompletionClass::WaitLoad;
  Op.LdSt = *Shape;
  Op.Repeat = static_cast<unsigned>(Repeat);
  Op.Packed16 = Pack16;
  // The 32-lane forms of the 16-lane shapes are two issues, at lanes L and
  // L + 16, into consecutive registers.
  bool TwoHalves = Lanes == "32" && *Shape != LdStShape::S32x32b;
  Op.RegisterCount = ldStRegisterCount(*Shape, Op.Repeat) * (TwoHalves ? 2 : 1);
  Op.Access = ldStFootprint(*Shape, Op.Repeat, Pack16, std::nullopt);
  Op.Access.Lanes = Lanes == "32" ? 32 : 16;
  Op.TmemAddrOperand = 0;
  return Op;
}

} // namespace tmemcheck
