#!/usr/bin/env python3
"""Draw a stratified random sample of a report's findings at medium or above, for judging precision.

usage: sample_findings.py REPORT.json --repo OWNER+NAME --n 24 --seed 11 [--out FILE]

Strata are rule ids: the sample takes findings round-robin over the rules that fired (each rule's
findings shuffled with the seed), so one noisy rule cannot fill the sample. The output is JSON
lines, one finding each, with the fields a judge needs and an empty `judgement`.
"""
import argparse, json, random, sys

SEVERE = {"blocker", "high", "medium"}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out")
    a = ap.parse_args()
    rep = json.load(open(a.report))
    rng = random.Random(f"{a.seed}:{a.repo}")
    by_rule = {}
    for f in rep["findings"]:
        if f["severity"] in SEVERE and not f.get("suppressed"):
            by_rule.setdefault(f["rule_id"], []).append(f)
    for rule in by_rule:
        by_rule[rule].sort(key=lambda f: (f["location"]["path"], f["location"]["line"]))
        rng.shuffle(by_rule[rule])
    rules = sorted(by_rule)
    rng.shuffle(rules)
    picked = []
    while len(picked) < a.n and any(by_rule[r] for r in rules):
        for r in rules:
            if by_rule[r] and len(picked) < a.n:
                picked.append(by_rule[r].pop())
    out = open(a.out, "w") if a.out else sys.stdout
    for f in picked:
        ctx = f.get("context", {})
        out.write(json.dumps({
            "repo": a.repo, "path": f["location"]["path"], "line": f["location"]["line"],
            "cell": f["location"].get("cell"), "cell_line": f["location"].get("cell_line"),
            "rule_id": f["rule_id"], "category": f["category"], "severity": f["severity"],
            "region": ctx.get("region"), "roles": ctx.get("roles"), "reached_from": ctx.get("reached_from"),
            "guarded_by": ctx.get("guarded_by"), "opt_in": ctx.get("opt_in"), "function": ctx.get("function"),
            "off_training_path": f.get("off_training_path", False),
            "message": f["message"], "snippet": f.get("snippet"), "judgement": "", "note": ""}) + "\n")


if __name__ == "__main__":
    main()
