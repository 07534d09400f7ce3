// A real ledger for the tamper target: whole Developer cycles (decide, authorize, edit, land,
// reroute, verify, turn off) written by Docket's own writer against a real Git repository, with a
// fixed clock so the same options always give the same bytes.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../../server/workspace/workspaceLedger";
import { cycleOperation, editForLanding, readCycleView } from "./cycle";

export interface CycleLedgerOptions {
  /** Operations to write (a full cycle is 11 operations, 19 lines). */
  readonly operations: number;
  /** The fixed clock's start, so two ledgers built with the same operations still differ. */
  readonly clockStart: number;
}

function fixedClock(start: number): Clock {
  let tick = 0;
  return { now: () => new Date(start + 1_000 * tick++).toISOString() };
}

function git(cwd: string, args: readonly string[]): void {
  execFileSync("git", ["-C", cwd, ...args], { stdio: ["ignore", "ignore", "pipe"] });
}

/** Builds the ledger in a new repository at `folder` and returns its path. */
export async function buildCycleLedger(folder: string, options: CycleLedgerOptions): Promise<string> {
  fs.mkdirSync(path.join(folder, "src"), { recursive: true });
  git(folder, ["init", "--quiet"]);
  git(folder, ["config", "user.name", "Docket Reliability"]);
  git(folder, ["config", "user.email", "reliability@example.invalid"]);
  git(folder, ["config", "commit.gpgsign", "false"]);
  fs.writeFileSync(path.join(folder, "src", "app.txt"), "hello\n");
  git(folder, ["add", "--all"]);
  git(folder, ["commit", "--quiet", "--no-verify", "-m", "fixture"]);
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, clock: fixedClock(options.clockStart) });
  ledger.refresh();
  for (let step = 0; step < options.operations; step += 1) {
    const view = readCycleView(ledgerPath);
    if (view.phase === "off") {
      await ledger.turnOn();
      continue;
    }
    if (view.phase === "done") {
      await ledger.turnOff(`Cycle finished at step ${step}.`);
      continue;
    }
    const operation = cycleOperation(view);
    if (operation === null || operation.name === "capture") throw new Error(`no operation in phase ${view.phase}`);
    const params = operation.params as never;
    if (operation.name === "openJudgment") await ledger.openJudgment(params);
    else if (operation.name === "concludeJudgment") await ledger.concludeJudgment(params);
    else if (operation.name === "authorizeChange") await ledger.authorizeChange(params);
    else if (operation.name === "recordLanding") {
      editForLanding(folder, `step-${step}`);
      await ledger.recordLanding(params);
    } else throw new Error(`unexpected ${operation.name}`);
  }
  return ledgerPath;
}
