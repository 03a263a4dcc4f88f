#!/bin/sh
# Log compiler for the cmocka binaries: the whole output goes to the
# test's log as usual, and cmocka's summary lines also to fd 9, which
# the Makefile points at the terminal, so `make check` shows them.
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
name=$(basename "$1")
printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED|SKIPPED) +\]' | sed "s|^|$name: |" >&9 2>/dev/null
exit $rc
