#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The assertions of tests/fleet/e2e, through a running Prometheus's HTTP
API on 127.0.0.1. TAP on stdout, non-zero exit on a failure.

  check_api.py URL RULES DASHBOARD DOC ALERT LABEL=VALUE

URL: the Prometheus (http://127.0.0.1:PORT); RULES: the rule file it
loaded; DASHBOARD: the Grafana JSON whose every panel query must return
data ($instance is ".+", as the dashboard's "All"); DOC: the metrics
reference, every family of whose table must be there; ALERT and
LABEL=VALUE: an alert that must be firing, and one of its labels.
"""
import json
import re
import sys
import urllib.parse
import urllib.request

n = 0
failed = 0


def ok(cond, desc, detail=None):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, desc))
    if not cond:
        failed += 1
        if detail:
            for line in str(detail).splitlines()[:20]:
                print("# " + line)
    return cond


def api(url, path, **params):
    q = urllib.parse.urlencode(params)
    with urllib.request.urlopen("%s/api/v1/%s?%s" % (url, path, q), timeout=10) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError("%s: %s" % (path, body))
    return body["data"]


def query(url, expr):
    return api(url, "query", query=expr)["result"]


def families(doc):
    """The first column of the reference table: `restricted_dma_...`."""
    names = []
    for line in open(doc):
        m = re.match(r"^\| `(restricted_dma_[a-z0-9_]+)` \| (counter|gauge|histogram) \|", line)
        if m:
            names.append((m.group(1), m.group(2)))
    return names


def dashboard_queries(path):
    d = json.load(open(path))
    out = []
    for p in d["panels"]:
        for t in p.get("targets", []):
            out.append((p["title"], t["refId"], t["expr"]))
    return out


def main():
    url, rules, dash, doc, alert, label = sys.argv[1:7]
    lk, lv = label.split("=", 1)
    print("TAP version 13")

    errs = query(url, "node_textfile_scrape_error")
    worst = query(url, "max_over_time(node_textfile_scrape_error[10m])")
    ok(len(errs) == 1 and errs[0]["value"][1] == "0" and worst and worst[0]["value"][1] == "0",
       "node_exporter's textfile collector read rdmatop's file without an error (scrape_error 0)",
       errs)

    fams = families(doc)
    ok(len(fams) >= 40, "the reference table lists the families (%d)" % len(fams))
    missing = []
    for name, kind in fams:
        q = name + "_count" if kind == "histogram" else name
        if not query(url, "count(%s)" % q):
            missing.append(name)
    ok(not missing, "every documented family is in Prometheus (%d of %d)"
       % (len(fams) - len(missing), len(fams)), "missing: " + " ".join(missing))
    series = query(url, 'count({__name__=~"restricted_dma_.+"})')
    print("# %s restricted_dma_ series scraped" % (series[0]["value"][1] if series else 0))

    empty = []
    qs = dashboard_queries(dash)
    for title, ref, expr in qs:
        e = expr.replace("$instance", ".+")
        try:
            res = query(url, e)
        except Exception as ex:  # a query Prometheus rejects
            empty.append("%s/%s: %s" % (title, ref, ex))
            continue
        if not res:
            empty.append("%s/%s: no data: %s" % (title, ref, e))
    ok(qs and not empty, "every dashboard query returns data (%d queries, %d panels)"
       % (len(qs), len({t for t, _, _ in qs})), "\n".join(empty))

    want = sum(1 for line in open(rules) if re.match(r"^\s+- (record|alert):", line))
    groups = api(url, "rules")["groups"]
    got = [r for g in groups for r in g["rules"]]
    bad = ["%s: %s %s" % (r["name"], r["health"], r.get("lastError", "")) for r in got
           if r["health"] != "ok"]
    ok(len(got) == want and not bad,
       "the rules are loaded (%d of %d) and healthy" % (len(got), want), "\n".join(bad))

    alerts = api(url, "alerts")["alerts"]
    firing = [a for a in alerts if a["labels"].get("alertname") == alert
              and a["labels"].get(lk) == lv and a["state"] == "firing"]
    ok(firing, "%s is firing for %s=%s" % (alert, lk, lv),
       json.dumps(alerts, indent=1))
    for a in alerts:
        print("# alert %s %s %s" % (a["labels"].get("alertname"), a["state"],
                                    ",".join("%s=%s" % kv for kv in sorted(a["labels"].items())
                                             if kv[0] not in ("alertname", "job"))))
    oop = query(url, 'restricted_dma_device_out_of_pool_total{%s="%s"}' % (lk, lv))
    if oop:
        print("# restricted_dma_device_out_of_pool_total{%s=\"%s\"} = %s"
              % (lk, lv, oop[0]["value"][1]))
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
