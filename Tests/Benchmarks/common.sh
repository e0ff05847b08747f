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
    rm -rf "$WORK"
}
