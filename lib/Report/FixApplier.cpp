//===- FixApplier.cpp - Applying fix-its in place (--fix) -----------------===//
//
// Part of tmemcheck. The edits are applied with clang::tooling's
// Replacements; the file is replaced with sys::fs::createUniqueFile and
// rename.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Report/FixApplier.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <fmt/format.h>

#include <map>
#include <tuple>

using namespace llvm;

namespace tmemcheck {

namespace {

/// True if two of the (sorted, distinct) edits overlap or are insertions at
/// one offset: applying them in either order would give different files.
/// (clang's Replacements merges overlapping edits instead; --fix must not
/// guess.)
bool haveOverlap(const std::vector<FixIt> &Edits) {
  unsigned End = 0;
  for (size_t I = 0; I < Edits.size(); ++I) {
    const FixIt &E = Edits[I];
    if (I > 0 && (E.Offset < End || E.Offset == Edits[I - 1].Offset))
      return true;
    End = std::max(End, E.Offset + E.Length);
  }
  return false;
}

/// Whether \p Path may be written: write permission for this user, and at
/// least one write bit set, so that `chmod a-w` protects a file from a
/// root user too.
bool isWritable(StringRef Path, const sys::fs::file_status &Status) {
  return (Status.permissions() & sys::fs::all_write) &&
         !sys::fs::access(Path, sys::fs::AccessMode::Write);
}

/// Replaces \p Path by \p Contents through a temporary file of the same
/// directory (same permissions) renamed over it.
std::error_code replaceAtomically(StringRef Path, StringRef Contents,
                                  sys::fs::perms Permissions) {
  SmallString<256> Temp;
  int FD = -1;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Path + ".tmemcheck-%%%%%%", FD, Temp, sys::fs::OF_None, Permissions))
    return EC;
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.close();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(Temp);
      return EC;
    }
  }
  // The mode of createUniqueFile is masked by the umask.
  sys::fs::setPermissions(Temp, Permissions);
  if (std::error_code EC = sys::fs::rename(Temp, Path)) {
    sys::fs::remove(Temp);
    return EC;
  }
  return {};
}

FixResult applyToFile(const std::string &File, std::vector<FixIt> Edits) {
  FixResult R;
  R.File = File;
  llvm::sort(Edits, [](const FixIt &A, const FixIt &B) {
    return std::tie(A.Offset, A.Length, A.Text) <
           std::tie(B.Offset, B.Length, B.Text);
  });
  Edits.erase(std::unique(Edits.begin(), Edits.end()), Edits.end());
  R.Edits = Edits.size();
  if (haveOverlap(Edits)) {
    R.Result = FixResult::Overlapping;
    return R;
  }
  // Edit the file a symbolic link points to, not the link.
  SmallString<256> Target;
  if (sys::fs::real_path(File, Target))
    Target = File;
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Target, Status)) {
    R.Result = FixResult::Failed;
    R.Detail = EC.message();
    return R;
  }
  if (!isWritable(Target, Status)) {
    R.Result = FixResult::ReadOnly;
    return R;
  }
  auto Buffer = MemoryBuffer::getFile(Target, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    R.Result = FixResult::Failed;
    R.Detail = Buffer.getError().message();
    return R;
  }
  clang::tooling::Replacements Replacements;
  for (const FixIt &E : Edits)
    if (Error Err = Replacements.add(
            clang::tooling::Replacement(File, E.Offset, E.Length, E.Text))) {
      R.Result = FixResult::Failed;
      R.Detail = toString(std::move(Err));
      return R;
    }
  StringRef Code = (*Buffer)->getBuffer();
  if (!Edits.empty() &&
      Edits.back().Offset + Edits.back().Length > Code.size()) {
    R.Result = FixResult::Failed;
    R.Detail = "the file changed since it was analysed";
    return R;
  }
  Expected<std::string> NewCode =
      clang::tooling::applyAllReplacements(Code, Replacements);
  if (!NewCode) {
    R.Result = FixResult::Failed;
    R.Detail = toString(NewCode.takeError());
    return R;
  }
  if (std::error_code EC =
          replaceAtomically(Target, *NewCode, Status.permissions())) {
    R.Result = FixResult::Failed;
    R.Detail = EC.message();
  }
  return R;
}

} // namespace

std::vector<FixResult> applyFixIts(const std::vector<Finding> &Findings) {
  std::map<std::string, std::vector<FixIt>> ByFile;
  for (const Finding &F : Findings)
    for (const FixIt &Fix : F.Fixes)
      ByFile[Fix.File].push_back(Fix);
  std::vector<FixResult> Results;
  for (auto &[File, Edits] : ByFile)
    Results.push_back(applyToFile(File, std::move(Edits)));
  return Results;
}

bool reportFixResults(raw_ostream &Errs, const std::vector<FixResult> &Results,
                      bool Quiet) {
  bool AllWritten = true;
  for (const FixResult &R : Results) {
    switch (R.Result) {
    case FixResult::Applied:
      if (!Quiet)
        Errs << fmt::format("tmemcheck: {}: applied {} fix-it(s)\n", R.File,
                            R.Edits);
      break;
    case FixResult::Overlapping:
      Errs << fmt::format("tmemcheck: warning: {}: {} fix-its overlap; none "
                          "was applied to this file\n",
                          R.File, R.Edits);
      break;
    case FixResult::ReadOnly:
      AllWritten = false;
      Errs << fmt::format("tmemcheck: error: cannot apply fix-its to '{}': "
                          "the file is read-only; it was not changed\n",
                          R.File);
      break;
    case FixResult::Failed:
      AllWritten = false;
      Errs << fmt::format("tmemcheck: error: cannot apply fix-its to '{}': "
                          "{}; it was not changed\n",
                          R.File, R.Detail);
      break;
    }
  }
  return AllWritten;
}

} // namespace tmemcheck
