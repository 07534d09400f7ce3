// Replaying a reducer scenario and reading its result the way the reducer tests compare it with
// the reference: one outcome per entry ("ok", a replay fault code, the reducer code of a semantic
// rejection, or "closed") and the receipt projection hash.
import { replayEntries, type Replayer } from "../../server/ledger/replay";
import { ReceiptProjection } from "../../server/developer/receipts";
import type { Scenario } from "./reducerScenarios";

export function outcomes(replay: Replayer): string[] {
  return replay.dispositions.map((d) => {
    if (d.status === "accepted") return "ok";
    if (d.code !== "semantic-transition-rejected") return d.code;
    return /^([a-z-]+): /u.exec(d.message)?.[1] ?? (d.message === "Runtime work scope is closed" ? "closed" : d.message);
  });
}

/** Replays a JSON copy of the entries, so the scenario's objects are never shared with the replayer. */
export function replayOf(scenario: Scenario): Replayer {
  return replayEntries(JSON.parse(JSON.stringify(scenario.entries)) as unknown[]);
}

export function projectionOf(replay: Replayer): string {
  const projection = new ReceiptProjection();
  projection.follow(replay.accepted);
  return projection.projectionSha256;
}
