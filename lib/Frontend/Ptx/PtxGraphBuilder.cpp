//===- PtxGraphBuilder.cpp - PTX function to kernel event graph -----------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "PtxGraphBuilder.h"

#include "tmemcheck/Analysis/AllocBase.h"
#include "tmemcheck/Analysis/BarrierRuns.h"
#include "tmemcheck/Analysis/CorrelatedBranches.h"
#include "tmemcheck/Analysis/OperandBinding.h"

#include "tmemcheck/Analysis/ControlDependence.h"
#include "tmemcheck/Model/SharedAccess.h"
#include "tmemcheck/Model/TmemOp.h"

#include "llvm/ADT/StringSet.h"

#include <fmt/format.h>

#include <chrono>
#include <set>
#include <tuple>

using namespace llvm;

namespace tmemcheck {

namespace {

/// A value key (RegisterValues' `(a op b)` expressions) that reads the
/// CTA's own identity: %ctaid, %cluster_ctaid or %cluster_ctarank, other
/// than as `(%ctaid.x shr k)` / `(%ctaid.x div k)` (a pair index, the same
/// in both CTAs of a cta_group::2 pair). Block::BranchReadsCtaId.
bool keyReadsCtaId(llvm::StringRef Key) {
  for (llvm::StringRef Reg : {"%ctaid", "%cluster_ctaid", "%cluster_ctarank"}) {
    size_t Pos = 0;
    while ((Pos = Key.find(Reg, Pos)) != llvm::StringRef::npos) {
      size_t End = Key.find_first_of(" ()<>=!", Pos);
      llvm::StringRef After =
          End == llvm::StringRef::npos ? "" : Key.substr(End);
      bool PairIndex = Pos > 0 && Key[Pos - 1] == '(' &&
                       (After.starts_with(" shr") || After.starts_with(" div"));
      if (!PairIndex)
        return true;
      Pos += Reg.size();
    }
  }
  return false;
}

bool isBranch(const ptx::Instruction &I) { return I.base() == "bra"; }
bool isReturn(const ptx::Instruction &I) {
  return I.base() == "ret" || I.base() == "exit";
}
bool endsBlock(const ptx::Instruction &I) {
  return isBranch(I) || isReturn(I) || I.base() == "trap" || I.base() == "brx";
}

/// Runtime functions without a body in the module that cannot touch TMEM.
bool isHarmlessExternal(StringRef Name) {
  static const StringSet<> Known = {"vprintf", "malloc", "free", "__assertfail",
                                    "__nv_static_assert"};
  return Known.contains(Name) || Name.starts_with("__cuda") ||
         Name.starts_with("cudaGetParameterBuffer") ||
         Name.starts_with("cudaLaunchDevice") || Name.starts_with("__nv_");
}

/// A 32-bit load (`ld.shared.u32`, `ld.b32`) that is not of a parameter.
bool isWordLoad(const ptx::Instruction &I) {
  if (I.base() != "ld" || I.hasPart("param") || I.Operands.size() != 2 ||
      I.Operands[0].K != ptx::Operand::Kind::Register)
    return false;
  return I.hasPart("u32") || I.hasPart("b32") || I.hasPart("s32");
}

} // namespace

PtxGraphBuilder::PtxGraphBuilder(const ptx::ParsedModule &M,
                                 const PtxSourceMap &Map,
                                 const FrontendLimits &Limits)
    : M(M), Map(Map), Limits(Limits) {
  for (unsigned I = 0; I < M.Functions.size(); ++I)
    if (M.Functions[I].HasBody || !FunctionByName.count(M.Functions[I].Name))
      FunctionByName[M.Functions[I].Name] = I;
  for (const ptx::VariableDecl &V : M.Variables)
    if (V.StateSpace == ".shared" && V.Function < 0)
      ModuleShared[V.Name] = displayName(V.Name, /*IsFunction=*/false);
}

bool PtxGraphBuilder::overBudget() { return Budget->exhausted(EventCount); }

void PtxGraphBuilder::addEvent(unsigned Block, Event E) {
  if (overBudget())
    return;
  E.Id = EventCount++;
  G->Blocks[Block].Events.push_back(std::move(E));
}

OperandValue PtxGraphBuilder::operandValue(const ptx::Operand &O,
                                           const RegisterValues &V,
                                           unsigned Instance,
                                           std::optional<unsigned> ReadAt) {
  OperandValue R;
  auto Value = [&](const ptx::Operand &L) {
    return eventValue(ReadAt ? V.operandAt(L, *ReadAt) : V.operand(L));
  };
  auto Leaf = [&](const ptx::Operand &L) {
    AbstractValue A = Value(L);
    if (L.K == ptx::Operand::Kind::Register) {
      A.VariableId = Ids.variable(Instance, L.Text);
      A.VariableName = L.writtenName().str();
    }
    return A;
  };
  switch (O.K) {
  case ptx::Operand::Kind::Vector:
    R.Value.Uniform = Uniformity::Unknown;
    for (const ptx::Operand &E : O.Elements)
      R.Elements.push_back(Leaf(E));
    break;
  case ptx::Operand::Kind::Address:
    R.Value = Value(O);
    // A displacement into a shared variable is part of the slot's
    // identity (RegisterValues::operand folds it in).
    R.AddressOffset = R.Value.isSlotAddress() ? 0 : O.AddressOffset;
    break;
  default:
    R.Value = Leaf(O);
    break;
  }
  return R;
}

std::vector<std::optional<PtxValue>>
PtxGraphBuilder::argumentValues(const ptx::Instruction &Call,
                                unsigned CallIndex, unsigned BlockBegin,
                                const RegisterValues &Values) {
  std::vector<std::optional<PtxValue>> Result;
  // call (ret), callee, (args)
  const ptx::Operand *Args = nullptr;
  for (size_t I = 0; I + 1 < Call.Operands.size(); ++I)
    if (Call.Operands[I].K == ptx::Operand::Kind::Symbol &&
        Call.Operands[I + 1].K == ptx::Operand::Kind::Vector) {
      Args = &Call.Operands[I + 1];
      break;
    }
  if (!Args)
    return Result;
  const auto &Instrs = M.Body.Instructions;
  for (const ptx::Operand &Arg : Args->Elements) {
    std::optional<PtxValue> V;
    StringRef Param = Arg.Text;
    for (unsigned J = CallIndex; J-- > BlockBegin;) {
      const ptx::Instruction &St = Instrs[J];
      if (St.base() != "st" || !St.hasPart("param") ||
          St.Operands.size() != 2 ||
          St.Operands[0].K != ptx::Operand::Kind::Address ||
          St.Operands[0].Elements.empty() ||
          St.Operands[0].Elements[0].Text != Param)
        continue;
      if (St.Operands[0].AddressOffset == 0 &&
          St.Operands[1].K != ptx::Operand::Kind::Vector)
        V = Values.operand(St.Operands[1]);
      break;
    }
    Result.push_back(std::move(V));
  }
  return Result;
}

StringMap<PtxValue> PtxGraphBuilder::bindArguments(
    const ptx::FunctionDecl &Callee, const ptx::Instruction &Call,
    unsigned CallIndex, unsigned BlockBegin, const RegisterValues &Values) {
  StringMap<PtxValue> Bindings;
  std::vector<std::optional<PtxValue>> Args =
      argumentValues(Call, CallIndex, BlockBegin, Values);
  for (size_t A = 0; A < Args.size() && A < Callee.Params.size(); ++A)
    if (Args[A])
      Bindings[Callee.Params[A]] = std::move(*Args[A]);
  return Bindings;
}

bool PtxGraphBuilder::addUserModeledCall(const ptx::FunctionDecl &Callee,
                                         const ptx::Instruction &Call,
                                         unsigned CallIndex,
                                         unsigned BlockBegin,
                                         const RegisterValues &Values,
                                         const Event &AtCall, unsigned Cur) {
  if (!Limits.UserModels || Limits.UserModels->empty())
    return false;
  const UserApiModelTable::Entry *Model =
      Limits.UserModels->find(displayName(Callee.Name, /*IsFunction=*/true));
  if (!Model)
    return false;
  std::vector<std::optional<PtxValue>> Args =
      argumentValues(Call, CallIndex, BlockBegin, Values);
  // PTX passes the object of a member function as the first parameter;
  // the model numbers the C++ arguments after it.
  size_t First = 0;
  if (std::optional<unsigned> Declared = declaredParameterCount(Callee.Name);
      Declared && Callee.Params.size() == *Declared + 1)
    First = 1;
  auto Bound = [&](unsigned Index) -> std::optional<AbstractValue> {
    if (First + Index < Args.size() && Args[First + Index])
      return Args[First + Index]->V;
    return std::nullopt;
  };
  for (const ModeledInstruction &MI : Model->Instructions) {
    Event E = AtCall;
    E.K = MI.Op ? Event::Kind::Tmem : Event::Kind::Sync;
    E.Op = MI.Op;
    E.Sync = MI.Sync;
    E.Opcode = MI.I.Opcode;
    E.Guarded = Call.Pred.has_value() || MI.I.Pred.has_value() ||
                Model->Spec.ElectsInside;
    for (const ptx::Operand &O : MI.I.Operands)
      E.Operands.push_back(bindOperand(O, Bound));
    addEvent(Cur, std::move(E));
  }
  return true;
}

std::optional<PtxGraphBuilder::Span>
PtxGraphBuilder::buildInstance(const Frame &F, StringMap<PtxValue> Bindings) {
  const ptx::FunctionDecl &Fn = M.Functions[F.Function];
  const unsigned First = Fn.FirstInstruction;
  const unsigned N = Fn.EndInstruction - Fn.FirstInstruction;
  ArrayRef<ptx::Instruction> Instrs(M.Body.Instructions.data() + First, N);
  const bool IsKernel = F.Stack.empty();

  if (Fn.Errors) {
    // A syntax error inside the body leaves its control flow or operands
    // uncertain (a missed bug rather than a false one).
    SourceLoc At = Map.ptxLoc(Fn.FirstErrorRange.Offset);
    G->markIncomplete(
        At,
        fmt::format("PTX syntax error in '{}' at line {}: {}{}; kernel "
                    "'{}' was not analysed",
                    displayName(Fn.Name, true), At.Line, Fn.FirstErrorMessage,
                    Fn.Errors > 1 ? fmt::format(" (and {} more)", Fn.Errors - 1)
                                  : std::string(),
                    G->Name));
    return std::nullopt;
  }

  // The target of each `bra`, as a local instruction index: the parser
  // resolved the label through the `{ }` scopes (every inlined asm block
  // has its own `LAB_WAIT:`); a label of another function is no target.
  auto TargetOf = [&](const ptx::Instruction &I) -> std::optional<unsigned> {
    if (I.TargetLabel < int(Fn.FirstLabel) || I.TargetLabel >= int(Fn.EndLabel))
      return std::nullopt;
    return M.Body.Labels[I.TargetLabel].InstructionIndex - First;
  };

  // Basic blocks of the function: leaders are the first instruction, label
  // targets and what follows a branch or return.
  std::vector<uint8_t> Leader(N + 1, 0);
  Leader[0] = 1;
  for (unsigned L = Fn.FirstLabel; L < Fn.EndLabel; ++L)
    if (unsigned At = M.Body.Labels[L].InstructionIndex - First; At <= N)
      Leader[At] = 1;
  for (unsigned I = 0; I < N; ++I)
    if (endsBlock(Instrs[I]))
      Leader[I + 1] = 1;
  std::vector<unsigned> Starts;
  for (unsigned I = 0; I < N; ++I)
    if (Leader[I])
      Starts.push_back(I);
  if (Starts.empty())
    Starts.push_back(0);
  const unsigned K = Starts.size();
  InstanceCode Code;
  Code.Instructions = Instrs;
  // The kernel's header fixes or bounds the block shape for every function
  // inlined into it: %tid.{x,y,z} and %ntid follow from `.reqntid`.
  const ptx::FunctionDecl &KernelFn = M.Functions[F.Active.front()];
  Code.Shape.Required = KernelFn.ReqNtid;
  Code.Shape.Maximum = KernelFn.MaxNtid;
  Code.BlockOf.assign(N, 0);
  Code.BranchOf.assign(K, -1);
  for (unsigned B = 0; B < K; ++B) {
    unsigned End = B + 1 < K ? Starts[B + 1] : N;
    for (unsigned I = Starts[B]; I < End; ++I)
      Code.BlockOf[I] = B;
  }
  auto LastOf = [&](unsigned B) -> int {
    unsigned End = B + 1 < K ? Starts[B + 1] : N;
    return End > Starts[B] ? int(End) - 1 : -1;
  };
  auto BlockAt = [&](unsigned Instr) -> unsigned {
    return Instr < N ? Code.BlockOf[Instr] : K; // K: the function's exit
  };

  // Successors per block, "condition true" first for conditional ones.
  struct Edges {
    SmallVector<unsigned, 2> Succs; ///< local block ids, K = exit.
    bool Conditional = false;
    bool ReturnArm = false; ///< a predicated ret/exit: arm 0 returns.
  };
  std::vector<Edges> Out(K);
  // Loops in instruction order, for BranchIsLoop: back edges (header,
  // branch) by local instruction index.
  std::vector<std::pair<unsigned, unsigned>> BackEdges;
  for (unsigned B = 0; B < K; ++B) {
    int Last = LastOf(B);
    unsigned Next = B + 1 < K ? B + 1 : K;
    if (Last < 0) {
      Out[B].Succs.push_back(Next);
      continue;
    }
    const ptx::Instruction &I = Instrs[Last];
    if (isBranch(I)) {
      std::optional<unsigned> Tgt = TargetOf(I);
      if (!Tgt) {
        G->markIncomplete(
            Map.instruction(Fn, First + Last).Loc,
            fmt::format("cannot follow '{}' in '{}' (its target is not a "
                        "label of the function); kernel '{}' was not "
                        "analysed",
                        I.Opcode, displayName(Fn.Name, true), G->Name));
        return std::nullopt;
      }
      unsigned Target = BlockAt(*Tgt);
      if (*Tgt <= unsigned(Last))
        BackEdges.push_back({*Tgt, unsigned(Last)});
      if (I.Pred) {
        Out[B].Conditional = true;
        Code.BranchOf[B] = Last;
        if (I.Pred->Negated)
          Out[B].Succs = {Next, Target};
        else
          Out[B].Succs = {Target, Next};
      } else {
        Out[B].Succs = {Target};
      }
    } else if (isReturn(I)) {
      if (I.Pred) {
        Out[B].Conditional = Out[B].ReturnArm = true;
        Code.BranchOf[B] = Last;
        Out[B].Succs = I.Pred->Negated ? SmallVector<unsigned, 2>{Next, K}
                                       : SmallVector<unsigned, 2>{K, Next};
      } else {
        Out[B].Succs = {K};
      }
    } else if (I.base() == "trap" || I.base() == "brx") {
      if (I.base() == "brx") {
        G->markIncomplete(
            Map.instruction(Fn, First + Last).Loc,
            fmt::format("indirect branch '{}' is not followed; kernel '{}' "
                        "was not analysed",
                        I.Opcode, G->Name));
        return std::nullopt;
      }
      // The kernel aborts: no successor (nothing leaks on that path).
    } else {
      Out[B].Succs.push_back(Next);
    }
  }

  Code.Succs.resize(K);
  for (unsigned B = 0; B < K; ++B)
    Code.Succs[B] = Out[B].Succs;
  // Control dependence inside the function, for registers whose value
  // depends on which branch arm ran.
  KernelGraph Local;
  for (unsigned B = 0; B <= K; ++B)
    Local.addBlock();
  for (unsigned B = 0; B < K; ++B)
    for (unsigned S : Out[B].Succs)
      Local.addEdge(B, S);
  Local.Entry = 0;
  Local.Exit = K;
  ControlDependence LocalCD(Local);
  Code.Controllers = [&](unsigned B) {
    std::vector<unsigned> C;
    for (unsigned X : LocalCD.controllers(B))
      if (X < K)
        C.push_back(X);
    return C;
  };
  Code.ControllingArms = [&](unsigned B) {
    std::vector<std::pair<unsigned, unsigned>> Arms;
    LocalCD.forEachControllingArm(B, [&](unsigned C, unsigned Arm) {
      if (C < K)
        Arms.push_back({C, Arm});
      return true;
    });
    return Arms;
  };

  StringMap<std::string> Shared = ModuleShared;
  for (const ptx::VariableDecl &V : M.Variables)
    if (V.StateSpace == ".shared" && V.Function == int(F.Function))
      Shared[V.Name] = displayName(V.Name, /*IsFunction=*/false);
  RegisterValues Values(Code, Shared, IsKernel ? &Fn.Params : nullptr,
                        std::move(Bindings), Ids);
  if (Values.gaveUp())
    G->markIncomplete(
        Map.functionLoc(Fn),
        fmt::format("register values of '{}' did not settle; they are "
                    "treated as unknown",
                    displayName(Fn.Name, true)));

  // The destinations of one tcgen05.ld are one variable, as the array a
  // CUDA source loads into: a read of any of them reads the load's result,
  // and nvcc's one instruction per register of `sum += v[i]` (unrolled) is
  // one read per source position, as on the Clang side.
  StringMap<SmallVector<unsigned, 1>> LoadsWriting; // register -> ld indices
  std::map<unsigned, std::string> LoadName;         // ld index -> its name
  auto LoadVariable = [&](unsigned Ld) {
    return Ids.variable(F.Id, ("tcgen05.ld@" + Twine(Ld)).str());
  };
  for (unsigned Idx = 0; Idx < N; ++Idx) {
    const ptx::Instruction &I = Instrs[Idx];
    if (I.base() != "tcgen05" || I.Parts.size() < 2 || I.Parts[1] != "ld")
      continue;
    std::vector<const ptx::Operand *> Dests = RegisterValues::destinations(I);
    if (Dests.empty())
      continue;
    LoadName[Idx] = Dests.size() == 1
                        ? Dests[0]->Text
                        : fmt::format("{{{}, ..., {}}}", Dests.front()->Text,
                                      Dests.back()->Text);
    for (const ptx::Operand *D : Dests)
      if (!llvm::is_contained(LoadsWriting[D->Text], Idx))
        LoadsWriting[D->Text].push_back(Idx);
  }
  // A register copy (`mov.b32 %f1, %r5` is nvcc's __uint_as_float) is not
  // a use: its destination holds the same load's result, and the use is
  // where that is read (nvcc may hoist the copy above the wait::ld that
  // the source writes before the use).
  auto IsCopy = [](const ptx::Instruction &I) {
    return I.base() == "mov" && !I.Pred && I.Operands.size() == 2 &&
           I.Operands[0].K == ptx::Operand::Kind::Register &&
           I.Operands[1].K == ptx::Operand::Kind::Register;
  };
  for (bool Changed = !LoadsWriting.empty(); Changed;) {
    Changed = false;
    for (const ptx::Instruction &I : Instrs) {
      if (!IsCopy(I))
        continue;
      auto From = LoadsWriting.find(I.Operands[1].Text);
      if (From == LoadsWriting.end())
        continue;
      SmallVector<unsigned, 1> Lds = From->second;
      SmallVector<unsigned, 1> &To = LoadsWriting[I.Operands[0].Text];
      for (unsigned Ld : Lds)
        if (!llvm::is_contained(To, Ld)) {
          To.push_back(Ld);
          Changed = true;
        }
    }
  }

  std::vector<unsigned> FirstG(K), LastG(K);
  for (unsigned B = 0; B < K; ++B)
    FirstG[B] = G->addBlock();
  const unsigned ExitG = IsKernel ? G->Exit : G->addBlock();

  auto MakeEvent = [&](Event::Kind Kind, unsigned Index) {
    Event E;
    E.K = Kind;
    PtxPosition Pos = Map.instruction(Fn, First + Index);
    E.Loc = Pos.Loc;
    E.Stack = Pos.InlinedFrom ? F.Stack.pushed(*Pos.InlinedFrom) : F.Stack;
    E.Opcode = Instrs[Index].Opcode;
    E.Guarded = Instrs[Index].Pred.has_value();
    return E;
  };

  for (unsigned B = 0; B < K; ++B) {
    unsigned Cur = FirstG[B];
    unsigned End = B + 1 < K ? Starts[B + 1] : N;
    // Loads already read at a source position since the last tcgen05
    // instruction of the block.
    std::set<std::tuple<unsigned, std::string, unsigned, unsigned>> ReadAt;
    for (unsigned Idx = Starts[B]; Idx < End && N; ++Idx) {
      if (overBudget())
        break;
      const ptx::Instruction &I = Instrs[Idx];
      StringRef Base = I.base();
      // Reads of registers a tcgen05.ld wrote (tmem-ld-use-before-wait).
      if (!LoadsWriting.empty() && !IsCopy(I)) {
        for (const ptx::Operand *S : RegisterValues::sources(I)) {
          auto It = LoadsWriting.find(S->Text);
          if (It == LoadsWriting.end())
            continue;
          for (unsigned Ld : It->second) {
            Event E = MakeEvent(Event::Kind::VariableRead, Idx);
            SourceLoc At = E.userLoc();
            if (!ReadAt.insert({Ld, At.File, At.Line, At.Column}).second)
              continue;
            E.Opcode.clear();
            E.Guarded = false;
            E.VariableId = LoadVariable(Ld);
            E.VariableName = LoadName[Ld];
            addEvent(Cur, std::move(E));
          }
        }
      }
      if (Base == "tcgen05") {
        std::vector<ptx::ParseDiagnostic> Diags;
        std::optional<TmemOp> Op = decodeTmemOp(I, Diags);
        if (!Op) {
          for (const ptx::ParseDiagnostic &D : Diags)
            G->markIncomplete(Map.instruction(Fn, First + Idx).Loc,
                              "cannot decode '" + I.Opcode + "': " + D.Message);
          continue;
        }
        Event E = MakeEvent(Event::Kind::Tmem, Idx);
        E.Op = std::move(Op);
        for (const ptx::Operand &O : I.Operands)
          E.Operands.push_back(operandValue(O, Values, F.Id, Idx));
        if (auto Name = LoadName.find(Idx);
            Name != LoadName.end() && E.Op->DataOperand >= 0 &&
            size_t(E.Op->DataOperand) < E.Operands.size())
          for (AbstractValue &El : E.Operands[E.Op->DataOperand].Elements) {
            El.VariableId = LoadVariable(Idx);
            El.VariableName = Name->second;
          }
        ReadAt.clear();
        addEvent(Cur, std::move(E));
        continue;
      }
      if (std::optional<SyncOp> Sync = decodeSyncOp(I)) {
        Event E = MakeEvent(Event::Kind::Sync, Idx);
        E.Sync = Sync;
        // Read where the instruction is: a barrier address computed from
        // a register the loop rewrites later (`shl %r31, %r112, 3` before
        // `xor.b32 %r112, %r112, 1`, the phase) is the value that reaches.
        for (const ptx::Operand &O : I.Operands)
          E.Operands.push_back(operandValue(O, Values, F.Id, Idx));
        addEvent(Cur, std::move(E));
        continue;
      }
      // A TMEM address in a shared-memory or generic address operand
      // (rules M3); the slot reads below are the correct use of the slot.
      if (std::optional<SharedAccessOp> Shared = decodeSharedAccess(I)) {
        bool HoldsTmem = false;
        for (int K : Shared->AddressOperands)
          HoldsTmem |= Values.operand(I.Operands[K]).V.isTmemAddress();
        if (HoldsTmem) {
          Event E = MakeEvent(Event::Kind::SharedAccess, Idx);
          E.Shared = std::move(Shared);
          for (const ptx::Operand &O : I.Operands)
            E.Operands.push_back(operandValue(O, Values, F.Id));
          addEvent(Cur, std::move(E));
        }
      }
      if (isWordLoad(I)) {
        PtxValue A = Values.operand(I.Operands[1]);
        if (A.V.isSlotAddress()) {
          Event E = MakeEvent(Event::Kind::SlotRead, Idx);
          E.Opcode.clear();
          E.Slot = A.V.Slot;
          E.VariableName = A.V.SlotName;
          addEvent(Cur, std::move(E));
        }
        continue;
      }
      if (isReturn(I)) {
        // Leaving the kernel (ret of the kernel itself, or exit anywhere).
        if (!I.Pred && (IsKernel || Base == "exit"))
          addEvent(Cur, MakeEvent(Event::Kind::Return, Idx));
        continue;
      }
      if (Base != "call")
        continue;
      // call (ret), callee, (args): inline the callee's body.
      const ptx::Operand *Callee = nullptr;
      for (const ptx::Operand &O : I.Operands)
        if (O.K == ptx::Operand::Kind::Symbol ||
            O.K == ptx::Operand::Kind::Register) {
          Callee = &O;
          break;
        }
      auto FnIt = Callee && Callee->K == ptx::Operand::Kind::Symbol
                      ? FunctionByName.find(Callee->Text)
                      : FunctionByName.end();
      if (FnIt != FunctionByName.end() && !M.Functions[FnIt->second].HasBody &&
          isHarmlessExternal(Callee->Text))
        continue;
      bool Recursive = FnIt != FunctionByName.end() &&
                       llvm::is_contained(F.Active, FnIt->second);
      bool TooDeep = F.Stack.size() >= Limits.callDepth();
      if (FnIt != FunctionByName.end() && !M.Functions[FnIt->second].HasBody &&
          addUserModeledCall(M.Functions[FnIt->second], I, First + Idx,
                             First + Starts[B], Values,
                             MakeEvent(Event::Kind::OpaqueCall, Idx), Cur))
        continue;
      if (FnIt == FunctionByName.end() || !M.Functions[FnIt->second].HasBody ||
          Recursive || TooDeep) {
        Event E = MakeEvent(Event::Kind::OpaqueCall, Idx);
        E.Guarded = false;
        if (FnIt != FunctionByName.end() &&
            !M.Functions[FnIt->second].HasBody) {
          std::string Name = displayName(Callee->Text, /*IsFunction=*/true);
          if (llvm::none_of(CallsWithoutBody, [&](const CallWithoutBody &C) {
                return C.Callee == Name;
              }))
            CallsWithoutBody.push_back({Name, E.userLoc()});
        }
        addEvent(Cur, std::move(E));
        if (TooDeep && !Recursive && FnIt != FunctionByName.end() &&
            M.Functions[FnIt->second].HasBody && !DepthReported) {
          DepthReported = true;
          G->markIncomplete(
              Map.instruction(Fn, First + Idx).Loc,
              fmt::format("call depth bound of {} reached in kernel '{}'; "
                          "deeper callees were not analysed ({})",
                          Limits.callDepth(), G->Name,
                          Limits.callDepthAdvice()));
        }
        continue;
      }
      const ptx::FunctionDecl &CalleeFn = M.Functions[FnIt->second];
      Frame Inner;
      Inner.Function = FnIt->second;
      Inner.Id = NextInstance++;
      Inner.Stack =
          F.Stack.pushed({displayName(CalleeFn.Name, true),
                          MakeEvent(Event::Kind::OpaqueCall, Idx).userLoc()});
      Inner.Active = F.Active;
      Inner.Active.push_back(FnIt->second);
      std::optional<Span> S =
          buildInstance(Inner, bindArguments(CalleeFn, I, First + Idx,
                                             First + Starts[B], Values));
      if (!S)
        return std::nullopt;
      G->addEdge(Cur, S->Entry);
      Cur = G->addBlock();
      G->addEdge(S->Exit, Cur);
    }
    LastG[B] = Cur;
  }

  // Edges, and the branch conditions.
  for (unsigned B = 0; B < K; ++B) {
    const Edges &E = Out[B];
    Block &Blk = G->Blocks[LastG[B]];
    if (E.Conditional) {
      unsigned Last = unsigned(LastOf(B));
      const ptx::Instruction &I = Instrs[Last];
      PtxValue P = Values.operand(I.Pred->Predicate);
      Blk.BranchUniformity = P.V.Uniform;
      Blk.BranchKey = P.Key;
      Blk.BranchKeyIsValue = true;
      Blk.BranchReadsCtaId =
          P.V.Uniform == Uniformity::CtaUniform && keyReadsCtaId(P.Key);
      if (P.TrueFor)
        BranchThreads[LastG[B]] = P.TrueFor;
      Blk.BranchLoc = Map.instruction(Fn, First + Last).Loc;
      // Arm 0 is where the predicate is true (a negated branch's
      // successors were put in that order above), as WarpsWhen is.
      for (int Arm = 0; Arm < 2; ++Arm)
        Blk.WarpsOnArm[Arm] = P.WarpsWhen[Arm];
      // A loop's own branch, a break out of a loop, or the guard that
      // skips a rotated loop: lanes leaving it at different iterations
      // reconverge after the loop.
      bool InsideLoop = false;
      for (auto [Header, Back] : BackEdges) {
        unsigned Target = isBranch(I) ? TargetOf(I).value_or(0) : N;
        InsideLoop |= Header <= Last && Last <= Back;
        if ((Header <= Last && Last <= Back &&
             (Target <= Header || Target > Back)) ||
            (Target > Last && Last < Header && Back < Target))
          Blk.BranchIsLoop = true;
      }
      // The threads on each arm, for the analyses that follow the threads
      // into each block (BlockThreads): a role's branch on %tid.x, taken
      // once. A branch over a role's whole body counts as the guard of the
      // loops in it (BranchIsLoop, for reconvergence), but it is decided
      // once per thread all the same; a branch inside a loop is not used.
      if (P.TrueFor && !InsideLoop && !E.ReturnArm && E.Succs.size() == 2 &&
          E.Succs[0] != K && E.Succs[1] != K && E.Succs[0] != E.Succs[1]) {
        auto Mask = std::make_shared<std::vector<uint8_t>>(MaxThreads, 0);
        for (unsigned T = 0; T < MaxThreads; ++T)
          (*Mask)[T] = P.TrueFor->test(T);
        Blk.ThreadsOnTrueArm = std::move(Mask);
        Blk.TrueArmBlock = FirstG[E.Succs[0]];
        Blk.FalseArmBlock = FirstG[E.Succs[1]];
      }
    }
    for (unsigned S : E.Succs) {
      unsigned To = S == K ? ExitG : FirstG[S];
      if (E.ReturnArm && S == K) {
        // `@p ret`: the returning arm gets a block of its own.
        unsigned Last = unsigned(LastOf(B));
        unsigned Stub = G->addBlock();
        if (IsKernel || Instrs[Last].base() == "exit") {
          Event R = MakeEvent(Event::Kind::Return, Last);
          R.Guarded = false;
          addEvent(Stub, std::move(R));
        }
        G->addEdge(LastG[B], Stub);
        G->addEdge(Stub, Instrs[Last].base() == "exit" ? G->Exit : ExitG);
        continue;
      }
      if (S == K && LastOf(B) >= 0 && Instrs[LastOf(B)].base() == "exit")
        To = G->Exit;
      G->addEdge(LastG[B], To);
    }
  }
  return Span{FirstG[0], ExitG};
}

void PtxGraphBuilder::refineLaneSplits(KernelGraph &Graph) {
  using Threads = std::bitset<1024>;
  bool Any = false;
  for (const auto &[B, T] : BranchThreads)
    Any |= Graph.Blocks[B].BranchUniformity == Uniformity::ThreadVariant;
  if (!Any)
    return;
  // The threads (by %tid.x) that can reach each block.
  std::vector<Threads> Reach(Graph.Blocks.size());
  Reach[Graph.Entry].set();
  std::vector<unsigned> Order = Graph.reversePostOrder();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned B : Order) {
      const Block &Blk = Graph.Blocks[B];
      auto It = BranchThreads.find(B);
      for (unsigned Arm = 0; Arm < Blk.Succs.size(); ++Arm) {
        Threads Flow = Reach[B];
        if (It != BranchThreads.end() && Blk.Succs.size() == 2)
          Flow &= Arm == 0 ? *It->second : ~*It->second;
        Threads &To = Reach[Blk.Succs[Arm]];
        if ((To | Flow) != To) {
          To |= Flow;
          Changed = true;
        }
      }
    }
  }
  ControlDependence CD(Graph);
  std::set<unsigned> Keep, Candidates;
  for (unsigned B = 0; B < Graph.Blocks.size(); ++B) {
    bool Collective = false;
    for (const Event &E : Graph.Blocks[B].Events)
      Collective |= E.Op && E.Op->isWarpCollective();
    if (!Collective)
      continue;
    for (unsigned C : CD.allControllers(B)) {
      auto It = BranchThreads.find(C);
      if (It == BranchThreads.end() ||
          Graph.Blocks[C].BranchUniformity != Uniformity::ThreadVariant)
        continue;
      // Does the condition split a warp that only partly reaches B? When
      // every lane of a split warp reaches B anyway (nvcc sends thread 0
      // straight to the alloc that the rest of warp 0 reaches through the
      // warp test), the lanes meet again at B.
      bool Splits = false;
      for (unsigned W = 0; W < 32 && !Splits; ++W) {
        Threads Lanes;
        for (unsigned L = 0; L < 32; ++L)
          Lanes.set(W * 32 + L);
        Threads In = *It->second & Lanes, There = Reach[B] & Lanes;
        Splits = In.any() && In != Lanes && There.any() && There != Lanes;
      }
      if (Splits)
        Keep.insert(C);
      else
        Candidates.insert(C);
    }
  }
  for (unsigned C : Candidates)
    if (!Keep.count(C))
      Graph.Blocks[C].BranchUniformity = Uniformity::Unknown;
}

