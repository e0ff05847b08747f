#!/usr/bin/env bash
# Chapter 10's flow, again and again: on a fresh device each time, installs the game, runs it once (it
# starts its background download and exits at once) and waits for `ready-to-play`, which the game posts
# from its processing task after the system relaunched it for the download's events, with no player
# there. Counts the runs that got there within TIMEOUT seconds. Not a test: run it by hand.
#
# Usage: Tests/Benchmarks/game-flow.sh
# Environment: RUNS (default 20), SIZE of the game archive in bytes (default 25165824, chapter 10's),
#              TIMEOUT per run in seconds (default 120), SKIP_BUILD=1, SCRATCH_PATH (default .build-bench),
#              BIN (default SCRATCH_PATH/release): with the debug build,
#              SKIP_BUILD=1 BIN=.build/debug RUNS=20 Tests/Benchmarks/game-flow.sh
set -euo pipefail

RUNS="${RUNS:-20}"
SIZE="${SIZE:-25165824}"
TIMEOUT="${TIMEOUT:-120}"
PACKAGE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# shellcheck source=common.sh
source "$PACKAGE_ROOT/Tests/Benchmarks/common.sh"
SCRATCH="${SCRATCH_PATH:-$PACKAGE_ROOT/.build-bench}"
BIN="${BIN:-$SCRATCH/release}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/game-flow.XXXXXX")"
GAME=com.example.apple-samplecode.BackgroundGame

trap stop_service_and_server EXIT
trap 'exit 130' INT TERM

build_release "$SCRATCH" asset-server backgroundassetsd backgroundassets-debug background-game
case "$BIN" in /*) ;; *) BIN="$PACKAGE_ROOT/$BIN" ;; esac

# The archive is three session sizes long (see CatalogGameData.swift).
start_asset_server --sessions 1 --session-size $(( SIZE / 3 ))
sed "s|http://127.0.0.1:[0-9]*/game/version.json|$BASE_URL/game/version.json|" \
    "$PACKAGE_ROOT/App/BackgroundGame/Info.plist" > "$WORK/Info.plist"

ready=0
failed=()
for run in $(seq "$RUNS"); do
    # A fresh device each run, with the service's defaults, as a reader of chapter 10 has.
    [ -n "${SERVICE_PID:-}" ] && stop "$SERVICE_PID" backgroundassetsd
    DEVICE_ROOT="$WORK/device-$run" start_service '{}'
    "$BIN/backgroundassets-debug" install --app-plist "$WORK/Info.plist" --wait > /dev/null 2>&1
    started=$SECONDS
    "$BIN/background-game" > "$WORK/game.out" 2>&1 || { log "run $run: background-game failed: $(cat "$WORK/game.out")"; }
    got=""
    while [ $(( SECONDS - started )) -lt "$TIMEOUT" ]; do
        if "$BIN/backgroundassets-debug" notifications -b "$GAME" 2>/dev/null | grep -q ready-to-play; then
            got=yes
            break
        fi
        sleep 0.5
    done
    if [ -n "$got" ]; then
        ready=$(( ready + 1 ))
        log "run $run: ready-to-play after $(( SECONDS - started )) s"
    else
        failed+=("$run")
        log "run $run: no ready-to-play within $TIMEOUT s; the trace is in $BA_DEVICE_ROOT/system/trace.jsonl"
        KEEP_WORK=1
    fi
done

echo "ready-to-play without the player: $ready of $RUNS runs (archive $SIZE bytes, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ))"
[ ${#failed[@]} -eq 0 ] || { echo "runs without it: ${failed[*]}"; exit 1; }
