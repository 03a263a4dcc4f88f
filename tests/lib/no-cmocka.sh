#!/usr/bin/env bash
# Registered in place of the unit tests when configure found no cmocka
# (tests/tests.am): a make check that built none of them must not pass.
echo "FAIL - cmocka was not found when configure ran, so no unit test of libwinnow was built"
echo "       (on Debian: apt-get install libcmocka-dev, then run configure again)"
echo "0 passed, 1 failed"
exit 1
