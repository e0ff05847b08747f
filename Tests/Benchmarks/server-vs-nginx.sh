#!/usr/bin/env bash
# Benchmarks asset-server against nginx, side by side on loopback, in one run:
#   1. throughput: one client (curl) downloads the same 1 GiB file, 5 runs each, interleaved; median MiB/s;
#   2. concurrency: 100 clients fetch the same 1 MiB file (wrk, or parallel curl), 3 runs of 10 s each,
#      interleaved; median requests/s, and the CPU time each server spent per request;
#   3. side by side (with wrk): both servers loaded at once, half the clients each, 3 runs; the CPU time
#      each spent per request, which compares them at the same machine speed.
# Prints each figure and the ratio asset-server / nginx. Not a test: run it by hand on a quiet machine.
# With TLS=1 both serve https with the same certificate (asset-server's local CA issues it), and the
# clients trust that CA.
#
# Usage: Tests/Benchmarks/server-vs-nginx.sh            (from anywhere inside the package)
# Environment: RUNS (default 5), DURATION seconds of each concurrency run (default 10), CLIENT_RUNS
#              (default 3), CONNECTIONS (default 100), TLS=1 for https, SKIP_BUILD=1 to reuse .build-release.
set -euo pipefail

RUNS="${RUNS:-5}"
DURATION="${DURATION:-10}"
CLIENT_RUNS="${CLIENT_RUNS:-3}"
CONNECTIONS="${CONNECTIONS:-100}"
TLS="${TLS:-0}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/asset-bench.XXXXXX")"
chmod 755 "$WORK"

cleanup() {
    [ -n "${ASSET_PID:-}" ] && stop "$ASSET_PID" asset-server
    [ -n "${NGINX_PID:-}" ] && stop "$NGINX_PID" nginx
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- Tools -----------------------------------------------------------------------------------------------------
missing=()
command -v curl >/dev/null || missing+=(curl)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v wrk >/dev/null || missing+=(wrk)
if [ "${#missing[@]}" -gt 0 ]; then
    if [ "$(id -u)" -ne 0 ]; then
        log "Missing ${missing[*]}; install them (apt-get install ${missing[*]}) or run this script as root."
        exit 1
    fi
    log "Installing ${missing[*]} with apt-get..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null || true
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$NGINX" ] || { log "nginx is not available; cannot compare."; exit 1; }
HAVE_WRK=0
command -v wrk >/dev/null && HAVE_WRK=1

# --- Build -----------------------------------------------------------------------------------------------------
cd "$PACKAGE_ROOT"
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    log "Building asset-server in release mode..."
    swift build -c release --product asset-server --scratch-path .build-release >&2
fi
SERVER="$(swift build -c release --scratch-path .build-release --show-bin-path)/asset-server"
[ -x "$SERVER" ] || { log "No release asset-server at $SERVER; run without SKIP_BUILD=1."; exit 1; }

# --- Content ---------------------------------------------------------------------------------------------------
# Random bytes, so neither server can profit from compressible or sparse data.
WWW="$WORK/www"
mkdir -p "$WWW"
log "Creating the 1 GiB and 1 MiB files..."
head -c $((1 << 30)) /dev/urandom >"$WWW/large.mp4"
head -c $((1 << 20)) /dev/urandom >"$WWW/small.mp4"
chmod -R a+rX "$WWW"

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_for() {  # wait_for URL: until it answers 200, at most 120 s (asset-server hashes the 1 GiB file first).
    local deadline=$((SECONDS + 120))
    until curl -s -o /dev/null --max-time 2 -w '%{http_code}' "$1" | grep -q 200; do
        [ "$SECONDS" -lt "$deadline" ] || { log "$1 did not answer in time."; exit 1; }
        sleep 0.2
    done
}

# --- asset-server ----------------------------------------------------------------------------------------------
tls_flags=()
[ "$TLS" = 1 ] && tls_flags=(--tls --tls-dir "$WORK/tls")
"$SERVER" --host 127.0.0.1 --port 0 --catalog "$WWW" "${tls_flags[@]}" >"$WORK/asset-server.out" 2>"$WORK/asset-server.err" &
ASSET_PID=$!
deadline=$((SECONDS + 120))
until grep -q '^asset-server listening on ' "$WORK/asset-server.out" 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || { log "asset-server did not start:"; cat "$WORK/asset-server.err" >&2; exit 1; }
    sleep 0.2
done
ASSET_URL="$(sed -n 's/^asset-server listening on //p' "$WORK/asset-server.out" | head -n 1)"
# Every curl of the script trusts the local CA when TLS=1 (curl reads CURL_CA_BUNDLE).
[ "$TLS" = 1 ] && export CURL_CA_BUNDLE="$WORK/tls/ca.pem"

# --- nginx -----------------------------------------------------------------------------------------------------
NGINX_PORT="$(free_port)"
mkdir -p "$WORK/nginx/logs"
USER_LINE=""
NGINX_LISTEN_TLS=""
NGINX_TLS_LINES=""
NGINX_SCHEME="http"
if [ "$TLS" = 1 ]; then
    NGINX_LISTEN_TLS=" ssl"
    NGINX_TLS_LINES="ssl_certificate $WORK/tls/server.pem; ssl_certificate_key $WORK/tls/server-key.pem; ssl_protocols TLSv1.2 TLSv1.3;"
    NGINX_SCHEME="https"
fi
[ "$(id -u)" -eq 0 ] && USER_LINE="user root;"
cat >"$WORK/nginx/nginx.conf" <<CONF
$USER_LINE
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    default_type application/octet-stream;
    client_body_temp_path $WORK/nginx/body;
    server {
        listen 127.0.0.1:$NGINX_PORT$NGINX_LISTEN_TLS;
        $NGINX_TLS_LINES
        root $WWW;
    }
}
CONF
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off;' >"$WORK/nginx/stdout.log" 2>"$WORK/nginx/stderr.log" &
NGINX_PID=$!
NGINX_URL="$NGINX_SCHEME://127.0.0.1:$NGINX_PORT"

