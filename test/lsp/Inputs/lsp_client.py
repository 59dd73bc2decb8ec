#!/usr/bin/env python3
"""A scripted Language Server Protocol client for tmemcheck's tests and
benchmarks.

It starts the server, plays a session script line by line and prints what
the server answered in a stable text form that FileCheck can match:

    start <server command...>     start the server (shell words)
    initialize [json]             initialize/initialized; json: the
                                  initializationOptions
    open <path>                   didOpen with the file's contents
    wait-diagnostics <path>       wait for the diagnostics of the document's
                                  current version and print them
    wait-next-diagnostics <path>  the same, for the next publication
    replace <path> <old>, <new>   an incremental change: the first <old>
                                  becomes <new> (Python string literals)
    append <path> <text>          an incremental change at the end
    full-change <path> <text>     a full change
    code-action <path> <line>     request code actions for 1-based <line>
    apply-action                  apply the first action's edit (didChange)
    hover <path> <line> <col>     request a hover at 1-based line/column
    config <json>                 workspace/didChangeConfiguration
    watched <path>                workspace/didChangeWatchedFiles
    write-file <path> <literal>   write a file (a config the server watches)
    request <method> <json>       any request; prints the response
    send-request <name> <method> <json>
                                  a request whose response is read later
    cancel <name>                 $/cancelRequest for it
    wait-response <name>          print its response
    notify <method> <json>        any notification
    raw <python string literal>   bytes written as they are
    frame <python string literal> a body with its Content-Length; prints
                                  the error response it gets
    ($URI(<path>) in a JSON argument is the file's URI)
    expect-alive                  a request the server must answer
    close <path>
    shutdown                      shutdown then exit; prints the exit status
    # ...                         a comment

Paths are printed relative to the directory given with --root.
"""

import ast
import json
import os
import shlex
import subprocess
import sys
import threading
import time
import queue

TIMEOUT = float(os.environ.get("LSP_CLIENT_TIMEOUT", "300"))


def uri_of(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))


def path_of(uri):
    from urllib.parse import unquote
    assert uri.startswith("file://"), uri
    return unquote(uri[len("file://"):])


