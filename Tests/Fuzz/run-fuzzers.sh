#!/usr/bin/env bash
# Fuzzes every parser of outside data with libFuzzer for a bounded time each, and reports per target
# the seconds run, the inputs executed and the crashes found. Not part of `swift test`: the normal
# build compiles the same target as a replay tool (`swift run Fuzz TARGET FILE...`), so it never rots.
#
# Usage: Tests/Fuzz/run-fuzzers.sh [TARGET...]      (every target when none is named)
#   SECONDS_PER_TARGET=60   how long each target is fuzzed
#   FUZZ_OUTPUT=.build-fuzz/results   where corpora, logs and crash inputs go
#   SKIP_BUILD=1            reuse the last fuzzing build
# Exit status: 0 when no target crashed, 1 when one did (its inputs are listed), 2 when it cannot run.
set -euo pipefail
cd "$(dirname "$0")/../.."

SECONDS_PER_TARGET="${SECONDS_PER_TARGET:-60}"
OUTPUT="${FUZZ_OUTPUT:-.build-fuzz/results}"
SCRATCH=.build-fuzz

log() { printf '%s\n' "$*" >&2; }

# Its own scratch path, so the instrumented objects never mix with the normal build's. -enable-testing
# makes the internal parsers reachable through @testable import, as in a debug build; FUZZING swaps the
# replay tool's main for libFuzzer's driver.
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    log "Building the fuzz target with libFuzzer in $SCRATCH (several minutes the first time)..."
    swift build --product Fuzz --scratch-path "$SCRATCH" -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library \
        -Xswiftc -DFUZZING -Xswiftc -enable-testing >&2
fi
FUZZ="$(swift build --scratch-path "$SCRATCH" --show-bin-path)/Fuzz"
[[ -x "$FUZZ" ]] || { log "$FUZZ is missing; run without SKIP_BUILD=1."; exit 2; }

# --- Seeds: the repository's own fixtures, and one valid input per format where none exists ----------------
seed() {  # seed TARGET NAME: standard input becomes one seed of TARGET's corpus
    mkdir -p "$OUTPUT/corpus/$1"
    cat > "$OUTPUT/corpus/$1/$2"
}
write_seeds() {
    local golden=Tests/BackgroundAssetsIPCTests/GoldenFrames
    for plist in App/Info.plist App/*/Info.plist Extension/Info.plist Extension/*/Info.plist; do
        seed info-plist "$(echo "$plist" | tr / -)" < "$plist"
        # The same keys as a binary property list, which Foundation reads with another parser.
        python3 -c 'import plistlib, sys; sys.stdout.buffer.write(plistlib.dumps(plistlib.load(sys.stdin.buffer), fmt=plistlib.FMT_BINARY))' \
            < "$plist" | seed info-plist "$(echo "$plist" | tr / -).binary"
    done
    for frame in "$golden"/*/*.json; do
        seed message-codec "$(basename "$(dirname "$frame")")-$(basename "$frame")" < "$frame"
    done
    # A stream of two frames (a 4-byte big-endian length, then the payload), cut after 7 bytes.
    python3 - "$golden" "$OUTPUT/corpus/frame-decoder" <<'PY'
import os, sys
golden, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
frames = sorted(os.path.join(d, f) for d, _, fs in os.walk(golden) for f in fs if f.endswith(".json"))
for index in range(0, len(frames) - 1, 2):
    stream = b"".join(len(p).to_bytes(4, "big") + p for p in (open(frames[index], "rb").read(), open(frames[index + 1], "rb").read()))
    open(os.path.join(out, f"pair-{index}"), "wb").write(bytes([7]) + stream)
PY
    python3 - "$OUTPUT/corpus/resume-data" <<'PY'
import os, plistlib, sys
os.makedirs(sys.argv[1], exist_ok=True)
plist = {"NSURLSessionResumeInfoVersion": 1, "NSURLSessionDownloadURL": "http://127.0.0.1:8080/game-data.bin",
         "NSURLSessionResumeBytesReceived": 4096, "NSURLSessionResumeEntityTag": "\"abc\"",
         "NSURLSessionResumeInfoTempFileName": "CFNetworkDownload_1.tmp",
         "NSURLSessionResumeRequestHeaders": {"Accept": "*/*"}, "NSURLSessionResumeSessionIdentifier": "game.session"}
open(os.path.join(sys.argv[1], "xml"), "wb").write(plistlib.dumps(plist))
open(os.path.join(sys.argv[1], "binary"), "wb").write(plistlib.dumps(plist, fmt=plistlib.FMT_BINARY))
PY
    printf 'HTTP/1.1 206 Partial Content\r\nContent-Length: 100\r\nContent-Range: bytes 100-199/1000\r\nETag: "v1"\r\nLast-Modified: Tue, 06 Jun 2023 17:00:00 GMT\r\nAccept-Ranges: bytes' | seed http-head range
    printf 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nConnection: keep-alive' | seed http-head chunked
    printf '\x09'"5\r\nhello\r\n1a;ext=1\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nTrailer: x\r\n\r\n" | seed chunked-body two-chunks
    printf '{"lowPowerMode": true, "backgroundAppRefresh": false, "notificationsByApp": {"com.example.app": true}}' | seed device-settings flags
    printf '{"maxConcurrentDownloads": 4, "retryInitialDelay": 0.5, "checkpointBytes": 65536, "essentialWait": 3}' | seed service-config knobs
    cat <<'JSON' | seed session-manifest two-sessions
{"version": 2, "sessions": [
 {"id": "wwdc23-10108", "title": "What's new in Background Assets", "url": "sessions/10108.mp4", "fileSize": 1048576,
  "sha256": "0000000000000000000000000000000000000000000000000000000000000000", "essential": true},
 {"id": "wwdc23-10109", "title": "Meet Background Assets", "url": "https://cdn.example.com/10109.mp4", "fileSize": 2048,
  "sha256": "1111111111111111111111111111111111111111111111111111111111111111", "essential": false,
  "thumbnailURL": "thumbnails/10109.png"}]}
JSON
    local header='{"formatVersion":1,"assetPackID":"Slides-WWDC23","version":2,"downloadPolicy":{"onDemand":{}},"platforms":["linux"],"directories":["Slides"],"files":[{"path":"Slides/1.pdf","size":3,"sha256":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}]}'
    printf '%s' "$header" | seed archive-header one-file
    # Real archives and a download manifest, when the normal build's ba-package is there to make them.
    local package=.build/debug/ba-package
    if [[ -x "$package" ]]; then
        local work; work="$(mktemp -d)"
        mkdir -p "$work/Slides"; printf 'abc' > "$work/Slides/1.pdf"; printf 'hello' > "$work/Slides/2.pdf"
        printf '{ "assetPackID": "Slides-WWDC23", "version": 2, "downloadPolicy": { "onDemand": {} }, "fileSelectors": [ { "directory": "Slides" } ] }' > "$work/Manifest.json"
        if (cd "$work" && "$OLDPWD/$package" Manifest.json -o pack.aar --quiet \
            && "$OLDPWD/$package" download-manifest create pack.aar -o manifest.json --quiet) >/dev/null 2>&1; then
            seed archive-reader pack.aar < "$work/pack.aar"
            { printf '\x40'; cat "$work/pack.aar"; } | seed archive-digester pack-cut-at-64.aar
            seed download-manifest from-ba-package < "$work/manifest.json"
        fi
        rm -rf "$work"
    fi
}

