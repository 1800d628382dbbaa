#!/usr/bin/env bash
# Installs everything the tests need besides the project's own node_modules (`npm run setup:test`;
# `npm test` and the test tiers that need it run it first), skipping every step already done:
#   - Debian's postgresql (the PostgreSQL tests start a real server), golang-go, python3-pytest and
#     python3-venv (the go and pytest runner fixtures, the real worktree installs), and ripgrep
#     (the search tool), when missing;
#   - vitest, vite, jest and mocha, pinned by test/fixtures/runner-deps/package-lock.json, into the
#     git-ignored .cache/runners/ (the runner fixtures' copies link their node_modules there).
# The tests themselves never install anything: what is missing fails them with a message naming
# this script. Quiet and fast (well under a second) when everything is present; safe to run again.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps="$repo/test/fixtures/runner-deps"
cache="$repo/.cache/runners"

log() { printf 'setup-test-deps: %s\n' "$*" >&2; }
die() { printf 'setup-test-deps: error: %s\n' "$*" >&2; exit 1; }

# 1. Debian packages, only those missing.
bash "$repo/scripts/apt-install.sh" postgresql golang-go python3-pytest python3-venv ripgrep

# 2. The JavaScript runners, once per lockfile.
want="$(sha256sum "$deps/package-lock.json" | cut -d' ' -f1)"
stamp="$cache/.installed"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$cache/node_modules/vitest" ]; then
  exit 0
fi
log "installing vitest, jest and mocha into $cache (once per clone)"
mkdir -p "$cache"
cp "$deps/package.json" "$deps/package-lock.json" "$cache/"
if ! (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error >"$cache/npm-install.log" 2>&1); then
  tail -n 40 "$cache/npm-install.log" >&2
  die "npm ci failed; full log in $cache/npm-install.log"
fi
printf '%s' "$want" >"$stamp"
