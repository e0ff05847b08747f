#!/usr/bin/env bash
# Benchmarks asset packs through the Background Assets service, against curl in the same run:
#   1. install: COUNT (default 20) essential packs of SIZE (default 5 MiB) of random bytes, made with
#      ba-package and served by asset-server, installed by `backgroundassets-debug install --wait`, which
#      returns once every pack is downloaded, verified (the archive's SHA-256 against the manifest's), unpacked,
#      synced and made current; against `curl` fetching the same archives from the same server into files,
#      one after another in one process and 4 at a time (--parallel, as the service's default
#      maxConcurrentDownloads), and 4 at a time followed by `sync` of the files (the service syncs every
#      file it installs, so a crash leaves the old version or the new one). RUNS (default 3) interleaved runs each, each install on a fresh device.
#      Goal: the install at 1.25x curl's time or better, unpacking included. The service runs with
#      backgroundBandwidthLimit 0: pack archives are background rows, which the default limit (8 MiB/s
#      shared) would pace, measuring the limit rather than the service; SERVICE_CONFIG overrides it.
#      From the service's trace, each install splits into the time from its request to the first archive's
#      transfer (manifest, the extension's launch and answer) and from there to the last pack installed;
#      with the service's CPU time (user + system) over the install, and the load average before and after.
#      BASELINE=FOLDER (a release build's products, such as a copy of .build-bench/release made before a change)
#      adds an install with that build to every run, right after the install with this one, on the same
#      server: the two builds measured alternately under the same load.
#   2. ensureLocalAvailability(of:) of a pack already on the device, CALLS (default 1000) times in one app
#      process (asset-pack-test-app time-ensure): the first call and the median. Goal: under 5 ms.
# Not a test: run it by hand on a quiet machine.
#
# Usage: Tests/Benchmarks/asset-packs.sh          (from anywhere inside the package)
# Environment: COUNT, SIZE in bytes, RUNS, CALLS, SERVICE_CONFIG (the service's config.json); SKIP_BUILD=1 to reuse the release build,
#              SCRATCH_PATH (default .build-bench) for the build folder, BASELINE, KEEP_WORK=1 to keep the files.
set -euo pipefail

COUNT="${COUNT:-20}"
SIZE="${SIZE:-5242880}"
RUNS="${RUNS:-3}"
CALLS="${CALLS:-1000}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/asset-pack-bench.XXXXXX")"

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

command -v curl >/dev/null || { log "curl is missing; install it (apt-get install curl) and run again."; exit 1; }

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug ba-package asset-pack-test-app \
    asset-pack-test-extension
BIN="$SCRATCH/release"

# --- Packs and server ------------------------------------------------------------------------------------------
log "Packaging $COUNT essential packs of $SIZE bytes..."
mkdir -p "$WORK/catalog"
for number in $(seq -w 1 "$COUNT"); do
    source_folder="$WORK/source/Pack-$number"
    mkdir -p "$source_folder/Data"
    head -c "$SIZE" /dev/urandom > "$source_folder/Data/pack-$number.bin"
    cat > "$source_folder/Manifest.json" <<EOF
{ "assetPackID": "Pack-$number", "version": 1,
  "downloadPolicy": { "essential": { "installationEventTypes": ["firstInstallation"] } },
  "fileSelectors": [ { "directory": "Data" } ] }
EOF
    (cd "$source_folder" && "$BIN/ba-package" Manifest.json -o "$WORK/catalog/Pack-$number.aar" --quiet)
