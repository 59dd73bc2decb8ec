//===- LspServer.h - tmemcheck as a language server -------------*- C++ -*-===//
//
// Part of tmemcheck. `tmemcheck --lsp`: a Language Server Protocol server
// on stdin/stdout, for editors whose C++ server (clangd) cannot load
// tmemcheck. It analyses the buffers the editor has open, on a worker
// thread, a short while after the last edit, and publishes the findings
// as diagnostics with their notes, check pages and fix-its (quick fixes).
// Flags come from compile_commands.json as for the CLI, settings from
// .tmemcheck.yaml and the editor.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LSP_LSPSERVER_H
#define TMEMCHECK_LSP_LSPSERVER_H

#include "tmemcheck/Driver/FileSettings.h"
#include "tmemcheck/Frontend/CudaEnvironment.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

namespace tmemcheck {
namespace lsp {

/// How the server was started (the command line of `tmemcheck --lsp`).
struct ServerOptions {
  ServerOptions(CudaEnvironment BaseEnv, SettingOverrides Overrides)
      : BaseEnv(std::move(BaseEnv)), Overrides(std::move(Overrides)) {}

  CudaEnvironment BaseEnv;
  SettingOverrides Overrides;
  /// --config-file: one config for every file.
  std::string ConfigFile;
  /// -p: the compilation database to use; empty: the one found upward
  /// from each file.
  std::string BuildPath;
  /// Flags after `--`: one command for every file instead of a database.
  std::optional<std::vector<std::string>> FixedArgs;
  /// Where the check pages are (--sarif-help-base, else the docs installed
  /// with tmemcheck).
  std::string HelpBase;
  /// Milliseconds to wait after an edit before analysing.
  unsigned DebounceMs = 250;
  std::string Version;
  /// Testing only: the analysis of this kernel crashes.
  std::string CrashInKernel;
};

/// Serves one client on \p In / \p Out until `exit` or the end of \p In.
/// Returns the process's exit status: 0 after shutdown then exit, 1 when
/// the client went away without a shutdown.
int runLanguageServer(ServerOptions Options, std::FILE *In,
                      llvm::raw_ostream &Out);

} // namespace lsp
} // namespace tmemcheck

#endif // TMEMCHECK_LSP_LSPSERVER_H
