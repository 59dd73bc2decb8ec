#!/usr/bin/env python3
"""Checks the fields GitHub code scanning requires of a SARIF 2.1.0 log.

(The schema itself is checked by validate_sarif_schema.py.)

Usage: validate_sarif.py log.sarif EXPECTED_RESULT_COUNT
Prints "sarif ok: N results, M fixes" or the first problem, exit 1.
"""
import json
import sys


def fail(msg):
    print("sarif invalid: " + msg)
    sys.exit(1)


def check_uri(artifact, bases):
    """An absolute file URI, or one relative to a base of the run."""
    uri = artifact["uri"]
    if "uriBaseId" in artifact:
        if artifact["uriBaseId"] not in bases:
            fail("uriBaseId %r is not in originalUriBaseIds"
                 % artifact["uriBaseId"])
        if ":" in uri or uri.startswith("/"):
            fail("uri %r with a uriBaseId is not relative" % uri)
    elif not uri.startswith("file:///"):
        fail("artifact uri %r is neither an absolute file URI nor relative "
             "to a uriBaseId" % uri)


def main():
    log = json.load(open(sys.argv[1]))
    expected = int(sys.argv[2])
    if log.get("version") != "2.1.0":
        fail("version is not 2.1.0")
    if "sarif-2.1.0" not in log.get("$schema", ""):
        fail("$schema does not name SARIF 2.1.0")
    runs = log.get("runs")
    if not isinstance(runs, list) or len(runs) != 1:
        fail("expected one run")
    driver = runs[0]["tool"]["driver"]
    if driver.get("name") != "tmemcheck" or not driver.get("version"):
        fail("tool.driver needs name and version")
    rules = driver.get("rules", [])
    ids = [r.get("id") for r in rules]
    for r in rules:
        if not r.get("id") or not r.get("shortDescription", {}).get("text"):
            fail("rule without id or shortDescription.text")
        if r["defaultConfiguration"]["level"] not in ("error", "warning", "note"):
            fail("bad default level in rule " + r["id"])
    bases = runs[0].get("originalUriBaseIds", {})
    for name, base in bases.items():
        if not base.get("uri", "").startswith("file:///") or \
                not base["uri"].endswith("/"):
            fail("base %s is not an absolute file URI of a directory" % name)
    results = runs[0].get("results")
    if len(results) != expected:
        fail("expected %d results, got %d" % (expected, len(results)))
    for res in results:
        if res.get("ruleId") not in ids:
            fail("result with unknown ruleId %r" % res.get("ruleId"))
        if ids[res["ruleIndex"]] != res["ruleId"]:
            fail("ruleIndex does not point at ruleId")
        if res.get("level") not in ("error", "warning", "note"):
            fail("bad level")
        if not res.get("message", {}).get("text"):
            fail("result without message.text")
        for loc in res["locations"] + res.get("relatedLocations", []):
            phys = loc["physicalLocation"]
            check_uri(phys["artifactLocation"], bases)
            if phys["region"]["startLine"] < 1 or phys["region"]["startColumn"] < 1:
                fail("region without a valid start")
    prints = set()
    for res in results:
        fp = res.get("partialFingerprints", {}).get("tmemcheckStatement/v1")
        if fp is not None:
            if len(fp) != 64 or any(c not in "0123456789abcdef" for c in fp):
                fail("partialFingerprints value is not a SHA-256 hex digest")
            if fp in prints:
                fail("two results share a partial fingerprint")
            prints.add(fp)
    fixes = 0
    for res in results:
        for fix in res.get("fixes", []):
            fixes += 1
            changes = fix.get("artifactChanges")
            if not isinstance(changes, list) or not changes:
                fail("fix without artifactChanges")
            for change in changes:
                check_uri(change["artifactLocation"], bases)
                if not change.get("replacements"):
                    fail("artifactChange without replacements")
                for rep in change["replacements"]:
                    region = rep["deletedRegion"]
                    if region["startLine"] < 1 or region["startColumn"] < 1:
                        fail("deletedRegion without a valid start")
                    if (region["endLine"], region["endColumn"]) < \
                            (region["startLine"], region["startColumn"]):
                        fail("deletedRegion ends before it starts")
                    if not isinstance(rep.get("insertedContent", {}).get("text"),
                                      str):
                        fail("replacement without insertedContent.text")
    print("sarif ok: %d results, %d fixes, %d fingerprints"
          % (len(results), fixes, len(prints)))


main()
