#!/usr/bin/env bash
# Installs (once) the real agent hosts Docket's real-host tests drive offline against a loopback stub model
# (test/support/realHosts/, design: real-hosts.md):
#   - Claude Code  (npm @anthropic-ai/claude-code; a native binary from its platform package)
#   - Codex        (npm @openai/codex; a native binary from its platform package, started by bin/codex.js)
# into ${DOCKET_HOSTS_CACHE:-$HOME/.cache/docket-hosts}. Each host lives in a folder named after its version and
# counts as installed only once its ".complete" marker exists, so a version bump (or an interrupted install)
# reinstalls it. Idempotent: a warm run takes well under a second. Only the npm registry is contacted.
#
# npm runs with --ignore-scripts; the one install script Claude Code needs (install.cjs, which copies the platform
# binary over the bin/claude.exe placeholder) is then run by name, so nothing else in the tree executes.
#
# Writes $CACHE/env.sh (source it) and $CACHE/env.json (read by test/support/realHosts/toolchain.ts).
# Usage: bash scripts/hosts/toolchain.sh [--quiet]
set -euo pipefail

CLAUDE_CODE_VERSION=2.1.332
CODEX_VERSION=0.171.0

CACHE=${DOCKET_HOSTS_CACHE:-$HOME/.cache/docket-hosts}
QUIET=0
for arg in "$@"; do
  case "$arg" in
    --quiet) QUIET=1 ;;
    *) printf '[docket-hosts] ERROR: unknown argument %s\n' "$arg" >&2; exit 2 ;;
  esac
done

log() { [ "$QUIET" = 1 ] || printf '[docket-hosts %s] %s\n' "$(date +%T)" "$*" >&2; }
die() { printf '[docket-hosts] ERROR: %s\n' "$*" >&2; exit 1; }
elapsed() { echo "$(( $(date +%s) - $1 ))s"; }

command -v npm >/dev/null || die "npm is not on PATH (the system Node/npm fetches the hosts)."
command -v node >/dev/null || die "node is not on PATH."
mkdir -p "$CACHE" || die "cannot create cache folder $CACHE (set DOCKET_HOSTS_CACHE to a writable folder)."
CACHE=$(cd "$CACHE" && pwd)

# One installer at a time (several test processes may call this at once).
exec 9>"$CACHE/.lock"
flock 9

CLAUDE_DIR=$CACHE/claude-code-$CLAUDE_CODE_VERSION
CODEX_DIR=$CACHE/codex-$CODEX_VERSION
CLAUDE_BIN=$CLAUDE_DIR/node_modules/@anthropic-ai/claude-code/bin/claude.exe
CODEX_BIN=$CODEX_DIR/node_modules/@openai/codex/bin/codex.js
# Version probes run with a HOME and CODEX_HOME of their own: the machine user's are never touched.
PROBE_HOME=$CACHE/.probe-home

is_complete() { [ -f "$1/.complete" ]; }
mark_complete() { date -u +%FT%TZ > "$1/.complete"; }

# Removes older versions of one host (only our own folders inside the cache).
prune_other_versions() { # prefix keep
  local d
  for d in "$CACHE/$1"-*; do
    [ -d "$d" ] && [ "$d" != "$2" ] && { log "removing outdated $(basename "$d")"; rm -rf "$d"; }
  done
  return 0
}

# --include=optional: the native binaries come as optional dependencies; a global omit=optional would drop them.
NPM_FLAGS=(--no-audit --no-fund --loglevel=error --ignore-scripts --include=optional --no-save --no-package-lock)

npm_install() { # dir spec
  rm -rf "$1" && mkdir -p "$1"
  printf '{ "name": "docket-hosts-%s", "version": "1.0.0", "private": true }\n' "$(basename "$1")" > "$1/package.json"
  ( cd "$1" && npm install "$2" "${NPM_FLAGS[@]}" >&2 ) || die "npm install $2 failed (is the npm registry reachable?)"
}

