#!/usr/bin/env bash
# Installs what the runner fixtures' tests need (test/fixtures/repos: one small repository per
# test runner), skipping every step already done, so `npm test` can run them for real:
#   - vitest, vite, jest and mocha, pinned by test/fixtures/runner-deps/package-lock.json, into the
#     git-ignored .cache/runners/ (the fixture copies link their node_modules there);
#   - Debian's golang-go (go test) and python3-pytest (pytest), when `go` or pytest is missing.
# Quiet and fast (a few milliseconds) when everything is present; safe to run again.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps="$repo/test/fixtures/runner-deps"
cache="$repo/.cache/runners"

log() { printf 'runners-setup: %s\n' "$*" >&2; }
die() { printf 'runners-setup: error: %s\n' "$*" >&2; exit 1; }

# 1. Debian packages, only those missing.
have_pytest() { pytest --version >/dev/null 2>&1 || python3 -m pytest --version >/dev/null 2>&1; }
missing=()
command -v go >/dev/null 2>&1 || missing+=(golang-go)
have_pytest || missing+=(python3-pytest)
if [ "${#missing[@]}" -gt 0 ]; then
  [ "$(id -u)" = 0 ] || die "need root to install ${missing[*]}; run: sudo apt-get install -y ${missing[*]}"
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  aptlog="$(mktemp)"
  if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$aptlog" 2>&1; then
    tail -n 40 "$aptlog" >&2
    die "apt-get install ${missing[*]} failed"
  fi
  rm -f "$aptlog"
  command -v go >/dev/null 2>&1 || die "go is still not on the PATH after installing golang-go"
  have_pytest || die "pytest still does not run after installing python3-pytest (is another python3 first on the PATH without pytest?)"
fi

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
