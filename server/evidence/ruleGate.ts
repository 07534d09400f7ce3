// The secret rules' gate. Every rule states a necessary condition of a match — its anchor: literal
// parts every match contains, written with the rule's own case rules — and a text without it is not
// scanned by that rule. Most texts a capture meets (identifiers, paths, short outputs) have none of
// the anchors, so the rule set (secretlint's preset above all) is neither loaded nor run for them.
// An anchor may only say "maybe" too often, never "no" for a text the rule would flag; a rule with
// no anchor of its own always runs. The tests switch the gate off to prove that gated and ungated
// rules find the same spans (test/unit/redactionGate.test.ts).

let gated = true;

/** Runs every rule on every text (tests compare the two ways). */
export function setRuleGateForTests(enabled: boolean): void {
  gated = enabled;
}

/** Whether `text` may hold a match of a rule whose anchors are `anchors` (all must be found). */
export function mayMatch(text: string, anchors: readonly RegExp[]): boolean {
  if (!gated) return true;
  for (const anchor of anchors) if (!anchor.test(text)) return false;
  return true;
}
