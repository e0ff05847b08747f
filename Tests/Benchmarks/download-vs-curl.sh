#!/usr/bin/env bash
# Benchmarks one 1 GiB download through the Background Assets service against curl, side by side:
# `backgroundassets-debug download --foreground` (asset-server -> backgroundassetsd -> app group container ->
# renamed to the output) versus `curl -s -o FILE`, both from the same asset-server on loopback, both writing
# to the same disk, RUNS interleaved runs each. Prints every run, the median MiB/s of each, and the ratio
# (goal: the service at 0.85x curl or better), and curl followed by `sync FILE`: the service syncs each
# file before handing it over, curl does not. Not a test: run it by hand on a quiet machine.
#
# Usage: Tests/Benchmarks/download-vs-curl.sh          (from anywhere inside the package)
# Environment: RUNS (default 5), SIZE in bytes (default 1073741824), SKIP_BUILD=1 to reuse the release build,
#              SCRATCH_PATH (default .build-bench) for the build folder, HTTPS=1 to serve over TLS with a local
#              CA that the device trusts (backgroundassets-debug trust add) and curl is given (--cacert).
set -euo pipefail

RUNS="${RUNS:-5}"
SIZE="${SIZE:-1073741824}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/download-bench.XXXXXX")"

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

command -v curl >/dev/null || { log "curl is missing; install it (apt-get install curl) and run again."; exit 1; }

# --- Build -----------------------------------------------------------------------------------------------------
build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug
BIN="$SCRATCH/release"

# --- Server and service ----------------------------------------------------------------------------------------
log "Generating a catalog with one file of about $SIZE bytes..."
TLS_ARGS=()
CURL_TLS=()
if [ "${HTTPS:-0}" = 1 ]; then
    TLS_ARGS=(--tls --tls-dir "$WORK/tls")
    CURL_TLS=(--cacert "$WORK/tls/ca.pem")
fi
start_asset_server --sessions 1 --session-size "$SIZE" "${TLS_ARGS[@]}"
FILE_PATH="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sessions"][0]["url"])' "$WORK/catalog/manifest.json")"
FILE_SIZE="$(stat -c %s "$WORK/catalog/$FILE_PATH")"
URL="$BASE_URL/$FILE_PATH"

mkdir -p "$WORK/out"
start_service "${SERVICE_CONFIG:-{\"idleExitAfter\": 600\}}"
if [ "${HTTPS:-0}" = 1 ]; then
    "$BIN/backgroundassets-debug" trust add "$WORK/tls/ca.pem" >&2
fi

# --- Runs ------------------------------------------------------------------------------------------------------
now() { date +%s.%N; }
mibps() { python3 -c "import sys; print(f'{int(sys.argv[1]) / float(sys.argv[2]) / 1048576:.1f}')" "$1" "$2"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

tool_rates=()
curl_rates=()
synced_rates=()
for run in $(seq "$RUNS"); do
    rm -f "$WORK/out/tool.bin"
    sync
    start=$(now)
    "$BIN/backgroundassets-debug" download "$URL" --output "$WORK/out/tool.bin" --foreground --size "$FILE_SIZE" 2> "$WORK/tool.err" \
        || { log "backgroundassets-debug failed: $(tail -3 "$WORK/tool.err")"; exit 1; }
    tool_seconds=$(python3 -c "print($(now) - $start)")
    [ "$(stat -c %s "$WORK/out/tool.bin")" = "$FILE_SIZE" ] || { log "The tool's file has the wrong size."; exit 1; }
    rm -f "$WORK/out/tool.bin"

    rm -f "$WORK/out/curl.bin"
    sync
    start=$(now)
    curl -s "${CURL_TLS[@]}" -o "$WORK/out/curl.bin" "$URL"
    curl_seconds=$(python3 -c "print($(now) - $start)")
    # The service syncs a file before it hands it over; curl leaves it in the page cache. curl
    # followed by a sync of its file is the same promise, and the ceiling the disk sets.
    sync "$WORK/out/curl.bin"
    synced_seconds=$(python3 -c "print($(now) - $start)")
    [ "$(stat -c %s "$WORK/out/curl.bin")" = "$FILE_SIZE" ] || { log "curl's file has the wrong size."; exit 1; }
    rm -f "$WORK/out/curl.bin"

    tool_rates+=("$(mibps "$FILE_SIZE" "$tool_seconds")")
    curl_rates+=("$(mibps "$FILE_SIZE" "$curl_seconds")")
    synced_rates+=("$(mibps "$FILE_SIZE" "$synced_seconds")")
    log "run $run: backgroundassets-debug ${tool_rates[-1]} MiB/s, curl ${curl_rates[-1]} MiB/s, curl then sync ${synced_rates[-1]} MiB/s"
done

tool_median=$(median "${tool_rates[@]}")
curl_median=$(median "${curl_rates[@]}")
synced_median=$(median "${synced_rates[@]}")
ratio=$(python3 -c "print(f'{$tool_median / $curl_median:.2f}')")
synced_ratio=$(python3 -c "print(f'{$tool_median / $synced_median:.2f}')")
echo "file: $FILE_SIZE bytes, $RUNS interleaved runs each, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
echo "backgroundassets-debug download --foreground: median $tool_median MiB/s (${tool_rates[*]})"
echo "curl -s -o:                                   median $curl_median MiB/s (${curl_rates[*]})"
echo "curl -s -o, then sync FILE:                   median $synced_median MiB/s (${synced_rates[*]})"
echo "ratio: ${ratio}x curl (goal >= 0.85x), ${synced_ratio}x curl then sync"