done
"$BIN/ba-package" download-manifest create "$WORK"/catalog/*.aar -o "$WORK/catalog/manifest.json" --quiet
start_asset_server
URLS=()
for archive in "$WORK"/catalog/*.aar; do URLS+=("$BASE_URL/$(basename "$archive")"); done
ARCHIVE_BYTES="$(cat "$WORK"/catalog/*.aar | wc -c)"

# --- The managed app -------------------------------------------------------------------------------------------
APP=com.example.asset-pack-bench
GROUP="group.$APP"
plist() {  # plist ENTRIES...: an Info.plist of the given <key>/<value> lines.
    printf '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n%s\n</dict>\n</plist>\n' "$*"
}
GROUPS_KEY="<key>com.apple.security.application-groups</key><array><string>$GROUP</string></array>"
plist "<key>CFBundleIdentifier</key><string>$APP</string>
<key>CFBundleExecutable</key><string>asset-pack-test-app</string>
<key>CFBundleVersion</key><string>1</string>
<key>CFBundleShortVersionString</key><string>1.0</string>
<key>BAManifestURL</key><string>$BASE_URL/manifest.json</string>
<key>BAInitialDownloadRestrictions</key><dict>
  <key>BADownloadAllowance</key><integer>4294967296</integer>
  <key>BAEssentialDownloadAllowance</key><integer>4294967296</integer>
  <key>BADownloadDomainAllowList</key><array><string>127.0.0.1</string></array></dict>
<key>BAMaxInstallSize</key><integer>4294967296</integer>
<key>BAEssentialMaxInstallSize</key><integer>4294967296</integer>
$GROUPS_KEY
<key>BAHasManagedAssetPacks</key><true/>
<key>BAAppGroupID</key><string>$GROUP</string>
<key>BAUsesAppleHosting</key><false/>" > "$WORK/App-Info.plist"
plist "<key>CFBundleIdentifier</key><string>$APP.Extension</string>
<key>CFBundleExecutable</key><string>asset-pack-test-extension</string>
<key>CFBundleVersion</key><string>1</string>
<key>CFBundleShortVersionString</key><string>1.0</string>
<key>EXAppExtensionAttributes</key><dict>
  <key>EXExtensionPointIdentifier</key><string>com.apple.background-asset-downloader-extension</string></dict>
$GROUPS_KEY
<key>BAAppGroupID</key><string>$GROUP</string>" > "$WORK/Extension-Info.plist"

# --- Runs ------------------------------------------------------------------------------------------------------
now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$1" "$2"; }
CURL_SEQUENTIAL=()
CURL_PARALLEL=()
CURL_SYNCED=()
INSTALL=()
SERVICE_CPU=()
PHASES=()
BASELINE_INSTALL=()
BASELINE_CPU=()
BASELINE_PHASES=()
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }  # user + system time, in clock ticks
install_phases() {  # install_phases TRACE: ms from the install request to the first archive's transfer, then to the last pack's end.
    python3 - "$1" <<'PY'
import datetime, json, sys
times = {}
for line in open(sys.argv[1]):
    row = json.loads(line)
    at = datetime.datetime.fromisoformat(row["time"].replace("Z", "+00:00")).timestamp() * 1000
    times.setdefault(row["event"], []).append(at)
print(f"{min(times['downloadDidBegin']) - min(times['install']):.0f}/"
      f"{max(times['assetPackFinished']) - min(times['downloadDidBegin']):.0f}")
PY
}
curl_run() {  # curl_run OUT-FOLDER EXTRA-ARGS...: fetches every archive into OUT-FOLDER, prints the seconds.
    local out="$1" start end arguments=()
    shift
    rm -rf "$out" && mkdir -p "$out"
    for url in "${URLS[@]}"; do arguments+=(-o "$out/$(basename "$url")" "$url"); done
    start="$(now)"
    curl -sf --no-progress-meter "$@" "${arguments[@]}"
    [ "${SYNC:-0}" = 1 ] && sync "$out"/*
    end="$(now)"
    elapsed "$start" "$end"
}
install_run() {  # install_run BIN-FOLDER NAME: installs on a fresh device with that build; sets SECONDS_TAKEN, PHASES_TAKEN, TICKS_TAKEN.
    # Not in a subshell: the service it starts is this shell's child, which stop and the EXIT trap end.
    local start end cpu_before installed
    BIN="$1" DEVICE_ROOT="$WORK/device-$2"
    start_service "${SERVICE_CONFIG:-{\"idleExitAfter\": 600, \"backgroundBandwidthLimit\": 0\}}"
    cpu_before="$(cpu_ticks "$SERVICE_PID")"
    start="$(now)"
    "$BIN/backgroundassets-debug" install --app-plist "$WORK/App-Info.plist" \
        --extension-plist "$WORK/Extension-Info.plist" --wait > "$WORK/install-$2.out" 2>&1 ||
        { log "the install failed: $(cat "$WORK/install-$2.out")"; exit 1; }
    end="$(now)"
    installed="$(find "$BA_DEVICE_ROOT/containers/$GROUP/Library/BackgroundAssets/AssetPacks" -name 'pack-*.bin' | wc -l)"
    [ "$installed" -eq "$COUNT" ] || { log "install $2 installed $installed of $COUNT packs"; exit 1; }
    SECONDS_TAKEN="$(elapsed "$start" "$end")"
    PHASES_TAKEN="$(install_phases "$BA_DEVICE_ROOT/system/trace.jsonl")"
    TICKS_TAKEN="$(( $(cpu_ticks "$SERVICE_PID") - cpu_before ))"
}
# Every run writes into folders of its own, all deleted when the script ends. On a file system
# without a journal (this VM's), ext4 skips inodes freed in the last minute (five while their table
# block is unwritten) each time it allocates one, so files deleted between runs made every folder and
# file of the next run slower to create, and each run slower than the one before. What the runs keep
# is not synced either: it stays in the page cache until the kernel's background write-back starts
# (10 % of memory dirty), which a run past it shares with curl's.
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
THIS_BUILD="$BIN"
for run in $(seq "$RUNS"); do
    CURL_SEQUENTIAL+=("$(curl_run "$WORK/curl-$run-sequential")")
    CURL_PARALLEL+=("$(curl_run "$WORK/curl-$run-parallel" --parallel --parallel-max 4)")
    CURL_SYNCED+=("$(SYNC=1 curl_run "$WORK/curl-$run-synced" --parallel --parallel-max 4)")

    line="run $run: curl one by one ${CURL_SEQUENTIAL[-1]} s, curl 4 at a time ${CURL_PARALLEL[-1]} s, then synced ${CURL_SYNCED[-1]} s"
    # With a baseline, the two builds take turns at going first, so neither always meets the
    # write-back of the other's files.
    builds=(this)
    if [ -n "${BASELINE:-}" ]; then
        if [ $((run % 2)) = 1 ]; then builds=(baseline this); else builds=(this baseline); fi
    fi
    for build in "${builds[@]}"; do
        [ -n "${SERVICE_PID:-}" ] && stop "$SERVICE_PID" backgroundassetsd
        if [ "$build" = this ]; then
            install_run "$THIS_BUILD" "$run"
            INSTALL+=("$SECONDS_TAKEN") PHASES+=("$PHASES_TAKEN") SERVICE_CPU+=("$TICKS_TAKEN")
            line+=", install $SECONDS_TAKEN s (to the first transfer/transfers to the last pack: $PHASES_TAKEN ms; service CPU $TICKS_TAKEN ticks)"
        else
            install_run "$BASELINE" "$run-baseline"
            BASELINE_INSTALL+=("$SECONDS_TAKEN") BASELINE_PHASES+=("$PHASES_TAKEN") BASELINE_CPU+=("$TICKS_TAKEN")
            line+=", baseline install $SECONDS_TAKEN s ($PHASES_TAKEN ms; CPU $TICKS_TAKEN ticks)"
        fi
    done
    log "$line"
done
LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg)"

# ensureLocalAvailability of a pack on the device, on the last run's device, the service still running:
# with the app of the build that installed it (this one, with an odd number of runs), which the
# service knows by its executable.
# The first pack, named as the packaging loop names it: `seq -w` pads to the width of COUNT.
FIRST_PACK="Pack-$(seq -w 1 "$COUNT" | head -1)"
ENSURE="$(BA_BUNDLE_IDENTIFIER="$APP" "$BIN/asset-pack-test-app" time-ensure "$FIRST_PACK" --count "$CALLS")"

python3 - "$COUNT" "$SIZE" "$ARCHIVE_BYTES" "$ENSURE" "${CURL_SEQUENTIAL[*]}" "${CURL_PARALLEL[*]}" "${CURL_SYNCED[*]}" "${INSTALL[*]}" \
    "${PHASES[*]}" "${SERVICE_CPU[*]}" "$(getconf CLK_TCK)" "${BASELINE_INSTALL[*]}" "${BASELINE_PHASES[*]}" "${BASELINE_CPU[*]}" \
    "$LOAD_BEFORE" "$LOAD_AFTER" <<'PY'
import statistics, sys
count, size, archive_bytes, ensure = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sequential, parallel, synced, install = ([float(x) for x in arg.split()] for arg in sys.argv[5:9])
ticks = int(sys.argv[11])
mib = archive_bytes / 1048576
print(f"{count} packs of {size / 1048576:.1f} MiB ({mib:.1f} MiB of archives), {len(install)} runs, medians "
      f"(load average {sys.argv[15]} before, {sys.argv[16]} after):")
for name, runs in [("curl, one by one", sequential), ("curl, 4 at a time", parallel),
                   ("curl, 4 + sync", synced), ("install --wait", install)]:
    median = statistics.median(runs)
    print(f"  {name:<20} {median:7.3f} s  {mib / median:7.1f} MiB/s   runs: {' '.join(f'{r:.3f}' for r in runs)}")
best = min(statistics.median(sequential), statistics.median(parallel))
builds = [("this build", install, sys.argv[9], sys.argv[10])]
if sys.argv[12]:
    builds.append(("baseline", [float(x) for x in sys.argv[12].split()], sys.argv[13], sys.argv[14]))
for name, runs, phase_runs, cpu_runs in builds:
    phases = [[float(x) for x in run.split("/")] for run in phase_runs.split()]
    cpu = [int(x) / ticks for x in cpu_runs.split()]
    print(f"  {name}: install {statistics.median(runs):.3f} s, / the faster curl: {statistics.median(runs) / best:.2f}x "
          f"(goal: 1.25x or better); / curl + sync: {statistics.median(runs) / statistics.median(synced):.2f}x")
    print(f"    install request to the first archive's transfer {statistics.median(p[0] for p in phases):.0f} ms, "
          f"then to the last pack installed {statistics.median(p[1] for p in phases):.0f} ms; "
          f"service CPU {statistics.median(cpu):.2f} s")
    if name == "baseline":
        print(f"    baseline runs: {' '.join(f'{r:.3f}' for r in runs)}")
print(f"ensureLocalAvailability of a pack already there: {ensure.removeprefix('ensure ')} (goal: under 5 ms)")
PY
