#!/usr/bin/env bash
# Benchmarks the cost per download: COUNT sessions of SIZE bytes (default 1,000 of 100 KB) over https,
# installed with backgroundassets-debug install --wait, then the app run until every session is on the
# device and verified, against curl fetching the same COUNT URLs in one process (one connection, as
# curl reuses it). Prints both times and their ratio. Not a test: run it by hand on a quiet machine.
#
# Usage: Tests/Benchmarks/many-small-sessions.sh     (from anywhere inside the package)
# Environment: COUNT (default 1000), SIZE (default 102400), HTTPS=0 for plain http,
#              SKIP_BUILD=1 to reuse the release build, SCRATCH_PATH (default .build-bench).
set -euo pipefail

COUNT="${COUNT:-1000}"
SIZE="${SIZE:-102400}"
HTTPS="${HTTPS:-1}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/many-small-bench.XXXXXX")"

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension
BIN="$SCRATCH/release"

server_flags=(--sessions "$COUNT" --session-size "$SIZE")
[ "$HTTPS" = 1 ] && server_flags+=(--tls --tls-dir "$WORK/tls")
start_asset_server "${server_flags[@]}"
start_service '{"idleExitAfter": 600}'
curl_flags=()
if [ "$HTTPS" = 1 ]; then
    for _ in $(seq 100); do grep -q "CA certificate:" "$WORK/asset-server.out" && break; sleep 0.05; done
    CA="$(grep "CA certificate:" "$WORK/asset-server.out" | awk '{print $4}')"
    "$BIN/backgroundassets-debug" trust add "$CA" > /dev/null
    curl_flags=(--cacert "$CA")
fi

# The sample's Info.plist, pointed at this run's server.
sed -E "s#http://127.0.0.1:[0-9]+/manifest.json#$BASE_URL/manifest.json#" "$PACKAGE_ROOT/App/Info.plist" > "$WORK/App-Info.plist"

log "Installing the app and running it until $COUNT sessions of $SIZE bytes are on the device..."
# Each side starts with no dirty pages queued for the disk, so neither pays for the other's writeback.
sync
started=$(date +%s.%N)
"$BIN/backgroundassets-debug" install --app-plist "$WORK/App-Info.plist" \
    --extension-plist "$PACKAGE_ROOT/Extension/Info.plist" --wait > "$WORK/install.out" 2> "$WORK/install.err"
installed=$(date +%s.%N)
"$BIN/wwdc-sessions" --until-complete --timeout 900 --manifest-url "$BASE_URL/manifest.json" --plain \
    > "$WORK/app.out" 2> "$WORK/app.err" || { log "the app failed: $(tail -3 "$WORK/app.out")"; exit 1; }
finished=$(date +%s.%N)
tail -1 "$WORK/app.out" >&2

# curl: the same URLs, one process, written to disk like the service's.
python3 - "$WORK/catalog/manifest.json" "$BASE_URL" "$WORK/curl" > "$WORK/curl.config" <<'PY'
import json, sys
manifest, base, folder = sys.argv[1], sys.argv[2], sys.argv[3]
for index, session in enumerate(json.load(open(manifest))["sessions"]):
    print(f'url = "{base}/{session["url"]}"\noutput = "{folder}/{index}"')
PY
mkdir -p "$WORK/curl"
sync
curl_started=$(date +%s.%N)
curl -s "${curl_flags[@]}" --config "$WORK/curl.config"
curl_finished=$(date +%s.%N)

python3 - "$started" "$installed" "$finished" "$curl_started" "$curl_finished" "$COUNT" "$SIZE" "$HTTPS" <<'PY'
import sys
started, installed, finished, curl_started, curl_finished = map(float, sys.argv[1:6])
count, size, https = sys.argv[6], sys.argv[7], sys.argv[8] == "1"
service, curl = finished - started, curl_finished - curl_started
print(f"{count} sessions of {size} bytes over {'https' if https else 'http'}: install {installed - started:.2f} s, "
      f"app until verified {finished - installed:.2f} s, in all {service:.2f} s; curl {curl:.2f} s; ratio {service / curl:.1f}x")
PY
log "machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ)"
