#!/usr/bin/env python3
"""Checks that documentation only uses tmemcheck flags that exist.

Usage: check_flags.py HELP_TEXT FILE...

HELP_TEXT is the output of `tmemcheck --help-hidden`. In each FILE, every
command line that runs tmemcheck (continuation lines joined) is scanned for
`--flag` and `-p`/`-j` options up to the end of the command (a pipe, a
redirection, `;`, `&&`, a closing backtick, or `--` before compiler flags);
in Markdown, the first column of tables is scanned too. Prints
"flags ok: N uses of M flags" or each unknown flag with its file and line,
exit 1.
"""
import re
import sys

OPTION = re.compile(r"^\s+(--?[A-Za-z][\w-]*)")
FLAG = re.compile(r"(?:^|[\s\[`'\"(])(--[a-z][a-z0-9-]*|-[pj])(?=[\s=\]`'\")]|$)")
COMMAND = re.compile(r"(?:^|[\s/\"'`(])tmemcheck(?=\s)(.*)")
END = re.compile(r"\s(?:\||>|2>|;|&&|--(?=\s|$))|`|\)\s*$|\"\s*$")


def known_flags(help_path):
    flags = set()
    for line in open(help_path):
        m = OPTION.match(line)
        if m:
            flags.add(m.group(1))
    return flags


def logical_lines(path):
    pending, start = "", None
    for number, line in enumerate(open(path), 1):
        line = line.rstrip("\n")
        if start is None:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        yield start, pending + line
        pending, start = "", None


def main():
    flags = known_flags(sys.argv[1])
    uses, used, bad = 0, set(), []
    for path in sys.argv[2:]:
        markdown = path.endswith(".md")
        for number, line in logical_lines(path):
            spans = []
            for m in COMMAND.finditer(line):
                rest = m.group(1)
                end = END.search(rest)
                spans.append(rest[:end.start()] if end else rest)
            if markdown and line.startswith("| `-"):
                spans.append(line.split("|")[1])
            for span in spans:
                for flag in FLAG.findall(span):
                    uses += 1
                    used.add(flag)
                    if flag not in flags:
                        bad.append("%s:%d: unknown flag %s" % (path, number, flag))
    for b in bad:
        print(b)
    if bad:
        sys.exit(1)
    print("flags ok: %d uses of %d flags" % (uses, len(used)))


main()
