//===- InputSelection.h - Which files a run analyses ------------*- C++ -*-===//
//
// Part of tmemcheck. The files of a run are the command line's, or, with
// `-p` and no file arguments, the CUDA sources of the compilation database;
// `--shard=K/N` then keeps one deterministic part of them so that N CI jobs
// together analyse every file exactly once.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_TOOLS_INPUTSELECTION_H
#define TMEMCHECK_TOOLS_INPUTSELECTION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace tmemcheck {

/// One part of a partition of the input files: the Index-th (1-based) of
/// Count.
struct Shard {
  unsigned Index = 1;
  unsigned Count = 1;
};

/// Parses the value of --shard: `K/N` with 1 <= K <= N.
llvm::Expected<Shard> parseShard(llvm::StringRef Text);

/// The files of shard \p S. The files are ranked by path (byte order; equal
/// paths by input position) and the file of rank i (0-based) belongs to
/// shard i mod N + 1: round-robin, so shard sizes differ by at most one.
/// The selected files keep their input order.
std::vector<std::string> selectShard(const std::vector<std::string> &Files,
                                     Shard S);

/// The files of \p Db compiled as CUDA (`.cu`, or `-x cu`/`-x cuda` in the
/// command), sorted: what `-p <dir>` without file arguments analyses (other
/// entries of a CUDA project's database are host code).
std::vector<std::string>
cudaSourcesOf(const clang::tooling::CompilationDatabase &Db);

} // namespace tmemcheck

#endif // TMEMCHECK_TOOLS_INPUTSELECTION_H
