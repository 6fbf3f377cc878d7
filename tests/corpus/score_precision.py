#!/usr/bin/env python3
"""Strict precision of judged samples against current reports.

usage: score_precision.py REPORT_DIR ROUND [ROUND ...]

REPORT_DIR holds one JSON report per repo, named like the sample files (`owner+name.json`).
For each judged line of precision/ROUND/*.sample.jsonl whose finding the current report still gives
at medium or above, the line counts as right when the judge said "right", or when the judge's note
gave the severity and region it should have (`expected`, transcribed from the note) and the current
finding has exactly those. Lines now below medium (or gone) leave the sample. `cited` lines are the
ones a verdict's reasons cited when they were judged.
"""
import glob
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# Rules a sampled finding's rule was split into or renamed to: the finding keeps its judgement.
SAME_RULE = {
    "cuda-library.lock-in-library-call": ["cuda-extension.lock-in-call"],
    "dynamic-graph.host-transfer-at-forward-return": ["dynamic-graph.host-transfer-in-forward"],
    "cuda-api.sdpa-backend-switch": ["cuda-api.sdpa-backend-selection"],
    "cuda-api.cuda-device-count-logged": ["cuda-api.cuda-device-count"],
    "cuda-api.sdpa-backend-disabled": ["cuda-api.sdpa-backend-selection"],
    "dynamic-graph.data-dependent-assert": [
        "dynamic-graph.data-dependent-branch-in-forward",
        "dynamic-graph.data-dependent-branch-in-training-step",
    ],
}


def main():
    reports = sys.argv[1]
    for rnd in sys.argv[2:]:
        total = right = false = cited = cited_right = cited_false = 0
        for path in sorted(glob.glob(os.path.join(HERE, "precision", rnd, "*.jsonl"))):
            repo = os.path.basename(path).split(".sample")[0]
            report = os.path.join(reports, repo + ".json")
            if not os.path.exists(report):
                continue
            now = {}
            for f in json.load(open(report))["findings"]:
                for rule in [f["rule_id"]] + SAME_RULE.get(f["rule_id"], []):
                    now.setdefault((f["location"]["path"], f["location"]["line"], rule),
                                   (f["severity"], f["context"].get("region")))
            for line in open(path):
                j = json.loads(line)
                severity, region = now.get((j["path"], j["line"], j["rule_id"]), (None, None))
                if severity not in ("medium", "high", "blocker"):
                    continue
                judgement = j["judgement"]
                expected = j.get("expected")
                if expected and judgement != "false" and (severity, region) == (expected["severity"], expected["region"]):
                    judgement = "right"
                if j.get("in_sample"):
                    total += 1
                    right += judgement == "right"
                    false += judgement == "false"
                if j.get("cited"):
                    cited += 1
                    cited_right += judgement == "right"
                    cited_false += judgement == "false"
        share = 100.0 * right / max(total, 1)
        print(f"{rnd}: strict {right}/{total} = {share:.1f}%, false {false} | cited {cited_right}/{cited}, false {cited_false}")


if __name__ == "__main__":
    main()
