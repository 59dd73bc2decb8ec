//===- PtxGraphBuilder.h - PTX function to kernel event graph ---*- C++ -*-===//
//
// Part of tmemcheck. Private to lib/Frontend/Ptx. Builds the KernelGraph of
// one `.entry` of a parsed module: basic blocks from labels and `bra`,
// `ret`/`exit` as returns, `.func` callees inlined up to the call-depth
// bound (else an OpaqueCall), tcgen05 and synchronisation instructions as
// events whose operands carry the register values of RegisterValues.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LIB_FRONTEND_PTX_PTXGRAPHBUILDER_H
#define TMEMCHECK_LIB_FRONTEND_PTX_PTXGRAPHBUILDER_H

#include "PtxSourceMap.h"
#include "RegisterValues.h"

#include "tmemcheck/Analysis/GraphBuildBudget.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Frontend/ClangFrontend.h"
#include "tmemcheck/Ptx/Module.h"

#include "llvm/ADT/StringMap.h"

#include <bitset>
#include <map>
#include <memory>

#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {

/// Builds kernel graphs from the functions of one parsed module.
class PtxGraphBuilder {
public:
  PtxGraphBuilder(const ptx::ParsedModule &M, const PtxSourceMap &Map,
                  const FrontendLimits &Limits);

  /// The graph of the `.entry` at index \p Function of the module.
  KernelGraph build(unsigned Function);

private:
  /// Entry and exit block of one inlined function instance.
  struct Span {
    unsigned Entry;
    unsigned Exit;
  };
  /// A function being inlined: which one, and the calls that led to it.
  struct Frame {
    unsigned Function;
    unsigned Id;
    CallStack Stack;
    std::vector<unsigned> Active; ///< functions on the call chain.
  };

  std::optional<Span> buildInstance(const Frame &F,
                                    llvm::StringMap<PtxValue> Bindings);
  /// Values of the callee's parameters from the `st.param` before a call.
  llvm::StringMap<PtxValue> bindArguments(const ptx::FunctionDecl &Callee,
                                          const ptx::Instruction &Call,
                                          unsigned CallIndex,
                                          unsigned BlockBegin,
                                          const RegisterValues &Values);
  /// Values of the arguments of a call, by position, from the `st.param`
  /// before it (nullopt: not found).
  std::vector<std::optional<PtxValue>>
  argumentValues(const ptx::Instruction &Call, unsigned CallIndex,
                 unsigned BlockBegin, const RegisterValues &Values);
  /// The value of operand \p O of an event; as instruction \p ReadAt
  /// reads it when given (RegisterValues::operandAt).
  OperandValue operandValue(const ptx::Operand &O, const RegisterValues &V,
                            unsigned Instance,
                            std::optional<unsigned> ReadAt = std::nullopt);
  /// A call of a function declared without a body that the config models
  /// (`ApiModels:`): the model's instructions as events at the call, `%N`
  /// bound to argument N of the C++ declaration (after the object of a
  /// member function, which PTX passes first). False when \p Callee has no
  /// model.
  bool addUserModeledCall(const ptx::FunctionDecl &Callee,
                          const ptx::Instruction &Call, unsigned CallIndex,
                          unsigned BlockBegin, const RegisterValues &Values,
                          const Event &AtCall, unsigned Cur);
  void addEvent(unsigned Block, Event E);
  bool overBudget();
  /// nvcc threads jumps: `if (tid == 0) A; if (warp == 2) B;` becomes a
  /// branch from the tid test straight past the warp test, so B is control
  /// dependent on a lane test that splits only warp 0, whose lanes reach B
  /// B. Such a branch is made Unknown (never a finding) when no warp it
  /// splits reaches a warp-collective op it controls.
  void refineLaneSplits(KernelGraph &Graph);

  const ptx::ParsedModule &M;
  const PtxSourceMap &Map;
  const FrontendLimits &Limits;
  llvm::StringMap<unsigned> FunctionByName;
  /// .shared variables of the module, mangled name -> display name.
  llvm::StringMap<std::string> ModuleShared;
  PtxIdentities Ids;
  KernelGraph *G = nullptr;
  unsigned EventCount = 0;
  unsigned NextInstance = 0;
  /// The bounds of the kernel being built, checked by overBudget().
  std::optional<GraphBuildBudget> Budget;
  bool DepthReported = false;
  /// `.extern .func` callees of the kernel being built that no model
  /// describes, for the remark about them.
  std::vector<CallWithoutBody> CallsWithoutBody;
  /// Branch blocks on %tid.x alone: the threads that take arm 0.
  std::map<unsigned, std::shared_ptr<const ThreadSet>> BranchThreads;
};

} // namespace tmemcheck

#endif // TMEMCHECK_LIB_FRONTEND_PTX_PTXGRAPHBUILDER_H
