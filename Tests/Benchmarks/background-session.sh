#!/usr/bin/env bash
# Benchmarks a background URLSession download against curl, side by side, and the relaunch for its events:
# the game sample (background-game) downloads its data archive (SIZE bytes) with a background session and
# exits at once; the service transfers it (asset-server -> backgroundassetsd -> the game's container),
# launches the game in the background when the last byte is in, and hands it the file in
# didFinishDownloadingTo. Measured: the rate from the game's launch to the last byte in (the service's trace,
# finishedWithFileURL) against `curl -s -o FILE` of the same archive from the same server, RUNS interleaved
# runs each (goal: 0.85x curl or better); and the time from the last byte (finishedWithFileURL) to
# didFinishDownloadingTo sent to the game, which includes its cold launch. Not a test: run it by hand on a
# quiet machine.
#
# Usage: Tests/Benchmarks/background-session.sh          (from anywhere inside the package)
# Environment: RUNS (default 3), SIZE in bytes (default 536870912), SKIP_BUILD=1 to reuse the release build,
#              SCRATCH_PATH (default .build-bench) for the build folder, SERVICE_CONFIG for the service's config.json
#              (default: no background bandwidth limit).
set -euo pipefail

RUNS="${RUNS:-3}"
SIZE="${SIZE:-536870912}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/session-bench.XXXXXX")"
GAME=com.example.apple-samplecode.BackgroundGame

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

command -v curl >/dev/null || { log "curl is missing; install it (apt-get install curl) and run again."; exit 1; }

# --- Build -----------------------------------------------------------------------------------------------------
build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug background-game
BIN="$SCRATCH/release"

# --- Server, service and the game ------------------------------------------------------------------------------
# The archive is three session sizes long (see CatalogGameData.swift).
log "Generating a catalog whose game archive is about $SIZE bytes..."
start_asset_server --sessions 1 --session-size $(( SIZE / 3 ))
VERSION_URL="$BASE_URL/game/version.json"
ARCHIVE="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["archive"])' "$WORK/catalog/game/version.json")"
FILE_SIZE="$(stat -c %s "$WORK/catalog/game/$ARCHIVE")"
# A session's transfer is a background download, which shares backgroundBandwidthLimit (8 MiB/s by default)
# with the others: the benchmark lifts it to measure the transfer itself, as download-vs-curl.sh measures a
# foreground download. SERVICE_CONFIG sets another config.json.
start_service "${SERVICE_CONFIG:-{\"idleExitAfter\": 600, \"backgroundBandwidthLimit\": 0\}}"
sed "s|http://127.0.0.1:[0-9]*/game/version.json|$VERSION_URL|" "$PACKAGE_ROOT/App/BackgroundGame/Info.plist" > "$WORK/Info.plist"
mkdir -p "$WORK/out"

# --- Runs ------------------------------------------------------------------------------------------------------
now() { date +%s.%N; }
mibps() { python3 -c "import sys; print(f'{int(sys.argv[1]) / float(sys.argv[2]) / 1048576:.1f}')" "$1" "$2"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
# From the trace since line FROM: when the transfer's last byte was in (seconds since the epoch, the clock
# `date` reads), and how long after it the file was sent to the relaunched game, in milliseconds.
timings() {
    python3 - "$BA_DEVICE_ROOT/system/trace.jsonl" "$1" <<'PY'
import json, sys
from datetime import datetime
lines = open(sys.argv[1]).read().splitlines()[int(sys.argv[2]):]
def t(e): return datetime.strptime(e["time"], "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()
begin = last = sent = None
for line in lines:
    e = json.loads(line)
    if e.get("app") != "com.example.apple-samplecode.BackgroundGame": continue
    if e["event"] == "downloadDidBegin" and begin is None: begin = t(e)
    if e["event"] == "finishedWithFileURL" and last is None: last = t(e)
    if e["event"] == "didFinishDownloadingTo" and e["to"] == "app" and sent is None: sent = t(e)
if None in (begin, last, sent): sys.exit(1)
print(f"{last:.6f} {(sent - last) * 1000:.0f}")
PY
}

session_rates=()
curl_rates=()
relaunch_ms=()
for run in $(seq "$RUNS"); do
    "$BIN/backgroundassets-debug" uninstall -b "$GAME" > /dev/null 2>&1 || true
    "$BIN/backgroundassets-debug" install --app-plist "$WORK/Info.plist" --wait > /dev/null
    from=$(wc -l < "$BA_DEVICE_ROOT/system/trace.jsonl")
    sync
    # From the game's launch (its version check included), as curl's time includes its own start.
    start=$(now)
    "$BIN/background-game" > "$WORK/game.out" || { log "background-game failed: $(cat "$WORK/game.out")"; exit 1; }
    measured=""
    for _ in $(seq 6000); do
        measured="$(timings "$from" 2>/dev/null)" && break
        sleep 0.1
    done
    [ -n "$measured" ] || { log "run $run: the game was not handed its file within 10 minutes."; exit 1; }
    read -r last_byte delivery <<< "$measured"
    session_rates+=("$(mibps "$FILE_SIZE" "$(python3 -c "print($last_byte - $start)")")")
    relaunch_ms+=("$delivery")

    rm -f "$WORK/out/curl.bin"
    sync
    start=$(now)
    curl -s -o "$WORK/out/curl.bin" "$BASE_URL/game/$ARCHIVE"
    curl_rates+=("$(mibps "$FILE_SIZE" "$(python3 -c "print($(now) - $start)")")")
    [ "$(stat -c %s "$WORK/out/curl.bin")" = "$FILE_SIZE" ] || { log "curl's file has the wrong size."; exit 1; }
    rm -f "$WORK/out/curl.bin"
    log "run $run: background session ${session_rates[-1]} MiB/s, curl ${curl_rates[-1]} MiB/s, last byte to didFinishDownloadingTo ${relaunch_ms[-1]} ms"
done

session_median=$(median "${session_rates[@]}")
curl_median=$(median "${curl_rates[@]}")
relaunch_median=$(median "${relaunch_ms[@]}")
ratio=$(python3 -c "print(f'{$session_median / $curl_median:.2f}')")
echo "archive: $FILE_SIZE bytes, $RUNS interleaved runs each, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "background URLSession (game sample):  median $session_median MiB/s (${session_rates[*]})"
echo "curl -s -o:                           median $curl_median MiB/s (${curl_rates[*]})"
echo "ratio: ${ratio}x curl (goal >= 0.85x)"
echo "last byte to didFinishDownloadingTo in the relaunched game (cold launch): median $relaunch_median ms (${relaunch_ms[*]})"
