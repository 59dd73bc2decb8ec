//===- JsonRpcTransport.h - LSP base protocol over a byte stream -*- C++
//-*-===//
//
// Part of tmemcheck. The Language Server Protocol frames each JSON-RPC
// message with a `Content-Length` header. This reads such frames from an
// input stream and writes them to an output stream, with LLVM's JSON
// library for the bodies. Writes may come from several threads (the
// analysis worker publishes diagnostics while the reader answers
// requests); they are serialised here.
//
//===----------------------------------------------------------------------===//

#ifndef TMEMCHECK_LSP_JSONRPCTRANSPORT_H
#define TMEMCHECK_LSP_JSONRPCTRANSPORT_H

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <mutex>
#include <optional>
#include <string>

namespace tmemcheck {
namespace lsp {

/// JSON-RPC error codes of the LSP specification.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestCancelled = -32800,
};

/// One frame read from the stream.
struct IncomingFrame {
  enum Kind {
    Message,   ///< Body parsed as JSON.
    BadHeader, ///< The header had no usable Content-Length.
    BadJson,   ///< The body is not JSON (Error says why).
    End        ///< The stream ended.
  };
  Kind K = End;
  llvm::json::Value Body = nullptr;
  std::string Error;
};

class JsonRpcTransport {
public:
  /// Reads from \p In and writes to \p Out; neither is owned.
  JsonRpcTransport(std::FILE *In, llvm::raw_ostream &Out) : In(In), Out(Out) {}

  /// The next frame. A malformed frame is skipped as a whole (its body
  /// is consumed when its length is known), so the next read starts at the
  /// next header.
  IncomingFrame read();

  void notify(llvm::StringRef Method, llvm::json::Value Params);
  void reply(llvm::json::Value Id, llvm::json::Value Result);
  void replyError(llvm::json::Value Id, ErrorCode Code,
                  llvm::StringRef Message);
  /// A request from the server to the client (registerCapability); the
  /// client's response is read and ignored like any other.
  void request(llvm::json::Value Id, llvm::StringRef Method,
               llvm::json::Value Params);

private:
  void send(llvm::json::Object Message);
  bool readLine(std::string &Line);

  std::FILE *In;
  llvm::raw_ostream &Out;
  std::mutex WriteMutex;
};

} // namespace lsp
} // namespace tmemcheck

#endif // TMEMCHECK_LSP_JSONRPCTRANSPORT_H
