#!/bin/sh
# Regenerates urlsessiond_client (the generated part of this package) from the project's openapi.yaml with
# the pinned openapi-python-client of the test venv (`make test-deps`), into DIRECTORY (default: this
# one). Fails on any generator warning: a warning means a schema or an operation was left out.
# Usage: clients/python/generate.sh [DIRECTORY]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
destination=${1:-$here}
venv=${URLSESSIOND_TEST_VENV:-$root/.venv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The generator runs ruff (post_hooks in generator.yml) from PATH: the venv's pinned one.
PATH="$venv/bin:$PATH" openapi-python-client generate --path "$root/openapi.yaml" --meta none \
	--config "$here/generator.yml" --output-path "$work/urlsessiond_client" --fail-on-warning >"$work/log" 2>&1 || {
	cat "$work/log" >&2
	exit 1
}
# A warning printed without failing (--fail-on-warning covers the parser's): refused as well.
if grep -qi 'warning' "$work/log"; then
	cat "$work/log" >&2
	exit 1
fi
rm -rf "$destination/urlsessiond_client"
mkdir -p "$destination"
cp -R "$work/urlsessiond_client" "$destination/urlsessiond_client"