wait_for "$ASSET_URL/small.mp4"
wait_for "$NGINX_URL/small.mp4"
for url in "$ASSET_URL" "$NGINX_URL"; do
    curl -s --max-time 10 "$url/small.mp4" | cmp -s - "$WWW/small.mp4" || { log "$url serves different bytes."; exit 1; }
    [ "$TLS" = 1 ] && log "$url: $(curl -sv -o /dev/null "$url/small.mp4" 2>&1 | grep -o 'SSL connection using .*')"
done

# --- 1. Single-client throughput -------------------------------------------------------------------------------
download() {  # download URL: prints bytes per second
    curl -s -o /dev/null --max-time 120 -w '%{speed_download}' "$1/large.mp4"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

log "Downloading 1 GiB, $RUNS runs each, interleaved..."
download "$ASSET_URL" >/dev/null  # Warm the page cache; both servers then read from memory.
asset_speeds=()
nginx_speeds=()
for run in $(seq "$RUNS"); do
    asset_speeds+=("$(download "$ASSET_URL")")
    nginx_speeds+=("$(download "$NGINX_URL")")
    log "  run $run: asset-server $(awk -v b="${asset_speeds[-1]}" 'BEGIN { printf "%.0f", b / 1048576 }') MiB/s," \
        "nginx $(awk -v b="${nginx_speeds[-1]}" 'BEGIN { printf "%.0f", b / 1048576 }') MiB/s"
done
asset_median="$(printf '%s\n' "${asset_speeds[@]}" | median)"
nginx_median="$(printf '%s\n' "${nginx_speeds[@]}" | median)"

# --- 2. Many clients -------------------------------------------------------------------------------------------
requests_per_second() {  # requests_per_second URL
    if [ "$HAVE_WRK" = 1 ]; then
        local output
        output="$(timeout $((DURATION + 30)) wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 5s "$1/small.mp4")"
        printf '%s\n' "$output" | grep -E 'requests in|Transfer/sec|errors|Non-2xx' | sed 's/^/    /' >&2
        # Errors or non-2xx answers would make a server look fast; refuse to report such a figure.
        if printf '%s\n' "$output" | grep -qE 'Non-2xx|Socket errors'; then
            log "    $1 answered with errors; its requests/s is not comparable."
        fi
        printf '%s\n' "$output" | awk '/^Requests\/sec:/ { print $2 }'
    else
        # Fallback: CONNECTIONS curl loops for DURATION seconds; count completed requests.
        local count_file="$WORK/count.$$"
        : >"$count_file"
        local end=$((SECONDS + DURATION))
        for _ in $(seq "$CONNECTIONS"); do
            (while [ "$SECONDS" -lt "$end" ]; do
                curl -s -o /dev/null --max-time 5 "$1/small.mp4" && echo >>"$count_file"
            done) &
        done
        wait
        awk -v n="$(wc -l <"$count_file")" -v d="$DURATION" 'BEGIN { printf "%.1f", n / d }'
    fi
}

cpu_ticks() {  # cpu_ticks PID...: user + system time of the processes so far, in clock ticks
    local total=0 pid
    for pid in "$@"; do
        total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat")))
    done
    echo "$total"
}

measure_clients() {  # measure_clients URL PID...: requests/s, then CPU microseconds per request
    local before after rps
    before="$(cpu_ticks "${@:2}")"
    rps="$(requests_per_second "$1")"
    after="$(cpu_ticks "${@:2}")"
    awk -v r="$rps" -v t="$((after - before))" -v hz="$(getconf CLK_TCK)" -v d="$DURATION" \
        'BEGIN { printf "%s %.0f\n", r, (r > 0) ? t * 1e6 / hz / (r * d) : 0 }'
}

# Every nginx process serves (the master only when it is also the worker), so all of them are counted.
NGINX_PIDS=("$NGINX_PID" $(pgrep -P "$NGINX_PID" || true))
tool="wrk -t2 -c$CONNECTIONS -d${DURATION}s"
[ "$HAVE_WRK" = 1 ] || tool="$CONNECTIONS parallel curl loops for ${DURATION}s"
log "Fetching 1 MiB with $tool, $CLIENT_RUNS runs each, interleaved..."
asset_rates=(); asset_costs=(); nginx_rates=(); nginx_costs=()
for run in $(seq "$CLIENT_RUNS"); do
    # Alternate which server goes first, so a drift in the machine's speed does not favour one of them.
    for server in $([ $((run % 2)) = 1 ] && echo "asset nginx" || echo "nginx asset"); do
        if [ "$server" = asset ]; then
            log "  run $run, asset-server:"
            read -r rate cost < <(measure_clients "$ASSET_URL" "$ASSET_PID")
            asset_rates+=("$rate"); asset_costs+=("$cost")
        else
            log "  run $run, nginx:"
            read -r rate cost < <(measure_clients "$NGINX_URL" "${NGINX_PIDS[@]}")
            nginx_rates+=("$rate"); nginx_costs+=("$cost")
        fi
        log "    $rate requests/s, $cost µs of CPU per request"
    done
done
asset_rps="$(printf '%s\n' "${asset_rates[@]}" | median)"
nginx_rps="$(printf '%s\n' "${nginx_rates[@]}" | median)"
asset_cpu="$(printf '%s\n' "${asset_costs[@]}" | median)"
nginx_cpu="$(printf '%s\n' "${nginx_costs[@]}" | median)"

# --- 3. Side by side -------------------------------------------------------------------------------------------
# The machine's speed drifts between runs; loading both servers at once compares them under the same drift.
side_ratios=()
if [ "$HAVE_WRK" = 1 ]; then
    half=$((CONNECTIONS / 2))
    log "Fetching 1 MiB from both at once, $half clients each (wrk -t1 -c$half -d${DURATION}s), $CLIENT_RUNS runs..."
    for run in $(seq "$CLIENT_RUNS"); do
        asset_before="$(cpu_ticks "$ASSET_PID")"
        nginx_before="$(cpu_ticks "${NGINX_PIDS[@]}")"
        wrk -t1 -c"$half" -d"${DURATION}s" --timeout 5s "$ASSET_URL/small.mp4" >"$WORK/side-asset.txt" &
        side_asset=$!
        wrk -t1 -c"$half" -d"${DURATION}s" --timeout 5s "$NGINX_URL/small.mp4" >"$WORK/side-nginx.txt" &
        wait "$side_asset" "$!"
        asset_after="$(cpu_ticks "$ASSET_PID")"
        nginx_after="$(cpu_ticks "${NGINX_PIDS[@]}")"
        read -r asset_requests nginx_requests < <(awk '/requests in/ { printf "%s ", $1 } END { print "" }' \
            "$WORK/side-asset.txt" "$WORK/side-nginx.txt")
        side_ratios+=("$(awk -v a=$((asset_after - asset_before)) -v ar="$asset_requests" \
            -v n=$((nginx_after - nginx_before)) -v nr="$nginx_requests" \
            'BEGIN { printf "%.2f", (n / nr) / (a / ar) }')")
        log "  run $run: asset-server $asset_requests requests, nginx $nginx_requests;" \
            "CPU per request nginx/asset-server ${side_ratios[-1]}"
    done
fi

# --- Report ----------------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }

printf '\nasset-server vs nginx over %s on %s (%s cores, kernel %s), %s, load average %s\n' \
    "$([ "$TLS" = 1 ] && echo https || echo http)" "$(hostname)" "$(nproc)" "$(uname -r)" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %14s %14s %8s\n' "measurement" "asset-server" "nginx" "ratio"
printf '%-44s %14s %14s %8s\n' "1 GiB download, median of $RUNS (MiB/s)" \
    "$(mib "$asset_median")" "$(mib "$nginx_median")" "$(ratio "$asset_median" "$nginx_median")"
printf '%-44s %14s %14s %8s\n' "1 MiB, $CONNECTIONS clients, median of $CLIENT_RUNS (requests/s)" \
    "$asset_rps" "$nginx_rps" "$(ratio "$asset_rps" "$nginx_rps")"
# Inverted, so that here too a ratio above 1 means asset-server does better.
printf '%-44s %14s %14s %8s\n' "  CPU per request, median (µs; ratio nginx/asset)" \
    "$asset_cpu" "$nginx_cpu" "$(ratio "$nginx_cpu" "$asset_cpu")"
if [ "${#side_ratios[@]}" -gt 0 ]; then
    printf '%-44s %14s %14s %8s\n' "Side by side, CPU per request, median of $CLIENT_RUNS" "" "" \
        "$(printf '%s\n' "${side_ratios[@]}" | median)"
fi
