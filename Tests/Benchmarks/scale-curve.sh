#!/usr/bin/env bash
# The cost per session as the number of sessions grows: runs many-small-sessions.sh (install, then the app until
# every session is verified, against curl in one process) at each count of COUNTS, with SIZE-byte sessions over
# http, and writes the medians at each count as a CSV (time per session for the service and for curl, their
# ratio, the service's peak RSS, the install's and the app's share, the CPU time per session of each side, which
# a machine busy with other work distorts far less, and curl's time once its files are synced too, the promise
# the service keeps for each file) and draws them as an SVG with the debug
# tool's own SVG writer. Goals: within 2.5x curl at every count, the time per session at the largest count
# within 1.25x of that at the smallest, the service's peak RSS under 64 MiB at 10,000 and 128 MiB at 100,000.
# Not a test: run it by hand on a quiet machine; .ci/run runs it with COUNTS=20 so it cannot go stale.
#
# Usage: Tests/Benchmarks/scale-curve.sh          (from anywhere inside the package)
# Environment: COUNTS (default "1000 10000 100000"), SIZE (default 20480), HTTPS=1 for https,
#              RUNS (default 3; 1 from LONG_COUNT sessions on, default 50,000, where one round takes minutes),
#              CSV and SVG (default Docs/Images/scale-curve.csv and .svg), SKIP_BUILD=1, SCRATCH_PATH and
#              CONFIGURATION as many-small-sessions.sh takes them. FROM=FILE draws the curve from rounds
#              measured already (the lines many-small-sessions.sh appends to its RESULTS file, such as
#              rounds run with BASELINE= beside an older build) instead of measuring.
set -euo pipefail

COUNTS="${COUNTS:-1000 10000 100000}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
CSV="${CSV:-$PACKAGE_ROOT/Docs/Images/scale-curve.csv}"
SVG="${SVG:-$PACKAGE_ROOT/Docs/Images/scale-curve.svg}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/scale-curve.XXXXXX")"
# Every count's devices are kept until the end: deleting thousands of files slows the next count's creations
# (many-small-sessions.sh explains why), so one cleanup at the end charges no count for another's.
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# The chart is drawn by SVGDocument.swift, the timelines' writer, compiled with a small main of its own.
CHART="$SCRATCH/scale-curve-chart"
CHART_SOURCES=("$PACKAGE_ROOT/Server/System/BackgroundAssetsDebugTool/Timeline/SVGDocument.swift"
               "$PACKAGE_ROOT/Tests/Benchmarks/scale-curve-chart/main.swift")
build_chart() {
    for source in "${CHART_SOURCES[@]}"; do
        [ -x "$CHART" ] && [ "$CHART" -nt "$source" ] && continue
        log "Building the chart writer..."
        mkdir -p "$SCRATCH"
        swiftc -Onone -module-name ScaleCurveChart -o "$CHART" "${CHART_SOURCES[@]}" >&2
        return
    done
}
build_chart

ROUNDS="$WORK/rounds.csv"
: > "$ROUNDS"
built="${SKIP_BUILD:-0}"
[ -n "${FROM:-}" ] && { cp "$FROM" "$ROUNDS"; COUNTS=""; }
for count in $COUNTS; do
    runs="${RUNS:-$([ "$count" -ge "${LONG_COUNT:-50000}" ] && echo 1 || echo 3)}"
    log "== $count sessions, $runs round(s)"
    # A count that fails is left out of the curve, and the others are still written.
    COUNT="$count" SIZE="${SIZE:-20480}" HTTPS="${HTTPS:-0}" RUNS="$runs" RESULTS="$ROUNDS" SKIP_BUILD="$built" \
        SCRATCH_PATH="$SCRATCH" KEEP_WORK=1 TMPDIR="$WORK" "$PACKAGE_ROOT/Tests/Benchmarks/many-small-sessions.sh" \
        || log "$count sessions: the benchmark failed (above), so the curve leaves this count out."
    built=1
done

# One line per count: the medians of its rounds. The RSS is the worst round's, the figure a goal must hold for.
[ -s "$ROUNDS" ] || { log "No count was measured."; exit 1; }
mkdir -p "$(dirname "$CSV")" "$(dirname "$SVG")"
{
    echo "sessions,service ms per session,curl ms per session,ratio,service peak RSS MiB,install s,app s,rounds,service CPU ms per session,curl CPU ms per session,CPU ratio,curl then sync ms per session,ratio to curl then sync"
    sort -t, -k1,1n "$ROUNDS" | awk -F, '
        function median(list, n,    i, j, t, v) {
            split(list, v, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
            return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
        }
        function flush() {
            if (count == "") return
            service = median(totals, n); curl = median(curls, n); serviceCPU = median(cpus, n); curlCPU = median(curlCPUs, n)
            printf "%d,%.4f,%.4f,%.2f,%.1f,%.3f,%.3f,%d,%.4f,%.4f,%.2f", count, 1000 * service / count,
                1000 * curl / count, service / curl, peak / 1024, median(installs, n), median(apps, n), n,
                1000 * serviceCPU / count, 1000 * curlCPU / count, serviceCPU / (curlCPU > 0 ? curlCPU : 0.001)
            # Rounds measured before curl was also timed with a sync have no such figure: left empty.
            if (syncedRounds == n) {
                synced = median(synceds, n)
                printf ",%.4f,%.2f\n", 1000 * synced / count, service / synced
            } else printf ",,\n"
        }
        $1 != count { flush(); count = $1; n = 0; totals = curls = installs = apps = cpus = curlCPUs = synceds = ""; peak = 0; syncedRounds = 0 }
        {
            n++; totals = totals " " ($5 + $6); curls = curls " " $7; installs = installs " " $5; apps = apps " " $6
            cpus = cpus " " $9; curlCPUs = curlCPUs " " $10
            if ($11 != "") { synceds = synceds " " $11; syncedRounds++ }
            if ($8 > peak) peak = $8
        }
        END { flush() }'
} > "$CSV"
"$CHART" < "$CSV" > "$SVG"
tr , "\t" < "$CSV"
log "figures: $CSV; curve: $SVG"
log "machine: $(nproc) cores, $(uname -sr), load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%Y-%m-%dT%H:%MZ)"
