#!/usr/bin/env python3
"""Benchmark of the language server (tmemcheck --lsp): how long the first
analysis of a file takes after it is opened, how long a re-check takes after
an edit below its includes, and the memory the server holds for it.

Usage: bench/lsp_recheck.py [--tool T] [--edits N] file.cu [-- flags...]

The server is started with the flags after `--` as the file's command (as
`tmemcheck --lsp -- flags`), with no debounce. Each edit inserts a comment
line before the file's last line (below every #include, inside no
directive), then waits for the diagnostics of that version. The times are
from the client's side: sending the change to receiving the diagnostics.
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "test", "lsp", "Inputs"))
import lsp_client  # noqa: E402


def main():
    argv = sys.argv[1:]
    flags = None
    if "--" in argv:
        at = argv.index("--")
        argv, flags = argv[:at], argv[at + 1:]
    ap = argparse.ArgumentParser()
    ap.add_argument("--tool", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "tools",
        "tmemcheck", "tmemcheck"))
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("file")
    a = ap.parse_args(argv)
    command = [a.tool, "--lsp"] + (["--"] + flags if flags is not None else [])
    client = lsp_client.Client(command, os.path.dirname(a.file) or ".")
    client.request("initialize", {"processId": os.getpid(), "capabilities": {},
                                  "initializationOptions": {"debounceMs": 0}})
    client.notify("initialized", {})
    base = client.request("tmemcheck/stats", {})["result"]["residentBytes"]
    t0 = time.monotonic()
    client.open(a.file)
    first_diags = client.wait_diagnostics(a.file)
    first = time.monotonic() - t0
    rechecks = []
    for i in range(a.edits):
        uri = lsp_client.uri_of(a.file)
        text = client.docs[uri][0]
        at = text.rstrip("\n").rfind("\n") + 1
        t0 = time.monotonic()
        client.change(a.file, [(at, at, "// edit %d\n" % i)])
        diags = client.wait_diagnostics(a.file)
        rechecks.append(time.monotonic() - t0)
        if len(diags) != len(first_diags):
            print("bench: the edit changed the diagnostics (%d -> %d)" %
                  (len(first_diags), len(diags)), file=sys.stderr)
    stats = client.request("tmemcheck/stats", {})["result"]
    doc = stats["documents"][0]
    client.request("shutdown", None)
    client.notify("exit", None)
    client.proc.stdin.close()
    client.proc.wait(timeout=60)
    print("%s: first analysis %.3f s; re-check after an edit: median %.3f s "
          "(min %.3f, max %.3f, %d edits; server parse %.3f s, checks "
          "%.3f s); %d diagnostic(s); parse state %.1f MB, server resident "
          "%.1f MB (%.1f MB at start)" % (
              os.path.basename(a.file), first, statistics.median(rechecks),
              min(rechecks), max(rechecks), len(rechecks),
              doc["parseSeconds"], doc["checkSeconds"], len(first_diags),
              (doc["memoryBytes"] or 0) / 1e6, stats["residentBytes"] / 1e6,
              base / 1e6))
    return 0


if __name__ == "__main__":
    sys.exit(main())
