#!/usr/bin/env bash
# Benchmarks the cost per download: COUNT sessions of SIZE bytes (default 1,000 of 100 KB) over https,
# installed with backgroundassets-debug install --wait, then the app run until every session is on the
# device and verified, against curl fetching the same COUNT URLs in one process (one connection, as
# curl reuses it), and against the same curl followed by one sync of its files' file system: the
# service makes each file durable before it hands it over, which curl alone never does. RUNS rounds,
# each on a new device with a new service, the order of the two sides alternating; prints each round,
# the medians and their ratios. Not a test: run it on a quiet machine.
#
# Nothing is deleted until every round has run: ext4 avoids reusing inodes freed in the last minutes,
# and creating files right after deleting thousands costs up to a millisecond each, which would
# charge one side for the cleanup of the round before. For the same reason, leave five minutes
# between two invocations: the first one's cleanup slows the start of the second.
#
# Usage: Tests/Benchmarks/many-small-sessions.sh     (from anywhere inside the package)
# Environment: COUNT (default 1000), SIZE (default 102400), RUNS (default 3), HTTPS=0 for plain http,
#              SERVICE_CONFIG (the service's config.json, default {"idleExitAfter": 600}),
#              SKIP_BUILD=1 to reuse the build, SCRATCH_PATH (default .build-bench), CONFIGURATION
#              (default release), KEEP_WORK=1 to keep the devices (traces, logs) for a look afterwards,
#              RESULTS=FILE to append one CSV line per round (count, size, scheme, round, install s, app s,
#              curl s, the service's peak RSS in KiB, CPU s of the service side, CPU s of curl, curl then sync s), as
#              scale-curve.sh does. BASELINE=FOLDER (a release build's products, such as a copy of
#              .build-bench/release made before a change) measures that build too in every round, on the
#              same server: the two builds alternate under the same load and the same file system, which a
#              second invocation would not give them. Each round adds tens of thousands of files to the
#              file system and the last side of a round is the slowest, so over every four rounds each build
#              and curl take each place in a round equally often: run a multiple of four. The CPU time of
#              the service side is the service's with the extensions it ran, the debug tool's and the
#              app's (user + system): on a machine busy with other work it moves far less than the wall
#              time, which follows the scheduler.
set -euo pipefail

COUNT="${COUNT:-1000}"
DEFAULT_SERVICE_CONFIG='{"idleExitAfter": 600}'
SERVICE_CONFIG="${SERVICE_CONFIG:-$DEFAULT_SERVICE_CONFIG}"
SIZE="${SIZE:-102400}"
RUNS="${RUNS:-3}"
HTTPS="${HTTPS:-1}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
CONFIGURATION="${CONFIGURATION:-release}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/many-small-bench.XXXXXX")"

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

if [ "$CONFIGURATION" = release ]; then
    build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension
fi
BIN="$SCRATCH/$CONFIGURATION"

server_flags=(--sessions "$COUNT" --session-size "$SIZE")
[ "$HTTPS" = 1 ] && server_flags+=(--tls --tls-dir "$WORK/tls")
start_asset_server "${server_flags[@]}"
curl_flags=()
if [ "$HTTPS" = 1 ]; then
    for _ in $(seq 100); do grep -q "CA certificate:" "$WORK/asset-server.out" && break; sleep 0.05; done
    CA="$(grep "CA certificate:" "$WORK/asset-server.out" | awk '{print $4}')"
    curl_flags=(--cacert "$CA")
fi

# The sample's Info.plist, pointed at this run's server.
sed -E "s#http://127.0.0.1:[0-9]+/manifest.json#$BASE_URL/manifest.json#" "$PACKAGE_ROOT/App/Info.plist" > "$WORK/App-Info.plist"

now() { date +%s.%N; }
calc() { awk "BEGIN { print $* }"; }

peak_rss() {  # peak_rss PID: the process's peak resident memory (VmHWM) in KiB, or 0 once it is gone.
    awk '/^VmHWM:/ { print $2; found = 1 } END { if (!found) print 0 }' "/proc/$1/status" 2>/dev/null || echo 0
}

