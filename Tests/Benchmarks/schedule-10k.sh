#!/usr/bin/env bash
# Benchmarks the service's queue: one client schedules COUNT (default 10,000) background downloads over the
# service's socket (requests pipelined on one connection, each answered once it is durable), then asks for
# fetchCurrentDownloads. The downloads point at an asset-server that delays every answer by 10 minutes and
# maxConcurrentDownloads is 1, so they all stay queued. Prints the wall time of scheduling, of the fetch, of
# both, and the service's peak RSS (VmHWM from /proc/PID/status). Goal: under 5 s and 60 MiB in total.
# Not a test: run it by hand on a quiet machine.
#
# Usage: Tests/Benchmarks/schedule-10k.sh              (from anywhere inside the package)
# Environment: COUNT (default 10000), SKIP_BUILD=1 to reuse the release build,
#              SCRATCH_PATH (default .build-bench) for the build folder.
set -euo pipefail

COUNT="${COUNT:-10000}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/schedule-bench.XXXXXX")"

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd
BIN="$SCRATCH/release"

start_asset_server --sessions 1 --session-size 4096 --latency 600000

start_service '{"idleExitAfter": 600, "maxConcurrentDownloads": 1}'

# The client speaks the wire protocol (4-byte big-endian length + JSON) directly, so the figure is the
# service's, not a framework's: a writer thread pipelines the requests while the main thread reads answers.
python3 - "$BA_DEVICE_ROOT/run/backgroundassetsd.sock" "$COUNT" "$BASE_URL" "$SERVICE_PID" <<'PY'
import json, os, socket, struct, sys, threading, time

path, count, base, service = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

def memory():
    fields = dict(line.split(":", 1) for line in open(f"/proc/{service}/status"))
    return f"RSS {int(fields['VmRSS'].split()[0]) // 1024} MiB, peak {int(fields['VmHWM'].split()[0]) // 1024} MiB"

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

hello = {"protocolVersion": 4, "bundleIdentifier": "com.example.bench", "role": "app", "processIdentifier": os.getpid()}
sock.sendall(frame(1, {"hello": {"_0": hello}}))
assert "hello" in response()["response"], "the service refused hello"

def schedule_all():
    batch = bytearray()
    for index in range(count):
        descriptor = {
            "identifier": f"bench-{index}", "uniqueIdentifier": f"00000000-0000-0000-0000-{index:012d}",
            "kind": "url", "url": f"{base}/slow/{index}.bin", "headers": {}, "fileSize": 0,
            "applicationGroupIdentifier": "group.com.example.bench", "priority": 0, "isEssential": False,
            "state": 0,
        }
        batch += frame(index + 2, {"schedule": {"download": descriptor}})
        if len(batch) > 256 * 1024:
            sock.sendall(batch)
            batch = bytearray()
    sock.sendall(batch)

start = time.monotonic()
writer = threading.Thread(target=schedule_all)
writer.start()
failures = 0
for _ in range(count):
    if "failure" in response()["response"]:
        failures += 1
writer.join()
scheduled = time.monotonic()
print(f"after scheduling: {memory()}")
sock.sendall(frame(count + 2, {"fetchCurrentDownloads": {}}))
answer = response()["response"]
fetched = time.monotonic()
listed = len(answer["downloads"]["downloads"]) if "downloads" in answer else -1
print(f"scheduled {count - failures} of {count} downloads in {scheduled - start:.2f} s "
      f"({count / (scheduled - start):.0f}/s); fetchCurrentDownloads listed {listed} in {fetched - scheduled:.2f} s; "
      f"total {fetched - start:.2f} s")
PY

PEAK=$(awk '/VmHWM/ {print $2}' "/proc/$SERVICE_PID/status")
echo "backgroundassetsd peak RSS (VmHWM): $((PEAK / 1024)) MiB ($PEAK kB); goal < 5 s total and < 60 MiB"
echo "machine: $(nproc) cores, $(uname -sr), $(date -u +%Y-%m-%dT%H:%MZ)"
