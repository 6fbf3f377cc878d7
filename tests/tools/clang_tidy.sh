#!/usr/bin/env bash
# Runs clang-tidy (Debian clang-tidy 14) with the repo's .clang-tidy over src/ (or the files given),
# using BUILD_DIR/compile_commands.json (default: build). Exits 1 when any check fires.
# Usage: tests/tools/clang_tidy.sh [-j N] [file.cpp ...]     (BUILD_DIR=build-x to pick a build)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${BUILD_DIR:-$root/build}"
jobs=2
if [[ "${1:-}" == "-j" ]]; then jobs="$2"; shift 2; fi
tidy="$(command -v clang-tidy-14 || command -v clang-tidy)"
[[ -f "$build/compile_commands.json" ]] || { echo "no $build/compile_commands.json: configure first" >&2; exit 2; }
if [[ $# -gt 0 ]]; then files=("$@"); else mapfile -t files < <(cd "$root" && find src -name '*.cpp' | sort); fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# GCC-only flags in compile_commands.json (-Wno-restrict) are unknown to clang: ignore them.
printf '%s\n' "${files[@]}" | (cd "$root" && xargs -P "$jobs" -n 4 "$tidy" -p "$build" --quiet \
  --extra-arg=-Wno-unknown-warning-option) >"$log" 2>/dev/null || true
if grep -E ': (warning|error): ' "$log" >/dev/null; then
  grep -E -A3 ': (warning|error): ' "$log"
  echo "clang-tidy: $(grep -cE ': (warning|error): ' "$log") diagnostics" >&2
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"
