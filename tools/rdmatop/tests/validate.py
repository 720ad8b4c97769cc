#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Validate rdmatop's machine outputs with real parsers, TAP lines.

  validate.py json FILE   every line parses with the json module; keys stable
  validate.py prom FILE   prometheus_client's text parser accepts the file;
                          names and types follow the conventions
"""
import json
import sys

POOL_KEYS = {"name", "live", "restricted", "base", "size", "nslabs", "used_slots",
             "used_bytes", "used_pct", "hiwater_slots", "hiwater_bytes", "hiwater_pct",
             "maps_total", "maps_per_s", "unmaps_total", "map_bytes_total",
             "map_bytes_per_s", "bytes_to_device_total", "bytes_from_device_total",
             "bytes_to_device_per_s", "bytes_from_device_per_s", "inflight",
             "inflight_bytes", "map_failures_total", "alloc_failures_total",
             "allocs_total", "frees_total", "out_of_pool_kernel_total",
             "out_of_pool_check_total", "refused_total", "size_p50_bytes",
             "size_p99_bytes", "time_p50_ns", "time_p99_ns"}
DEV_EXTRA = {"pool", "bound", "last_out_of_pool"}
TOP_KEYS = {"schema", "time", "host", "kernel", "dma_api_source", "restricted_only",
            "interval_s", "mode", "unavailable", "ringbuf_drops_total",
            "inflight_untracked_total", "events_untracked_total", "unmatched_unmaps_total",
            "program_runs_missed_total", "kernel_memory_bytes", "program_runs_total",
            "program_run_time_ns_total", "pools", "devices", "events"}

from tap import ok, plan


def check_json(path):
    with open(path) as f:
        lines = f.read().splitlines()
    objs = []
    for i, line in enumerate(lines):
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            ok(False, "json: line %d parses (%s)" % (i + 1, e))
            return
    ok(len(objs) == 2, "json: one object per line (%d lines)" % len(objs))
    full, fallback = objs
    ok(set(full) == TOP_KEYS, "json: top-level keys are the documented ones")
    ok(set(full["pools"][0]) == POOL_KEYS, "json: pool keys are the documented ones")
    ok(set(full["devices"][0]) == (POOL_KEYS - {"base", "size", "nslabs", "used_slots",
        "used_bytes", "used_pct", "hiwater_slots", "hiwater_bytes", "hiwater_pct"}) | DEV_EXTRA,
       "json: device keys are the documented ones")
    names = [d["name"] for d in full["devices"]]
    ok('odd"name\\x' in names, "json: names with quotes and backslashes round-trip")
    dev = [d for d in full["devices"] if d["name"] == "a003e00.virtio_mmio"][0]
    ok(dev["maps_per_s"] == 1000 and 4096 <= dev["size_p50_bytes"] <= 8192,
       "json: rates and percentiles are numbers")
    ok(full["mode"] == "full" and full["unavailable"] == [], "json: full mode")
    ok(full["events"][0]["type"] == "out_of_pool_kernel", "json: the interval's rare events")
    ok(fallback["mode"] == "fallback" and "unmap" in fallback["unavailable"],
       "json: fallback mode names what is unavailable")
    ok(fallback["pools"][0]["unmaps_total"] is None and
       fallback["devices"][0]["time_p50_ns"] is None,
       "json: unavailable numbers are null, not 0")


def check_prom(path):
    from prometheus_client.parser import text_string_to_metric_families
    with open(path) as f:
        text = f.read()
    try:
        fams = list(text_string_to_metric_families(text))
    except Exception as e:  # the parser raises ValueError and others
        ok(False, "prom: prometheus_client parses the file (%s)" % e)
        return
    ok(len(fams) > 10, "prom: prometheus_client parses the file (%d families)" % len(fams))
    ok(all(f.name.startswith("restricted_dma_") for f in fams),
       "prom: every name starts with restricted_dma_ (rdma_ is RDMA's)")
    # prometheus_client strips _total from counter family names
    counters = [f for f in fams if f.type == "counter"]
    ok(counters and all(s.name.endswith("_total") for f in counters for s in f.samples),
       "prom: counter samples end in _total")
    by = {f.name: f for f in fams}
    used = by.get("restricted_dma_pool_used_bytes")
    ok(used is not None and used.samples[0].labels == {"pool": "blk-pool@70000000"} and
       used.samples[0].value == 32768, "prom: restricted_dma_pool_used_bytes with its pool label")
    maps = by.get("restricted_dma_device_maps")
    ok(maps is not None and any(s.labels.get("device") == 'odd"name\\x' for s in maps.samples),
       "prom: label values with quotes and backslashes are escaped")
    hist = by.get("restricted_dma_device_mapping_size_bytes")
    ok(hist is not None and hist.type == "histogram" and
       any(s.name.endswith("_bucket") and s.labels.get("le") == "+Inf" for s in hist.samples),
       "prom: mapping sizes as a histogram with +Inf")
    gauges = [f.name for f in fams if f.type in ("gauge", "histogram")]
    ok(all(name.endswith(("_bytes", "_seconds", "_slots", "_mappings", "_mode", "_info",
                                "_feature", "_address", "_restricted", "_bound"))
           for name in gauges), "prom: gauge and histogram names end in their unit")


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    {"json": check_json, "prom": check_prom}[kind](path)
    sys.exit(plan())
