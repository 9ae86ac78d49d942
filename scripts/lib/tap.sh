# Counted results for the check scripts: `ok NAME` / `fail NAME` print one TAP-style line each;
# the script ends with "<name>: $passed passed, $failed failed".
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok - $*"; }
fail() { failed=$((failed + 1)); echo "not ok - $*"; }