# --- Fuzzing ---------------------------------------------------------------------------------------------------
mkdir -p "$OUTPUT/crashes" "$OUTPUT/logs"
write_seeds
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
    mapfile -t targets < <("$FUZZ" --list | cut -f1)
fi

crashed=0
report=()
for target in "${targets[@]}"; do
    mkdir -p "$OUTPUT/corpus/$target"
    started=$SECONDS executions=0 crashes=0 runs=0
    # libFuzzer stops at the first crash; start it again with what time is left, so a target's other
    # findings still come out, up to five crashes a target.
    while (( SECONDS - started < SECONDS_PER_TARGET && crashes < 5 )); do
        left=$(( SECONDS_PER_TARGET - (SECONDS - started) ))
        (( left >= 1 )) || break
        runs=$((runs + 1))
        logfile="$OUTPUT/logs/$target-$runs.log"
        before=$(find "$OUTPUT/crashes" -name "$target-*" | wc -l)
        # Swift's backtracer would take the trap's signal first; libFuzzer must see it to save the input.
        SWIFT_BACKTRACE=enable=no "$FUZZ" "$target" -max_total_time="$left" -timeout=10 -rss_limit_mb=2048 \
            -max_len=65536 -print_final_stats=1 -artifact_prefix="$OUTPUT/crashes/$target-" \
            "$OUTPUT/corpus/$target" > "$logfile" 2>&1 || true
        done_units=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$logfile" | grep -o '[0-9]*$' || true)
        [[ -n "$done_units" ]] || done_units=$(grep -oE '^#[0-9]+' "$logfile" | tail -1 | tr -d '#' || true)
        executions=$(( executions + ${done_units:-0} ))
        after=$(find "$OUTPUT/crashes" -name "$target-*" | wc -l)
        if (( after > before )); then
            crashes=$(( crashes + after - before ))
        elif ! grep -q 'stat::number_of_executed_units' "$logfile"; then
            log "$target stopped without a crash input or its statistics; see $logfile"
            break
        fi
    done
    elapsed=$(( SECONDS - started ))
    (( crashes == 0 )) || crashed=1
    report+=("$(printf '%-18s %5ss %12s %8s' "$target" "$elapsed" "$executions" "$crashes")")
done

printf '%-18s %6s %12s %8s\n' target time executions crashes
printf '%s\n' "${report[@]}"
if (( crashed )); then
    echo "Crash inputs (replay one with: swift run Fuzz TARGET FILE):"
    find "$OUTPUT/crashes" -type f | sort
    exit 1
fi
