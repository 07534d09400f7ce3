#!/bin/sh
# The pull-request check of docs/ci.md without GitHub Actions: run it in a full clone (not
# shallow) with the branch checked out and `docket` on PATH. BASE defaults to origin/main.
# Exit 0: the ledger verifies and every change is landed and verified; 1: the ledger has a
# rejected entry or a requirement is violated (each named on stderr); 2: bad range, shallow clone
# or a path that cannot be audited; 3: the ledger is not understood.
set -u
base="${BASE:-origin/main}"
docket ledger verify || exit $?
status=0
docket audit "$base..HEAD" --require landed,verified > docket-audit.md || status=$?
cat docket-audit.md
exit "$status"
