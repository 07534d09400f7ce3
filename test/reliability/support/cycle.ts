// The Developer cycle as the crash and concurrency targets drive it: which write each kind of
// writer makes next, read from the ledger itself (decide → authorize → edit → land → reroute →
// verify, turning Docket off and on between cycles). The planner only proposes; the writers
// decide under the ledger lock, so a proposal made from a stale view is refused with a code.
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";

export type WriterKind = "cli" | "mcp" | "backend" | "hook";
export const WRITER_KINDS: readonly WriterKind[] = ["cli", "mcp", "backend", "hook"];

export type LedgerOperationName = "turnOn" | "turnOff" | "openJudgment" | "concludeJudgment" | "authorizeChange" | "recordLanding";

export type Operation =
  | { readonly name: LedgerOperationName; readonly params: Readonly<Record<string, unknown>> }
  /** A PostToolUse hook call: `input` is the host's stdin JSON. */
  | { readonly name: "capture"; readonly host: "claude" | "codex"; readonly input: Readonly<Record<string, unknown>> };

export interface CycleView {
  readonly phase: string;
  readonly legal: readonly string[];
}

/** The ledger's phase and legal operations, from a full replay of the file (no cache). */
export function readCycleView(ledgerPath: string): CycleView {
  return new LedgerReader("", ledgerPath).view();
}

/** A read-only view of a ledger that catches up incrementally (and starts over when the file was rewritten). */
export class LedgerReader {
  readonly ledger: WorkspaceLedger;

  constructor(workspaceFolder: string, ledgerPath: string) {
    this.ledger = new WorkspaceLedger({ workspaceFolder, ledgerPath, trusted: false });
  }

  /** Caught up with the file. */
  current(): WorkspaceLedger {
    this.ledger.refresh();
    return this.ledger;
  }

  view(): CycleView {
    const policy = this.current().policy();
    return { phase: policy.phase, legal: policy.legalOperations };
  }
}

const OBLIGATIONS = [{ obligationId: "obligation:crash", statement: "The change under test is decided." }];

/** The next step of the cycle a Developer-operation writer (backend or MCP) takes, or null when Docket is off. */
export function cycleOperation(view: CycleView): Operation | null {
  if (view.phase === "off" || view.phase === "blocked") return null;
  if (view.legal.includes("conclude_judgment")) {
    return { name: "concludeJudgment", params: { disposition: "not-applicable", reason: "Nothing needs deciding here.", basis: ["The reliability suite drives this cycle."] } };
  }
  if (view.legal.includes("record_landing")) return { name: "recordLanding", params: { result: "Landed the suite's edit.", verification: ["reliability suite"] } };
  if (view.legal.includes("authorize_change")) {
    return { name: "authorizeChange", params: { movement: "Edit a file.", stableLanding: "The file is edited.", verificationTarget: "The suite checks it." } };
  }
  if (view.legal.includes("open_judgment")) {
    const routeDefinitionId = view.phase === "verifying" ? "route:claim-evidence-assessment" : "route:meaning-settlement";
    return { name: "openJudgment", params: { routeDefinitionId, question: "What does this step settle?", obligations: OBLIGATIONS } };
  }
  return null;
}

/** A PostToolUse call of `host` whose result is `outputBytes` long (a longer capture holds the evidence lock longer). */
export function captureOperation(root: string, host: "claude" | "codex", toolUseId: string, outputBytes: number): Operation {
  const stdout = `${"result line\n".repeat(Math.ceil(outputBytes / 12)).slice(0, outputBytes)}`;
  const common = { session_id: `reliability-${host}`, cwd: root, hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: toolUseId, tool_input: { command: "npm test" } };
  const input =
    host === "claude"
      ? { ...common, transcript_path: path.join(root, ".transcript.jsonl"), permission_mode: "default", tool_response: { stdout, stderr: "", interrupted: false, isImage: false } }
      : { ...common, turn_id: "turn-1", transcript_path: null, model: "gpt-5-codex", permission_mode: "default", tool_response: { stdout, exit_code: 0 } };
  return { name: "capture", host, input };
}

/**
 * What `kind` writes next from `view`; `roll` ∈ [0, 1) makes the seeded choices (the CLI turns
 * Docket off about half the time it may, and otherwise asks to turn it on, which is refused under
 * the lock; the backend sometimes turns it off mid-cycle). Null: this kind has nothing to
 * write now (MCP while Docket is off). `offChance` sets how often the CLI and backend turn off.
 */
export function operationFor(kind: WriterKind, view: CycleView, roll: number, capture: () => Operation, offChance = { cli: 0.5, backend: 0.08 }): Operation | null {
  if (kind === "hook") return capture();
  // Docket refuses to turn off while a change is authorized (docket.preflight-rejected), by design.
  const mayTurnOff = view.phase !== "off" && view.phase !== "editing";
  if (kind === "cli") return { name: mayTurnOff && roll < offChance.cli ? "turnOff" : "turnOn", params: {} };
  if (kind === "backend") {
    if (view.phase === "off") return { name: "turnOn", params: {} };
    if (mayTurnOff && roll < offChance.backend) return { name: "turnOff", params: { reason: "The reliability suite turns Docket off mid-cycle." } };
  }
  return cycleOperation(view);
}

/** A landing needs a change since the authorization: the driver makes one, as an agent would. */
export function editForLanding(root: string, label: string): void {
  fs.writeFileSync(path.join(root, "src", `${label}.txt`), `${label}\n`);
}

export function describeOperation(operation: Operation): string {
  if (operation.name === "capture") return `PostToolUse(${operation.host}, ${String(operation.input.tool_use_id)})`;
  return operation.name;
}
