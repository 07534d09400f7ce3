// Which scopes the Work view lists under History, and whether it must ask the backend for the
// work state. Closed scopes' judgments and landings come with the work state, so it is asked for
// while Docket is off too whenever there is a history to show. No `vscode` import (unit-tested).
import type { ScopeSummary, Status } from "../server/protocol/messages";

export function closedScopes(status: Status): ScopeSummary[] {
  return status.scopes.filter((scope) => scope.status === "closed");
}

export function needsWorkState(status: Status | null): boolean {
  return status !== null && (status.activeScope !== null || closedScopes(status).length > 0);
}
