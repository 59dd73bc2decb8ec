#!/usr/bin/env python3
"""Prints the locations of a SARIF log one per line, for FileCheck.

Usage: sarif_flatten.py log.sarif
  base NAME URI                      (originalUriBaseIds)
  columnKind KIND
  result RULE: MESSAGE               (message.text, links included)
    loc [ID] URI[@BASE] L:C-L:C [MESSAGE]   (locations, relatedLocations)
    flow N URI[@BASE] L:C-L:C MESSAGE       (codeFlows[0].threadFlows[0])
    fix URI[@BASE] L:C-L:C bytes O+N -> TEXT
  notification LEVEL URI[@BASE]: MESSAGE
"""
import json
import sys


def where(phys):
    art = phys["artifactLocation"]
    text = art["uri"] + ("@" + art["uriBaseId"] if "uriBaseId" in art else "")
    region = phys.get("region")
    if region:
        text += " %d:%d" % (region["startLine"], region["startColumn"])
        if "endLine" in region:
            text += "-%d:%d" % (region["endLine"], region["endColumn"])
    return text


log = json.load(open(sys.argv[1]))
for run in log["runs"]:
    for name, base in sorted(run.get("originalUriBaseIds", {}).items()):
        print("base %s %s" % (name, base.get("uri")))
    print("columnKind %s" % run.get("columnKind"))
    for res in run["results"]:
        print("result %s: %s" % (res["ruleId"], res["message"]["text"]))
        for loc in res["locations"] + res.get("relatedLocations", []):
            print("  loc%s %s%s" % (
                " [%d]" % loc["id"] if "id" in loc else "",
                where(loc["physicalLocation"]),
                " " + loc["message"]["text"] if "message" in loc else ""))
        for flow in res.get("codeFlows", []):
            for thread in flow["threadFlows"]:
                for step in thread["locations"]:
                    print("  flow %d %s %s" % (
                        step["executionOrder"],
                        where(step["location"]["physicalLocation"]),
                        step["location"]["message"]["text"]))
        for fix in res.get("fixes", []):
            for change in fix["artifactChanges"]:
                for rep in change["replacements"]:
                    region = rep["deletedRegion"]
                    print("  fix %s bytes %d+%d -> %s" % (
                        where({"artifactLocation": change["artifactLocation"],
                               "region": region}),
                        region["byteOffset"], region["byteLength"],
                        rep["insertedContent"]["text"]))
    for inv in run.get("invocations", []):
        for note in inv.get("toolExecutionNotifications", []):
            locs = note.get("locations", [])
            print("notification %s %s: %s" % (
                note["level"],
                where(locs[0]["physicalLocation"]) if locs else "-",
                note["message"]["text"]))
