#!/usr/bin/env bash
# The kill loop: installs and launches the sample ROUNDS times, each on a fresh device, from a throttled
# server, while another loop kills backgroundassetsd with SIGKILL at random moments (every 0.5 to 3 s).
# The clients start the service again on demand. After each round it checks what a person would:
#   files     - every session on the device, byte-exact against the manifest's SHA-256;
#   hangs     - a round whose install or launch did not end within its timeout;
#   orphans   - files left in the hand-over folders or staging once the service has gone idle;
#   served    - the bytes the asset server sent, against the catalog's size (1.00x: nothing fetched twice).
# Not a test: run it by hand. Prints one line per round and a summary; exits 1 if any round failed.
#
# Usage: Tests/Benchmarks/kill-loop.sh
# Environment: ROUNDS (default 20), SESSIONS (default 12), SIZE in bytes (default 2097152),
#              RATE in bytes/s per connection (default 1048576), SKIP_BUILD=1, SCRATCH_PATH (default .build-bench),
#              BIN (default SCRATCH_PATH/release): a short check of a debug build runs
#              SKIP_BUILD=1 BIN=.build/debug ROUNDS=3 SESSIONS=4 Tests/Benchmarks/kill-loop.sh
set -euo pipefail

ROUNDS="${ROUNDS:-20}"
SESSIONS="${SESSIONS:-12}"
SIZE="${SIZE:-2097152}"
RATE="${RATE:-1048576}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/kill-loop.XXXXXX")"
KILLER_PID=""

kill_service() {  # SIGKILL to whichever service the device root's pid file names.
    local pid
    pid="$(cat "$BA_DEVICE_ROOT/run/backgroundassetsd.pid" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null && return 0
    return 1
}

cleanup() {
    [ -n "$KILLER_PID" ] && kill "$KILLER_PID" 2>/dev/null || true
    [ -n "${BA_DEVICE_ROOT:-}" ] && kill_service || true
    stop_service_and_server
}
trap cleanup EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension
BIN="${BIN:-$SCRATCH/release}"

log "Generating $SESSIONS sessions of about $SIZE bytes, served at $RATE bytes/s per connection..."
start_asset_server --sessions "$SESSIONS" --session-size "$SIZE" --throttle "$RATE" --access-log "$WORK/access.log"
CATALOG_BYTES="$(python3 -c 'import json,sys; print(sum(s["fileSize"] for s in json.load(open(sys.argv[1]))["sessions"]))' \
    "$WORK/catalog/manifest.json")"
# The app's Info.plist, pointed at this run's server, as the demo and the tests do.
python3 - "$PACKAGE_ROOT/App/Info.plist" "$WORK/Info.plist" "$BASE_URL/manifest.json" <<'PYTHON'
import plistlib, sys
with open(sys.argv[1], "rb") as source:
    plist = plistlib.load(source)
plist["BAManifestURL"] = sys.argv[3]
with open(sys.argv[2], "wb") as destination:
    plistlib.dump(plist, destination)
PYTHON

killer() {  # Kills the service at random moments until stopped; counts the kills in $WORK/kills.
    while true; do
        sleep "$(python3 -c 'import random; print(round(random.uniform(0.5, 3.0), 2))')"
        kill_service && echo kill >> "$WORK/kills"
    done
}

verify() {  # Prints how many sessions are on the device, byte-exact against the catalog's SHA-256.
    "$BIN/wwdc-sessions" list --json 2>/dev/null | python3 -c '
import hashlib, json, sys
catalog = {s["id"]: s["sha256"] for s in json.load(open(sys.argv[1]))["sessions"]}
exact = 0
for session in json.load(sys.stdin):
    try:
        with open(session["path"], "rb") as file:
            exact += hashlib.sha256(file.read()).hexdigest() == catalog.get(session["id"])
    except OSError:
        pass
print(exact)' "$WORK/catalog/manifest.json"
}

orphans() {  # Files left in the hand-over folders and staging once the service has delivered everything.
    find "$BA_DEVICE_ROOT/staging" "$BA_DEVICE_ROOT/containers" -path '*com.apple.BackgroundAssets/*' -o \
        -path "$BA_DEVICE_ROOT/staging/*.part" 2>/dev/null | wc -l
}

failed_rounds=0 hangs=0 total_kills=0 total_orphans=0 worst_served=0
for round in $(seq "$ROUNDS"); do
    export BA_DEVICE_ROOT="$WORK/device-$round"
    mkdir -p "$BA_DEVICE_ROOT/system"
    echo '{"idleExitAfter": 5, "retryInitialDelay": 0.2, "retryMaxDelay": 2}' > "$BA_DEVICE_ROOT/system/config.json"
    first="$(wc -l < "$WORK/access.log" 2>/dev/null || echo 0)"
    : > "$WORK/kills"
    killer &
    KILLER_PID=$!
    outcome=ok
    set +e
    timeout 300 "$BIN/backgroundassets-debug" install --app-plist "$WORK/Info.plist" --wait > "$WORK/install-$round.log" 2>&1
    code=$?
    if [ "$code" -eq 0 ]; then
        timeout 300 "$BIN/wwdc-sessions" --until-complete --timeout 280 --plain > "$WORK/app-$round.log" 2>&1
        code=$?
        [ "$code" -eq 0 ] || outcome="the app did not complete: $(tail -1 "$WORK/app-$round.log")"
    else
        outcome="install failed: $(tail -1 "$WORK/install-$round.log")"
    fi
    set -e
    [ "$code" -eq 124 ] && hangs=$((hangs + 1))
    kill "$KILLER_PID" 2>/dev/null || true
    wait "$KILLER_PID" 2>/dev/null || true
    KILLER_PID=""
    kills="$(wc -l < "$WORK/kills")"
    # Let the last service deliver what it holds and go idle before looking for leftovers.
    for _ in $(seq 200); do
        [ -S "$BA_DEVICE_ROOT/run/backgroundassetsd.sock" ] || break
        sleep 0.1
    done
    on_device="$(verify)"
    left="$(orphans)"
    served="$(python3 -c 'import json,sys; print(sum(json.loads(l)["bytes"] for l in open(sys.argv[1]).readlines()[int(sys.argv[2]):] if l.strip() and "/sessions/" in l))' \
        "$WORK/access.log" "$first")"
    ratio="$(python3 -c "print(f'{$served / $CATALOG_BYTES:.2f}')")"
    [ "$on_device" -eq "$SESSIONS" ] || outcome="${outcome/ok/}only $on_device of $SESSIONS sessions on the device"
    [ "$outcome" = ok ] || failed_rounds=$((failed_rounds + 1))
    total_kills=$((total_kills + kills))
    total_orphans=$((total_orphans + left))
    worst_served="$(python3 -c "print(max($worst_served, $ratio))")"
    log "round $round: $kills kill(s), $on_device/$SESSIONS sessions byte-exact, $left orphaned file(s), served ${ratio}x the catalog: $outcome"
    kill_service || true
done
echo "kill loop: $ROUNDS rounds of $SESSIONS sessions of about $SIZE bytes at $RATE bytes/s, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "SIGKILLs of the service: $total_kills; rounds failed: $failed_rounds; hangs: $hangs; orphaned files: $total_orphans; most served: ${worst_served}x the catalog"
[ "$failed_rounds" -eq 0 ]
