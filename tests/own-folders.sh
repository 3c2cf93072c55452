#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Runs a test with HOME and the XDG base folders in a temporary folder of
# its own, removed afterwards, so tests with web views can run side by side:
# none reads or writes another's workspaces, agent sockets, content filters,
# recent workspaces or WebKit data, nor the user's own. Mesa's shader cache
# is shared: the temporary cache folder links to the usual one, so each test
# does not compile llvmpipe's shaders again. A link rather than
# MESA_SHADER_CACHE_DIR, since WebKit's sandbox lets its web processes see
# the cache folder of XDG_CACHE_HOME and no other. Under a display, each
# test also draws on a virtual display of its own (below).
#   own-folders.sh TEST [ARGUMENTS...]
set -eu

root=$(mktemp -d "${TMPDIR:-/tmp}/tabwright-test-XXXXXX")
xvfb=
trap '[ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null; rm -rf "$root"' EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
shaders="${XDG_CACHE_HOME:-${HOME:-$root}/.cache}/mesa_shader_cache"
for folder in home data cache config state runtime; do
  mkdir -m 700 "$root/$folder"
done
# On a fresh machine the usual folder may not exist yet.
if mkdir -p "$shaders" 2>/dev/null; then
  ln -s "$shaders" "$root/cache/mesa_shader_cache"
fi
export HOME="$root/home" XDG_DATA_HOME="$root/data" XDG_CACHE_HOME="$root/cache" \
  XDG_CONFIG_HOME="$root/config" XDG_STATE_HOME="$root/state" XDG_RUNTIME_DIR="$root/runtime"

# A virtual display of its own, when one can be started: the windows of
# tests side by side on one display cross under its one pointer, and a page
# sees that as the person's pointer moving (extra pointerover and
# mousemove events after a click). Xvfb picks a free display itself.
if [ -n "${DISPLAY:-}" ] && command -v Xvfb >/dev/null 2>&1; then
  Xvfb -displayfd 9 -screen 0 1280x1024x24 -nolisten tcp -noreset \
    9>"$root/display" 2>"$root/xvfb.log" &
  xvfb=$!
  tries=0
  while [ ! -s "$root/display" ] && [ "$tries" -lt 200 ] && kill -0 "$xvfb" 2>/dev/null; do
    sleep 0.05
    tries=$((tries + 1))
  done
  if [ -s "$root/display" ]; then
    export DISPLAY=":$(cat "$root/display")"
  else
    echo "own-folders.sh: no display of its own (Xvfb: $(cat "$root/xvfb.log")); using $DISPLAY" >&2
  fi
fi

status=0
"$@" || status=$?
exit "$status"
