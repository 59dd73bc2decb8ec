//===- Check.h - Base class of tmemcheck checks -----------------*- C++ -*-===//
//
// Part of tmemcheck. A check reads the facts the analysis computed for one
// kernel and reports findings; it never re-parses asm text nor walks the
// AST (design.md "Layers").
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_CHECKS_CHECK_H
#define TMEMCHECK_CHECKS_CHECK_H

#include "tmemcheck/Analysis/AnalysisContext.h"
#include "tmemcheck/Analysis/KernelGraph.h"
#include "tmemcheck/Report/Finding.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tmemcheck {

/// One named check of the public catalogue (design.md "Checks").
class Check {
public:
  Check(llvm::StringRef Name, Severity DefaultSeverity)
      : Name(Name.str()), DefaultSeverity(DefaultSeverity) {}
  virtual ~Check();

  llvm::StringRef name() const { return Name; }
  Severity severity() const { return DefaultSeverity; }

  /// Examines one kernel (its graph and the analyses of it) and reports
  /// into \p Out.
  virtual void checkKernel(AnalysisContext &Ctx, FindingSink &Out) = 0;

protected:
  /// A finding of this check at \p Loc in kernel \p G.
  Finding makeFinding(const KernelGraph &G, const SourceLoc &Loc,
                      std::string Message) const;
  /// A finding at an event: reported at the event's user location, with a
  /// note at the wrapper instruction when the event is inside one.
  Finding makeFinding(const KernelGraph &G, const Event &E,
                      std::string Message) const;
  /// Like the above, but reported at the statement of the kernel body that
  /// leads to the event (Event::kernelLoc), with a note at the instruction
  /// when it is elsewhere: for findings about values callers pass in.
  Finding makeKernelLevelFinding(const KernelGraph &G, const Event &E,
                                 std::string Message) const;

  /// For findings about two events of one thread (a release and the
  /// pending access it releases): reported where \p E is seen from
  /// \p Other, the call of the function in which their call chains part
  /// (locationSeenFrom). In a library kernel (CUTLASS's `device_kernel`
  /// calls the collective, which calls the pipeline) that is the line of
  /// the collective that releases, not the kernel's one call statement.
  Finding makePairFinding(const KernelGraph &G, const Event &E,
                          const Event &Other, std::string Message) const;

private:
  /// Adds "'<opcode>' is issued here, inside '<callee>'" when the finding is
  /// reported away from the instruction.
  static Finding withInstructionNote(Finding F, const Event &E);

  std::string Name;
  Severity DefaultSeverity;
};

/// Static description of a check, for --list-checks, docs and SARIF rules.
struct CheckInfo {
  std::string Name;
  Severity DefaultSeverity = Severity::Error;
  bool Strict = false; ///< off unless named explicitly in --checks.
  std::string Summary;
  std::function<std::unique_ptr<Check>()> Create;
};

/// All checks known to tmemcheck, by name.
class CheckRegistry {
public:
  static const std::vector<CheckInfo> &all();
  static const CheckInfo *find(llvm::StringRef Name);
};

} // namespace tmemcheck

#endif // TMEMCHECK_CHECKS_CHECK_H
