# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the Python checks in tests/ share: the failures check() collects,
# and the report at the end that says them or that all is well.

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def report(success):
    for failure in failures:
        print(f'FAIL: {failure}')
    if not failures:
        print(success)
    return 1 if failures else 0
