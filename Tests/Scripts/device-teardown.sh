# Abstract:
# Teardown for the scripts that run a device in a temporary folder (the template check, the tutorial
# walk): every process of the device is stopped and the folder removed, on success, failure and Ctrl-C.
#
# Source it, set DEVICE (the device root), WORK (the folder to remove) and KEEP (1 keeps WORK), and
# optionally EXTRA_PIDS (processes started without the device root in their environment); then call
# remove_device_on_exit. Every process of the device names its device root in its environment: the
# asset servers, the service that clients start on demand, the extension and the app it launches.

# Ends the device's processes: SIGTERM, two seconds to go, then SIGKILL.
stop_device_processes() {
    local pids=() environ
    for environ in /proc/[0-9]*/environ; do
        if grep -qzxF "BA_DEVICE_ROOT=$DEVICE" "$environ" 2>/dev/null; then
            pids+=("$(basename "$(dirname "$environ")")")
        fi
    done
    pids+=(${EXTRA_PIDS:-})
    ((${#pids[@]})) || return 0
    kill -TERM "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 20); do
        kill -0 "${pids[@]}" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "${pids[@]}" 2>/dev/null || true
}

# Installs the traps: on exit the device's processes stop and WORK goes (unless KEEP=1); Ctrl-C and
# SIGTERM exit with 130 and 143 through the same path.
remove_device_on_exit() {
    trap _device_teardown EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

_device_teardown() {
    local status=$?
    trap - EXIT INT TERM
    stop_device_processes
    if [[ "${KEEP:-0}" == 1 ]]; then
        printf 'Kept %s\n' "$WORK"
    else
        rm -rf "$WORK"
    fi
    exit "$status"
}
