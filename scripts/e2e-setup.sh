#!/usr/bin/env bash
# Installs what the real-editor tests need, skipping every step already done:
#   - Debian's chromium, postgresql, ripgrep and libkrb5-dev (code-server's kerberos addon
#     headers), through scripts/apt-install.sh
#   - code-server 4.100.3 (= VS Code 1.100.3, the newest that installs on Node 20) and
#     playwright-core, into the git-ignored cache folder .cache/e2e/ of this repo.
# @vscode/ripgrep's install step downloads rg from GitHub, which these machines cannot
# reach; it looks in its cache folder first, so we put Debian's rg there as the archive
# it expects. See ../shared/notes/real-editor-tests.md for the recipe.
# Fast (well under a second) when everything is present. Safe to run again.
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
RIPGREP_PKG_VERSION=1.15.11            # @vscode/ripgrep version code-server 4.100.3 pulls in
RIPGREP_ARCHIVE=ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="$repo/.cache/e2e"
stamp="$cache/.installed-$CODE_SERVER_VERSION"

log() { printf 'e2e-setup: %s\n' "$*" >&2; }
die() { printf 'e2e-setup: error: %s\n' "$*" >&2; exit 1; }

# 1. Debian packages, only those missing. Chromium and PostgreSQL are needed to run the tests;
#    ripgrep and libkrb5-dev only to build code-server, so they are skipped once it is installed.
installed=false
[ -f "$stamp" ] && [ -x "$cache/node_modules/.bin/code-server" ] \
  && [ -f "$cache/node_modules/playwright-core/package.json" ] && installed=true
pkgs=(chromium postgresql)   # postgresql: the shared-store scenario starts a real server
[ "$installed" = false ] && pkgs+=(ripgrep libkrb5-dev)
bash "$repo/scripts/apt-install.sh" "${pkgs[@]}"

# 2. code-server + playwright-core in the cache folder.
[ "$installed" = true ] && exit 0

command -v rg >/dev/null 2>&1 || die "ripgrep (rg) is missing; apt-get install -y ripgrep"
rgcache="${TMPDIR:-/tmp}/vscode-ripgrep-cache-$RIPGREP_PKG_VERSION"
if [ ! -f "$rgcache/$RIPGREP_ARCHIVE" ]; then
  log "placing Debian's rg where @vscode/ripgrep looks before downloading"
  mkdir -p "$rgcache/x"
  cp "$(command -v rg)" "$rgcache/x/rg"
  tar czf "$rgcache/$RIPGREP_ARCHIVE" -C "$rgcache/x" rg
fi

log "installing code-server@$CODE_SERVER_VERSION and playwright-core into $cache (about a minute)"
mkdir -p "$cache"
cd "$cache"
[ -f package.json ] || npm init -y >/dev/null
# As root, code-server's install script insists on unsafe-perm; node-pty's build calls npx node-gyp.
if ! npm_config_yes=true npm_config_unsafe_perm=true npm_config_fund=false npm_config_audit=false \
     npm install --save-exact --loglevel=error "code-server@$CODE_SERVER_VERSION" playwright-core >"$cache/npm-install.log" 2>&1; then
  tail -n 40 "$cache/npm-install.log" >&2
  die "npm install failed; full log in $cache/npm-install.log"
fi
version="$(node -p "require('$cache/node_modules/code-server/package.json').version" 2>/dev/null || true)"
case "$version" in
  "$CODE_SERVER_VERSION"*) ;;
  *) die "code-server --version printed '$version', expected $CODE_SERVER_VERSION; see $cache/npm-install.log" ;;
esac
touch "$stamp"
log "ready: code-server $version, playwright-core $(node -p "require('$cache/node_modules/playwright-core/package.json').version")"
