# Helpers the benchmark scripts share: logging, and stopping a process within a bounded time.
# Sourced, not run: `source "$(dirname "${BASH_SOURCE[0]}")/common.sh"`.

log() { printf '%s\n' "$*" >&2; }

stop() {  # stop PID NAME: SIGTERM, up to 5 s, then SIGKILL, so cleanup is bounded in time.
    kill "$1" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$1" 2>/dev/null; then
        log "$2 (pid $1) was still running 5 s after SIGTERM; killing it."
        kill -9 "$1" 2>/dev/null || true
    fi
    wait "$1" 2>/dev/null || true
}

build_release() {  # build_release SCRATCH PRODUCT...: release-builds the products, unless SKIP_BUILD=1.
    local scratch="$1"
    shift
    [ "${SKIP_BUILD:-0}" = 1 ] && return 0
    log "Building release products in $scratch..."
    for product in "$@"; do
        swift build -c release --package-path "$PACKAGE_ROOT" --scratch-path "$scratch" --product "$product" >&2
    done
}

stop_service_and_server() {  # The EXIT trap of the scripts that run backgroundassetsd behind asset-server.
    [ -n "${SERVICE_PID:-}" ] && stop "$SERVICE_PID" backgroundassetsd
    [ -n "${ASSET_PID:-}" ] && stop "$ASSET_PID" asset-server
    if [ "${KEEP_WORK:-0}" = 1 ]; then log "kept: $WORK"; else rm -rf "$WORK"; fi
}

start_asset_server() {  # start_asset_server ARGS...: asset-server on a free port in $WORK; sets ASSET_PID and BASE_URL.
    "$BIN/asset-server" --host 127.0.0.1 --port 0 --catalog "$WORK/catalog" "$@" \
        > "$WORK/asset-server.out" 2> "$WORK/asset-server.err" &
    ASSET_PID=$!
    # Up to ten minutes: generating a catalog of 100,000 sessions writes and hashes 100,000 files first.
    for _ in $(seq 6000); do
        grep -q "listening on" "$WORK/asset-server.out" 2>/dev/null && break
        kill -0 "$ASSET_PID" 2>/dev/null || { log "asset-server ended: $(cat "$WORK/asset-server.err")"; exit 1; }
        sleep 0.1
    done
    BASE_URL="$(head -1 "$WORK/asset-server.out" | awk '{print $4}')"
}

start_service() {  # start_service CONFIG-JSON: backgroundassetsd in $DEVICE_ROOT (default $WORK/device); sets SERVICE_PID and BA_DEVICE_ROOT.
    export BA_DEVICE_ROOT="${DEVICE_ROOT:-$WORK/device}"
    mkdir -p "$BA_DEVICE_ROOT/system"
    echo "$1" > "$BA_DEVICE_ROOT/system/config.json"
    "$BIN/backgroundassetsd" 2> "$WORK/backgroundassetsd.err" &
    SERVICE_PID=$!
    for _ in $(seq 100); do
        [ -S "$BA_DEVICE_ROOT/run/backgroundassetsd.sock" ] && break
        sleep 0.05
    done
}

trace_count() {  # trace_count EVENT: how many times the service's trace has recorded EVENT so far.
    grep -c "\"event\":\"$1\"" "$BA_DEVICE_ROOT/system/trace.jsonl" || true
}

run_and_wait_for_trace() {  # run_and_wait_for_trace EVENT COMMAND...: runs COMMAND, then waits (10 s at most) for one more EVENT.
    local event="$1" before
    shift
    before="$(trace_count "$event")"
    "$@" > /dev/null
    for _ in $(seq 1000); do
        [ "$(trace_count "$event")" -gt "$before" ] && return 0
        sleep 0.01
    done
    log "no $event in the trace 10 s after: $*"
}