class Client:
    def __init__(self, command, root="."):
        self.root = os.path.abspath(root)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE)
        self.messages = queue.Queue()
        self.next_id = 1
        self.docs = {}  # uri -> [text, version]
        self.diagnostics = {}  # uri -> (version, list)
        self.pending = []  # messages read but not yet consumed
        self.last_action = None
        self.named = {}  # send-request names -> ids
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # --- transport -------------------------------------------------------
    def _read(self):
        try:
            self._read_frames()
        except Exception as e:  # a broken frame ends the session
            print("CLIENT-ERROR %s" % e)
            self.messages.put(None)

    def _read_frames(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length is None:
                continue
            body = out.read(length)
            self.messages.put(json.loads(body))

    def send(self, message):
        message["jsonrpc"] = "2.0"
        body = json.dumps(message).encode()
        self.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def next_message(self, deadline):
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no answer from the server")
        try:
            message = self.messages.get(timeout=left)
        except queue.Empty:
            raise TimeoutError("no answer from the server")
        if message is None:
            raise EOFError("the server closed its output")
        if message.get("method") == "textDocument/publishDiagnostics":
            p = message["params"]
            self.diagnostics[p["uri"]] = (p.get("version"), p["diagnostics"])
        elif message.get("method") == "window/showMessage":
            print("SHOW %d %s" % (message["params"]["type"],
                                   message["params"]["message"]))
        elif "id" in message and "method" in message:
            # A request of the server's (registerCapability): accept it.
            self.send({"id": message["id"], "result": None})
        return message

    def send_request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        return rid

    def response(self, rid):
        deadline = time.monotonic() + TIMEOUT
        while True:
            m = self.next_message(deadline)
            if m.get("id") == rid and "method" not in m:
                return m

    def request(self, method, params):
        return self.response(self.send_request(method, params))

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    # --- documents -------------------------------------------------------
    def rel(self, uri):
        return os.path.relpath(path_of(uri), self.root)

    def open(self, path):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        uri = uri_of(path)
        self.docs[uri] = [text, 1]
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cuda-cpp", "version": 1,
            "text": text}})

    def position(self, text, offset):
        before = text[:offset]
        line = before.count("\n")
        col = len(before) - (before.rfind("\n") + 1)
        # UTF-16 code units
        col16 = len(before[len(before) - col:].encode("utf-16-le")) // 2
        return {"line": line, "character": col16}

    def offset(self, text, pos):
        lines = text.split("\n")
        off = sum(len(l) + 1 for l in lines[:pos["line"]])
        line = lines[pos["line"]] if pos["line"] < len(lines) else ""
        units = 0
        i = 0
        while i < len(line) and units < pos["character"]:
            units += len(line[i].encode("utf-16-le")) // 2
            i += 1
        return off + i

    def change(self, path_or_uri, edits, full=None):
        uri = path_or_uri if path_or_uri.startswith("file://") else \
            uri_of(path_or_uri)
        doc = self.docs[uri]
        changes = []
        if full is not None:
            doc[0] = full
            changes.append({"text": full})
        else:
            # edits: (start_offset, end_offset, new_text), applied one by
            # one, each against the text the previous one left
            for start, end, new in edits:
                rng = {"start": self.position(doc[0], start),
                       "end": self.position(doc[0], end)}
                doc[0] = doc[0][:start] + new + doc[0][end:]
                changes.append({"range": rng, "text": new})
        doc[1] += 1
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": doc[1]},
            "contentChanges": changes})

    def wait_diagnostics(self, path):
        uri = uri_of(path)
        want = self.docs[uri][1]
        deadline = time.monotonic() + TIMEOUT
        while True:
            got = self.diagnostics.get(uri)
            if got and got[0] == want:
                return got[1]
            self.next_message(deadline)

    def print_diagnostics(self, path):
        for d in self.wait_diagnostics(path):
            s = d["range"]["start"]
            e = d["range"]["end"]
            print("DIAG %s:%d:%d-%d:%d %s %s: %s" % (
                os.path.relpath(path, self.root), s["line"] + 1,
                s["character"] + 1, e["line"] + 1, e["character"] + 1,
                {1: "error", 2: "warning", 3: "info", 4: "hint"}[
                    d["severity"]], d.get("code", "-"), d["message"]))
            if "codeDescription" in d:
                print("  HREF %s" % d["codeDescription"]["href"])
            for r in d.get("relatedInformation", []):
                rs = r["location"]["range"]["start"]
                print("  NOTE %s:%d:%d: %s" % (
                    self.rel(r["location"]["uri"]), rs["line"] + 1,
                    rs["character"] + 1, r["message"]))
        print("END-DIAGNOSTICS %s" % os.path.relpath(path, self.root))

    def apply_edit(self, edit):
        per_uri = {}
        for uri, edits in edit.get("changes", {}).items():
            per_uri[uri] = edits
        for dc in edit.get("documentChanges", []):
            per_uri[dc["textDocument"]["uri"]] = dc["edits"]
        for uri, edits in per_uri.items():
            text = self.docs[uri][0]
            # LSP: all ranges refer to the text before the edit; apply from
            # the end.
            spans = sorted(((self.offset(text, e["range"]["start"]),
                             self.offset(text, e["range"]["end"]),
                             e["newText"]) for e in edits), reverse=True)
            new = text
            for start, end, t in spans:
                new = new[:start] + t + new[end:]
            self.change(uri, [], full=new)


def with_uris(text):
    import re
    return re.sub(r"\$URI\(([^)]+)\)", lambda m: uri_of(m.group(1)), text)


def print_response(m):
    if "error" in m:
        print("ERROR %d %s" % (m["error"]["code"], m["error"]["message"]))
    else:
        print("RESULT %s" % json.dumps(m["result"], sort_keys=True))


