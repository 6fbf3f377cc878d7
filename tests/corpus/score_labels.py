#!/usr/bin/env python3
"""Score a tr2audit JSON report against an expert label set (tests/corpus/<owner>+<name>.yaml).

usage: score_labels.py LABELS.yaml REPORT.json [--window 2]

recall: a must_find label is found when a finding of the label kind's category sits within `window`
lines of it (same path; a notebook's cell line counts). A must_stay_quiet label fails when a finding at
medium or above, on the training path, sits on that line. Prints one JSON line per repo.
"""
import argparse, json, sys

try:
    import yaml
except ImportError:  # Debian: apt-get install python3-yaml
    sys.exit("score_labels.py needs PyYAML (python3-yaml)")

KIND_CATEGORY = {
    "cuda_extension": "cuda-extension", "cuda_source": "cuda-extension", "triton_kernel": "cuda-extension",
    "gpu_kernel_dsl": "cuda-extension", "cuda_kernel_call": "cuda-extension",
    "cuda_only_import": "cuda-library", "quantization": "cuda-library",
    "device_gate": "cuda-api", "torch_cuda_api": "cuda-api", "mixed_precision": "cuda-api", "graph_compile": "cuda-api",
    "dynamic_item": "dynamic-graph", "dynamic_tolist": "dynamic-graph", "dynamic_nonzero": "dynamic-graph",
    "dynamic_boolean_mask": "dynamic-graph", "dynamic_unique": "dynamic-graph", "dynamic_masked_select": "dynamic-graph",
    "dynamic_control_flow": "dynamic-graph",
    "variable_shape": "dynamic-shape", "dynamic_shape_training": "dynamic-shape",
    "unsupported_op": "operator-support", "unsupported_api": "operator-support", "dtype_float64": "operator-support",
    "neuron_xla": "neuron-ready", "neuron_kernel": "neuron-ready", "device_agnostic": "neuron-ready",
    "fixed_shape": "neuron-ready",
}
SEVERE = {"blocker", "high", "medium"}


def lines_of(f):
    loc = f["location"]
    out = {loc["line"]}
    if loc.get("cell"):
        out.add(loc.get("cell_line"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("labels")
    ap.add_argument("report")
    ap.add_argument("--window", type=int, default=2)
    a = ap.parse_args()
    labels = yaml.safe_load(open(a.labels))
    report = json.load(open(a.report))
    by_path = {}
    for f in report["findings"]:
        if not f.get("suppressed"):
            by_path.setdefault(f["location"]["path"], []).append(f)
    found, missed = 0, []
    for label in labels.get("must_find") or []:
        cat = KIND_CATEGORY.get(label["kind"])
        hits = [f for f in by_path.get(label["path"], [])
                if (cat is None or f["category"] == cat)
                and any(abs(l - label["line"]) <= a.window for l in lines_of(f) if l)]
        if hits:
            found += 1
        else:
            missed.append(f'{label["path"]}:{label["line"]} {label["kind"]}')
    loud = []
    for label in labels.get("must_stay_quiet") or []:
        for f in by_path.get(label["path"], []):
            if (label["line"] in lines_of(f) and f["severity"] in SEVERE and not f.get("off_training_path")
                    and f["category"] not in ("neuron-ready", "training-setup")):
                loud.append(f'{label["path"]}:{label["line"]} {f["rule_id"]} {f["severity"]}')
                break
    total = len(labels.get("must_find") or [])
    rec = report.get("recommendation") or {}
    print(json.dumps({
        "repo": labels["repo"], "recall": round(found / total, 3) if total else None, "found": found, "must_find": total,
        "quiet_violations": len(loud), "must_stay_quiet": len(labels.get("must_stay_quiet") or []),
        "verdict": rec.get("verdict"), "readiness": rec.get("readiness"),
        "expected": labels.get("expected_verdict"),
        "verdict_ok": rec.get("verdict") in (labels.get("acceptable_verdicts") or [labels.get("expected_verdict")]),
        "missed": missed, "loud": loud}))


if __name__ == "__main__":
    main()
