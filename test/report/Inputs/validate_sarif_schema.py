#!/usr/bin/env python3
"""Validates SARIF logs against the SARIF 2.1.0 JSON schema.

Usage: validate_sarif_schema.py SCHEMA LOG...
For each log prints "schema ok: LOG: N results" or its problems and exits 1.
Besides the schema (draft 4, the vendored OASIS file) it checks what the
schema cannot express and the standard requires:
  - every embedded link [text](N) of a result's message names exactly one
    location of that result with id N (SARIF 3.11.6);
  - every uriBaseId is defined in the run's originalUriBaseIds, whose URIs
    end with '/' (3.14.14);
  - region ends do not come before their starts (3.30).
"""
import json
import os
import re
import sys

import jsonschema

LINK = re.compile(r"(?<!\\)\[((?:[^\]\\]|\\.)*)\]\((\d+)\)")


def location_ids(result):
    ids = []
    for key in ("locations", "relatedLocations"):
        for loc in result.get(key, []):
            if "id" in loc:
                ids.append(loc["id"])
    for flow in result.get("codeFlows", []):
        for thread in flow.get("threadFlows", []):
            for step in thread.get("locations", []):
                if "id" in step.get("location", {}):
                    ids.append(step["location"]["id"])
    return ids


def walk(value, visit):
    if isinstance(value, dict):
        visit(value)
        for child in value.values():
            walk(child, visit)
    elif isinstance(value, list):
        for child in value:
            walk(child, visit)


def semantic_problems(log):
    problems = []
    for r, run in enumerate(log.get("runs", [])):
        bases = run.get("originalUriBaseIds", {})
        for name, base in bases.items():
            if "uri" in base and not base["uri"].endswith("/"):
                problems.append("runs[%d].originalUriBaseIds[%s].uri does not "
                                "end with '/'" % (r, name))

        def visit(obj):
            if "uriBaseId" in obj and obj["uriBaseId"] not in bases:
                problems.append("runs[%d]: uriBaseId %r is not in "
                                "originalUriBaseIds" % (r, obj["uriBaseId"]))
            if "startLine" in obj and "endLine" in obj:
                start = (obj["startLine"], obj.get("startColumn", 1))
                end = (obj["endLine"], obj.get("endColumn", start[1]))
                if end < start:
                    problems.append("runs[%d]: region %r ends before it "
                                    "starts" % (r, obj))

        for key in ("results", "invocations", "artifacts"):
            walk(run.get(key, []), visit)
        for i, result in enumerate(run.get("results", [])):
            ids = location_ids(result)
            for _, target in LINK.findall(result.get("message", {}).get("text", "")):
                if ids.count(int(target)) != 1:
                    problems.append("runs[%d].results[%d]: link to location "
                                    "%s, which %d locations have as id"
                                    % (r, i, target, ids.count(int(target))))
    return problems


def main():
    schema = json.load(open(sys.argv[1]))
    validator = jsonschema.Draft4Validator(schema)
    failed = False
    for path in sys.argv[2:]:
        log = json.load(open(path))
        errors = sorted(validator.iter_errors(log),
                        key=lambda e: list(e.absolute_path))
        problems = ["%s: %s" % ("/".join(str(p) for p in e.absolute_path)
                                or "<root>", e.message) for e in errors]
        problems += semantic_problems(log)
        name = os.path.basename(path)
        if problems:
            failed = True
            print("schema invalid: %s: %d problem(s)" % (name, len(problems)))
            for p in problems[:20]:
                print("  " + p)
        else:
            results = sum(len(run.get("results", [])) for run in log["runs"])
            print("schema ok: %s: %d results" % (name, results))
    sys.exit(1 if failed else 0)


main()
