#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Structural checks of rdma-dtcheck's JSON and SARIF output.

Checks the SARIF 2.1.0 properties GitHub code scanning requires (version,
runs[].tool.driver.name, rules with ids, results with ruleId, message.text
and physicalLocation.artifactLocation.uri, startLine >= 1 when given).
"""
import json
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def check_json(doc):
    for key in ("tool", "version", "findings", "summary"):
        if key not in doc:
            fail("missing " + key)
    if not doc["findings"]:
        fail("no findings")
    for f in doc["findings"]:
        for key in ("check", "severity", "input", "file", "path", "message"):
            if key not in f:
                fail("finding without " + key)
        if f["severity"] not in ("error", "warning", "info"):
            fail("bad severity " + f["severity"])
    if not any("line" in f for f in doc["findings"]):
        fail("no finding carries a line")
    if doc["summary"]["files"] < 1:
        fail("summary counts no files")


def check_sarif(doc):
    if doc.get("version") != "2.1.0":
        fail("version is not 2.1.0")
    runs = doc.get("runs")
    if not runs:
        fail("no runs")
    driver = runs[0]["tool"]["driver"]
    if driver.get("name") != "rdma-dtcheck":
        fail("driver name")
    ids = [r["id"] for r in driver["rules"]]
    if len(ids) != len(set(ids)):
        fail("duplicate rule ids")
    results = runs[0]["results"]
    if not results:
        fail("no results")
    for r in results:
        if r["ruleId"] not in ids or ids[r["ruleIndex"]] != r["ruleId"]:
            fail("ruleId/ruleIndex mismatch")
        if r["level"] not in ("error", "warning", "note"):
            fail("bad level")
        if not r["message"]["text"]:
            fail("empty message")
        loc = r["locations"][0]["physicalLocation"]
        if not loc["artifactLocation"]["uri"]:
            fail("empty uri")
        if "region" in loc and loc["region"]["startLine"] < 1:
            fail("startLine < 1")


def main():
    kind, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        doc = json.load(f)
    (check_json if kind == "json" else check_sarif)(doc)
    print("ok")


if __name__ == "__main__":
    main()
