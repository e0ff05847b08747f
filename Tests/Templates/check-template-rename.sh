#!/usr/bin/env bash
# Abstract:
# Checks Docs/UsingAsTemplate.md step by step: renames a copy of the package as its table says, builds
# it, installs the renamed app against an asset server on another port, runs the app and the demo.
#
# Usage: Tests/Templates/check-template-rename.sh        (about 4 minutes on 2 cores, 3 of them the build)
#        FULL=1 Tests/Templates/check-template-rename.sh (also `swift test` in the copy, 15 minutes more)
#        KEEP=1 ...                                      (keep the temporary folder, to look inside)
#        PORT=N ...                                      (the renamed app's port; 9191 by default)
#
# Exit status: 0 when every step passed, 1 when one failed (its output says which and why).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PORT="${PORT:-9191}"
FULL="${FULL:-0}"
KEEP="${KEEP:-0}"

# The identity Docs/UsingAsTemplate.md renames to.
APP_ID="com.example.MyApp"
GROUP_ID="group.com.example.MyApp"
APP_EXECUTABLE="my-app"
EXTENSION_EXECUTABLE="my-app-extension"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/template-check.XXXXXX")"
COPY="$WORK/MyApp"
DEVICE="$WORK/device"
CATALOG="$WORK/catalog"
START=$SECONDS

step() { printf '\n== %s (%ds)\n' "$1" $((SECONDS - START)); }
note() { printf '   %s\n' "$1"; }
fail() { printf 'check-template-rename: %s\n' "$1" >&2; exit 1; }

# Every process this check starts stops, and the temporary folder goes, on success, failure and Ctrl-C.
source "$ROOT/Tests/Scripts/device-teardown.sh"
remove_device_on_exit

printf 'Checking Docs/UsingAsTemplate.md on a renamed copy in %s\n' "$COPY"

step "1. Copy the package (tracked files, no .build)"
mkdir -p "$COPY"
(cd "$ROOT" && git ls-files -z | tar --null --no-recursion --ignore-failed-read -T - -cf -) | tar -C "$COPY" -xf -
note "$(cd "$COPY" && find . -type f | wc -l) files"

step "2. Rename the identity, as the table of Docs/UsingAsTemplate.md says"
cd "$COPY"
# App/Info.plist and Extension/Info.plist: bundle identifiers (the extension's keeps its suffix after
# the app's), executables, name, app group in both keys, the refresh task, and BAManifestURL's port.
sed -i -E \
    -e "s/group\.com\.example\.apple-samplecode\.WWDC-Sessions/$GROUP_ID/g" \
    -e "s/com\.example\.apple-samplecode\.WWDC-Sessions/$APP_ID/g" \
    -e "s|<string>wwdc-sessions</string>|<string>$APP_EXECUTABLE</string>|" \
    -e "s|<string>wwdc-sessions-extension</string>|<string>$EXTENSION_EXECUTABLE</string>|" \
    -e "s|<string>WWDC Sessions</string>|<string>My App</string>|" \
    -e "s|http://127\.0\.0\.1:[0-9]+/manifest\.json|http://127.0.0.1:$PORT/manifest.json|" \
    App/Info.plist Extension/Info.plist
# The app group's fallback, for a process without a bundle.
sed -i -E "s/group\.com\.example\.apple-samplecode\.WWDC-Sessions/$GROUP_ID/" Shared/SessionKit/SharedSettings.swift
# The loggers' subsystem.
sed -i -E "s/com\.example\.apple-samplecode\.WWDC-Sessions/$APP_ID/" App/Logger+App.swift Extension/Logger+Extension.swift
# The products and targets, whose names must equal the Info.plists' CFBundleExecutable.
sed -i -E -e "s/\"wwdc-sessions\"/\"$APP_EXECUTABLE\"/g" -e "s/\"wwdc-sessions-extension\"/\"$EXTENSION_EXECUTABLE\"/g" \
    Package.swift
grep -q "\"$APP_EXECUTABLE\"" Package.swift || fail "Package.swift has no product $APP_EXECUTABLE after the rename."
for file in App/Info.plist Extension/Info.plist; do
    grep -q "apple-samplecode\|<string>wwdc-sessions" "$file" && fail "$file still names the sample after the rename."
done
note "What still names the sample, as the page's grep finds it (outside Docs/ and the service's fixtures):"
grep -rlE 'apple-samplecode|"wwdc-sessions(-extension)?"' App Extension Shared Server Tests Package.swift \
    --exclude-dir=BackgroundAssetsDaemonTests --exclude-dir=BackgroundAssetsIPCTests \
    --exclude-dir=BackgroundAssetsDebugToolTests --exclude-dir=BackgroundAssetsTests --exclude-dir=AppleAPITests \
    --exclude-dir=AppleAPISwift5Tests --exclude-dir=OSLogTests --exclude-dir=Templates | sed 's/^/     /' || note "  nothing"
note "What still says WWDC Sessions in App/, Extension/ and the demo (comments, and the demo's own name):"
grep -rnE 'WWDC Sessions|WWDC-Sessions|wwdc-sessions' App Extension Server/Demo | sed 's/^/     /' || note "  nothing"

step "3. Build the renamed package"
swift build > "$WORK/build.out" 2>&1 || fail "swift build failed: $(tail -n 20 "$WORK/build.out")"
tail -n 1 "$WORK/build.out" | sed 's/^/   /'
for product in "$APP_EXECUTABLE" "$EXTENSION_EXECUTABLE" asset-server backgroundassetsd backgroundassets-debug wwdc-sessions-demo; do
    [[ -x ".build/debug/$product" ]] || fail ".build/debug/$product was not built."