def run_script(script, root):
    client = None
    status = 0
    for raw in script:
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        word, _, rest = line.strip().partition(" ")
        rest = with_uris(rest)
        if word == "start":
            client = Client(shlex.split(os.path.expandvars(rest)), root)
        elif word == "initialize":
            options = json.loads(rest) if rest.strip() else None
            caps = {"workspace": {"workspaceEdit": {"documentChanges": True},
                                  "didChangeWatchedFiles": {
                                      "dynamicRegistration": True}}}
            r = client.request("initialize", {
                "processId": os.getpid(), "rootUri": uri_of(root),
                "capabilities": caps, "initializationOptions": options})
            c = r["result"]["capabilities"]
            print("INITIALIZED %s sync=%s codeAction=%s hover=%s" % (
                r["result"]["serverInfo"]["name"],
                c["textDocumentSync"]["change"],
                "codeActionProvider" in c, c.get("hoverProvider")))
            client.notify("initialized", {})
        elif word == "open":
            client.open(rest.strip())
        elif word == "wait-diagnostics":
            client.print_diagnostics(rest.strip())
        elif word == "wait-next-diagnostics":
            # The next publication, whatever its version (a settings change
            # re-analyses the same version): forget the last one first.
            client.diagnostics.pop(uri_of(rest.strip()), None)
            client.print_diagnostics(rest.strip())
        elif word in ("replace", "append", "full-change"):
            # <path> then Python string literals separated by commas
            path, _, literals = rest.partition(" ")
            args = ast.literal_eval("(" + literals + ",)")
            text = client.docs[uri_of(path)][0]
            if word == "replace":
                old, new = args
                at = text.index(old)
                client.change(path, [(at, at + len(old), new)])
            elif word == "append":
                client.change(path, [(len(text), len(text), args[0])])
            else:
                client.change(path, [], full=args[0])
        elif word == "code-action":
            path, ln = rest.split()
            ln = int(ln) - 1
            uri = uri_of(path)
            diags = [d for d in client.diagnostics.get(uri, (0, []))[1]
                     if d["range"]["start"]["line"] <= ln <=
                     d["range"]["end"]["line"]]
            r = client.request("textDocument/codeAction", {
                "textDocument": {"uri": uri},
                "range": {"start": {"line": ln, "character": 0},
                          "end": {"line": ln, "character": 0}},
                "context": {"diagnostics": diags}})
            actions = r.get("result") or []
            for a in actions:
                print("ACTION %s [%s]" % (a["title"], a.get("kind")))
                for dc in a["edit"].get("documentChanges", []):
                    for e in dc["edits"]:
                        print("  EDIT %s:%d:%d %r" % (
                            client.rel(dc["textDocument"]["uri"]),
                            e["range"]["start"]["line"] + 1,
                            e["range"]["start"]["character"] + 1,
                            e["newText"]))
            if not actions:
                print("NO-ACTIONS")
            client.last_action = actions[0] if actions else None
        elif word == "apply-action":
            client.apply_edit(client.last_action["edit"])
            print("APPLIED")
        elif word == "hover":
            path, ln, col = rest.split()
            r = client.request("textDocument/hover", {
                "textDocument": {"uri": uri_of(path)},
                "position": {"line": int(ln) - 1,
                             "character": int(col) - 1}})
            res = r.get("result")
            if res:
                for l in res["contents"]["value"].split("\n"):
                    print("HOVER %s" % l)
            else:
                print("HOVER-NONE")
        elif word == "config":
            client.notify("workspace/didChangeConfiguration",
                          {"settings": json.loads(rest)})
        elif word == "watched":
            client.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": uri_of(rest.strip()), "type": 2}]})
        elif word == "request":
            method, _, params = rest.partition(" ")
            print_response(client.request(method, json.loads(params or "null")))
        elif word == "write-file":
            path, _, literal = rest.partition(" ")
            with open(path, "w") as f:
                f.write(ast.literal_eval(literal))
        elif word == "send-request":
            # A request answered later: send-request <name> <method> <json>
            name, method, params = rest.split(" ", 2)
            client.named[name] = client.send_request(method,
                                                     json.loads(params))
        elif word == "cancel":
            client.notify("$/cancelRequest", {"id": client.named[rest.strip()]})
        elif word == "wait-response":
            print_response(client.response(client.named[rest.strip()]))
        elif word == "notify":
            method, _, params = rest.partition(" ")
            client.notify(method, json.loads(params or "null"))
        elif word == "raw":
            client.write(ast.literal_eval(rest).encode())
        elif word == "frame":
            body = ast.literal_eval(rest).encode()
            client.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            # the error response it must get
            deadline = time.monotonic() + TIMEOUT
            while True:
                m = client.next_message(deadline)
                if "error" in m and "method" not in m:
                    print("ERROR %d %s" % (m["error"]["code"],
                                           m["error"]["message"]))
                    break
        elif word == "expect-alive":
            r = client.request("tmemcheck/stats", {})
            print("ALIVE %d document(s)" % len(r["result"]["documents"]))
        elif word == "close":
            client.notify("textDocument/didClose", {
                "textDocument": {"uri": uri_of(rest.strip())}})
            # The server withdraws the document's diagnostics.
            uri = uri_of(rest.strip())
            deadline = time.monotonic() + TIMEOUT
            while True:
                m = client.next_message(deadline)
                if m.get("method") == "textDocument/publishDiagnostics" \
                        and m["params"]["uri"] == uri:
                    print("CLOSED %d diagnostic(s)" %
                          len(m["params"]["diagnostics"]))
                    break
        elif word == "shutdown":
            r = client.request("shutdown", None)
            client.notify("exit", None)
            client.proc.stdin.close()
            status = client.proc.wait(timeout=TIMEOUT)
            print("EXIT %d" % status)
        else:
            raise SystemExit("unknown script command: " + line)
        sys.stdout.flush()
    return 0


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script")
    ap.add_argument("--root", default=".")
    a = ap.parse_args()
    with open(a.script) as f:
        return run_script(f.readlines(), a.root)


if __name__ == "__main__":
    sys.exit(main())
