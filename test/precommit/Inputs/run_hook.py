#!/usr/bin/env python3
"""Runs a hook of a .pre-commit-hooks.yaml the way pre-commit does.

Usage: run_hook.py HOOKS_YAML HOOK_ID CHANGED_FILE...

Reads the hook's `entry`, `args`, `files` and `exclude`, keeps the changed
files whose path matches `files` (re.search, as pre-commit) and not
`exclude`, and runs `entry args files...` from PATH. Prints the resolved
entry and the selected files, then exits with the hook's exit code.

Only the YAML subset hook files use is read (a list of mappings of scalars
and flow sequences); anything else is an error, so a hook file this test
cannot read fails the test instead of being skipped.
"""
import re
import shlex
import shutil
import subprocess
import sys


def scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def parse_hooks(path):
    hooks, current = [], None
    for number, line in enumerate(open(path), 1):
        stripped = line.split(" #")[0].rstrip() if not line.lstrip().startswith("#") else ""
        if not stripped:
            continue
        if stripped.startswith("- "):
            current = {}
            hooks.append(current)
            stripped = "  " + stripped[2:]
        if current is None or not stripped.startswith("  ") or ":" not in stripped:
            sys.exit("%s:%d: unsupported YAML for this test: %r" % (path, number, line))
        key, value = stripped.strip().split(":", 1)
        value = value.strip()
        if value.startswith("["):
            if not value.endswith("]"):
                sys.exit("%s:%d: unsupported flow sequence" % (path, number))
            inner = value[1:-1].strip()
            current[key] = [scalar(v) for v in inner.split(",")] if inner else []
        else:
            current[key] = scalar(value)
    return hooks


def main():
    hooks_file, hook_id, changed = sys.argv[1], sys.argv[2], sys.argv[3:]
    hooks = [h for h in parse_hooks(hooks_file) if h.get("id") == hook_id]
    if len(hooks) != 1:
        sys.exit("hook %r not found in %s" % (hook_id, hooks_file))
    hook = hooks[0]
    if hook.get("language") != "system":
        sys.exit("expected language: system, got %r" % hook.get("language"))
    files_re = re.compile(hook.get("files", ""))
    exclude_re = re.compile(hook.get("exclude", "^$"))
    selected = [f for f in changed
                if files_re.search(f) and not exclude_re.search(f)]
    entry = shlex.split(hook["entry"])
    print("entry: %s" % shutil.which(entry[0]))
    print("selected: %s" % " ".join(selected))
    sys.stdout.flush()
    if not selected:  # pre-commit skips a hook without matching files
        return 0
    return subprocess.call(entry + hook.get("args", []) + selected)


sys.exit(main())
