#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The `potfiles` test must fail when a file with translatable strings is
# missing from po/POTFILES.in, or when it lists a file that is gone. This
# runs build-aux/check-potfiles on a small tree of its own and checks that
# it does.
#   check-potfiles-selftest.sh CHECK_POTFILES
set -euo pipefail

check="$1"
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/po" "$tree/app" "$tree/ui" "$tree/data"

cat >"$tree/app/a.c" <<'C'
static const char *label = N_("Listed");
C
cat >"$tree/app/b.c" <<'C'
static void f (void) { g_print ("%s", _(
  "On the next line")); }
C
cat >"$tree/app/plain.c" <<'C'
static const char *id = "not for people";
int my_(int x) { return x; }
C
cat >"$tree/ui/c.ui" <<'UI'
<interface><object class="GtkLabel"><property name="label" translatable="yes">Hi</property></object></interface>
UI
printf 'app/a.c\n' >"$tree/po/POTFILES.in"

fail ()
{
  echo "not ok - $*"
  exit 1
}

if output="$("$check" "$tree")"; then
  fail "check-potfiles passed with files missing: $output"
fi
grep -q '^app/b.c has translatable strings' <<<"$output" || fail "a string on the next line went unnoticed: $output"
grep -q '^ui/c.ui has translatable strings' <<<"$output" || fail "a translatable UI property went unnoticed: $output"
grep -q 'plain.c' <<<"$output" && fail "a file without translatable strings was reported: $output"

printf 'app/a.c\napp/b.c\nui/c.ui\n' >"$tree/po/POTFILES.in"
output="$("$check" "$tree")" || fail "check-potfiles failed with every file listed: $output"

printf 'app/a.c\napp/b.c\nui/c.ui\nui/gone.ui\n' >"$tree/po/POTFILES.in"
if output="$("$check" "$tree")"; then
  fail "check-potfiles passed with a listed file that does not exist"
fi
grep -q 'ui/gone.ui, which does not exist' <<<"$output" || fail "the missing file is not named: $output"

echo "ok - check-potfiles notices unlisted and vanished files"
