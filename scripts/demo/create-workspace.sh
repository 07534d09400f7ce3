#!/usr/bin/env bash
# Creates the demo workspace that `npm start` opens: the files under scripts/demo/workspace/, a Notebook in
# notes/, one git commit of exactly that, and then a Notebook proposal waiting for review. The proposal is made
# after the commit and lives in .docket/ (ignored), so the commit holds only the demo project and `git status`
# stays clean while Docket runs.
# Usage: bash scripts/demo/create-workspace.sh WORKSPACE   (WORKSPACE must not exist; needs dist/docket.js)
set -euo pipefail

DEMO=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DOCKET_CLI=$DEMO/../../dist/docket.js
WORKSPACE=${1:?usage: create-workspace.sh WORKSPACE}

die() { printf '[docket demo] ERROR: %s\n' "$*" >&2; exit 1; }
warn() { printf '[docket demo] warning: %s\n' "$*" >&2; }

[ -e "$WORKSPACE" ] && die "$WORKSPACE already exists; the demo workspace is only created in a new folder"
[ -f "$DOCKET_CLI" ] || die "$DOCKET_CLI is missing; build first (npm run build)"

mkdir -p "$WORKSPACE"
WORKSPACE=$(cd "$WORKSPACE" && pwd)
# A half-made workspace would be reused by the next `npm start`; remove it unless every step below succeeds.
trap 'rm -rf "$WORKSPACE"' EXIT
cp -R "$DEMO/workspace/." "$WORKSPACE/"

notebook_ready=1
node "$DOCKET_CLI" notebook setup "$WORKSPACE/notes" --language en --yes >/dev/null \
  || { notebook_ready=0; warn "could not set up the demo Notebook (the rest of the demo works without it)"; }

# Docket reconciles landings with Git, so the demo is a repository; without git it still opens, minus that.
if command -v git >/dev/null; then
  (
    cd "$WORKSPACE"
    export GIT_AUTHOR_NAME="Docket Demo" GIT_AUTHOR_EMAIL="demo@example.invalid"
    export GIT_COMMITTER_NAME="Docket Demo" GIT_COMMITTER_EMAIL="demo@example.invalid"
    git init -q -b main && git add -A && git -c commit.gpgsign=false commit -q --no-verify -m "Demo workspace"
  ) || die "could not make $WORKSPACE a git repository"
else
  warn "git is not on PATH: the demo workspace is not a git repository, so landings cannot be checked against Git"
fi

# A record waiting for review, so the Observer view has something to save or discard.
if [ "$notebook_ready" = 1 ]; then
  node "$DOCKET_CLI" notebook propose "$DEMO/notebook-proposal.json" \
      --notebook "$WORKSPACE/notes" --workspace "$WORKSPACE" >/dev/null \
    || warn "could not propose the demo Notebook record (the rest of the demo works without it)"
fi
trap - EXIT
