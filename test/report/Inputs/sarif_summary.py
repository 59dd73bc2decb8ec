#!/usr/bin/env python3
"""Prints what a SARIF log says, in an order-independent form.

Usage: sarif_summary.py log.sarif
One line "rules: N distinct: D", then one sorted line per result:
"ruleId rule[ruleIndex] file:line:col", the rule looked up through
ruleIndex, so a merge that renumbers rules wrongly shows up in a diff.
"""
import json
import os
import sys

log = json.load(open(sys.argv[1]))
run = log["runs"][0]
rules = run["tool"]["driver"]["rules"]
ids = [r["id"] for r in rules]
print("rules: %d distinct: %d" % (len(ids), len(set(ids))))
lines = []
for res in run["results"]:
    loc = res["locations"][0]["physicalLocation"]
    lines.append("%s rule[%s] %s:%d:%d" % (
        res["ruleId"], ids[res["ruleIndex"]],
        os.path.basename(loc["artifactLocation"]["uri"]),
        loc["region"]["startLine"], loc["region"]["startColumn"]))
for line in sorted(lines):
    print(line)
