//===- ApiModel.cpp - Library wrappers modeled by name --------------------===//
//
// Part of tmemcheck. The table follows rules §7.2 (CUTLASS / CuTe). CCCL's
// cuda::ptx wrappers are not here: they expand to inline asm under Clang and
// are analysed through their bodies.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Model/ApiModel.h"

#include "tmemcheck/Model/Footprint.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <fmt/format.h>

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
    T.push_back(makeCommit("cutlass::arch::umma_arrive_2x1SM_sm0",
                           CtaGroup::Two, true));
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

std::optional<llvm::StringRef>
cutlassNamedBarrierMnemonic(llvm::StringRef QualifiedName) {
  llvm::StringRef Member = QualifiedName;
  if (!Member.consume_front("cutlass::arch::NamedBarrier::"))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<llvm::StringRef>>(Member)
      .Case("arrive", llvm::StringRef("bar.arrive"))
      .Case("arrive_unaligned", llvm::StringRef("barrier.arrive"))
      .Cases({"arrive_and_wait", "sync"}, llvm::StringRef("bar.sync"))
      .Case("arrive_and_wait_unaligned", llvm::StringRef("barrier.sync"))
      .Default(std::nullopt);
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

namespace {

/// `{%First, …, %(First+Count-1)}`.
std::string registerVector(unsigned First, unsigned Count) {
  std::string V = "{";
  for (unsigned I = 0; I < Count; ++I)
    V += fmt::format("{}%{}", I ? ", " : "", First + I);
  return V + "}";
}

/// `SM100_TMEM_{LOAD,STORE}_<L>dp<B>b<N>x[_16b]` and
/// `SM100_TMEM_LOAD_STAT_32dp32b<N>x` (the name after `SM100_TMEM_`).
std::optional<std::string> tmemLdStPtx(llvm::StringRef Name, unsigned NumArgs) {
  bool Load = Name.consume_front("LOAD_");
  if (!Load && !Name.consume_front("STORE_"))
    return std::nullopt;
  bool Stat = Load && Name.consume_front("STAT_");
  bool Pack = Name.consume_back("_16b");
  if (!Name.consume_back("x") || (Stat && Pack))
    return std::nullopt;
  auto [Lanes, Rest] = Name.split("dp");
  auto [Bits, Repeat] = Rest.split('b');
  unsigned N = 0;
  if (Repeat.getAsInteger(10, N) || N == 0 || N > 128)
    return std::nullopt;
  std::string Shape;
  if (Lanes == "32" && Bits == "32")
    Shape = "32x32b";
  else if (Lanes == "16" && Bits == "32")
    Shape = "16x32bx2"; // CuTe's half offset is the repeat count
  else if (Lanes == "16" && (Bits == "64" || Bits == "128" || Bits == "256"))
    Shape = "16x" + Bits.str() + "b";
  else
    return std::nullopt;
  if (Stat && Shape != "32x32b")
    return std::nullopt;
  std::string Half =
      Shape == "16x32bx2" ? fmt::format(", {}", N * (Pack ? 2 : 1)) : "";
  if (Stat) {
    // copy(src_addr, dst0, …, dst(R-1), row_max)
    if (NumArgs < 3)
      return std::nullopt;
    unsigned R = NumArgs - 2;
    return fmt::format(
        "tcgen05.ld.red.sync.aligned.32x32b.x{}.max.f32 {}, %{}, [%0];", N,
        registerVector(1, R), R + 1);
  }
  if (NumArgs < 2)
    return std::nullopt;
  unsigned R = NumArgs - 1;
  if (Load) // copy(src_addr, dst0, …)
    return fmt::format("tcgen05.ld.sync.aligned.{}.x{}{}.b32 {}, [%0]{};",
                       Shape, N, Pack ? ".pack::16b" : "", registerVector(1, R),
                       Half);
  // copy(src0, …, dst_addr)
  return fmt::format("tcgen05.st.sync.aligned.{}.x{}{}.b32 [%{}]{}, {};", Shape,
                     N, Pack ? ".unpack::16b" : "", R, Half,
                     registerVector(0, R));
}

} // namespace

std::optional<std::string> cuteAtomPtx(llvm::StringRef QualifiedName,
                                       unsigned NumArgs,
                                       std::optional<int64_t> ScaleVectorSize) {
  llvm::StringRef Name = QualifiedName;
  Name.consume_front("::");
  if (!Name.consume_front("cute::"))
    return std::nullopt;
  // CUTLASS 4 declares the TMEM atoms in cute::SM100::TMEM::{LOAD, STORE,
  // LOAD_STAT, UTCCP} and brings them into cute with using-declarations:
  // the struct name is the same.
  if (Name.consume_front("SM100::TMEM::")) {
    auto [Space, Rest] = Name.split("::");
    if (!llvm::is_contained({"LOAD", "STORE", "LOAD_STAT", "UTCCP"}, Space))
      return std::nullopt;
    Name = Rest;
  }
  if (!Name.consume_front("SM100_"))
    return std::nullopt;
  if (Name.consume_back("::copy")) {
    if (Name.consume_front("TMEM_"))
      return tmemLdStPtx(Name, NumArgs);
    if (!Name.consume_front("UTCCP_"))
      return std::nullopt;
    // SM100_UTCCP_<shape>_<1|2>cta: copy(src_desc, dst_tmem).
    unsigned Group = Name.consume_back("_1cta")   ? 1
                     : Name.consume_back("_2cta") ? 2
                                                  : 0;
    static const std::pair<llvm::StringLiteral, llvm::StringLiteral> Shapes[] =
        {{"128dp256bit", "128x256b"},
         {"128dp128bit", "128x128b"},
         {"4dp256bit", "4x256b"},
         {"4x32dp128bit", "32x128b.warpx4"},
         {"2x64dp128bitlw0213", "64x128b.warpx2::02_13"},
         {"2x64dp128bitlw0123", "64x128b.warpx2::01_23"}};
    for (const auto &[Spelled, Shape] : Shapes)
      if (Group && NumArgs == 2 && Name == Spelled)
        return fmt::format("tcgen05.cp.cta_group::{}.{} [%1], %0;", Group,
                           Shape.str());
    return std::nullopt;
  }
  if (!Name.consume_back("::fma") || !Name.consume_front("MMA_"))
    return std::nullopt;
  // SM100_MMA_<kind>[_2x1SM]_<SS|TS>[_SCALED|_SPARSE|_INTERLEAVED…]:
  // fma(a, b_desc, tmem_c, scaleC, idescE[, tsfa, tsfb][, tmem_e]).
  llvm::SmallVector<llvm::StringRef, 6> Parts;
  Name.split(Parts, '_');
  if (Parts.size() < 2)
    return std::nullopt;
  static const std::pair<llvm::StringLiteral, llvm::StringLiteral> Kinds[] = {
      {"TF32", "tf32"},
      {"F16BF16", "f16"},
      {"S8", "i8"},
      {"F8F6F4", "f8f6f4"},
      {"MXF8F6F4", "mxf8f6f4.block_scale"},
      {"MXF4", "mxf4nvf4.block_scale"},
      {"MXF4NVF4", "mxf4nvf4.block_scale"}};
  std::string Kind;
  for (const auto &[Spelled, K] : Kinds)
    if (Parts[0] == Spelled)
      Kind = K.str();
  if (Kind.empty())
    return std::nullopt;
  // FP4 block scaling: the scale vector is CuTe's VS (rules S1): 16
  // elements per scale factor is mxf4nvf4's block16, 32 is block32, of
  // kind::mxf4 for the MXF4 atoms (as CuTe's asm spells them).
  if (Parts[0] == "MXF4" || Parts[0] == "MXF4NVF4") {
    if (ScaleVectorSize == 16)
      Kind = "mxf4nvf4.block_scale.block16";
    else if (ScaleVectorSize == 32)
      Kind = Parts[0] == "MXF4" ? "mxf4.block_scale.block32"
                                : "mxf4nvf4.block_scale.block32";
    else
      return std::nullopt;
  }
  size_t I = 1;
  unsigned Group = 1;
  if (Parts[I] == "2x1SM") {
    Group = 2;
    ++I;
  }
  if (I >= Parts.size() || (Parts[I] != "SS" && Parts[I] != "TS"))
    return std::nullopt;
  bool ATmem = Parts[I++] == "TS";
  bool Sparse = false, WeightStationary = false;
  for (; I < Parts.size(); ++I) {
    if (Parts[I] == "SPARSE")
      Sparse = true;
    else if (Parts[I] == "WS")
      WeightStationary = true;
    else if (Parts[I] != "SCALED" && Parts[I] != "INTERLEAVED")
      break; // INTERLEAVED_CF32CTF32CTF32CF32_TN: element order only
  }
  bool BlockScale = Kind.find("block_scale") != std::string::npos;
  unsigned Want = 5 + (BlockScale ? 2 : 0) + (Sparse ? 1 : 0);
  if (NumArgs != Want)
    return std::nullopt;
  // %NumArgs is no argument: the descriptor stays unknown (it is the upper
  // half of idescE, which the asm body shifts out).
  std::string Text =
      fmt::format("tcgen05.mma{}{}.cta_group::{}.kind::{} [%2], {}, %1, ",
                  Sparse ? ".sp" : "", WeightStationary ? ".ws" : "", Group,
                  Kind, ATmem ? "[%0]" : "%0");
  if (Sparse)
    Text += fmt::format("[%{}], ", BlockScale ? 7 : 5);
  Text += fmt::format("%{}, ", NumArgs);
  if (BlockScale)
    Text += "[%5], [%6], ";
  return Text + "%3;";
}

} // namespace tmemcheck
