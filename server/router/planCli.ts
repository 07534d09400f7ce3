// `docket plan "<task>" [--workspace DIR] [--json] [--mode M]`: plans a task against a workspace
// from a terminal. A plan is a result whatever its verdict (GO, FIX_REQUIRED and BLOCKED all exit
// 0); a task, mode or workspace that cannot be planned exits 2 with the coded error on stderr.
// First: it configures zod before any schema below is built.
import "./planProcessZod";
import path from "node:path";
import { UsageError, parseArgs, stringFlag } from "../cli/args";
import { DocketError, toDocketError } from "../errors";
import { canonicalize } from "../ledger/canonicalJson";
import { findPackageRoot } from "../developer/operations/skillCatalog";
import { ErrorCodes } from "../protocol/errorCodes";
import { findWorkspaceRoot } from "../workspace/ledgerPaths";
import { ExecutionMode } from "./planSchema";
import { renderPlanText } from "./planText";
import { WorkspacePlanner, type PlannerModules } from "./workspacePlanner";

export interface PlanCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

export const PlanExit = { ok: 0, usage: 2 } as const;

interface PlanArgs {
  readonly task: string;
  readonly workspace: string | undefined;
  readonly mode: ExecutionMode | null;
  readonly json: boolean;
}

function parse(args: readonly string[]): PlanArgs {
  const parsed = parseArgs(args, ["workspace", "mode"], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError('plan needs exactly one task, quoted: docket plan "fix the retry bug in webhook.ts"');
  const mode = stringFlag(parsed, "mode");
  let parsedMode: ExecutionMode | null = null;
  if (mode !== undefined) {
    const checked = ExecutionMode.safeParse(mode);
    if (!checked.success) throw new UsageError(`--mode must be one of ${ExecutionMode.options.join(", ")}`);
    parsedMode = checked.data;
  }
  return { task: parsed.positionals[0] as string, workspace: stringFlag(parsed, "workspace"), mode: parsedMode, json: parsed.flags.has("json") };
}

export async function runPlanCommand(args: readonly string[], io: PlanCliIo, modules?: PlannerModules): Promise<number> {
  try {
    const parsed = parse(args);
    const workspaceRoot = parsed.workspace !== undefined ? path.resolve(io.cwd, parsed.workspace) : findWorkspaceRoot(io.cwd);
    const planner = new WorkspacePlanner(workspaceRoot, findPackageRoot(__dirname), modules);
    const plan = await planner.plan(parsed.task, parsed.mode);
    // --json: the canonical bytes (the same ones planSha256 is computed over, plus the hash).
    io.stdout(parsed.json ? `${canonicalize(plan)}\n` : renderPlanText(plan));
    return PlanExit.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`docket: ${error.code}: ${error.message}\nRun 'docket --help' for usage.\n`);
      return PlanExit.usage;
    }
    const failure = error instanceof DocketError ? error : toDocketError(error);
    const code = failure.code === ErrorCodes.ledgerUnwritable ? ErrorCodes.snapshotUnavailable : failure.code;
    io.stderr(`docket: ${code}: ${failure.message}\n`);
    return PlanExit.usage;
  }
}
