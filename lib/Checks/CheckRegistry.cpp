//===- CheckRegistry.cpp - All checks by name -----------------------------===//
//
// Part of tmemcheck. The names are the public contract of design.md.
//
//===----------------------------------------------------------------------===//

#include "AllChecks.h"

#include "tmemcheck/Checks/Check.h"

namespace tmemcheck {

const std::vector<CheckInfo> &CheckRegistry::all() {
  static const std::vector<CheckInfo> Checks = {
      {"tmem-alloc-ncols", Severity::Error, /*Strict=*/false,
       "alloc/dealloc column count not a power of two in [32, 512]",
       createAllocNcolsCheck},
      {"tmem-cta-group-mismatch", Severity::Error, /*Strict=*/false,
       "cta_group::1 and cta_group::2 mixed in one kernel",
       createCtaGroupMismatchCheck},
      {"tmem-ld-use-before-wait", Severity::Warning, /*Strict=*/true,
       "registers of tcgen05.ld read before tcgen05.wait::ld",
       createLdUseBeforeWaitCheck},
  };
  return Checks;
}

const CheckInfo *CheckRegistry::find(llvm::StringRef Name) {
  for (const CheckInfo &C : all())
    if (C.Name == Name)
      return &C;
  return nullptr;
}

} // namespace tmemcheck
