#!/usr/bin/env bash
# The real-editor tests (`npm run test:e2e`): installs what they need when missing, packages
# the extension, and runs test/e2e/*.test.ts against it in code-server + Debian's Chromium.
# Failures leave screenshots and logs in test-artifacts/<scenario>/.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
t0=$(date +%s)
# Each step's time also goes to the suite's timings (scripts/test-timings.mjs), as a part of "e2e".
timings="${TRIAGE_TEST_TIMINGS_DIR:-$repo/.cache/test-timings}"
export TRIAGE_TEST_SPANS="${TRIAGE_TEST_SPANS:-$timings/spans.jsonl}"
mkdir -p "$timings"
last_name="" last_ms=0
now_ms() { date +%s%3N; }
step() {
  local t; t=$(now_ms)
  [ -n "$last_name" ] && printf '{"phase":"e2e: %s","ms":%s,"sub":true}\n' "$last_name" "$(( t - last_ms ))" >>"$timings/phases.jsonl"
  last_name="$*" last_ms=$t
  printf 'e2e: %s (%ss)\n' "$*" "$(( $(date +%s) - t0 ))" >&2
}

step "setup"
bash scripts/e2e-setup.sh

if [ -z "${E2E_VSIX:-}" ]; then
  node -e "process.exit(require('./package.json').scripts?.package ? 0 : 1)" \
    || { echo 'e2e: package.json has no "package" script to build dist/durable-triage.vsix' >&2; exit 1; }
  if [ "${E2E_BUILT:-}" = 1 ] && [ -f dist/extension.js ] && [ -f dist/cli.js ]; then
    # test-all.mjs built everything a moment ago: the vsix is packed from that build, not a second one.
    step "npm run package:vsix (the build test-all made)"
    npm run --silent package:vsix
  else
    step "npm run package"
    npm run --silent package
  fi
  [ -f dist/durable-triage.vsix ] || { echo 'e2e: "npm run package" did not produce dist/durable-triage.vsix' >&2; exit 1; }
fi
# The scenarios assert through the CLI (bin/triage.js): the bundle if packaging built it, else tsc's output;
# the shared-store scenario starts PostgreSQL with tools/pg/local-server.ts as compiled by tsc, the Sentry one
# uses the unit tests' stand-ins (out/test/support/).
if [ ! -f dist/cli.js ] || [ ! -f out/tools/pg/local-server.js ] || [ ! -f out/test/support/sentry-standin.js ]; then step "tsc -p ."; npx tsc -p .; fi

step "compile test/e2e"
rm -rf out/e2e test-artifacts
npx tsc -p test/e2e

step "run"
status=0
rm -f "$timings/e2e.files.jsonl"
TRIAGE_TEST_FILE_TIMES="$timings/e2e.files.jsonl" node --require ./scripts/test-file-timer.cjs --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=./scripts/timings-reporter.mjs --test-reporter-destination="$timings/e2e.jsonl" out/e2e/*.test.js || status=$?
step "done (exit $status)"
if [ "$status" -ne 0 ] && [ -d test-artifacts ]; then
  echo "e2e: screenshots and logs of the failures are in $repo/test-artifacts/" >&2
fi
exit "$status"
