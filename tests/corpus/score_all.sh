#!/bin/bash
# Scores a build against every label set whose repository is checked out.
# usage: tests/corpus/score_all.sh BUILD/tr2audit CORPUS_ROOT OUT_DIR [extra scan flags]
#   CORPUS_ROOT holds one checkout per label file, named like it (<owner>+<name>, at the labelled commit).
# Prints one JSON line per repo (recall, quiet violations, verdict, misses); writes the reports to OUT_DIR.
set -u
bin=$1 root=$2 out=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for labels in "$here"/*+*.yaml; do
  name=$(basename "$labels" .yaml)
  if [ ! -d "$root/$name" ]; then
    echo "{\"repo\": \"$name\", \"skipped\": \"no checkout at $root/$name\"}"
    continue
  fi
  "$bin" scan "$root/$name" -f json -o "$out/$name.json" -q "$@" >/dev/null 2>"$out/$name.err"
  python3 "$here/score_labels.py" "$labels" "$out/$name.json" | tail -1
done
