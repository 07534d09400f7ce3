#!/usr/bin/env bash
# `npm start`: build + package Docket, install the real-VS-Code toolchain (scripts/e2e/toolchain.sh), and serve a
# demo workspace in code-server (VS Code in the browser) with the packaged extension installed.
# Runs in the foreground until Ctrl-C; code-server and everything it forks are stopped together on exit.
#
# Environment: PORT (default 8080), DOCKET_E2E_CACHE (default ~/.cache/docket-e2e),
#              DOCKET_DEMO_WORKSPACE (default $DOCKET_E2E_CACHE/demo-workspace),
#              DOCKET_DEMO_SKIP_PACKAGE=1 (reuse docket-<version>.vsix), DOCKET_DEMO_VSIX=<file> (install that instead)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DOCKET_E2E_CACHE:-$HOME/.cache/docket-e2e}
PORT=${PORT:-8080}
WORKSPACE=${DOCKET_DEMO_WORKSPACE:-$CACHE/demo-workspace}
PROFILE=$CACHE/demo-profile

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
say "checking the toolchain (first run installs chromium/Node 24/code-server into $CACHE, ~1-2 min)"
# --with-logs: compile @vscode/spdlog once so the Output view (Docket's log) works in the demo.
DOCKET_E2E_CACHE=$CACHE bash "$ROOT/scripts/e2e/toolchain.sh" --with-logs || die "toolchain install failed (see above)"
# shellcheck source=/dev/null
. "$CACHE/env.sh"

# ------------------------------------------------------------------------------------ demo workspace
if [ ! -d "$WORKSPACE/.git" ]; then
  say "creating the demo workspace $WORKSPACE"
  mkdir -p "$WORKSPACE/src"
  cat > "$WORKSPACE/README.md" <<'EOF'
# Docket demo workspace

A small git repository to try Docket in. Docket keeps AI coding agents' work decided, gated, audited and
verified: every step is an event in an append-only ledger, `.docket/ledger.jsonl` in this folder.

## Things to try

1. Click the **Docket** icon in the activity bar (left). You get the **Work** tree and the **Receipts** view.
2. Press `F1` and run **Docket: Turn On**. A work scope opens: the Work tree shows it and Receipts gets a
   `work-scope-opened` receipt. Click a receipt to see its fields and full hashes.
3. Run **Docket: Show Status** for the current phase, and **Docket: Verify Ledger** to re-check every hash in
   the ledger.
4. Open `.docket/ledger.jsonl` in the Explorer: one JSON object per line, each with a `developer/v8` envelope.
5. Run **Docket: Turn Off**: the scope closes (`work-scope-closed`).
6. Edit `src/greet.ts` while Docket is on, or point an agent (Claude Code, Codex, Copilot) at this folder and
   watch its work show up as receipts.
7. Run **Docket: Explain Plan for Task…** with, say, `make greet.ts trim the name without touching the README`:
   the plan says which skills run in what order, the checks and the review board, each with its reason.
8. The **Observer** view shows the Notebook in `notes/` and a proposal of one record waiting for review. Click
   the record to see it in the diff editor, then **Save All Records** (or **Discard Proposal**) in the editor
   title. Agents propose records the same way with the MCP tool `propose_notebook_records`; only you save them.

This folder lives in Docket's demo cache; delete it to start over (`npm start` recreates it).
EOF
  cat > "$WORKSPACE/src/greet.ts" <<'EOF'
export function greet(name: string): string {
  return `Hello, ${name}!`;
}
EOF
  printf 'node_modules/\n' > "$WORKSPACE/.gitignore"
  # A Notebook with one record waiting for review, so the Observer view has something to approve.
  mkdir -p "$WORKSPACE/.vscode"
  printf '{\n  "docket.notebookPath": "notes"\n}\n' > "$WORKSPACE/.vscode/settings.json"
  { node "$ROOT/dist/docket.js" notebook setup "$WORKSPACE/notes" --language en --yes \
      && node "$ROOT/dist/docket.js" notebook propose "$ROOT/scripts/demo/notebook-proposal.json" \
        --notebook "$WORKSPACE/notes" --workspace "$WORKSPACE"; } >/dev/null \
    || say "warning: could not prepare the demo Notebook (the rest of the demo works without it)"
  (
    cd "$WORKSPACE"
    export GIT_AUTHOR_NAME="Docket Demo" GIT_AUTHOR_EMAIL="demo@example.invalid"
    export GIT_COMMITTER_NAME="Docket Demo" GIT_COMMITTER_EMAIL="demo@example.invalid"
    git init -q -b main && git add -A && git commit -q -m "Demo workspace"
  ) || say "warning: could not make $WORKSPACE a git repository (is git installed?)"
else
  say "using the demo workspace $WORKSPACE"
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
