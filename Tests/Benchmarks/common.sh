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
