#!/usr/bin/env bash
# Abstract:
# Draws the timeline pictures of Docs/Images from complete runs of the scenes their pages describe:
# the demo (README, Getting started), the install and launch with promotion (chapter 3), the install
# whose essential download fails and arrives later (chapter 4), and the accelerated clock with its
# periodic check (chapter 6), and the live page during the demo's promotion (Debugging). Each scene runs on a copy of the package with its own device root and an
# asset server on a free port, and is drawn only once everything it started has ended.
#
# Usage: Tests/DocImages/draw-timelines.sh [SCENE...]   (demo promotion essential periodic live; all by default)
#        OUT=DIR ...                                   (write the PNGs and SVGs to DIR, not Docs/Images)
#        KEEP=1 ...                                    (keep the copies and their device roots)
#
# Needs swift build first, rsvg-convert (apt-get install librsvg2-bin) and, for the live page, chromium.
# About two minutes.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PRODUCTS="$ROOT/.build/debug"
OUT="${OUT:-$ROOT/Docs/Images}"
KEEP="${KEEP:-0}"
SCENES=("$@")
((${#SCENES[@]})) || SCENES=(demo promotion essential periodic live)

fail() { printf 'draw-timelines: %s\n' "$1" >&2; exit 1; }

command -v rsvg-convert > /dev/null || fail "rsvg-convert is missing; apt-get install librsvg2-bin."
for product in asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension \
    wwdc-sessions-demo; do
    [[ -x "$PRODUCTS/$product" ]] || fail "$PRODUCTS/$product is missing; run swift build first."
done
mkdir -p "$OUT"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/draw-timelines.XXXXXX")"
DEVICE="$WORK/none"
source "$ROOT/Tests/Scripts/device-teardown.sh"
remove_device_on_exit

debug() { "$PRODUCTS/backgroundassets-debug" "$@"; }

# Installs the scene's app and waits until it is launchable, its progress lines kept out of the way.
install_app() {
    debug install "$@" --wait > "$WORK/install.log" 2>&1 || fail "the install failed: $(tail -n 5 "$WORK/install.log")"
}

# A copy of the package's tracked files for one scene, with its own .catalog and device root.
new_copy() {
    local copy="$WORK/$1"
    mkdir -p "$copy"
    (cd "$ROOT" && git ls-files -z | tar --null --no-recursion --ignore-failed-read -T - -cf -) | tar -C "$copy" -xf -
    ln -s "$ROOT/.build" "$copy/.build"
    cd "$copy"
    DEVICE="$copy/.device"
    export BA_DEVICE_ROOT="$DEVICE"
}

# Starts an asset server on a free port with the arguments given, and points App/Info.plist at it.
start_server() {
    local log="$WORK/server-$RANDOM.log"
    "$PRODUCTS/asset-server" --port 0 "$@" > "$log" 2>&1 &
    local url=""
    for _ in $(seq 600); do
        url="$(sed -n 's|^asset-server listening on \(http://[0-9.]*:[0-9]*\).*|\1|p' "$log" | head -n 1)"
        [[ -n "$url" ]] && break
        kill -0 $! 2> /dev/null || fail "the asset server stopped: $(cat "$log")"
        sleep 0.1
    done
    [[ -n "$url" ]] || fail "the asset server did not say where it listens: $(cat "$log")"
    sed -i -E "s|http://127.0.0.1:[0-9]+/manifest.json|$url/manifest.json|" App/Info.plist
}

# Waits, up to a deadline, until a command succeeds.
wait_for() {
    local seconds="$1" what="$2"
    shift 2
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        ((SECONDS < deadline)) || fail "gave up after ${seconds}s waiting for $what."
        sleep 0.5
    done
}

# Whether every download of the trace has finished and no extension process is still running.
all_finished() {
    local trace="$DEVICE/system/trace.jsonl" want="$1"
    local finished launched exited
    finished="$( (grep '"event":"finishedWithFileURL"' "$trace" || true) | grep -o '"download":"[^"]*"' | sort -u | wc -l)"
    launched="$(grep -c '"event":"extensionLaunched"' "$trace" || true)"
    exited="$(grep -c '"event":"extensionExited"' "$trace" || true)"
    ((finished >= want && launched == exited))
}

# A picture in 256 colours, a third of the size and the same to the eye, where ImageMagick is installed.
shrink() {
    if command -v convert > /dev/null; then convert "$1" -dither None -colors 256 "PNG8:$1"; fi
}

# Draws the scene's trace since a bound and renders it at its natural size.
draw() {
    local name="$1" since="$2"
    debug trace --svg "$OUT/$name.svg" --since "$since"
    rsvg-convert "$OUT/$name.svg" -o "$OUT/$name.png"
    rm "$OUT/$name.svg"
    shrink "$OUT/$name.png"
    printf 'Drew %s\n' "$OUT/$name.png"
}

scene_demo() {
    new_copy demo
    "$PRODUCTS/wwdc-sessions-demo" --port 0 > "$WORK/demo.log" 2>&1 || fail "the demo failed: $(tail -n 20 "$WORK/demo.log")"
    # The demo draws its own run; drawn again here, it is the same trace with nothing left running.
    wait_for 30 "the demo's extension to exit" all_finished 12
    draw demo last-install
}

scene_promotion() {
    new_copy promotion
    start_server
    install_app
    "$PRODUCTS/wwdc-sessions" --plain --until-complete > "$WORK/promotion-app.log" 2>&1
    wait_for 30 "every session to finish" all_finished 12
    draw promotion last-install
}

scene_essential() {
    new_copy essential
    start_server --fail /sessions/wwdc23-10006.mp4=404x1
    install_app
    # The rescheduled session and the ten others arrive in the background; the picture waits for all.
    wait_for 120 "every session to finish in the background" all_finished 12
    draw essential last-install
}

scene_periodic() {
    new_copy periodic
    start_server
    install_app
    "$PRODUCTS/wwdc-sessions" --plain --until-complete > /dev/null 2>&1
    wait_for 30 "every session to finish" all_finished 12
    # Chapter 6: a device day in 24 real seconds, from the next start of the service.
    debug reset --yes > /dev/null
    echo '{ "timeScale": 3600 }' > "$DEVICE/system/config.json"
    "$PRODUCTS/wwdc-sessions" --plain --until-complete > /dev/null 2>&1
    wait_for 90 "a periodic check of the service's own" grep -q '"event":"periodicCheck"' "$DEVICE/system/trace.jsonl"
    wait_for 30 "the periodic check's extension to exit" all_finished 12
    draw periodic last-appLaunched
}

# The live page as it stood most of the way through the demo's promotion: served with --until then, it
# draws what the page showed then, some sessions finished and some still filling.
scene_live() {
    command -v chromium > /dev/null || fail "chromium is missing; apt-get install chromium."
    new_copy live
    "$PRODUCTS/wwdc-sessions-demo" --port 0 > "$WORK/live-demo.log" 2>&1 || fail "the demo failed: $(tail -n 20 "$WORK/live-demo.log")"
    wait_for 30 "the demo's extension to exit" all_finished 12
    local middle
    middle="$(python3 - "$DEVICE/system/trace.jsonl" <<'PYTHON'
import datetime, json, sys
entries = [json.loads(line) for line in open(sys.argv[1])]
promoted = [e["time"] for e in entries if e["event"] == "startForegroundDownload" and e.get("detail") == "promoted"]
finished = [e["time"] for e in entries if e["event"] == "finishedWithFileURL"]
parse = lambda text: datetime.datetime.fromisoformat(text.rstrip("Z"))
first, last = parse(min(promoted)), parse(max(finished))
print((first + (last - first) * 0.7).isoformat(timespec="milliseconds") + "Z")
PYTHON
)"
    debug trace --serve 0 --since last-install --until "$middle" > "$WORK/serve.log" 2> "$WORK/serve-errors.log" &
    local server=$! url=""
    EXTRA_PIDS="$server"
    wait_for 30 "the live page's address" grep -q '^Serving the live timeline at ' "$WORK/serve.log"
    url="$(sed -n 's/^Serving the live timeline at //p' "$WORK/serve.log")"
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,900 --virtual-time-budget=3000 \
        --screenshot="$OUT/live-timeline.png" "$url" > "$WORK/chromium.log" 2>&1 || fail "chromium failed: $(tail -n 5 "$WORK/chromium.log")"
    shrink "$OUT/live-timeline.png"
    kill -TERM "$server"
    wait "$server" 2> /dev/null || true
    EXTRA_PIDS=""
    printf 'Drew %s\n' "$OUT/live-timeline.png"
}

for scene in "${SCENES[@]}"; do
    declare -F "scene_$scene" > /dev/null || fail "no scene named $scene; the scenes are demo, promotion, essential, periodic, live."
    "scene_$scene"
    stop_device_processes
done
