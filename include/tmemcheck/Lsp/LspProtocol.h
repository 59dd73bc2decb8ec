//===- LspProtocol.h - tmemcheck's results in LSP terms ---------*- C++ -*-===//
//
// Part of tmemcheck. The language server speaks in URIs, 0-based positions
// and JSON objects; the analysis in paths, 1-based byte columns and
// Findings. These functions translate, and only translate: what to publish
// and when is the server's business (LspServer.h).
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LSP_LSPPROTOCOL_H
#define TMEMCHECK_LSP_LSPPROTOCOL_H

#include "tmemcheck/Lsp/TextDocument.h"
#include "tmemcheck/Report/Finding.h"
#include "tmemcheck/Report/ResourceReport.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace tmemcheck {
namespace lsp {

/// `file://` URI of an absolute path, percent-encoding what RFC 3986 does
/// not allow in a path.
std::string pathToUri(llvm::StringRef Path);
/// The path of a `file://` URI; nullopt for other schemes or bad escapes.
std::optional<std::string> uriToPath(llvm::StringRef Uri);

llvm::json::Value toJson(const Position &P);
llvm::json::Value toJson(const Range &R);
bool fromJson(const llvm::json::Value &V, Position &P);
bool fromJson(const llvm::json::Value &V, Range &R);

/// LSP's DiagnosticSeverity: 1 error, 2 warning, 3 information.
int lspSeverity(Severity S);

/// The range a finding's location covers in \p Doc: to its end when the
/// front end knows it, else to the end of the word at its start.
Range rangeOf(const SourceLoc &Loc, const TextDocument &Doc,
              PositionEncoding Enc);

/// The page of check \p Check under \p HelpBase (a URL or directory
/// ending in the docs/ directory; "checks/<name>.md" is appended).
std::string checkPageUrl(llvm::StringRef HelpBase, llvm::StringRef Check);

/// Markdown describing the TMEM region the code at 1-based \p Line of
/// \p File allocates or touches, from the resource report of its kernel;
/// empty when the line does neither.
std::string regionHover(const KernelReport &R, llvm::StringRef File,
                        unsigned Line);

} // namespace lsp
} // namespace tmemcheck

#endif // TMEMCHECK_LSP_LSPPROTOCOL_H
