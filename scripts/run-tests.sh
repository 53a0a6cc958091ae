#!/usr/bin/env bash
# make test: runs the built test bundle. Under CI (CI set) a skipped test fails the run: the skips
# are for a developer's machine without LibreOffice or ../shared/corpus, and CI has both, so a skip
# there means a test silently stopped checking anything.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# All tests are XCTest; without Swift Testing the closing line is XCTest's count, not "0 tests".
swift test --skip-build --disable-swift-testing 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" = 0 ] && [ -n "${CI:-}" ] && grep -q "^Test Case '.*' skipped" "$log"; then
  echo "run-tests: tests were skipped under CI:" >&2
  grep "^Test Case '.*' skipped\|Test skipped" "$log" >&2
  exit 1
fi
exit "$status"
