#!/usr/bin/env bash
# Benchmarks the sample's Background Tasks refresh end to end: installs WWDC Sessions against a small local
# catalog, runs the app once (it submits its refresh request), then COUNT times (default 20) runs
#   backgroundassets-debug simulate --launch-task com.example.apple-samplecode.WWDC-Sessions.refresh
# with the app closed, so each one is a cold launch of the app in the background. From the service's trace:
#   - cold launch to handler: simulateLaunchTask -> launchTask (spawn, process start, handler registered),
#   - the refresh itself: launchTask -> taskCompleted (manifest fetch, downloads scheduled, next request),
#   - the app's peak resident memory during the refresh (VmHWM, from backgroundLaunchDone).
# Prints the median and the worst of each. Not a test: run it by hand on a quiet machine.
#
# Usage: Tests/Benchmarks/background-tasks.sh          (from anywhere inside the package)
# Environment: COUNT (default 20), SKIP_BUILD=1 to reuse the release build,
#              SCRATCH_PATH (default .build-bench) for the build folder.
set -euo pipefail

COUNT="${COUNT:-20}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/background-tasks-bench.XXXXXX")"
TASK=com.example.apple-samplecode.WWDC-Sessions.refresh

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension
BIN="$SCRATCH/release"

start_asset_server --sessions 12 --session-size 4096
start_service '{"idleExitAfter": 600}'

sed "s#http://127.0.0.1:8080/manifest.json#$BASE_URL/manifest.json#" "$PACKAGE_ROOT/App/Info.plist" > "$WORK/App-Info.plist"
"$BIN/backgroundassets-debug" install --app-plist "$WORK/App-Info.plist" \
    --extension-plist "$PACKAGE_ROOT/Extension/Info.plist" --wait > "$WORK/install.out"
BA_MANIFEST_URL="$BASE_URL/manifest.json" "$BIN/wwdc-sessions" --plain --until-complete > "$WORK/app.out"
TRACE="$BA_DEVICE_ROOT/system/trace.jsonl"

for run in $(seq "$COUNT"); do
    run_and_wait_for_trace backgroundLaunchDone "$BIN/backgroundassets-debug" simulate --launch-task "$TASK"
    log "refresh $run of $COUNT done"
done

python3 - "$TRACE" "$COUNT" <<'PY'
import json, re, statistics, sys
from datetime import datetime

entries = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def at(entry): return datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp() * 1000

runs, current = [], None
for entry in entries:
    event = entry["event"]
    if event == "simulateLaunchTask":
        current = {"start": at(entry)}
    elif current is None:
        continue
    elif event == "launchTask":
        current["launched"] = at(entry)
    elif event == "taskCompleted":
        current["completed"] = at(entry)
    elif event == "backgroundLaunchDone":
        match = re.search(r"peak memory (\d+) MiB", entry.get("detail", ""))
        current["peak"] = int(match.group(1)) if match else float("nan")
        runs.append(current)
        current = None

rows = [(run["launched"] - run["start"], run["completed"] - run["launched"], run["peak"])
        for run in runs[-int(sys.argv[2]):] if "completed" in run]
print(f"{len(rows)} background refreshes, cold launches of the app (median / worst):")
for index, (name, unit) in enumerate([("simulate --launch-task to handler running", "ms"),
                                      ("the refresh (manifest, downloads, next request)", "ms"),
                                      ("the app's peak resident memory", "MiB")]):
    values = [row[index] for row in rows]
    print(f"  {name:50} {statistics.median(values):7.1f} / {max(values):7.1f} {unit}")
PY
echo "machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ)"
