//===- Check.cpp - Base class of tmemcheck checks -------------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Checks/Check.h"

namespace tmemcheck {

Check::~Check() = default;

Finding Check::makeFinding(const KernelGraph &G, const SourceLoc &Loc,
                           std::string Message) const {
  Finding F;
  F.CheckName = Name;
  F.Level = DefaultSeverity;
  F.Loc = Loc;
  F.Message = std::move(Message);
  F.Kernel = G.Name;
  return F;
}

Finding Check::makeFinding(const KernelGraph &G, const Event &E,
                           std::string Message) const {
  return withInstructionNote(makeFinding(G, E.userLoc(), std::move(Message)),
                             E);
}

Finding Check::makeKernelLevelFinding(const KernelGraph &G, const Event &E,
                                      std::string Message) const {
  return withInstructionNote(makeFinding(G, E.kernelLoc(), std::move(Message)),
                             E);
}

Finding Check::makePairFinding(const KernelGraph &G, const Event &E,
                               const Event &Other, std::string Message) const {
  return withInstructionNote(
      makeFinding(G, locationSeenFrom(E, Other), std::move(Message)), E);
}

Finding Check::withInstructionNote(Finding F, const Event &E) {
  F.Order = E.Id;
  if (!(F.Loc == E.Loc)) {
    // Name the wrapper the user called: the frame entered from user code.
    std::string Wrapper;
    for (auto It = E.Stack.rbegin(); It != E.Stack.rend(); ++It)
      if (It->CallSite == F.Loc) {
        Wrapper = It->Callee;
        break;
      }
    F.Notes.push_back(
        {E.Loc,
         Wrapper.empty()
             ? "'" + E.Opcode + "' is issued here"
             : "'" + E.Opcode + "' is issued here, inside '" + Wrapper + "'"});
  }
  return F;
}

} // namespace tmemcheck
