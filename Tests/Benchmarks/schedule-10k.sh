#!/usr/bin/env bash
# Benchmarks the service's queue at scale: one client schedules COUNT (default 10,000) background downloads
# over the service's socket (requests pipelined on one connection, each answered once it is durable), all
# pointing at an unreachable origin (a loopback port nobody listens on), so they all stay queued, waiting for
# connectivity. Once each has been tried (or parked behind its origin's probe), it measures the service's CPU
# over IDLE_SECONDS while nothing can change, then times `backgroundassets-debug status --json` alone and 30
# at once, and reads the service's peak RSS (VmHWM from /proc/PID/status). Prints exactly:
#   scheduled N of N downloads in T s
#   idle CPU over 10 s with N waiting: X%
#   status --json with N downloads: T s (30 at once: T s)
#   peak RSS (VmHWM): N MiB
# Goals for 10,000: scheduling under 2 s, idle CPU under 1% of a core, status under 0.5 s (30 at once under
# 3 s), RSS under 60 MiB. CPU is the service's utime + stime from /proc/PID/stat, which a busy machine distorts far
# less than wall time; the service's CPU for scheduling and status, and the 30 tools', go to standard error.
# Not a test: run it by hand on a quiet machine. .ci/run runs it with COUNT=50 so it cannot go stale.
#
# Usage: Tests/Benchmarks/schedule-10k.sh              (from anywhere inside the package)
# Environment: COUNT (default 10000), IDLE_SECONDS (default 10), SKIP_BUILD=1 to reuse the build,
#              SCRATCH_PATH (default .build-bench) for the build folder, CONFIGURATION (default release).
set -euo pipefail

COUNT="${COUNT:-10000}"
IDLE_SECONDS="${IDLE_SECONDS:-10}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
CONFIGURATION="${CONFIGURATION:-release}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/schedule-bench.XXXXXX")"

# The service refuses a hello with any other version, so read it from the source instead of copying it here.
PROTOCOL_VERSION="$(sed -nE 's/^ *public static let version = ([0-9]+)$/\1/p' \
    "$PACKAGE_ROOT/Shared/Platform/BackgroundAssetsIPC/WireProtocol.swift")"
[ -n "$PROTOCOL_VERSION" ] || { log "WireProtocol.version not found in WireProtocol.swift"; exit 1; }

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

if [ "${SKIP_BUILD:-0}" != 1 ]; then
    log "Building $CONFIGURATION products in $SCRATCH..."
    for product in backgroundassetsd backgroundassets-debug; do
        swift build -c "$CONFIGURATION" --package-path "$PACKAGE_ROOT" --scratch-path "$SCRATCH" --product "$product" >&2
    done
fi
BIN="$SCRATCH/$CONFIGURATION"

# maxConcurrentDownloads 1, as a phone's background queue; the retry knobs are the defaults.
start_service '{"idleExitAfter": 600, "maxConcurrentDownloads": 1}'
[ -S "$BA_DEVICE_ROOT/run/backgroundassetsd.sock" ] || { log "the service did not start: $(cat "$WORK/backgroundassetsd.err")"; exit 1; }

# The client speaks the wire protocol (4-byte big-endian length + JSON) directly, so the figure is the
# service's, not a framework's: a writer thread pipelines the requests while the main thread reads answers.
python3 - "$BA_DEVICE_ROOT/run/backgroundassetsd.sock" "$COUNT" "$SERVICE_PID" "$PROTOCOL_VERSION" \
    "$BIN/backgroundassets-debug" "$IDLE_SECONDS" <<'PY'
import json, os, socket, struct, subprocess, sys, threading, time

path, count, service, version, tool, idle = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], float(sys.argv[6])

# A loopback port nobody listens on: every attempt is refused, as when the host is unreachable.
probe = socket.socket()
probe.bind(("127.0.0.1", 0))
base = f"http://127.0.0.1:{probe.getsockname()[1]}"
probe.close()

