//===- CheckFilter.cpp - clang-tidy style --checks globs ------------------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Checks/CheckFilter.h"
#include "tmemcheck/Checks/Check.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

namespace tmemcheck {

CheckFilter CheckFilter::create(llvm::StringRef Globs,
                                std::vector<std::string> &Unmatched,
                                std::string &Error) {
  // The default: every check that is not strict.
  std::string Full = "tmem-*";
  for (const CheckInfo &C : CheckRegistry::all())
    if (C.Strict)
      Full += ",-" + C.Name;
  return build(Full, Globs, Unmatched, Error);
}

CheckFilter CheckFilter::createWithoutDefaults(
    llvm::StringRef Globs, std::vector<std::string> &Unmatched,
    std::string &Error) {
  return build("", Globs, Unmatched, Error);
}

CheckFilter CheckFilter::build(llvm::StringRef Defaults, llvm::StringRef Globs,
                               std::vector<std::string> &Unmatched,
                               std::string &Error) {
  CheckFilter Filter;
  unsigned UserStart = 0;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Defaults.split(Parts, ',', -1, false);
  UserStart = Parts.size();
  Globs.split(Parts, ',', -1, false);
  for (unsigned I = 0; I < Parts.size(); ++I) {
    llvm::StringRef G = Parts[I].trim();
    if (G.empty())
      continue;
    Entry E;
    if (G.consume_front("-"))
      E.Positive = false;
    G = G.trim();
    E.Text = std::make_unique<std::string>(G.str());
    auto Pattern = llvm::GlobPattern::create(*E.Text);
    if (!Pattern) {
      Error = "invalid check glob '" + G.str() +
              "': " + llvm::toString(Pattern.takeError());
      return Filter;
    }
    E.Pattern = std::move(*Pattern);
    if (I >= UserStart) {
      bool Matches = false;
      for (const CheckInfo &C : CheckRegistry::all())
        Matches |= E.Pattern.match(C.Name);
      // `-*` and `*` are idioms, not typos.
      if (!Matches && G != "*")
        Unmatched.push_back(Parts[I].trim().str());
    }
    Filter.Entries.push_back(std::move(E));
  }
  return Filter;
}

bool CheckFilter::isEnabled(llvm::StringRef CheckName) const {
  bool Enabled = false;
  for (const Entry &E : Entries)
    if (E.Pattern.match(CheckName))
      Enabled = E.Positive;
  return Enabled;
}

} // namespace tmemcheck
