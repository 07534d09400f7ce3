// `docket observer on|off|status|hypothesis|memo|save|material|cancel-material|commit|processing`:
// Observer from a terminal or a script, with the same service calls as VS Code and MCP.
// Exit codes: 0 done; 1 a coded refusal (nothing written); 2 usage.
import { countOf } from "../plural";
import fs from "node:fs";
import path from "node:path";
import { UsageError, parseArgs, stringFlag } from "../cli/args";
import { readStdinText } from "../cli/stdin";
import { DocketError, toDocketError } from "../errors";
import { publishProposal } from "../notebook/publication";
import { discardProposal } from "../notebook/proposalStore";
import { resolveNotebookPath } from "../notebook/notebookPath";
import { ErrorCodes, type ObserverActionResult, type ObserverOverview } from "../protocol/messages";
import { findWorkspaceRoot, resolveLedgerPath } from "../workspace/ledgerPaths";
import { WorkspaceLedger } from "../workspace/workspaceLedger";
import { commitObserverWork, observerAgentStatus } from "./observerAgentWork";
import { ObserverCommitRequest } from "./observerCommit";
import { publishObserverSave, returnObserverSaveToReview, synchronizeObserverSave } from "./observerSaveFlow";
import { addUserHypothesis, cancelMaterialReview, requestMaterialReview, requestMemoReconciliation, requestReviewAndSave, setObserverMode } from "./observerService";
import { admitLoopbackEndpoint } from "./loopbackEndpoint";
import { processingPolicy, readProcessingPolicy, writeProcessingPolicy } from "./processingPolicy";

export interface ObserverWorkIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  readonly stdin?: () => Promise<string>;
}

const MAX_REQUEST_BYTES = 8 * 1024 * 1024;

export const OBSERVER_WORK_COMMANDS = ["on", "off", "status", "hypothesis", "memo", "save", "material", "cancel-material", "commit", "approve", "return", "processing"] as const;

function renderOverview(overview: ObserverOverview): string {
  const lines = [
    `observer ${overview.mode}, episode ${overview.episode.status}${overview.episode.episodeId === null ? "" : ` ${overview.episode.episodeId}`}${overview.notebook === null ? "" : `, notebook ${overview.notebook.root}`}`,
    `staged ${overview.staged.length}, candidates ${overview.candidates.length}, readings ${overview.readings.length}, observations ${overview.observations.length}, hypotheses ${overview.hypotheses.length}, memos ${overview.memos.length}`,
    ...overview.issues.map((issue) => `issue at entry ${issue.index}: ${issue.code}: ${issue.message}`),
    `next: ${overview.next}`,
  ];
  return `${lines.join("\n")}\n`;
}

