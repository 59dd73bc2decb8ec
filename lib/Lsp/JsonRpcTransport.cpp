//===- JsonRpcTransport.cpp - LSP base protocol over a byte stream --------===//
//
// Part of tmemcheck.
//
//===----------------------------------------------------------------------===//

#include "tmemcheck/Lsp/JsonRpcTransport.h"

#include "llvm/ADT/StringExtras.h"

namespace tmemcheck {
namespace lsp {

/// The largest message body accepted (a whole CUTLASS file is a few MB).
static constexpr size_t MaxBodyBytes = 256u << 20;

bool JsonRpcTransport::readLine(std::string &Line) {
  Line.clear();
  for (;;) {
    int C = std::fgetc(In);
    if (C == EOF)
      return !Line.empty();
    if (C == '\n')
      break;
    Line.push_back(char(C));
  }
  if (!Line.empty() && Line.back() == '\r')
    Line.pop_back();
  return true;
}

IncomingFrame JsonRpcTransport::read() {
  IncomingFrame F;
  std::optional<size_t> Length;
  bool SawHeader = false;
  std::string Line;
  for (;;) {
    if (!readLine(Line)) {
      F.K = IncomingFrame::End;
      return F;
    }
    if (Line.empty()) {
      if (SawHeader)
        break;
      continue; // blank lines between messages
    }
    SawHeader = true;
    auto [Name, Value] = llvm::StringRef(Line).split(':');
    if (Name.trim().equals_insensitive("Content-Length")) {
      size_t N = 0;
      if (!Value.trim().getAsInteger(10, N))
        Length = N;
    }
  }
  if (!Length || *Length > MaxBodyBytes) {
    F.K = IncomingFrame::BadHeader;
    F.Error = Length ? "the message is larger than 256 MiB"
                     : "the header has no Content-Length";
    // Without a length the body cannot be skipped: the reader resumes at
    // the next line that looks like a header.
    if (Length)
      for (size_t I = 0; I < *Length && std::fgetc(In) != EOF; ++I)
        ;
    return F;
  }
  std::string Body(*Length, '\0');
  size_t Got = std::fread(Body.data(), 1, *Length, In);
  if (Got < *Length) {
    F.K = IncomingFrame::End;
    return F;
  }
  llvm::Expected<llvm::json::Value> V = llvm::json::parse(Body);
  if (!V) {
    F.K = IncomingFrame::BadJson;
    F.Error = llvm::toString(V.takeError());
    return F;
  }
  F.K = IncomingFrame::Message;
  F.Body = std::move(*V);
  return F;
}

void JsonRpcTransport::send(llvm::json::Object Message) {
  Message["jsonrpc"] = "2.0";
  std::string Body;
  llvm::raw_string_ostream OS(Body);
  OS << llvm::json::Value(std::move(Message));
  std::lock_guard<std::mutex> Lock(WriteMutex);
  Out << "Content-Length: " << Body.size() << "\r\n\r\n" << Body;
  Out.flush();
}

void JsonRpcTransport::notify(llvm::StringRef Method,
                              llvm::json::Value Params) {
  send(llvm::json::Object{{"method", Method}, {"params", std::move(Params)}});
}

void JsonRpcTransport::reply(llvm::json::Value Id, llvm::json::Value Result) {
  send(
      llvm::json::Object{{"id", std::move(Id)}, {"result", std::move(Result)}});
}

void JsonRpcTransport::replyError(llvm::json::Value Id, ErrorCode Code,
                                  llvm::StringRef Message) {
  send(llvm::json::Object{{"id", std::move(Id)},
                          {"error", llvm::json::Object{{"code", int(Code)},
                                                       {"message", Message}}}});
}

void JsonRpcTransport::request(llvm::json::Value Id, llvm::StringRef Method,
                               llvm::json::Value Params) {
  send(llvm::json::Object{{"id", std::move(Id)},
                          {"method", Method},
                          {"params", std::move(Params)}});
}

} // namespace lsp
} // namespace tmemcheck
