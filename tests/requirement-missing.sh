#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Stands in for tests that meson could not register because something they
# need is missing: the run shows them as skipped with the reason, or failed
# under TABWRIGHT_TEST_REQUIRE_ALL=1 (build-aux/test), where everything
# should have been installed, so the suite never shrinks without a word.
#   requirement-missing.sh REASON

echo "cannot run: $1"
if [ "${TABWRIGHT_TEST_REQUIRE_ALL:-}" = "1" ]; then
  echo "TABWRIGHT_TEST_REQUIRE_ALL is set: failing instead of skipping"
  exit 1
fi
exit 77
