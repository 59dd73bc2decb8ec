//===- NvccCommandLine.h - Compile commands to device-parse flags -*- C++
//-*-===//
//
// Part of tmemcheck. A compile database holds the commands of the real
// build: nvcc command lines (CMake, bear), or clang/gcc ones. Clang cannot
// take nvcc's options, and most options of either compiler say nothing about
// how the device side of a file parses. This translation reads a command
// with a table of every option nvcc documents (NvccOptions.def) and of the
// host compiler's, and keeps only what changes the parse: include paths,
// macros, pre-included headers, the language standard, the GPU targets.
// Everything else is dropped; options that no table knows are dropped too
// and named, so a run can say what it ignored.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_FRONTEND_NVCCCOMMANDLINE_H
#define TMEMCHECK_FRONTEND_NVCCCOMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>
#include <vector>

namespace clang::tooling {
class CompilationDatabase;
} // namespace clang::tooling

namespace tmemcheck {

/// Which option syntax a command uses, decided by its compiler.
enum class CommandSyntax {
  Nvcc, ///< nvcc: its table first, comma lists, then host options
  Host, ///< clang/gcc (or flags after `--`): host options, then nvcc's
};

/// The part of one compile command that shapes the device-side parse.
struct TranslatedCommand {
  CommandSyntax Syntax = CommandSyntax::Host;
  /// Clang arguments for the parse (no argv[0], no input file).
  std::vector<std::string> Args;
  /// The real GPU targets the command compiles for, as `sm_<N>[a|f]`, in
  /// command order and without repeats (from -arch, -code, -gencode,
  /// --cuda-gpu-arch, --offload-arch).
  std::vector<std::string> GpuArchs;
  /// The command compiles its input as CUDA: `-x cu` (nvcc) or `-x cuda`
  /// (clang). A `.cu` input is CUDA whatever this says.
  bool CompiledAsCuda = false;
  /// Options no table knows, as spelled; they were dropped.
  std::vector<std::string> UnknownOptions;
  /// Non-empty when the command cannot be translated (a response file that
  /// cannot be read, an option without its value, an unknown GPU
  /// architecture): it names the option.
  std::string Error;
};

/// Translates \p CommandLine (argv[0] first) of a command run in
/// \p Directory that compiles \p File. Response files (`@file`,
/// `--options-file`, `-optf`) are expanded first, relative to
/// \p Directory; arguments equal to one of \p RemovedArgs are then removed
/// (clang-tidy's --removed-arg).
TranslatedCommand
translateCompileCommand(llvm::ArrayRef<std::string> CommandLine,
                        llvm::StringRef Directory, llvm::StringRef File,
                        llvm::ArrayRef<std::string> RemovedArgs = {});

/// The syntax of a command whose compiler is \p Argv0 (a compiler launcher
/// such as ccache in front is looked through by the caller).
CommandSyntax commandSyntaxOf(llvm::StringRef Argv0);

/// Normalises an nvcc or clang GPU architecture name (`sm_100a`,
/// `compute_103f`, `lto_110a`) to the real target `sm_<N>[a|f]`. Returns
/// "" for the names that select no single target (`native`, `all`,
/// `all-major`) and sets \p Unknown for a name that nvcc does not accept.
std::string normalizeGpuArch(llvm::StringRef Name, bool &Unknown);

/// \p Db, with a command interpolated (as clangd does) for the files it
/// does not list, from the *translated* command of a neighbour. Clang's
/// interpolation reads commands with Clang's option table, which takes the
/// values of nvcc's options (`-gencode arch=...`) for input files and drops
/// them; a neighbour's command in Clang's syntax survives it. Files the
/// database lists keep their own command, translated later as usual.
std::unique_ptr<clang::tooling::CompilationDatabase> withInterpolatedCommands(
    std::unique_ptr<clang::tooling::CompilationDatabase> Db);

} // namespace tmemcheck

#endif // TMEMCHECK_FRONTEND_NVCCCOMMANDLINE_H
