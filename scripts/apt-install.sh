#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are missing, and nothing else:
#   bash scripts/apt-install.sh postgresql golang-go python3-pytest ripgrep
# A package counts as present when what the tests use of it is there (initdb and pg_ctl for
# postgresql, `go` for golang-go, pytest on the PATH or in python3 for python3-pytest, `rg` for ripgrep,
# /usr/bin/chromium for chromium, krb5.h for libkrb5-dev), so a copy from elsewhere on the PATH
# is used as it is; any other name is checked with dpkg. Quiet and fast (milliseconds) when all
# are present; safe to run again, and from several processes at once (apt runs under flock).
# Missing packages and not root: exits 1 saying which `sudo apt-get install` to run.
set -euo pipefail

log() { printf 'apt-install: %s\n' "$*" >&2; }
die() { printf 'apt-install: error: %s\n' "$*" >&2; exit 1; }

have_postgres() {
  [ -n "${PG_BIN:-}" ] && [ -x "$PG_BIN/initdb" ] && return 0
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && return 0
  done
  command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1
}
# On the PATH is enough (running it costs seconds behind a pyenv shim); else python3's module.
have_pytest() { command -v pytest >/dev/null 2>&1 || python3 -c 'import pytest' >/dev/null 2>&1; }

present() {
  case "$1" in
    postgresql) have_postgres ;;
    golang-go) command -v go >/dev/null 2>&1 ;;
    python3-pytest) have_pytest ;;
    ripgrep) command -v rg >/dev/null 2>&1 ;;
    chromium) [ -x /usr/bin/chromium ] ;;
    libkrb5-dev) [ -f /usr/include/krb5.h ] || [ -f /usr/include/krb5/krb5.h ] ;;
    *) dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' ;;
  esac
}

missing=()
for p in "$@"; do present "$p" || missing+=("$p"); done
[ "${#missing[@]}" -eq 0 ] && exit 0

[ "$(id -u)" = 0 ] || die "missing ${missing[*]} and this is not root; run: sudo apt-get install -y ${missing[*]}"
command -v apt-get >/dev/null 2>&1 || die "missing ${missing[*]} and there is no apt-get here; install them with this system's package manager"
log "installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
lock="${TMPDIR:-/tmp}/durable-triage-apt.lock"
aptlog="$(mktemp)"
trap 'rm -f "$aptlog"' EXIT
apt() { flock -w 900 "$lock" apt-get "$@" >>"$aptlog" 2>&1; }
# Try without an update first (fast when the package lists are fresh), then with one.
if ! apt install -y -qq --no-install-recommends "${missing[@]}"; then
  if ! { apt update -qq && apt install -y -qq --no-install-recommends "${missing[@]}"; }; then
    tail -n 40 "$aptlog" >&2
    die "apt-get install ${missing[*]} failed"
  fi
fi
for p in "${missing[@]}"; do
  present "$p" || die "$p was installed but is still not usable (for python3-pytest: is another python3 first on the PATH without pytest?)"
done