def cpu_seconds():
    fields = open(f"/proc/{service}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(path)
reader = sock.makefile("rb")

def frame(message_id, request):
    payload = json.dumps({"id": message_id, "request": request}, separators=(",", ":")).encode()
    return struct.pack(">I", len(payload)) + payload

def response():
    while True:
        length = struct.unpack(">I", reader.read(4))[0]
        message = json.loads(reader.read(length))
        if "response" in message:
            return message["response"]

hello = {"protocolVersion": version, "bundleIdentifier": "com.example.bench", "role": "app", "processIdentifier": os.getpid()}
sock.sendall(frame(1, {"hello": {"_0": hello}}))
answer = response()
if "hello" not in answer["response"]:
    sys.exit(f"the service refused hello with protocol {version}: {answer}")

def schedule_all():
    batch = bytearray()
    for index in range(count):
        descriptor = {
            "identifier": f"bench-{index}", "uniqueIdentifier": f"00000000-0000-0000-0000-{index:012d}",
            "kind": "url", "url": f"{base}/unreachable/{index}.bin", "headers": {}, "fileSize": 0,
            "applicationGroupIdentifier": "group.com.example.bench", "priority": 0, "isEssential": False,
            "state": 0,
        }
        batch += frame(index + 2, {"downloads": {"schedule": {"download": descriptor}}})
        if len(batch) > 256 * 1024:
            sock.sendall(batch)
            batch = bytearray()
    sock.sendall(batch)

start = time.monotonic()
cpu_start = cpu_seconds()
writer = threading.Thread(target=schedule_all)
writer.start()
failures = 0
for _ in range(count):
    if "failure" in response()["response"]:
        failures += 1
writer.join()
print(f"scheduled {count - failures} of {count} downloads in {time.monotonic() - start:.2f} s", flush=True)
scheduling_cpu = cpu_seconds() - cpu_start

# What the app asks on launch, on the same connection: every download it has not seen end, a page at a time
# as BADownloadManager gathers them.
begin, cpu_begin = time.monotonic(), cpu_seconds()
current, after, pages = 0, 0, 0
while after is not None:
    sock.sendall(frame(count + 2 + pages, {"downloads": {"fetchCurrentDownloadsPage": {"after": after}}}))
    answer = response()["response"]
    if "currentDownloadsPage" not in answer:
        sys.exit(f"fetchCurrentDownloadsPage was answered {str(answer)[:200]}")
    page = answer["currentDownloadsPage"]["page"]
    current, after, pages = current + len(page["downloads"]), page.get("moreAfter"), pages + 1
print(f"fetchCurrentDownloads with {current} downloads in {pages} pages: {time.monotonic() - begin:.2f} s "
      f"(service CPU {cpu_seconds() - cpu_begin:.2f} s)", file=sys.stderr)
if failures:
    sys.exit(f"{failures} schedules failed")

def status():
    done = subprocess.run([tool, "status", "--json"], capture_output=True, check=True)
    return json.loads(done.stdout)

# Idle means every download has met the unreachable origin once: each has a last error (or none was
# tried yet because the origin's probe already failed). The deadline keeps a service that never
# settles from holding the script; the CPU figure then says so.
deadline = time.monotonic() + 60 + count / 100
while time.monotonic() < deadline:
    downloads = status()["downloads"]
    if len(downloads) == count and all(d.get("lastError") for d in downloads):
        break
    time.sleep(1)
else:
    print(f"note: not every download had met the unreachable origin after {60 + count / 100:.0f} s", file=sys.stderr)

before = cpu_seconds()
time.sleep(idle)
used = cpu_seconds() - before
print(f"idle CPU over {idle:g} s with {count} waiting: {100 * used / idle:.1f}%", flush=True)

begin, cpu_begin = time.monotonic(), cpu_seconds()
listed = len(status()["downloads"])
alone, alone_cpu = time.monotonic() - begin, cpu_seconds() - cpu_begin
begin, cpu_begin, tools_begin = time.monotonic(), cpu_seconds(), sum(os.times()[2:4])
tools = [subprocess.Popen([tool, "status", "--json"], stdout=subprocess.DEVNULL) for _ in range(30)]
codes = [child.wait() for child in tools]
together, together_cpu = time.monotonic() - begin, cpu_seconds() - cpu_begin
print(f"status --json with {listed} downloads: {alone:.2f} s (30 at once: {together:.2f} s)", flush=True)
# CPU time, which a loaded machine distorts less than wall time: the service's own, and the 30 tools'.
tools_cpu = sum(os.times()[2:4]) - tools_begin
print(f"service CPU: scheduling {scheduling_cpu:.2f} s, status alone {alone_cpu:.2f} s, 30 at once {together_cpu:.2f} s; "
      f"the 30 tools' CPU {tools_cpu:.2f} s", file=sys.stderr)
if listed != count or any(codes):
    sys.exit(f"status listed {listed} of {count} downloads; exit codes {sorted(set(codes))}")
PY

PEAK=$(awk '/VmHWM/ {print $2}' "/proc/$SERVICE_PID/status")
echo "peak RSS (VmHWM): $((PEAK / 1024)) MiB"
log "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ)"
