#!/usr/bin/env bash
# Validates JSON files against a draft 2020-12 JSON Schema with ajv-cli (formats checked).
# Usage: validate_json.sh SCHEMA FILE...   Exit: 0 valid, 1 invalid, 77 ajv missing.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools_env.sh"
require_tool "$tools_bin/ajv"
schema="$1"; shift
status=0
for file in "$@"; do
  # ajv picks a parser by file extension: give it .json whatever the report's extension.
  tmp="$(mktemp --suffix=.json)"
  cp "$file" "$tmp"
  if ! out="$("$tools_bin/ajv" validate --spec=draft2020 -c ajv-formats --all-errors --errors=text -s "$schema" -d "$tmp" 2>&1)"; then
    echo "INVALID: $file"; echo "$out"; status=1
  else
    echo "valid: $file"
  fi
  rm -f "$tmp"
done
exit $status