export async function runObserverWorkCommand(sub: string, args: readonly string[], io: ObserverWorkIo): Promise<number> {
  const parsed = parseArgs(args, ["workspace", "notebook", "context", "file", "url", "endpoint", "model", "sha256"], ["json", "yes"]);
  const json = parsed.flags.has("json");
  const workspace = stringFlag(parsed, "workspace");
  const workspaceFolder = workspace !== undefined ? path.resolve(io.cwd, workspace) : findWorkspaceRoot(io.cwd);
  if (!fs.statSync(workspaceFolder, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`no folder at ${workspaceFolder}`, "docket.no-workspace");
  const positionals = parsed.positionals;
  const expectArguments = (count: number, what: string): void => {
    if (positionals.length !== count) throw new UsageError(positionals.length < count ? `observer ${sub} needs ${what}` : `unexpected argument ${positionals[count] ?? ""}`);
  };
  if (sub === "processing") {
    if (positionals.length === 0) {
      const loaded = readProcessingPolicy(workspaceFolder);
      io.stdout(json ? `${JSON.stringify(loaded)}\n` : `processing ${loaded.policy.mode}${loaded.policy.local_model === null ? "" : ` (${loaded.policy.local_model.model_id} at ${loaded.policy.local_model.endpoint})`}${loaded.ok ? "" : `\nwarning: ${loaded.code}: ${loaded.message}`}\n`);
      return 0;
    }
    expectArguments(1, "a mode: piggyback, off or local");
    const mode = positionals[0];
    if (mode !== "piggyback" && mode !== "off" && mode !== "local") throw new UsageError(`unknown processing mode ${mode ?? ""}: piggyback, off or local`);
    const endpoint = stringFlag(parsed, "endpoint");
    const model = stringFlag(parsed, "model");
    if (mode === "local" && (endpoint === undefined || model === undefined)) throw new UsageError("observer processing local needs --endpoint URL (a loopback address) and --model ID");
    if (mode === "local") {
      // Judged where it connects, before anything is written: a name must resolve only to loopback addresses.
      const admission = await admitLoopbackEndpoint(endpoint as string);
      if (!admission.ok) {
        if (json) io.stdout(`${JSON.stringify({ error: { code: admission.code, message: admission.message } })}\n`);
        io.stderr(`docket: ${admission.code}: ${admission.message}\n`);
        return 1;
      }
    }
    const saved = writeProcessingPolicy(workspaceFolder, processingPolicy(mode, mode === "local" ? { endpoint: endpoint as string, model_id: model as string } : null));
    if (!saved.ok) {
      if (json) io.stdout(`${JSON.stringify({ error: { code: saved.code, message: saved.message } })}\n`);
      io.stderr(`docket: ${saved.code}: ${saved.message}\n`);
      return 1;
    }
    io.stdout(json ? `${JSON.stringify({ mode })}\n` : `processing ${mode}\n`);
    return 0;
  }
  // A person or script at a terminal runs this: the workspace is trusted.
  const ledger = new WorkspaceLedger({ workspaceFolder, ledgerPath: resolveLedgerPath(workspaceFolder, null), trusted: true, actor: { kind: "terminal", client: null, session: null } });
  const report = (result: ObserverActionResult): number => {
    io.stdout(json ? `${JSON.stringify(result)}\n` : `${result.message}\n${renderOverview(result.overview)}`);
    return 0;
  };
  try {
    ledger.refresh();
    // Every command but status first brings files in line with the ledger (an interrupted save).
    if (sub !== "status") {
      const synchronized = await synchronizeObserverSave(ledger, workspaceFolder).catch(() => null);
      if (synchronized !== null) io.stderr(`docket: ${synchronized}\n`);
    }
    switch (sub) {
      case "on": {
        expectArguments(0, "");
        const notebook = stringFlag(parsed, "notebook");
        let root: string | null = null;
        if (notebook !== undefined) {
          const resolved = resolveNotebookPath(notebook, io.cwd, process.env.HOME ?? "");
          if (!resolved.ok) throw new UsageError(`${resolved.message} (${resolved.code})`);
          root = resolved.path;
        }
        return report(await setObserverMode(ledger, workspaceFolder, { on: true, notebookRoot: root }));
      }
      case "off":
        expectArguments(0, "");
        return report(await setObserverMode(ledger, workspaceFolder, { on: false, notebookRoot: null }));
      case "status": {
        expectArguments(0, "");
        const status = await observerAgentStatus(ledger, workspaceFolder);
        io.stdout(json ? `${JSON.stringify(status)}\n` : renderOverview(status.overview));
        return 0;
      }
      case "hypothesis":
        expectArguments(1, "the hypothesis text (quoted)");
        return report(await addUserHypothesis(ledger, workspaceFolder, { text: positionals[0] as string, context: stringFlag(parsed, "context") ?? null }));
      case "memo":
        expectArguments(0, "");
        return report(await requestMemoReconciliation(ledger, workspaceFolder));
      case "save":
        expectArguments(0, "");
        return report(await requestReviewAndSave(ledger, workspaceFolder));
      case "material": {
        const file = stringFlag(parsed, "file");
        const url = stringFlag(parsed, "url");
        if ((file !== undefined ? 1 : 0) + (url !== undefined ? 1 : 0) + positionals.length !== 1) throw new UsageError("observer material needs exactly one of: TEXT, --file PATH, --url URL");
        const params = file !== undefined ? { kind: "file" as const, path: path.resolve(io.cwd, file) } : url !== undefined ? { kind: "url" as const, url } : { kind: "text" as const, text: positionals[0] as string };
        return report(await requestMaterialReview(ledger, workspaceFolder, params));
      }
      case "cancel-material":
        expectArguments(0, "");
        return report(await cancelMaterialReview(ledger, workspaceFolder));
      case "commit": {
        expectArguments(0, "");
        const text = await (io.stdin ?? (() => readStdinText(MAX_REQUEST_BYTES)))();
        let value: unknown;
        try {
          value = JSON.parse(text) as unknown;
        } catch {
          throw new UsageError("the commit request on stdin is not JSON", "docket.input-unreadable");
        }
        const request = ObserverCommitRequest.safeParse(value);
        if (!request.success) {
          const first = request.error.issues[0];
          io.stderr(`docket: docket.invalid-params: ${first === undefined ? "invalid request" : `${first.path.join(".") || "(root)"}: ${first.message}`}\n`);
          return 1;
        }
        const outcome = await commitObserverWork(ledger, workspaceFolder, request.data);
        io.stdout(json ? `${JSON.stringify(outcome)}\n` : `${outcome.appended} entries recorded. ${outcome.followUps.join(" ")}\n${renderOverview(outcome.overview)}`);
        return 0;
      }
      case "approve": {
        expectArguments(1, "the PROPOSAL id (docket notebook show PROPOSAL prints its records and digest)");
        const proposalId = positionals[0] as string;
        const approvedSha256 = stringFlag(parsed, "sha256");
        if (!parsed.flags.has("yes") || approvedSha256 === undefined || !/^[0-9a-f]{64}$/u.test(approvedSha256)) {
          throw new UsageError("observer approve saves every record exactly as docket notebook show printed them: pass --yes and --sha256 DIGEST");
        }
        const published = await publishObserverSave(ledger, workspaceFolder, proposalId, () => {
          const result = publishProposal({ workspace: workspaceFolder, proposalId, approved: true, approvedSha256 });
          if (!result.ok) {
            const issue = result.issue;
            throw new DocketError(issue.recoveryRequired ? ErrorCodes.publicationRecoveryRequired : ErrorCodes.publicationFailed, `${issue.code}${issue.reason === null ? "" : ` (${issue.reason})`}: ${issue.message}. ${issue.advice}`);
          }
          return { receipt: result.receipt };
        });
        io.stdout(json ? `${JSON.stringify(published)}\n` : `Saved ${countOf(published.receipt.records.length, "record")}; the Episode is settled and Observer is off.\n`);
        return 0;
      }
      case "return": {
        expectArguments(1, "the PROPOSAL id");
        const proposalId = positionals[0] as string;
        await returnObserverSaveToReview(ledger, workspaceFolder, proposalId, () => {
          if (!discardProposal(workspaceFolder, proposalId)) throw new DocketError(ErrorCodes.proposalNotFound, `No pending proposal ${proposalId}.`);
          return { proposalId, discarded: true };
        });
        io.stdout(json ? `${JSON.stringify({ proposalId, returned: true })}\n` : `Returned ${proposalId} to review; the Notebook was not changed.\n`);
        return 0;
      }
      default:
        throw new UsageError(`unknown observer subcommand ${sub}`);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const coded = toDocketError(error);
    if (json) io.stdout(`${JSON.stringify({ error: { code: coded.code, message: coded.message } })}\n`);
    io.stderr(`docket: ${coded.code}: ${coded.message}\n`);
    return 1;
  }
}