probe_version() { # command...
  mkdir -p "$PROBE_HOME/codex"
  HOME=$PROBE_HOME CODEX_HOME=$PROBE_HOME/codex DISABLE_AUTOUPDATER=1 CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    timeout 60 "$@" --version 2>/dev/null | head -1 || true
}

# ------------------------------------------------------------------------------------------- Claude Code
if ! is_complete "$CLAUDE_DIR"; then
  t=$(date +%s)
  log "claude-code: installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION into $CLAUDE_DIR"
  npm_install "$CLAUDE_DIR" "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION"
  ( cd "$CLAUDE_DIR/node_modules/@anthropic-ai/claude-code" && node install.cjs >&2 ) \
    || die "Claude Code's install.cjs could not place the native binary (is this platform supported: $(uname -sm)?)"
  got=$(probe_version "$CLAUDE_BIN")
  case "$got" in
    "$CLAUDE_CODE_VERSION "*) ;;
    *) die "claude --version printed '$got', expected $CLAUDE_CODE_VERSION" ;;
  esac
  mark_complete "$CLAUDE_DIR"
  log "claude-code: $got ready in $(elapsed "$t")"
else
  log "claude-code: $CLAUDE_CODE_VERSION already installed"
fi
prune_other_versions claude-code "$CLAUDE_DIR"

# ------------------------------------------------------------------------------------------------- Codex
if ! is_complete "$CODEX_DIR"; then
  t=$(date +%s)
  log "codex: installing @openai/codex@$CODEX_VERSION into $CODEX_DIR"
  npm_install "$CODEX_DIR" "@openai/codex@$CODEX_VERSION"
  got=$(probe_version node "$CODEX_BIN")
  [ "$got" = "codex-cli $CODEX_VERSION" ] || die "codex --version printed '$got', expected codex-cli $CODEX_VERSION (is this platform supported: $(uname -sm)?)"
  mark_complete "$CODEX_DIR"
  log "codex: $got ready in $(elapsed "$t")"
else
  log "codex: $CODEX_VERSION already installed"
fi
prune_other_versions codex "$CODEX_DIR"

# ------------------------------------------------------------------------------------------- env files
{
  echo "# Generated by scripts/hosts/toolchain.sh — source it. Does not change PATH."
  printf 'export DOCKET_HOSTS_CACHE=%q\n' "$CACHE"
  printf 'export DOCKET_HOSTS_CLAUDE=%q\n' "$CLAUDE_BIN"
  printf 'export DOCKET_HOSTS_CODEX=%q\n' "$CODEX_BIN"
  printf 'export DOCKET_HOSTS_CLAUDE_VERSION=%q\n' "$CLAUDE_CODE_VERSION"
  printf 'export DOCKET_HOSTS_CODEX_VERSION=%q\n' "$CODEX_VERSION"
} > "$CACHE/env.sh.tmp"
mv "$CACHE/env.sh.tmp" "$CACHE/env.sh"
# JSON written by node, so any character in the cache path stays valid JSON.
CACHE="$CACHE" CLAUDE_BIN="$CLAUDE_BIN" CODEX_BIN="$CODEX_BIN" CLAUDE_CODE_VERSION="$CLAUDE_CODE_VERSION" CODEX_VERSION="$CODEX_VERSION" \
  node -e 'const e = process.env; process.stdout.write(JSON.stringify({ cache: e.CACHE, claude: e.CLAUDE_BIN, codex: e.CODEX_BIN, versions: { claudeCode: e.CLAUDE_CODE_VERSION, codex: e.CODEX_VERSION } }, null, 2) + "\n")' \
  > "$CACHE/env.json.tmp"
mv "$CACHE/env.json.tmp" "$CACHE/env.json"
log "hosts ready: source $CACHE/env.sh (Claude Code $CLAUDE_CODE_VERSION, Codex $CODEX_VERSION)"