TICKS="$(getconf CLK_TCK)"
cpu_seconds() {  # cpu_seconds PID: the process's CPU time with its reaped children's (the extensions), in seconds.
    # The command name can hold spaces, so the fields are counted from the ')' that ends it.
    sed 's/^.*) //' "/proc/$1/stat" | awk -v ticks="$TICKS" '{ print ($12 + $13 + $14 + $15) / ticks }'
}

timed() {  # timed FILE COMMAND...: runs COMMAND, writes its user + system CPU seconds to FILE, returns its status.
    local file="$1" TIMEFORMAT='%U %S' status=0
    shift
    # The command keeps the caller's standard error (fd 3); only the report of `time` goes to the file.
    { time "$@" 2>&3; } 3>&2 2> "$file.time" || status=$?
    awk '{ print $1 + $2 }' "$file.time" > "$file"
    return "$status"
}

measure_service() {  # measure_service ROUND: a new device and service; prints "install app peak-RSS-KiB CPU".
    DEVICE_ROOT="$WORK/device-$1"
    start_service "$SERVICE_CONFIG"
    [ "$HTTPS" = 1 ] && "$BIN/backgroundassets-debug" trust add "$CA" > /dev/null
    # No dirty pages queued for the disk at the start, so neither side pays for the other's writeback.
    sync
    local started installed finished
    started=$(now)
    timed "$WORK/install-$1.cpu" "$BIN/backgroundassets-debug" install --app-plist "$WORK/App-Info.plist" \
        --extension-plist "$PACKAGE_ROOT/Extension/Info.plist" --wait > "$WORK/install-$1.out" 2> "$WORK/install-$1.err"
    installed=$(now)
    timed "$WORK/app-$1.cpu" "$BIN/wwdc-sessions" --until-complete --timeout 900 --manifest-url "$BASE_URL/manifest.json" \
        --plain > "$WORK/app-$1.out" 2> "$WORK/app-$1.err" || { log "the app failed: $(tail -3 "$WORK/app-$1.out")"; exit 1; }
    finished=$(now)
    grep -q "All $COUNT sessions are on the device." "$WORK/app-$1.out" || { log "round $1: not every session arrived"; exit 1; }
    local rss cpu
    rss="$(peak_rss "$SERVICE_PID")"
    cpu="$(calc "$(cpu_seconds "$SERVICE_PID") + $(cat "$WORK/install-$1.cpu") + $(cat "$WORK/app-$1.cpu")")"
    stop "$SERVICE_PID" backgroundassetsd
    SERVICE_PID=""
    echo "$(calc "$installed - $started") $(calc "$finished - $installed") $rss $cpu"
}

# curl: the same URLs, one process, written to disk like the service's.
python3 - "$WORK/catalog/manifest.json" "$BASE_URL" > "$WORK/urls" <<'PY'
import json, sys
manifest, base = sys.argv[1], sys.argv[2]
for session in json.load(open(manifest))["sessions"]:
    print(f'{base}/{session["url"]}')
PY
measure_curl() {  # measure_curl ROUND: prints "seconds CPU-seconds seconds-until-synced".
    local folder="$WORK/curl-$1" started fetched
    mkdir -p "$folder"
    awk -v folder="$folder" '{ printf "url = \"%s\"\noutput = \"%s/%d\"\n", $0, folder, NR }' "$WORK/urls" > "$WORK/curl-$1.config"
    sync
    started=$(now)
    timed "$WORK/curl-$1.cpu" curl -s "${curl_flags[@]}" --config "$WORK/curl-$1.config"
    fetched=$(now)
    # The service hands over each file once it is on disk; curl's files reach the disk too with one
    # sync of their file system afterwards (syncfs), the cheapest way to make them all durable.
    sync -f "$folder"
    echo "$(calc "$fetched - $started") $(cat "$WORK/curl-$1.cpu") $(calc "$(now) - $started")"
}

measure_baseline() {  # measure_baseline ROUND: measure_service with the BASELINE build; prints nothing without one.
    [ -n "${BASELINE:-}" ] || return 0
    BIN="$BASELINE"
    measure_service "$1-baseline"
}

