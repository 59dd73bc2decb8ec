//===- LspServer.cpp - tmemcheck as a language server ---------------------===//
//
// Part of tmemcheck.
//
// Two threads: the reader handles every message as it arrives (edits,
// settings, requests answerable from the last results), the worker
// analyses documents whose edits have settled. Each open document has a
// deadline ("due"): an edit moves it to now + the debounce delay, and the
// worker analyses the document whose deadline passed first. A result for
// a version the editor has since replaced is dropped. Requests that need
// the results of the current version (code actions, hovers) wait for them,
// unless the client cancels them.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Lsp/LspServer.h"

#include "tmemcheck/Config/Config.h"
#include "tmemcheck/Frontend/NvccCommandLine.h"
#include "tmemcheck/Lsp/DocumentAnalyzer.h"
#include "tmemcheck/Lsp/JsonRpcTransport.h"
#include "tmemcheck/Lsp/LspProtocol.h"
#include "tmemcheck/Lsp/TextDocument.h"
#include "tmemcheck/Report/Suppressions.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

namespace tmemcheck {
namespace lsp {

namespace json = llvm::json;
using Clock = std::chrono::steady_clock;

namespace {

/// A finding as published: its diagnostic, and the quick fix that repairs
/// it (an empty object when it has none).
struct PublishedFinding {
  std::string Uri;
  Range R;
  json::Object Diagnostic;
  json::Object Edit; ///< a WorkspaceEdit, empty without fix-its
  std::string Check;
};

/// A request that waits for the results of the document's current
/// version.
struct WaitingRequest {
  json::Value Id = nullptr;
  std::string Method;
  json::Value Params = nullptr;
};

/// One open document and what the server knows about it.
struct Document {
  std::string Uri;
  std::string Path;
  TextDocument Text;
  /// When the worker should analyse it; unset when nothing is pending.
  std::optional<Clock::time_point> Due;
  bool Analyzing = false;
  /// Results of the last version analysed.
  bool HasResults = false;
  int64_t AnalyzedVersion = 0;
  std::vector<PublishedFinding> Findings;
  std::vector<KernelReport> Reports;
  /// The URIs this document's results were published under.
  std::set<std::string> PublishedUris;
  std::vector<WaitingRequest> Waiting;
  /// The parse state; only the worker touches it.
  DocumentAnalyzer Analyzer;
  // For tmemcheck/stats and the log.
  unsigned Analyses = 0;
  double LastParseSeconds = 0, LastCheckSeconds = 0;
  bool LastReparsed = false;
};

/// How one document is parsed: its settings and Clang command, or why it
/// cannot be.
struct ParseSetup {
  std::optional<FileSettings> Settings;
  std::vector<std::string> Args;
  std::string Directory;
  /// The target the file is parsed for.
  std::string GpuArch;
  /// The document cannot be analysed (a broken config, a command that
  /// cannot be translated).
  std::string Error;
  /// It can, but the user should know (a database that did not load).
  std::vector<std::string> Warnings;
};

/// The answer to a hover or code action request when there is nothing to
/// say (a document that is not open, or closed while the request waited).
json::Value nothingFor(llvm::StringRef Method) {
  return Method == "textDocument/hover" ? json::Value(nullptr)
                                        : json::Value(json::Array());
}

bool isHeaderPath(llvm::StringRef Path) {
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  return llvm::is_contained(
      {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc"}, Ext);
}

/// The process's resident memory, from /proc (0 where there is none).
uint64_t residentBytes() {
  std::ifstream Statm("/proc/self/statm");
  uint64_t Pages = 0, Resident = 0;
  if (!(Statm >> Pages >> Resident))
    return 0;
  return Resident * 4096;
}

class Server {
public:
  Server(ServerOptions O, std::FILE *In, llvm::raw_ostream &Out)
      : Opts(std::move(O)), Transport(In, Out), CliOverrides(Opts.Overrides),
        Overrides(Opts.Overrides), DatabasePath(Opts.BuildPath),
        DebounceMs(Opts.DebounceMs) {}

  int run();

private:
  // Reader thread.
  void handle(json::Value Message);
  void handleRequest(llvm::StringRef Method, json::Value Id,
                     const json::Value *Params);
  void handleNotification(llvm::StringRef Method, const json::Value *Params);
  json::Value initialize(const json::Object *Params);
  void didOpen(const json::Object &Params);
  void didChange(const json::Object &Params);
  void didClose(const json::Object &Params);
  void applySettings(const json::Object &Settings, bool FromInitialize);
  void cancel(const json::Value &Id);
  void scheduleAll(std::chrono::milliseconds Delay);
  /// Answers a code action or hover request from \p D's results.
  void answer(Document &D, const WaitingRequest &R);
  /// The open document \p Params (a request's or a notification's
  /// parameters) name in its `textDocument`.
  std::shared_ptr<Document> documentOf(const json::Object *Params);

  // Worker thread.
  void work();
  void analyse(std::shared_ptr<Document> D, std::unique_lock<std::mutex> &L);
  ParseSetup setupFor(const std::string &Path);
  const clang::tooling::CompilationDatabase *
  databaseFor(const std::string &Path, std::vector<std::string> &Warnings);
  std::vector<PublishedFinding> publishable(const Document &D,
                                            const TextDocument &Analysed,
                                            const AnalysisOutput &Out,
                                            const ParseSetup &Setup);
  json::Object workspaceEdit(const Finding &F, const Document &D,
                             const TextDocument &Analysed);
  const TextDocument &textOf(const std::string &Path, const Document &D,
                             const TextDocument &Analysed);

  // Either thread, with M held.
  void publish(Document &D, std::vector<PublishedFinding> Findings);
  void publishUri(const std::string &Uri);
  void log(llvm::StringRef Message, int Type = 4);

  ServerOptions Opts;
  JsonRpcTransport Transport;

  std::mutex M;
  std::condition_variable Wake;
  bool Stopping = false;
  bool Initialized = false;
  bool ShutdownRequested = false;
  PositionEncoding Encoding = PositionEncoding::Utf16;
  bool DocumentChanges = false;
  bool WatchRegistration = false;
  std::map<std::string, std::shared_ptr<Document>> Docs;
  /// URI -> document URI -> the diagnostics that document's analysis put
  /// there: a header's diagnostics are the union of its includers'.
  std::map<std::string, std::map<std::string, json::Array>> Published;
  /// The command line's overrides, and the editor's on top of them.
  const SettingOverrides CliOverrides;
  SettingOverrides Overrides;
  std::string DatabasePath;
  unsigned DebounceMs;
  /// Bumped when the settings or the files they come from change: the
  /// worker then reloads configs and databases.
  unsigned SettingsGeneration = 0;
  bool CrashReported = false;
  unsigned NextRequestId = 0;

  // The worker's own: configs, databases, file texts it read.
  unsigned WorkerGeneration = ~0u;
  std::unique_ptr<ConfigFinder> Configs;
  std::unique_ptr<FileSettingsResolver> Resolver;
  SettingOverrides WorkerOverrides;
  std::string WorkerDatabasePath;
  std::map<std::string, std::unique_ptr<clang::tooling::CompilationDatabase>>
      Databases;
  /// Why a database did not load, by what databaseFor caches it under.
  std::map<std::string, std::string> DatabaseErrors;
  std::map<std::string, TextDocument> OtherFiles;
};

int Server::run() {
  llvm::CrashRecoveryContext::Enable();
  std::thread Worker([this] { work(); });
  int Status = 1;
  for (;;) {
    IncomingFrame F = Transport.read();
    if (F.K == IncomingFrame::End)
      break;
    if (F.K == IncomingFrame::BadHeader) {
      std::lock_guard<std::mutex> Lock(M);
      log("ignored a message: " + F.Error, 1);
      continue;
    }
    if (F.K == IncomingFrame::BadJson) {
      Transport.replyError(nullptr, ErrorCode::ParseError,
                           "the message is not JSON: " + F.Error);
      continue;
    }
    const json::Object *O = F.Body.getAsObject();
    if (O && O->getString("method") == "exit") {
      Status = ShutdownRequested ? 0 : 1;
      break;
    }
    handle(std::move(F.Body));
  }
  {
    std::lock_guard<std::mutex> Lock(M);
    Stopping = true;
  }
  Wake.notify_all();
  Worker.join();
  return Status;
}

void Server::log(llvm::StringRef Message, int Type) {
  Transport.notify("window/logMessage",
                   json::Object{{"type", Type}, {"message", Message}});
}

void Server::handle(json::Value Message) {
  const json::Object *O = Message.getAsObject();
  if (!O) {
    Transport.replyError(nullptr, ErrorCode::InvalidRequest,
                         "a message must be a JSON object");
    return;
  }
  std::optional<llvm::StringRef> Method = O->getString("method");
  const json::Value *Id = O->get("id");
  const json::Value *Params = O->get("params");
  if (!Method) {
    // A response to a request of ours (registerCapability): nothing to do.
    if (Id && (O->get("result") || O->get("error")))
      return;
    Transport.replyError(Id ? *Id : json::Value(nullptr),
                         ErrorCode::InvalidRequest,
                         "the message has no method");
    return;
  }
  if (Id && Id->kind() != json::Value::Number &&
      Id->kind() != json::Value::String) {
    Transport.replyError(nullptr, ErrorCode::InvalidRequest,
                         "a request id must be a number or a string");
    return;
  }
  if (Id)
    handleRequest(*Method, *Id, Params);
  else
    handleNotification(*Method, Params);
}

void Server::handleRequest(llvm::StringRef Method, json::Value Id,
                           const json::Value *Params) {
  const json::Object *P = Params ? Params->getAsObject() : nullptr;
  if (Method == "initialize") {
    Transport.reply(std::move(Id), initialize(P));
    return;
  }
  if (!Initialized) {
    Transport.replyError(std::move(Id), ErrorCode::ServerNotInitialized,
                         "the server has not been initialized");
    return;
  }
  if (ShutdownRequested) {
    Transport.replyError(std::move(Id), ErrorCode::InvalidRequest,
                         "the server is shutting down");
    return;
  }
  if (Method == "shutdown") {
    ShutdownRequested = true;
    Transport.reply(std::move(Id), nullptr);
    return;
  }
  if (Method == "textDocument/codeAction" || Method == "textDocument/hover") {
    std::shared_ptr<Document> D = documentOf(P);
    if (!D) {
      // A document the server does not have open: nothing to offer.
      Transport.reply(std::move(Id), nothingFor(Method));
      return;
    }
    WaitingRequest R{std::move(Id), Method.str(), *Params};
    std::lock_guard<std::mutex> Lock(M);
    if (D->HasResults && !D->Due && !D->Analyzing &&
        D->AnalyzedVersion == D->Text.version())
      answer(*D, R);
    else
      D->Waiting.push_back(std::move(R));
    return;
  }
  if (Method == "tmemcheck/stats") {
    std::lock_guard<std::mutex> Lock(M);
    json::Array Documents;
    for (const auto &[Uri, D] : Docs)
      Documents.push_back(json::Object{
          {"uri", Uri},
          {"version", D->Text.version()},
          {"analyzedVersion", D->HasResults ? json::Value(D->AnalyzedVersion)
                                            : json::Value(nullptr)},
          {"analyses", D->Analyses},
          {"parseSeconds", D->LastParseSeconds},
          {"checkSeconds", D->LastCheckSeconds},
          {"reparsed", D->LastReparsed},
          // Reading the analyzer's size races with the worker only while
          // it analyses this document.
          {"memoryBytes",
           D->Analyzing ? json::Value(nullptr)
                        : json::Value(int64_t(D->Analyzer.memoryBytes()))}});
    Transport.reply(std::move(Id),
                    json::Object{{"documents", std::move(Documents)},
                                 {"residentBytes", int64_t(residentBytes())}});
    return;
  }
  Transport.replyError(std::move(Id), ErrorCode::MethodNotFound,
                       "tmemcheck does not handle '" + Method.str() + "'");
}

void Server::handleNotification(llvm::StringRef Method,
                                const json::Value *Params) {
  const json::Object *P = Params ? Params->getAsObject() : nullptr;
  if (Method == "initialized") {
    // Watch the files the settings come from, when the client can.
    if (WatchRegistration) {
      json::Array Watchers;
      for (const char *Glob :
           {"**/.tmemcheck.yaml", "**/compile_commands.json"})
        Watchers.push_back(json::Object{{"globPattern", Glob}});
      Transport.request(
          fmt::format("tmemcheck-{}", NextRequestId++),
          "client/registerCapability",
          json::Object{
              {"registrations",
               json::Array{json::Object{
                   {"id", "tmemcheck-watched-files"},
                   {"method", "workspace/didChangeWatchedFiles"},
                   {"registerOptions",
                    json::Object{{"watchers", std::move(Watchers)}}}}}}});
    }
    return;
  }
  if (!Initialized || Method.starts_with("$/")) {
    if (Method == "$/cancelRequest" && P && P->get("id"))
      cancel(*P->get("id"));
    return;
  }
  if (!P) {
    std::lock_guard<std::mutex> Lock(M);
    log("ignored '" + Method.str() + "': it has no parameters", 2);
    return;
  }
  if (Method == "textDocument/didOpen")
    didOpen(*P);
  else if (Method == "textDocument/didChange")
    didChange(*P);
  else if (Method == "textDocument/didClose")
    didClose(*P);
  else if (Method == "textDocument/didSave") {
    // A header saved: the documents that include it see new contents.
    std::shared_ptr<Document> D = documentOf(P);
    if (D && isHeaderPath(D->Path))
      scheduleAll(std::chrono::milliseconds(DebounceMs));
  } else if (Method == "workspace/didChangeConfiguration") {
    if (const json::Object *S = P->getObject("settings"))
      applySettings(*S, /*FromInitialize=*/false);
  } else if (Method == "workspace/didChangeWatchedFiles") {
    // Configs and databases are read again. Events that arrive together
    // (a client's own watchers besides the registered ones, a build that
    // rewrites several databases) cost one re-analysis.
    {
      std::lock_guard<std::mutex> Lock(M);
      ++SettingsGeneration;
    }
    scheduleAll(std::chrono::milliseconds(DebounceMs));
  }
  // Other notifications need nothing from tmemcheck.
}

json::Value Server::initialize(const json::Object *Params) {
  if (Params) {
    if (const json::Object *Caps = Params->getObject("capabilities")) {
      if (const json::Object *General = Caps->getObject("general"))
        if (const json::Array *Encodings =
                General->getArray("positionEncodings"))
          for (const json::Value &E : *Encodings)
            if (E.getAsString() == "utf-8")
              Encoding = PositionEncoding::Utf8;
      if (const json::Object *Ws = Caps->getObject("workspace")) {
        if (const json::Object *Edit = Ws->getObject("workspaceEdit"))
          DocumentChanges = Edit->getBoolean("documentChanges").value_or(false);
        if (const json::Object *Watch = Ws->getObject("didChangeWatchedFiles"))
          WatchRegistration =
              Watch->getBoolean("dynamicRegistration").value_or(false);
      }
    }
    if (const json::Object *Init = Params->getObject("initializationOptions"))
      applySettings(*Init, /*FromInitialize=*/true);
  }
  Initialized = true;
  json::Object Capabilities{
      {"positionEncoding",
       Encoding == PositionEncoding::Utf8 ? "utf-8" : "utf-16"},
      {"textDocumentSync",
       json::Object{{"openClose", true},
                    {"change", 2}, // incremental
                    {"save", json::Object{{"includeText", false}}}}},
      {"codeActionProvider",
       json::Object{{"codeActionKinds", json::Array{"quickfix"}}}},
      {"hoverProvider", true}};
  return json::Object{{"capabilities", std::move(Capabilities)},
                      {"serverInfo", json::Object{{"name", "tmemcheck"},
                                                  {"version", Opts.Version}}}};
}

void Server::applySettings(const json::Object &Settings, bool FromInitialize) {
  // `{"tmemcheck": {...}}` as VS Code sends a section, or the keys alone.
  const json::Object *S = Settings.getObject("tmemcheck");
  if (!S)
    S = &Settings;
  std::lock_guard<std::mutex> Lock(M);
  SettingOverrides New = CliOverrides;
  auto Append = [](std::string &To, std::optional<llvm::StringRef> Globs) {
    if (Globs && !Globs->empty())
      To += (To.empty() ? "" : ",") + Globs->str();
  };
  Append(New.Checks, S->getString("checks"));
  Append(New.WarningsAsErrors, S->getString("warningsAsErrors"));
  // The globs are checked here, where the user can be told.
  std::vector<std::string> Unmatched;
  std::string Error;
  CheckFilter::create(New.Checks, Unmatched, Error);
  if (Error.empty())
    CheckFilter::createWithoutDefaults(New.WarningsAsErrors, Unmatched, Error);
  if (!Error.empty()) {
    Transport.notify(
        "window/showMessage",
        json::Object{{"type", 1},
                     {"message", "tmemcheck: settings ignored: " + Error}});
    return;
  }
  for (const std::string &G : Unmatched)
    Transport.notify("window/showMessage",
                     json::Object{{"type", 2},
                                  {"message", "tmemcheck: check glob '" + G +
                                                  "' matches no check"}});
  Overrides = std::move(New);
  if (std::optional<llvm::StringRef> Db =
          S->getString("compilationDatabasePath"))
    DatabasePath = Db->str();
  if (std::optional<int64_t> Ms = S->getInteger("debounceMs"))
    if (*Ms >= 0 && *Ms <= 60000)
      DebounceMs = *Ms;
  ++SettingsGeneration;
  if (!FromInitialize) {
    for (auto &[Uri, D] : Docs)
      D->Due = Clock::now();
    Wake.notify_all();
  }
}

std::shared_ptr<Document> Server::documentOf(const json::Object *Params) {
  const json::Object *TD = Params ? Params->getObject("textDocument") : nullptr;
  std::optional<llvm::StringRef> Uri = TD ? TD->getString("uri") : std::nullopt;
  if (!Uri)
    return nullptr;
  std::lock_guard<std::mutex> Lock(M);
  auto It = Docs.find(Uri->str());
  return It == Docs.end() ? nullptr : It->second;
}

void Server::didOpen(const json::Object &Params) {
  const json::Object *TD = Params.getObject("textDocument");
  std::optional<llvm::StringRef> Uri = TD ? TD->getString("uri") : std::nullopt;
  std::optional<llvm::StringRef> Text =
      TD ? TD->getString("text") : std::nullopt;
  std::lock_guard<std::mutex> Lock(M);
  if (!Uri || !Text) {
    log("ignored didOpen without a uri and a text", 2);
    return;
  }
  std::optional<std::string> Path = uriToPath(*Uri);
  if (!Path) {
    log("ignored '" + Uri->str() + "': tmemcheck analyses file:// documents",
        3);
    return;
  }
  auto D = std::make_shared<Document>();
  D->Uri = Uri->str();
  llvm::SmallString<256> Abs(*Path);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  D->Path = std::string(Abs);
  D->Text = TextDocument(Text->str(), TD->getInteger("version").value_or(0));
  D->Due = Clock::now();
  Docs[D->Uri] = std::move(D);
  Wake.notify_all();
}

void Server::didChange(const json::Object &Params) {
  std::shared_ptr<Document> D = documentOf(&Params);
  std::lock_guard<std::mutex> Lock(M);
  if (!D) {
    log("ignored a change of a document that is not open", 2);
    return;
  }
  const json::Object *TD = Params.getObject("textDocument");
  int64_t Version = TD->getInteger("version").value_or(D->Text.version() + 1);
  const json::Array *Changes = Params.getArray("contentChanges");
  if (!Changes) {
    log("ignored didChange without contentChanges", 2);
    return;
  }
  for (const json::Value &C : *Changes) {
    const json::Object *Change = C.getAsObject();
    std::optional<llvm::StringRef> Text =
        Change ? Change->getString("text") : std::nullopt;
    if (!Text) {
      log("ignored a content change without text", 2);
      continue;
    }
    Range R;
    const json::Value *RV = Change->get("range");
    if (RV && !fromJson(*RV, R)) {
      log("ignored a content change with a malformed range", 2);
      continue;
    }
    if (llvm::Error E =
            D->Text.applyChange(RV ? &R : nullptr, *Text, Version, Encoding)) {
      // The buffers disagree; the client must resend the document.
      log("a content change does not fit the document: " +
              llvm::toString(std::move(E)) +
              "; the document's later analyses may be wrong until it is "
              "reopened",
          1);
    }
  }
  D->Due = Clock::now() + std::chrono::milliseconds(DebounceMs);
  Wake.notify_all();
}

void Server::didClose(const json::Object &Params) {
  const json::Object *TD = Params.getObject("textDocument");
  std::optional<llvm::StringRef> Uri = TD ? TD->getString("uri") : std::nullopt;
  std::lock_guard<std::mutex> Lock(M);
  if (!Uri)
    return;
  auto It = Docs.find(Uri->str());
  if (It == Docs.end())
    return;
  std::shared_ptr<Document> D = It->second;
  Docs.erase(It);
  for (WaitingRequest &R : D->Waiting)
    Transport.reply(std::move(R.Id), nothingFor(R.Method));
  D->Waiting.clear();
  publish(*D, {});
}

void Server::cancel(const json::Value &Id) {
  std::lock_guard<std::mutex> Lock(M);
  for (auto &[Uri, D] : Docs)
    for (auto It = D->Waiting.begin(); It != D->Waiting.end(); ++It)
      if (It->Id == Id) {
        Transport.replyError(std::move(It->Id), ErrorCode::RequestCancelled,
                             "cancelled");
        D->Waiting.erase(It);
        return;
      }
  // A request already answered: nothing to cancel.
}

void Server::scheduleAll(std::chrono::milliseconds Delay) {
  std::lock_guard<std::mutex> Lock(M);
  for (auto &[Uri, D] : Docs)
    D->Due = Clock::now() + Delay;
  Wake.notify_all();
}

void Server::answer(Document &D, const WaitingRequest &R) {
  const json::Object *P = R.Params.getAsObject();
  if (R.Method == "textDocument/hover") {
    Position Pos;
    if (!P || !P->get("position") || !fromJson(*P->get("position"), Pos)) {
      Transport.replyError(R.Id, ErrorCode::InvalidParams,
                           "hover needs a position");
      return;
    }
    for (const KernelReport &K : D.Reports) {
      std::string Text = regionHover(K, D.Path, Pos.Line + 1);
      if (!Text.empty()) {
        Transport.reply(
            R.Id, json::Object{{"contents", json::Object{{"kind", "markdown"},
                                                         {"value", Text}}}});
        return;
      }
    }
    Transport.reply(R.Id, nullptr);
    return;
  }
  Range Want;
  if (!P || !P->get("range") || !fromJson(*P->get("range"), Want)) {
    Transport.replyError(R.Id, ErrorCode::InvalidParams,
                         "codeAction needs a range");
    return;
  }
  json::Array Actions;
  for (const PublishedFinding &F : D.Findings) {
    if (F.Uri != D.Uri || F.Edit.empty())
      continue;
    // The lines overlap: a cursor anywhere on the finding's lines asks for
    // its fix.
    if (Want.End.Line < F.R.Start.Line || F.R.End.Line < Want.Start.Line)
      continue;
    Actions.push_back(
        json::Object{{"title", "Apply tmemcheck fix for " + F.Check},
                     {"kind", "quickfix"},
                     {"isPreferred", true},
                     {"diagnostics", json::Array{json::Object(F.Diagnostic)}},
                     {"edit", json::Object(F.Edit)}});
  }
  Transport.reply(R.Id, std::move(Actions));
}

void Server::publishUri(const std::string &Uri) {
  json::Array All;
  auto It = Published.find(Uri);
  if (It != Published.end())
    for (const auto &[From, Diagnostics] : It->second)
      for (const json::Value &V : Diagnostics)
        All.push_back(V);
  json::Object Params{{"uri", Uri}, {"diagnostics", std::move(All)}};
  auto Doc = Docs.find(Uri);
  if (Doc != Docs.end() && Doc->second->HasResults)
    Params["version"] = Doc->second->AnalyzedVersion;
  Transport.notify("textDocument/publishDiagnostics", std::move(Params));
}

void Server::publish(Document &D, std::vector<PublishedFinding> Findings) {
  std::map<std::string, json::Array> ByUri;
  ByUri[D.Uri]; // the document's own list, even when empty
  for (const PublishedFinding &F : Findings)
    ByUri[F.Uri].push_back(json::Object(F.Diagnostic));
  if (Docs.count(D.Uri) == 0)
    ByUri.clear(); // closed: withdraw everything it published
  std::set<std::string> Uris = D.PublishedUris;
  for (auto &[Uri, List] : ByUri)
    Uris.insert(Uri);
  for (const std::string &Uri : Uris) {
    auto It = ByUri.find(Uri);
    if (It == ByUri.end())
      Published[Uri].erase(D.Uri);
    else
      Published[Uri][D.Uri] = std::move(It->second);
    if (Published[Uri].empty())
      Published.erase(Uri);
    publishUri(Uri);
  }
  D.PublishedUris.clear();
  for (auto &[Uri, List] : ByUri)
    D.PublishedUris.insert(Uri);
  D.Findings = std::move(Findings);
}

// --- The worker -----------------------------------------------------------

void Server::work() {
  std::unique_lock<std::mutex> L(M);
  while (!Stopping) {
    std::shared_ptr<Document> Next;
    for (auto &[Uri, D] : Docs)
      if (D->Due && (!Next || *D->Due < *Next->Due))
        Next = D;
    if (!Next) {
      Wake.wait(L);
      continue;
    }
    if (*Next->Due > Clock::now()) {
      Wake.wait_until(L, *Next->Due);
      continue;
    }
    analyse(std::move(Next), L);
  }
}

const clang::tooling::CompilationDatabase *
Server::databaseFor(const std::string &Path,
                    std::vector<std::string> &Warnings) {
  using namespace clang::tooling;
  std::string Key = WorkerDatabasePath.empty()
                        ? std::string(llvm::sys::path::parent_path(Path))
                        : WorkerDatabasePath;
  auto It = Databases.find(Key);
  if (It == Databases.end()) {
    std::string Err;
    std::unique_ptr<CompilationDatabase> Db;
    if (!WorkerDatabasePath.empty()) {
      llvm::SmallString<256> Json(WorkerDatabasePath);
      if (llvm::sys::fs::is_directory(Json))
        llvm::sys::path::append(Json, "compile_commands.json");
      if (llvm::sys::fs::exists(Json))
        Db = JSONCompilationDatabase::loadFromFile(
            Json, Err, JSONCommandLineSyntax::AutoDetect);
      if (!Db)
        Err = fmt::format(
            "cannot load the compilation database '{}': {}", std::string(Json),
            Err.empty() ? "no such file" : llvm::StringRef(Err).trim().str());
    } else {
      Db = CompilationDatabase::autoDetectFromSource(Path, Err);
      Err.clear(); // none found upward: the default flags, as the CLI
    }
    if (Db)
      Db = withInterpolatedCommands(std::move(Db));
    It = Databases.emplace(Key, std::move(Db)).first;
    if (!It->second && !Err.empty())
      DatabaseErrors[Key] = Err;
  }
  if (auto E = DatabaseErrors.find(Key); E != DatabaseErrors.end())
    Warnings.push_back(E->second + "; analysed with the default flags");
  return It->second.get();
}

ParseSetup Server::setupFor(const std::string &Path) {
  ParseSetup S;
  llvm::Expected<Config> C = Configs->forFile(Path);
  if (!C) {
    S.Error = llvm::toString(C.takeError());
    return S;
  }
  llvm::Expected<FileSettings> FS = Resolver->resolve(*C);
  if (!FS) {
    S.Error = llvm::toString(FS.takeError());
    return S;
  }
  for (const std::string &Check : FS->UnknownSeverityChecks)
    S.Warnings.push_back(fmt::format(
        "CheckSeverity in {} names an unknown check '{}'", C->Path, Check));
  if (FS->enablesNoCheck()) {
    S.Error = "no checks enabled for this file" +
              (C->Path.empty() ? std::string() : " (" + C->Path + ")");
    return S;
  }
  S.Settings = std::move(*FS);
  std::vector<clang::tooling::CompileCommand> Commands;
  std::string Dir = std::string(llvm::sys::path::parent_path(Path));
  if (Opts.FixedArgs) {
    // Flags given on the server's command line are relative to where it
    // was started, as for the CLI.
    llvm::SmallString<256> Cwd;
    llvm::sys::fs::current_path(Cwd);
    clang::tooling::FixedCompilationDatabase Fixed(Cwd, *Opts.FixedArgs);
    Commands = Fixed.getCompileCommands(Path);
  } else if (const clang::tooling::CompilationDatabase *Db =
                 databaseFor(Path, S.Warnings)) {
    Commands = Db->getCompileCommands(Path);
  }
  if (Commands.empty()) {
    clang::tooling::FixedCompilationDatabase Defaults(
        Dir, std::vector<std::string>());
    Commands = Defaults.getCompileCommands(Path);
  }
  const clang::tooling::CompileCommand &Cmd = Commands.front();
  ParseCommand PC =
      S.Settings->Env->prepareParse(Cmd.CommandLine, Cmd.Directory, Path);
  if (!PC.Error.empty()) {
    S.Error = fmt::format("the compile command of this file (directory "
                          "'{}') cannot be translated: {}",
                          Cmd.Directory, PC.Error);
    return S;
  }
  S.Args = std::move(PC.Args);
  S.GpuArch = std::move(PC.GpuArch);
  S.Directory = Cmd.Directory;
  return S;
}

const TextDocument &Server::textOf(const std::string &Path, const Document &D,
                                   const TextDocument &Analysed) {
  if (Path == D.Path)
    return Analysed;
  auto It = OtherFiles.find(Path);
  if (It == OtherFiles.end()) {
    std::string Text;
    if (auto Buf = llvm::MemoryBuffer::getFile(Path))
      Text = (*Buf)->getBuffer().str();
    It = OtherFiles.emplace(Path, TextDocument(std::move(Text), 0)).first;
  }
  return It->second;
}

json::Object Server::workspaceEdit(const Finding &F, const Document &D,
                                   const TextDocument &Analysed) {
  std::map<std::string, json::Array> EditsByFile;
  for (const FixIt &Fix : F.Fixes) {
    const TextDocument &T = textOf(Fix.File, D, Analysed);
    if (Fix.Offset + Fix.Length > T.text().size())
      return {}; // the fix-it does not fit the text: offer none
    Range R{T.positionAtOffset(Fix.Offset, Encoding),
            T.positionAtOffset(Fix.Offset + Fix.Length, Encoding)};
    EditsByFile[Fix.File].push_back(
        json::Object{{"range", toJson(R)}, {"newText", Fix.Text}});
  }
  if (EditsByFile.empty())
    return {};
  if (DocumentChanges) {
    json::Array Changes;
    for (auto &[File, Edits] : EditsByFile)
      Changes.push_back(json::Object{
          {"textDocument",
           json::Object{{"uri", pathToUri(File)},
                        {"version", File == D.Path
                                        ? json::Value(Analysed.version())
                                        : json::Value(nullptr)}}},
          {"edits", std::move(Edits)}});
    return json::Object{{"documentChanges", std::move(Changes)}};
  }
  json::Object Changes;
  for (auto &[File, Edits] : EditsByFile)
    Changes[pathToUri(File)] = std::move(Edits);
  return json::Object{{"changes", std::move(Changes)}};
}

std::vector<PublishedFinding> Server::publishable(const Document &D,
                                                  const TextDocument &Analysed,
                                                  const AnalysisOutput &Out,
                                                  const ParseSetup &Setup) {
  std::vector<PublishedFinding> List;
  // A diagnostic about the whole document, at its first line.
  auto AboutDocument = [&](Severity Level, std::string Message,
                           std::optional<SourceLoc> At = std::nullopt,
                           json::Array Related = {}) {
    PublishedFinding P;
    P.Uri = D.Uri;
    if (At && At->File == D.Path && At->Line)
      P.R = rangeOf(*At, Analysed, Encoding);
    P.Diagnostic = json::Object{{"range", toJson(P.R)},
                                {"severity", lspSeverity(Level)},
                                {"source", "tmemcheck"},
                                {"message", std::move(Message)}};
    if (!Related.empty())
      P.Diagnostic["relatedInformation"] = std::move(Related);
    List.push_back(std::move(P));
  };
  // JSON values keep a StringRef without copying it: every string here is
  // a std::string the object owns.
  auto Related = [&](const SourceLoc &L, const std::string &Message) {
    const TextDocument &T = textOf(L.File, D, Analysed);
    return json::Object{
        {"location", json::Object{{"uri", pathToUri(L.File)},
                                  {"range", toJson(rangeOf(L, T, Encoding))}}},
        {"message", Message}};
  };
  for (const std::string &W : Setup.Warnings)
    AboutDocument(Severity::Warning, W);
  if (!Setup.Error.empty()) {
    AboutDocument(Severity::Error,
                  "tmemcheck did not analyse this file: " + Setup.Error);
    return List;
  }
  if (Out.Crashed) {
    AboutDocument(Severity::Error,
                  "internal error while analysing this file (a tmemcheck "
                  "bug; please report it with the file); the server goes on, "
                  "and analyses the file again after the next edit");
    return List;
  }
  if (!Out.Parsed) {
    AboutDocument(Severity::Error,
                  "tmemcheck did not analyse this file: " + Out.FailReason);
    return List;
  }
  if (Out.CompileErrorCount) {
    json::Array Errors;
    for (const CompileError &E : Out.CompileErrors)
      if (E.Loc.isValid() && Errors.size() < 20)
        Errors.push_back(Related(E.Loc, E.Message));
    const CompileError &First = Out.CompileErrors.front();
    AboutDocument(
        Severity::Warning,
        fmt::format("the device-side parse of this file ({}, as "
                    "tmemcheck parses it) has {} compile error(s), so its "
                    "TMEM analysis may be incomplete; the first: {}{}",
                    Setup.GpuArch, Out.CompileErrorCount,
                    First.Loc.isValid()
                        ? fmt::format("{}:{}:{}: ", First.Loc.File,
                                      First.Loc.Line, First.Loc.Column)
                        : std::string(),
                    First.Message),
        First.Loc, std::move(Errors));
  }
  Suppressions Nolint;
  Nolint.setContents(D.Path, Analysed.text());
  for (const Finding &F0 : Out.Findings) {
    if (Nolint.isSuppressed(F0))
      continue;
    Finding F = F0;
    F.Level = Setup.Settings->severityOf(F.CheckName, F.Level);
    PublishedFinding P;
    P.Check = F.CheckName;
    P.Uri = pathToUri(F.Loc.File);
    const TextDocument &T = textOf(F.Loc.File, D, Analysed);
    P.R = rangeOf(F.Loc, T, Encoding);
    json::Array Notes;
    for (const FindingNote &N : F.Notes)
      if (N.Loc.isValid())
        Notes.push_back(Related(N.Loc, N.Message));
    P.Diagnostic = json::Object{{"range", toJson(P.R)},
                                {"severity", lspSeverity(F.Level)},
                                {"code", F.CheckName},
                                {"source", "tmemcheck"},
                                {"message", F.Message}};
    if (!Opts.HelpBase.empty())
      P.Diagnostic["codeDescription"] =
          json::Object{{"href", checkPageUrl(Opts.HelpBase, F.CheckName)}};
    if (!Notes.empty())
      P.Diagnostic["relatedInformation"] = std::move(Notes);
    P.Edit = workspaceEdit(F, D, Analysed);
    if (!P.Edit.empty())
      P.Diagnostic["data"] = json::Object{{"fixable", true}};
    List.push_back(std::move(P));
  }
  // Kernels the analysis did not see in full: said where they start, so
  // that a clean editor is never a false all-clear.
  for (const KernelVerdict &V : Out.Verdicts) {
    if (V.kind() != VerdictKind::Incomplete || V.Loc.File != D.Path)
      continue;
    json::Array Reasons;
    for (const IncompleteReason &R : V.Reasons)
      if (R.Loc.isValid() && Reasons.size() < 20)
        Reasons.push_back(Related(R.Loc, R.Message));
    AboutDocument(Severity::Remark, incompleteSummary(V), V.Loc,
                  std::move(Reasons));
  }
  return List;
}

void Server::analyse(std::shared_ptr<Document> D,
                     std::unique_lock<std::mutex> &L) {
  D->Due.reset();
  D->Analyzing = true;
  const TextDocument Snapshot = D->Text;
  if (WorkerGeneration != SettingsGeneration) {
    WorkerGeneration = SettingsGeneration;
    WorkerOverrides = Overrides;
    WorkerDatabasePath = DatabasePath;
    Configs = std::make_unique<ConfigFinder>(Opts.ConfigFile);
    Resolver =
        std::make_unique<FileSettingsResolver>(Opts.BaseEnv, WorkerOverrides);
    Databases.clear();
    DatabaseErrors.clear();
  }
  L.unlock();

  auto Start = Clock::now();
  OtherFiles.clear(); // files on disk may have changed since
  ParseSetup Setup = setupFor(D->Path);
  AnalysisOutput Out;
  if (Setup.Error.empty()) {
    AnalysisInput In;
    In.Path = D->Path;
    In.Contents = Snapshot.text().str();
    In.ParseArgs = Setup.Args;
    In.Directory = Setup.Directory;
    In.Settings = &*Setup.Settings;
    In.CrashInKernel = Opts.CrashInKernel;
    Out = D->Analyzer.analyze(In);
  }
  std::vector<PublishedFinding> Findings =
      publishable(*D, Snapshot, Out, Setup);
  double Seconds = std::chrono::duration<double>(Clock::now() - Start).count();

  L.lock();
  D->Analyzing = false;
  ++D->Analyses;
  D->LastParseSeconds = Out.ParseSeconds;
  D->LastCheckSeconds = Out.CheckSeconds;
  D->LastReparsed = Out.Reparsed;
  if (Out.Crashed && !CrashReported) {
    CrashReported = true;
    Transport.notify(
        "window/showMessage",
        json::Object{{"type", 1},
                     {"message", "tmemcheck: internal error while analysing " +
                                     D->Path +
                                     " (a tmemcheck bug; please report it "
                                     "with the file); the server goes on"}});
  }
  auto Open = Docs.find(D->Uri);
  if (Open == Docs.end() || Open->second != D)
    return; // closed meanwhile: its diagnostics were withdrawn
  if (D->Due || D->Text.version() != Snapshot.version()) {
    log(fmt::format("dropped the results of {} version {}: the document has "
                    "changed since",
                    D->Path, Snapshot.version()));
    return;
  }
  log(fmt::format("analysed {} version {} in {:.3f} s (parse {:.3f} s{}, "
                  "graphs and checks {:.3f} s), {} diagnostic(s)",
                  D->Path, Snapshot.version(), Seconds, Out.ParseSeconds,
                  Out.Reparsed ? ", reparsed" : "", Out.CheckSeconds,
                  Findings.size()));
  D->HasResults = true;
  D->AnalyzedVersion = Snapshot.version();
  D->Reports = std::move(Out.Reports);
  publish(*D, std::move(Findings));
  for (const WaitingRequest &R : D->Waiting)
    answer(*D, R);
  D->Waiting.clear();
}

} // namespace

int runLanguageServer(ServerOptions Options, std::FILE *In,
                      llvm::raw_ostream &Out) {
  Server S(std::move(Options), In, Out);
  return S.run();
}

} // namespace lsp
} // namespace tmemcheck
