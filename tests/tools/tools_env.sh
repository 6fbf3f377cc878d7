# Sourced by the test-tool scripts: where bootstrap installed the npm tools.
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tools_bin="$repo_root/.deps/test-tools/node_modules/.bin"
tools_modules="$repo_root/.deps/test-tools/node_modules"
require_tool() {
  if [ ! -x "$1" ] && ! command -v "$1" >/dev/null 2>&1; then
    echo "SKIP: $1 is not installed (run ./.ci/bootstrap)" >&2
    exit 77
  fi
}
