#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What can be checked of the Grafana dashboard without Grafana (tests/fleet/e2e
runs its queries against a real Prometheus): it is JSON, panel ids are
unique, every panel has queries on the data source variable, every query
selects $instance, and every name it uses is a family of the metrics
reference or a recording rule of the rules file. TAP.

  dashboard.py DASHBOARD RULES DOC
"""
import json
import re
import sys

from tap import ok, plan

FUNCS = {"sum", "by", "rate", "increase", "histogram_quantile", "max", "min", "avg",
         "without", "on", "and", "or", "unless", "count", "label_values", "instance"}


def main(dash, rules, doc):
    try:
        d = json.load(open(dash))
    except ValueError as e:
        ok(False, "dashboard: well-formed JSON (%s)" % e)
        return
    ok(True, "dashboard: well-formed JSON")
    panels = d.get("panels", [])
    ids = [p.get("id") for p in panels]
    ok(panels and len(set(ids)) == len(ids), "dashboard: %d panels, unique ids" % len(panels))
    known = set()
    for line in open(doc):
        m = re.match(r"^\| `(restricted_dma_[a-z0-9_]+)` \| (counter|gauge|histogram) \|", line)
        if m:
            known.add(m.group(1))
            if m.group(2) == "histogram":
                known.update(m.group(1) + s for s in ("_bucket", "_sum", "_count"))
    known.update(re.findall(r"^\s+- record: (\S+)", open(rules).read(), re.M))
    bad = []
    nq = 0
    for p in panels:
        ts = p.get("targets") or []
        if not ts or p.get("datasource", {}).get("uid") != "${datasource}":
            bad.append("%s: no queries or not on ${datasource}" % p.get("title"))
        for t in ts:
            nq += 1
            e = t.get("expr", "")
            if '{instance=~"$instance"}' not in e:
                bad.append("%s: does not select $instance: %s" % (p.get("title"), e))
            body = re.sub(r'\{[^}]*\}|\[[^]]*\]|"[^"]*"', "", e)
            body = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", body)
            for name in re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", body):
                if name not in FUNCS and name not in known:
                    bad.append("%s: unknown name %s" % (p.get("title"), name))
    ok(not bad, "dashboard: %d queries, each on $instance, each name documented or recorded%s"
       % (nq, "".join("\n# " + b for b in bad)))


if __name__ == "__main__":
    main(*sys.argv[1:4])
    sys.exit(plan())
