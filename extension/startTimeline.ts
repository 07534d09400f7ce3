// Where a start stands, for the extension's log: the milestones of a start (backend starting and
// ready, the first status answer, the Work view's first rows) carry the time since activate() was
// entered. VS Code stamps a log line when its logger writes it, and the lines logged before the
// logger is ready — the first second or more of a start — all get the stamp of that moment, so
// the stamps alone cannot time a start.

let enteredAt: number | undefined;

/** Records when activate() was entered (Date.now() of dist/extension.js's activate). */
export function markActivateEntered(at: number): void {
  enteredAt = at;
}

/** " (+N ms after activate())", or "" when the entry did not say when activate() was entered. */
export function sinceActivate(): string {
  return enteredAt === undefined ? "" : ` (+${Math.max(0, Math.round(Date.now() - enteredAt))} ms after activate())`;
}
