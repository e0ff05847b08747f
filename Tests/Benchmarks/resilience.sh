#!/usr/bin/env bash
# Measures what a crash of the service costs: bytes fetched twice after `kill -9` of backgroundassetsd in the
# middle of a throttled download (default 16 MiB/s), with the default checkpoints (64 MiB or 1 s), from the
# asset server's access log. Two cases, RUNS runs each:
#   same boot  - the service is killed and the download tool starts it again on demand (the machine stays up):
#                the restart trusts the staging file's length, so next to nothing should be fetched twice;
#   new boot   - the service and the tool are killed, and a new tool runs with another BA_BOOT_ID, as after a
#                power loss: only the last synced checkpoint is trusted.
# Not a test: run it by hand. Prints every run and the median re-fetch of each case.
#
# Usage: Tests/Benchmarks/resilience.sh
# Environment: RUNS (default 5), SIZE in bytes (default 134217728), RATE in bytes/s (default 16777216),
#              KILL_AT in bytes received (default 50331648, or half of a SIZE smaller than twice that),
#              SKIP_BUILD=1, SCRATCH_PATH (default .build-bench).
set -euo pipefail

RUNS="${RUNS:-5}"
SIZE="${SIZE:-134217728}"
RATE="${RATE:-16777216}"
# A small SIZE (a quick check) is killed halfway, not waited for past its end.
KILL_AT="${KILL_AT:-$(( SIZE / 2 < 50331648 ? SIZE / 2 : 50331648 ))}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/resilience-bench.XXXXXX")"
TOOL_PID=""

cleanup() {
    [ -n "$TOOL_PID" ] && stop "$TOOL_PID" backgroundassets-debug
    kill_service
    stop_service_and_server
}
trap cleanup EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug
BIN="$SCRATCH/release"

log "Generating a catalog with one file of about $SIZE bytes, served at $RATE bytes/s per connection..."
start_asset_server --sessions 1 --session-size "$SIZE" --throttle "$RATE" --access-log "$WORK/access.log"
FILE_PATH="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sessions"][0]["url"])' "$WORK/catalog/manifest.json")"
FILE_SIZE="$(stat -c %s "$WORK/catalog/$FILE_PATH")"
URL="$BASE_URL/$FILE_PATH"
export BA_DEVICE_ROOT="$WORK/device"

kill_service() {  # SIGKILL to whichever service the device root's pid file names.
    local pid
    pid="$(cat "$BA_DEVICE_ROOT/run/backgroundassetsd.pid" 2>/dev/null || true)"
    [ -n "$pid" ] && kill -9 "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
}

wait_for_bytes() {  # wait_for_bytes N: until the staging file holds N bytes.
    for _ in $(seq 6000); do
        local size
        size="$(stat -c %s "$BA_DEVICE_ROOT"/staging/*.part 2>/dev/null | head -1 || true)"
        [ -n "$size" ] && [ "$size" -ge "$1" ] && return 0
        sleep 0.01
    done
    log "The download never reached $1 bytes."; exit 1
}

served() {  # served FIRST-LINE: the body bytes of the access log's entries from that line on.
    python3 -c 'import json,sys; print(sum(json.loads(l)["bytes"] for l in open(sys.argv[1]).readlines()[int(sys.argv[2]):] if l.strip()))' \
        "$WORK/access.log" "$1"
}
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

run_case() {  # run_case same|new: one download with one kill; prints the bytes fetched twice.
    rm -rf "$BA_DEVICE_ROOT" "$WORK/out.bin"
    local first
    first="$(wc -l < "$WORK/access.log" 2>/dev/null || echo 0)"
    mkdir -p "$BA_DEVICE_ROOT/system"
    echo '{"idleExitAfter": 30}' > "$BA_DEVICE_ROOT/system/config.json"
    BA_BOOT_ID=boot-1 "$BIN/backgroundassets-debug" download "$URL" --output "$WORK/out.bin" --foreground --size "$FILE_SIZE" \
        2> "$WORK/tool.err" &
    TOOL_PID=$!
    wait_for_bytes "$KILL_AT"
    if [ "$1" = new ]; then
        kill -9 "$TOOL_PID"; wait "$TOOL_PID" 2>/dev/null || true
        kill_service
        BA_BOOT_ID=boot-2 "$BIN/backgroundassets-debug" download "$URL" --output "$WORK/out.bin" --foreground \
            --size "$FILE_SIZE" 2> "$WORK/tool.err" || { log "The download failed: $(tail -3 "$WORK/tool.err")"; exit 1; }
    else
        kill_service
        wait "$TOOL_PID" || { log "The download failed: $(tail -3 "$WORK/tool.err")"; exit 1; }
    fi
    TOOL_PID=""
    cmp -s "$WORK/out.bin" "$WORK/catalog/$FILE_PATH" || { log "The downloaded file differs from the catalog's."; exit 1; }
    kill_service
    echo $(( $(served "$first") - FILE_SIZE ))
}

same=()
new=()
for run in $(seq "$RUNS"); do
    same+=("$(run_case same)")
    new+=("$(run_case new)")
    log "run $run: re-fetched ${same[-1]} bytes after kill -9 (same boot), ${new[-1]} after a new boot"
done
echo "file: $FILE_SIZE bytes at $RATE bytes/s, killed at $KILL_AT bytes received, default checkpoints, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "kill -9, same boot: median $(median "${same[@]}") bytes fetched twice (${same[*]})"
echo "new boot:           median $(median "${new[@]}") bytes fetched twice (${new[*]})"