KernelGraph PtxGraphBuilder::build(unsigned Function) {
  auto Start = std::chrono::steady_clock::now();
  const ptx::FunctionDecl &Fn = M.Functions[Function];
  KernelGraph Graph;
  G = &Graph;
  EventCount = 0;
  DepthReported = false;
  // Identities and instance numbers are the kernel's own (PtxIdentities).
  Ids = PtxIdentities();
  NextInstance = 0;
  Budget.emplace(Graph, Limits.MaxKernelSeconds, Limits.MaxBlocksPerKernel,
                 Limits.MaxEventsPerKernel);
  Graph.Name = displayName(Fn.Name, /*IsFunction=*/true);
  Graph.Symbol = Fn.Name;
  Graph.Loc = Map.functionLoc(Fn);
  Graph.EndLoc = Map.ptxLoc(Fn.CloseBrace.Offset);
  // `.reqntid` fixes the block size, `.maxntid` bounds it (nvcc writes
  // `__launch_bounds__(256)` as `.maxntid 256`): the threads past it never
  // run (BlockThreads).
  if (const auto &Dims = Fn.ReqNtid ? Fn.ReqNtid : Fn.MaxNtid) {
    uint64_t Threads = 1;
    for (unsigned D : *Dims)
      Threads *= std::max(1u, D);
    if (Threads <= 1024)
      Graph.MaxThreadsPerBlock = static_cast<unsigned>(Threads);
  }
  if (Fn.MinCtasPerSm) {
    Graph.CoResidentCtas = Fn.MinCtasPerSm;
    Graph.CoResidentCtasLoc = Map.ptxLoc(Fn.MinCtasPerSmRange.Offset);
    Graph.CoResidentCtasOrigin = ".minnctapersm";
  }
  Graph.Exit = Graph.addBlock();
  Frame Root;
  Root.Function = Function;
  Root.Id = NextInstance++;
  Root.Active = {Function};
  std::optional<Span> S = buildInstance(Root, {});
  if (!S) {
    // The graph is unusable: keep the remark, drop everything else.
    std::vector<AnalysisRemark> Remarks = std::move(Graph.Remarks);
    Graph = KernelGraph();
    Graph.Name = displayName(Fn.Name, true);
    Graph.Loc = Map.functionLoc(Fn);
    Graph.Remarks = std::move(Remarks);
    Graph.Entry = Graph.Exit = Graph.addBlock();
  } else {
    Graph.Entry = S->Entry;
    threadCorrelatedBranches(Graph);
    refineLaneSplits(Graph);
    resolveConstantAddressesFromAllocBase(Graph);
    separateBarrierRuns(Graph, {[&](uint64_t Array, int64_t Start) {
                          return Ids.run(Array, Start);
                        }});
    Graph.noteCallsWithoutBody(CallsWithoutBody);
  }
  BranchThreads.clear();
  CallsWithoutBody.clear();
  Graph.removePassThroughBlocks();
  Graph.numberEventsInProgramOrder();
  G = nullptr;
  Graph.BuildSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Graph;
}

} // namespace tmemcheck
