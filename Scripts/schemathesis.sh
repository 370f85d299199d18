#!/usr/bin/env bash
# Fuzzes the board server's HTTP API from its own document (issue 28): schemathesis against
# docs/api.yaml on a running `hapticctl serve` over a `sim serve` board, with a library.
#
#   Scripts/schemathesis.sh [SECONDS]      (default 60; CI runs 60)
#
# Checks: no response ≥ 500, every status and content type documented, every response body
# (refusals included: an Error naming its field) as its schema says, schema-violating requests
# refused. The server must still be running at the end (no crash). /v1/ws is left out: it is a
# WebSocket (its upgrade is Hummingbird's), tested by HapticServerTests. Schema-valid documents
# may still be bad AHAP (the document schema cannot say everything the reader checks), so
# "schema-valid request rejected" is not a check here.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds="${1:-60}"
hapticctl=".build/debug/hapticctl"
[ -x "$hapticctl" ] || swift build --product hapticctl
venv=".build/schemathesis-venv"
if [ ! -x "$venv/bin/schemathesis" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet "schemathesis==4.32.5"
fi
work="$(mktemp -d)"
cleanup() {
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
  [ -n "${board:-}" ] && kill "$board" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
"$hapticctl" sim serve --link "$work/board" > "$work/board.out" 2>/dev/null &
board=$!
for _ in $(seq 100); do [ -e "$work/board" ] && break; sleep 0.05; done
"$hapticctl" serve --port "$work/board" --library Examples --listen 127.0.0.1:0 > "$work/serve.out" 2> "$work/serve.err" &
server=$!
for _ in $(seq 100); do grep -q "listening on" "$work/serve.out" 2>/dev/null && break; sleep 0.05; done
url="$(sed -n 's/^listening on //p' "$work/serve.out")"
[ -n "$url" ] || { echo "error: hapticctl serve did not start: $(cat "$work/serve.err")" >&2; exit 1; }
echo "schemathesis: $url for $seconds s"
status=0
"$venv/bin/schemathesis" run docs/api.yaml --url "$url" --max-time "$seconds" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,negative_data_rejection \
  --exclude-path /v1/ws --seed 28 --report junit --report-dir "$work/report" || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "error: the server died during the run" >&2
  cat "$work/serve.err" >&2
  exit 1
fi
exit "$status"
