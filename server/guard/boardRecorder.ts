// Records the review board of each plan an agent makes during a work scope (MCP \`plan\` and
// \`review_report\`), so the Stop check can name a FIX_REQUIRED or BLOCKED board as remaining work
// without planning again. Kept apart from guardFiles.ts: redaction is too heavy for the hook.
import { redactPersistedInput } from "../evidence/persistedText";
import { writeFileAtomicContained } from "../workspace/containedFs";
import { BOARDS_FORMAT_ID, boardsPath, readBoardsFile, type BoardsFile } from "./guardFiles";

const MAX_BOARDS = 50;
const MAX_TASK = 200;

/** Records the latest board verdict of a plan made during the scope; best effort. */
export function recordBoard(workspaceFolder: string, workScopeId: string, plan: { basisSha256: string; task: string; verdict: string; reasons: readonly string[] }): void {
  try {
    const current = readBoardsFile(workspaceFolder, workScopeId);
    const plans = { ...(current?.plans ?? {}) };
    delete plans[plan.basisSha256];
    // The task is the user's sentence: stored only redacted.
    plans[plan.basisSha256] = { task: redactPersistedInput(plan.task.slice(0, MAX_TASK)).value, verdict: plan.verdict, reasons: plan.reasons.slice(0, 10).map((reason) => reason.slice(0, 500)) };
    const keys = Object.keys(plans);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_BOARDS))) delete plans[key];
    const file: BoardsFile = { format: BOARDS_FORMAT_ID, workScopeId, plans };
    writeFileAtomicContained(workspaceFolder, boardsPath(workspaceFolder, workScopeId), `${JSON.stringify(file)}\n`, { mode: 0o600 });
  } catch {
    // The board is also on the plan itself; the guard only misses it in its notice.
  }
}
