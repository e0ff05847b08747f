#!/usr/bin/env bash
# Abstract:
# Walks the tutorial as a newcomer would, on a copy of the package: changes the port as Getting Started
# says, then runs chapters 1 to 10 block by block in one shell and compares every output block with its
# page. Between chapters it checks the seams with git status: a chapter must put back every tracked file
# it changes, and leave nothing new in the working copy that it does not name.
#
# Usage: Tests/Tutorial/walk-tutorial.sh            (about 4 minutes after swift build)
#        PORT=N SECOND_PORT=M Tests/Tutorial/walk-tutorial.sh   (the app's port, 9191 by default, and the
#                                                               port of the pages' second server, 18080)
#        KEEP=1 ...                                 (keep the copy, its device root and logs, to look inside)
#
# Exit status: 0 when every block matched and every seam held; 1 when one drifted (the message names the
# page, the line of the block, and both texts) or a chapter left the working copy changed (it names both).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PORT="${PORT:-9191}"
SECOND_PORT="${SECOND_PORT:-18080}"
KEEP="${KEEP:-0}"
PAGES=(
    Docs/01-Add-the-Info-plist-keys.md
    Docs/02-Create-the-downloader-extension.md
    Docs/03-Move-the-app-to-BADownloadManager.md
    Docs/04-Download-essential-assets.md
    Docs/05-Coordinate-with-exclusive-control.md
    Docs/06-Simulate-events.md
    Docs/07-Refresh-in-the-background.md
    Docs/08-Point-the-sample-at-your-own-server.md
    Docs/09-Move-to-asset-packs.md
    Docs/10-Game-data-in-the-background.md
)

WORK="$(mktemp -d "${TMPDIR:-/tmp}/tutorial-walk.XXXXXX")"
COPY="$WORK/package"
START=$SECONDS

fail() { printf 'walk-tutorial: %s\n' "$1" >&2; exit 1; }

# Every process of the walk stops, and the copy goes, on success, failure and Ctrl-C.
DEVICE="$COPY/.device"
source "$ROOT/Tests/Scripts/device-teardown.sh"
remove_device_on_exit

for port in "$PORT" "$SECOND_PORT"; do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
        fail "something already listens on 127.0.0.1:$port; choose others with PORT=N SECOND_PORT=M."
    fi
done

# The products the pages' `swift run` and `.build/debug/...` start: built once, in the package itself.
PRODUCTS="$ROOT/.build/debug"
for product in asset-server backgroundassetsd backgroundassets-debug wwdc-sessions wwdc-sessions-extension \
    ba-package background-game wwdc-slides wwdc-slides-extension; do
    [[ -x "$PRODUCTS/$product" ]] || fail "$PRODUCTS/$product is missing; run swift build first."
done

# A copy of the package's tracked files: its own .device and .catalog, as on a fresh clone.
mkdir -p "$COPY"
(cd "$ROOT" && git ls-files -z | tar --null --no-recursion --ignore-failed-read -T - -cf -) | tar -C "$COPY" -xf -
ln -s "$ROOT/.build" "$COPY/.build"
# A repository of its own, as a clone is, so the walk can check each chapter's seam with git status:
# what a chapter changes and does not put back, and what appears that no page names.
git -C "$COPY" init -q
echo /.build >> "$COPY/.git/info/exclude"
git -C "$COPY" add -A
git -C "$COPY" -c user.name=walk -c user.email=walk@localhost commit -q -m "The package as cloned"

# The reader's `swift`: `swift run NAME` starts the built product, `swift build` has been done.
mkdir -p "$WORK/bin"
cat > "$WORK/bin/swift" <<EOF
#!/usr/bin/env bash
case "\$1" in
    build) [[ " \$* " == *" --show-bin-path "* ]] && echo "$PRODUCTS"; exit 0 ;;
    run) shift; name="\$1"; shift; exec "$PRODUCTS/\$name" "\$@" ;;
    *) exec "$(command -v swift)" "\$@" ;;
esac
EOF
chmod +x "$WORK/bin/swift"

# Getting started's "Use another port", word for word, with the walk's port for its example's.
sed_line="$(grep -m1 "^sed -i -E 's|http://127.0.0.1:\[0-9\]+/|" "$ROOT/Docs/GettingStarted.md")" ||
    fail "Docs/GettingStarted.md no longer has the sed command of \"Use another port\"."
(cd "$COPY" && eval "${sed_line//9090/$PORT}")
for plist in App/Info.plist App/WWDCSlides/Info.plist App/BackgroundGame/Info.plist; do
    grep -q "127.0.0.1:$PORT/" "$COPY/$plist" || fail "Getting started's sed did not set port $PORT in $plist."
done
printf 'Walking the tutorial on port %s in %s\n' "$PORT" "$COPY"

cd "$COPY"
export PATH="$WORK/bin:$PATH"
export BA_DEVICE_ROOT="$COPY/.device"
export TMPDIR="$WORK"
swift "$ROOT/Tests/Tutorial/TutorialWalk.swift" --repository "$COPY" --port "$PORT" --second-port "$SECOND_PORT" \
    "${PAGES[@]}"
printf 'The tutorial walk took %ds.\n' $((SECONDS - START))
