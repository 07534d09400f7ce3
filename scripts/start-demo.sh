#!/usr/bin/env bash
# `npm start`: build + package Docket, fetch VS Code's server from npm (scripts/e2e/toolchain.sh --no-browser: Node 24
# and code-server, no apt, no root, no compiler), and serve a demo workspace in code-server (VS Code in the browser)
# with the packaged extension installed. Needs only Node 20+, npm, and git for the demo repository.
# Runs in the foreground until Ctrl-C; code-server and everything it forks are stopped together on exit.
#
# Environment: PORT (default 8080), DOCKET_E2E_CACHE (default ~/.cache/docket-e2e),
#              DOCKET_DEMO_WORKSPACE (default $DOCKET_E2E_CACHE/demo-workspace),
#              DOCKET_DEMO_PROFILE (default $DOCKET_E2E_CACHE/demo-profile: VS Code's settings and extensions),
#              DOCKET_DEMO_SKIP_PACKAGE=1 (reuse docket-<version>.vsix), DOCKET_DEMO_VSIX=<file> (install that instead)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DOCKET_E2E_CACHE:-$HOME/.cache/docket-e2e}
PORT=${PORT:-8080}
WORKSPACE=${DOCKET_DEMO_WORKSPACE:-$CACHE/demo-workspace}
PROFILE=${DOCKET_DEMO_PROFILE:-$CACHE/demo-profile}

say() { printf '\033[1m[docket demo]\033[0m %s\n' "$*"; }
die() { printf '[docket demo] ERROR: %s\n' "$*" >&2; exit 1; }

# --------------------------------------------------------------------------------------------- build
cd "$ROOT"
VERSION=$(node -p "require('./package.json').version")
VSIX=${DOCKET_DEMO_VSIX:-$ROOT/docket-$VERSION.vsix}
if [ -n "${DOCKET_DEMO_VSIX:-}" ]; then
  [ -f "$VSIX" ] || die "DOCKET_DEMO_VSIX=$VSIX does not exist"
  say "using $VSIX (DOCKET_DEMO_VSIX)"
elif [ "${DOCKET_DEMO_SKIP_PACKAGE:-0}" = 1 ] && [ -f "$VSIX" ]; then
  say "using existing $(basename "$VSIX") (DOCKET_DEMO_SKIP_PACKAGE=1)"
else
  say "building and packaging the extension (npm run package)"
  npm run package </dev/null || die "npm run package failed"
  [ -f "$VSIX" ] || die "npm run package did not produce $VSIX"
fi

# ------------------------------------------------------------------------------------------ toolchain
say "checking VS Code's server (the first run downloads Node 24 and code-server from npm into $CACHE, ~1 min)"
DOCKET_E2E_CACHE=$CACHE bash "$ROOT/scripts/e2e/toolchain.sh" --no-browser || die "toolchain install failed (see above)"
# shellcheck source=/dev/null
. "$CACHE/env.sh"

# ------------------------------------------------------------------------------------ demo workspace
if [ ! -e "$WORKSPACE" ]; then
  say "creating the demo workspace $WORKSPACE"
  bash "$ROOT/scripts/demo/create-workspace.sh" "$WORKSPACE" || die "could not create the demo workspace"
else
  say "using the demo workspace $WORKSPACE"
  # Workspaces made before the demo ignored .docket/ committed a Notebook proposal and turn dirty once Docket is on.
  if git -C "$WORKSPACE" ls-files --error-unmatch .docket >/dev/null 2>&1; then
    say "note: this demo workspace was made by an older npm start; delete it for the current one: rm -rf '$WORKSPACE'"
  fi
fi

# ------------------------------------------------------------------------------------ demo profile
rm -rf "$PROFILE/tmp"   # stale vscode-*.sock files from earlier runs
mkdir -p "$PROFILE/user/User" "$PROFILE/extensions" "$PROFILE/tmp"
if [ ! -f "$PROFILE/user/User/settings.json" ]; then
  # The same quiet settings as the real-VS-Code tests, but the demo opens the workspace README.
  QUIET="$ROOT/scripts/e2e/quiet-settings.json" node -e 'const s = require(process.env.QUIET); s["workbench.startupEditor"] = "readme"; process.stdout.write(JSON.stringify(s, null, 2) + "\n");' > "$PROFILE/user/User/settings.json"
fi
PROFILE_ARGS=(--config "$PROFILE/config.yaml" --user-data-dir "$PROFILE/user" --extensions-dir "$PROFILE/extensions")
# Keep code-server's sockets out of /tmp and its children away from any surrounding VS Code.
export TMPDIR=$PROFILE/tmp
unset ELECTRON_RUN_AS_NODE NODE_OPTIONS
while IFS= read -r name; do unset "$name"; done < <(compgen -e | grep '^VSCODE_' || true)

say "installing $(basename "$VSIX") into the demo profile"
"$DOCKET_E2E_NODE" "$DOCKET_E2E_CODE_SERVER" "${PROFILE_ARGS[@]}" --install-extension "$VSIX" --force \
  >"$PROFILE/install.log" 2>&1 || { cat "$PROFILE/install.log" >&2; die "installing the extension failed"; }

# ----------------------------------------------------------------------------------------- serve
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  die "port $PORT is already in use on 127.0.0.1; choose another one: PORT=8081 npm start"
fi
LOG=$PROFILE/code-server.log
: >"$LOG"
setsid "$DOCKET_E2E_NODE" "$DOCKET_E2E_CODE_SERVER" "${PROFILE_ARGS[@]}" \
  --auth none --bind-addr "127.0.0.1:$PORT" \
  --disable-telemetry --disable-update-check --disable-workspace-trust --disable-getting-started-override \
  "$WORKSPACE" >>"$LOG" 2>&1 &
SERVER_PID=$!

stopped=0
stop_server() {
  [ "$stopped" = 1 ] && return
  stopped=1
  if kill -0 -- "-$SERVER_PID" 2>/dev/null; then
    say "stopping code-server (process group $SERVER_PID)"
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 -- "-$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
  fi
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ready=0
for _ in $(seq 1 300); do
  kill -0 "$SERVER_PID" 2>/dev/null || { tail -30 "$LOG" >&2; die "code-server exited during startup (log: $LOG)"; }
  if "$DOCKET_E2E_NODE" -e "fetch('http://127.0.0.1:$PORT/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"; then
    ready=1
    break
  fi
  sleep 0.2
done
[ "$ready" = 1 ] || { tail -30 "$LOG" >&2; die "code-server did not answer on port $PORT (log: $LOG)"; }

URL="http://localhost:$PORT/?folder=${WORKSPACE// /%20}"
cat <<EOF

  ┌──────────────────────────────────────────────────────────────────────────────
  │  Docket demo is running (VS Code $DOCKET_E2E_VSCODE_VERSION via code-server)
  │
  │    $URL
  │
  │  Open it in a browser on this machine (or forward port $PORT). Ctrl-C stops it.
  │  Workspace: $WORKSPACE
  │  Server log: $LOG
  └──────────────────────────────────────────────────────────────────────────────

EOF
wait "$SERVER_PID" || true
say "code-server exited (log: $LOG)"