done
note "built in $((SECONDS - START))s since the start"

step "4. Start the asset server on the port App/Info.plist names (no --port)"
export BA_DEVICE_ROOT="$DEVICE"
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
    fail "something already listens on 127.0.0.1:$PORT; choose another port with PORT=N."
fi
mkfifo "$WORK/server.out"
.build/debug/asset-server --catalog "$CATALOG" --sessions 6 --session-size 1048576 > "$WORK/server.out" \
    2> "$WORK/server.err" &
# Stopped by its pid as well as by its device root.
EXTRA_PIDS=$!
exec 4< "$WORK/server.out"
read -r -t 120 READY <&4 || fail "the asset server printed no readiness line: $(cat "$WORK/server.err")"
note "$READY"
[[ "$READY" == "asset-server listening on http://127.0.0.1:$PORT" ]] ||
    fail "the asset server did not take its port from App/Info.plist's BAManifestURL ($PORT)."
# Keep draining the server's output, and keep the pipe out of every later child.
cat <&4 > /dev/null &
exec 4<&-

step "5. Install: swift run backgroundassets-debug install --wait"
# Output goes to a file: the service that install starts on demand must not hold a pipe open.
swift run backgroundassets-debug install --wait > "$WORK/install.out" 2>&1 ||
    fail "install --wait failed: $(tail -n 5 "$WORK/install.out")"
tail -n 1 "$WORK/install.out" | sed 's/^/   /'
[[ -d "$DEVICE/apps/$APP_ID/$APP_EXECUTABLE.app/Extensions/$EXTENSION_EXECUTABLE.appex" ]] ||
    fail "the install has no bundle $APP_ID/$APP_EXECUTABLE.app with $EXTENSION_EXECUTABLE.appex inside."

step "6. Run the app until every session is on the device: swift run $APP_EXECUTABLE --until-complete"
APP_OUTPUT="$(swift run "$APP_EXECUTABLE" --until-complete --timeout 300 --plain 2>"$WORK/app.err")" ||
    fail "$APP_EXECUTABLE exited with $?: $(tail -n 5 "$WORK/app.err")"
printf '%s\n' "$APP_OUTPUT" | tail -n 1 | sed 's/^/   /'
grep -qx "All 6 sessions are on the device." <<< "$APP_OUTPUT" || fail "the app did not report all 6 sessions."
# The renamed app greets its user by its own CFBundleName, never by the sample's.
grep -qx "My App is installed." <<< "$APP_OUTPUT" || fail "the app did not call itself My App: $(head -n 3 <<< "$APP_OUTPUT")"
! grep -q "WWDC Sessions" <<< "$APP_OUTPUT" || fail "the renamed app still calls itself WWDC Sessions."
# The renamed app names itself in its help, not as the sample.
swift run "$APP_EXECUTABLE" --help 2>/dev/null | head -n 1 | grep -q "^Usage: $APP_EXECUTABLE " ||
    fail "$APP_EXECUTABLE --help does not name $APP_EXECUTABLE."
SESSIONS="$DEVICE/containers/$GROUP_ID/Library/Caches/Sessions"
for file in "$CATALOG"/sessions/*.mp4; do
    [[ "$(sha256sum < "$file")" == "$(sha256sum < "$SESSIONS/$(basename "$file")" 2>/dev/null)" ]] ||
        fail "$SESSIONS/$(basename "$file") is missing or differs from the catalog."
done
note "every session in $GROUP_ID's container matches the catalog byte for byte"

step "7. The demo, reusing the asset server on port $PORT: swift run wwdc-sessions-demo"
DEMO_OUTPUT="$(swift run wwdc-sessions-demo --timeout 300 2>"$WORK/demo.err")" ||
    fail "the demo exited with $?: $(tail -n 5 "$WORK/demo.err")"
grep -q "Reusing the asset server at http://127.0.0.1:$PORT" <<< "$DEMO_OUTPUT" ||
    fail "the demo did not reuse the asset server on port $PORT."
grep -q "launch the app again with \`swift run $APP_EXECUTABLE\`" <<< "$DEMO_OUTPUT" ||
    fail "the demo's closing hint does not name $APP_EXECUTABLE."
grep -q "^My App demo, device root " <<< "$DEMO_OUTPUT" || fail "the demo's banner does not name My App."
! grep -q "WWDC Sessions" <<< "$DEMO_OUTPUT" || fail "the demo still calls the app WWDC Sessions."
printf '%s\n' "$DEMO_OUTPUT" | tail -n 1 | sed 's/^/   /'
stop_device_processes
EXTRA_PIDS=""
unset BA_DEVICE_ROOT

if [[ "$FULL" == 1 ]]; then
    step "8. swift test in the renamed copy"
    swift test > "$WORK/test.out" 2>&1 || fail "swift test failed: $(grep '^✘' "$WORK/test.out" | tail -n 20)"
    tail -n 1 "$WORK/test.out" | sed 's/^/   /'
fi

printf '\nThe renamed copy built, installed, downloaded every session and ran the demo in %ds.\n' $((SECONDS - START))
if [[ "$FULL" != 1 ]]; then
    printf 'Its tests did not run: FULL=1 %s runs swift test in the copy too (15 minutes more).\n' "$0"
fi
