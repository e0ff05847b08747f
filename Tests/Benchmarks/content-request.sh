#!/usr/bin/env bash
# Benchmarks a content request end to end with the sample's own extension: installs WWDC Sessions against a
# small local catalog, then sends COUNT (default 20) periodic content requests one after another
# (backgroundassets-debug simulate --periodic-check) and reads the service's trace to split each one into
#   - manifest fetch: contentRequest -> manifest fetched,
#   - extension cold start: spawn -> check-in (the process is ready for its first entry point),
#   - entry point: downloads(for:manifestURL:extensionInfo:) sent -> returned (the extension's own work),
#   - service overhead: the rest of contentRequest -> downloads scheduled (launching, sending, scheduling).
# Prints the median and the worst of each. Not a test: run it by hand on a quiet machine.
#
# Usage: Tests/Benchmarks/content-request.sh          (from anywhere inside the package)
# Environment: COUNT (default 20), SKIP_BUILD=1 to reuse the release build,
#              SCRATCH_PATH (default .build-bench) for the build folder.
set -euo pipefail

COUNT="${COUNT:-20}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/content-request-bench.XXXXXX")"

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension
BIN="$SCRATCH/release"

start_asset_server --sessions 12 --session-size 4096

start_service '{"idleExitAfter": 600}'

# The sample's Info.plist, pointed at this run's server.
sed "s#http://127.0.0.1:8080/manifest.json#$BASE_URL/manifest.json#" "$PACKAGE_ROOT/App/Info.plist" > "$WORK/App-Info.plist"
"$BIN/backgroundassets-debug" install --app-plist "$WORK/App-Info.plist" \
    --extension-plist "$PACKAGE_ROOT/Extension/Info.plist" --wait > "$WORK/install.out"
TRACE="$BA_DEVICE_ROOT/system/trace.jsonl"

exits() { grep -c '"event":"extensionExited"' "$TRACE" || true; }
launches() { grep -c '"event":"extensionLaunched"' "$TRACE" || true; }
# The install's own extension run (essential outcomes, then downloads finishing with no app) ends first,
# so every measured request starts the extension cold.
for _ in $(seq 3000); do
    [ "$(launches)" -eq "$(exits)" ] && grep -q '"event":"appLaunchable"' "$TRACE" && break
    sleep 0.01
done
for run in $(seq "$COUNT"); do
    run_and_wait_for_trace extensionExited "$BIN/backgroundassets-debug" simulate --periodic-check
    log "content request $run of $COUNT done"
done

python3 - "$TRACE" "$COUNT" <<'PY'
import json, statistics, sys
from datetime import datetime

entries = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def at(entry): return datetime.fromisoformat(entry["time"].replace("Z", "+00:00")).timestamp() * 1000

runs, current = [], None
for entry in entries:
    event = entry["event"]
    if event == "contentRequest" and entry.get("detail") == "periodic":
        current = {"start": at(entry)}
    elif current is None:
        continue
    elif event == "manifest":
        current["manifest"] = at(entry)
    elif event == "extensionLaunched":
        current["launched"] = at(entry)
    elif event == "extensionCheckIn":
        current["checkin"] = at(entry)
    elif event == "downloads(for:manifestURL:extensionInfo:)":
        current["sent"] = at(entry)
    elif event == "return" and entry.get("detail", "").startswith("downloads(for:"):
        current["returned"] = at(entry)
    elif event == "scheduleReturnedDownloads":
        current["scheduled"] = at(entry)
        runs.append(current)
        current = None

rows = []
for run in runs[-int(sys.argv[2]):]:
    if "checkin" not in run:
        continue  # the extension was still running: not a cold start
    total = run["scheduled"] - run["start"]
    manifest = run["manifest"] - run["start"]
    cold = run["checkin"] - run["launched"]
    entry_point = run["returned"] - run["sent"]
    rows.append((manifest, cold, entry_point, total - manifest - cold - entry_point, total))
names = ["manifest fetch", "extension cold start (spawn to check-in)", "entry point (the extension's work)",
         "service overhead", "content request in all"]
print(f"{len(rows)} periodic content requests, milliseconds (median / worst):")
for index, name in enumerate(names):
    values = [row[index] for row in rows]
    print(f"  {name:44} {statistics.median(values):7.1f} / {max(values):7.1f}")
PY