report_round() {  # report_round LABEL "install app rss cpu" "curl-time curl-cpu curl-synced-time": one line.
    local install app rss service_cpu curl_time curl_cpu curl_synced total
    read -r install app rss service_cpu <<< "$2"
    read -r curl_time curl_cpu curl_synced <<< "$3"
    total="$(calc "$install + $app")"
    printf '%s: install %.2f s, app until verified %.2f s, in all %.2f s; curl %.2f s; ratio %.1fx; curl then sync %.2f s (%.1fx); service peak RSS %d MiB; CPU %.2f s against curl %.2f s (%.1fx)\n' \
        "$1" "$install" "$app" "$total" "$curl_time" "$(calc "$total / $curl_time")" "$curl_synced" "$(calc "$total / $curl_synced")" \
        "$((rss / 1024))" "$service_cpu" "$curl_cpu" "$(calc "$service_cpu / ($curl_cpu > 0 ? $curl_cpu : 0.001)")"
}

log "$RUNS rounds: the app until $COUNT sessions of $SIZE bytes are on a new device, and curl, alternating..."
[ -z "${BASELINE:-}" ] || log "each round also measures the build in $BASELINE (\"baseline\"), beside this one"
service_times=()
baseline_times=()
curl_times=()
curl_synced_times=()
for round in $(seq "$RUNS"); do
    # The order of the round's sides: this build (s), the baseline (b) and curl (c). Without a
    # baseline the two sides alternate; with one, four orders put each side in each place as often.
    if [ -z "${BASELINE:-}" ]; then
        orders=(sc cs)
    else
        orders=(sbc cbs bsc csb)
    fi
    order="${orders[$(( (round - 1) % ${#orders[@]} ))]}"
    baseline=""
    for (( side = 0; side < ${#order}; side++ )); do
        case "${order:$side:1}" in
            s) service="$(measure_service "$round")" ;;
            b) baseline="$(measure_baseline "$round")" ;;
            c) curl_side="$(measure_curl "$round")" ;;
        esac
    done
    read -r install app rss service_cpu <<< "$service"
    read -r curl_time curl_cpu curl_synced <<< "$curl_side"
    total="$(calc "$install + $app")"
    service_times+=("$total")
    curl_times+=("$curl_time")
    curl_synced_times+=("$curl_synced")
    report_round "round $round" "$service" "$curl_side"
    if [ -n "$baseline" ]; then
        read -r base_install base_app _ _ <<< "$baseline"
        baseline_times+=("$(calc "$base_install + $base_app")")
        report_round "round $round, baseline" "$baseline" "$curl_side"
    fi
    if [ -n "${RESULTS:-}" ]; then
        echo "$COUNT,$SIZE,$([ "$HTTPS" = 1 ] && echo https || echo http),$round,$install,$app,$curl_time,$rss,$service_cpu,$curl_cpu,$curl_synced" \
            >> "$RESULTS"
    fi
done

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
service_median="$(median "${service_times[@]}")"
curl_median="$(median "${curl_times[@]}")"
curl_synced_median="$(median "${curl_synced_times[@]}")"
printf '%s sessions of %s bytes over %s, median of %d: service %.2f s, curl %.2f s, ratio %.1fx; curl then sync %.2f s, ratio %.1fx\n' \
    "$COUNT" "$SIZE" "$([ "$HTTPS" = 1 ] && echo https || echo http)" "$RUNS" \
    "$service_median" "$curl_median" "$(calc "$service_median / $curl_median")" \
    "$curl_synced_median" "$(calc "$service_median / $curl_synced_median")"
if [ "${#baseline_times[@]}" -gt 0 ]; then
    baseline_median="$(median "${baseline_times[@]}")"
    printf 'baseline, median of %d: service %.2f s, ratio %.1fx; this build takes %.2fx the baseline'"'"'s time\n' \
        "$RUNS" "$baseline_median" "$(calc "$baseline_median / $curl_median")" "$(calc "$service_median / $baseline_median")"
fi
log "machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ)"
