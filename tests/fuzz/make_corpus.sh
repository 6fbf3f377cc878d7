#!/usr/bin/env bash
# Seeds the fuzz corpora from the fixtures: Python (tests/rules/**, tests/unit/**, examples/**) for
# fuzz_python, rule YAML (rules/**, tests/**) for fuzz_rule_loader, plus the kept regressions.
# Usage: tests/fuzz/make_corpus.sh OUT_DIR   (creates OUT_DIR/python and OUT_DIR/rule)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: make_corpus.sh OUT_DIR}"
mkdir -p "$out/python" "$out/rule"
copy() {  # copy FILES... into folder $dest under names unique per source path
  for f in "$@"; do cp "$f" "$dest/$(printf '%s' "${f#"$root"/}" | tr '/' '_')"; done
}
dest="$out/python"
mapfile -t py < <(find "$root/tests/rules" "$root/tests/unit" "$root/examples" -type f \( -name '*.py' -o -name '*.ipynb' \))
copy "${py[@]}" "$root"/tests/fuzz/regressions/python/*
dest="$out/rule"
mapfile -t yaml < <(find "$root/rules" "$root/tests" -type f -name '*.yaml' ! -name neuron-ops.yaml)
copy "${yaml[@]}" "$root"/tests/fuzz/regressions/rule/*
echo "python: $(ls "$out/python" | wc -l) seeds, rule: $(ls "$out/rule" | wc -l) seeds"
