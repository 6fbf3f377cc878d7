#!/usr/bin/env bash
# Validates SARIF logs twice: Microsoft's SARIF Multitool `validate` (schema plus the SARIF-specific
# rules SARIF1xxx/2xxx; it exits 0 even when it finds errors, so its own SARIF output is read and
# any error-level result fails), then ajv against the official SARIF 2.1.0 schema that the
# multitool's npm package ships. Warnings are printed, not failed.
# Usage: validate_sarif.sh FILE...   Exit: 0 valid, 1 invalid, 77 tools missing.
set -uo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/tools_env.sh"
multitool="$tools_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
official_schema="$tools_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json"
require_tool "$multitool"
require_tool node
status=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for file in "$@"; do
  out="$work/validation.sarif"
  if ! "$multitool" validate --log ForceOverwrite -o "$out" "$file" >"$work/console.txt" 2>&1 || [ ! -s "$out" ]; then
    echo "MULTITOOL FAILED TO RUN on $file"; cat "$work/console.txt"; status=1; continue
  fi
  if ! node "$here/sarif_results.js" "$out" "$file"; then status=1; fi
  if ! "$here/validate_json.sh" "$official_schema" "$file"; then status=1; fi
done
exit $status
