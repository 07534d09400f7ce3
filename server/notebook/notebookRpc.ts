// The backend's `docket/notebook/*` handlers. Thin on purpose: the path rules, the notebook store,
// proposals and the publication transaction live in their own modules (reached through
// NotebookPorts); this file only checks who may write, binds the approval to the proposal, and
// turns the reference's result codes into the Docket codes the UI acts on.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DocketError } from "../errors";
import {
  ErrorCodes,
  type NotebookDiscardResult,
  type NotebookLanguage,
  type NotebookPublishParams,
  type NotebookPublishResult,
  type NotebookReceipt,
  type NotebookSetupParams,
  type NotebookSetupResult,
  type NotebookStatus,
  type NotebookStatusParams,
  type ProposalDetail,
  type ProposalList,
  type ProposalSummary,
} from "../protocol/messages";
import { OBSERVER_DIRECTORY } from "./manifest";
import { resolveNotebookPath } from "./notebookPath";
import { notebookStatus, planNotebookSetup, setupNotebook } from "./notebookStore";
import { discardProposal } from "./proposalStore";
import { listProposalSummaries, proposalDetail } from "./proposalView";
import { publishProposal } from "./publication";
import { describeRecovery, recoverNotebook } from "./recovery";

/** A failure reported by a notebook module, with the reference's own code (e.g. `notebook.manifest-invalid`). */
export interface PortFailure {
  readonly ok: false;
  readonly code: string;
  readonly message: string;
}

export type PublishOutcome =
  | { readonly ok: true; readonly receipt: NotebookReceipt }
  /** `reason` is the transaction step's own code (e.g. `publication-transaction.drift`), or null. */
  | (PortFailure & { readonly reason: string | null; readonly recoveryRequired: boolean; readonly advice: string });

/** What the handlers need from the notebook modules; every method is synchronous file work. */
export interface NotebookPorts {
  status(root: string): NotebookStatus;
  setup(root: string, language: NotebookLanguage, apply: boolean): NotebookSetupResult | PortFailure;
  listProposals(workspaceFolder: string): ProposalSummary[];
  /** Null when no pending proposal has this id. */
  readProposal(workspaceFolder: string, proposalId: string): ProposalDetail | null;
  /** Publishes only if the stored proposal still has the approved digest. */
  publish(workspaceFolder: string, proposalId: string, approvedSha256: string): PublishOutcome;
  /** False when no pending proposal has this id. */
  discard(workspaceFolder: string, proposalId: string): boolean;
  /**
   * Finishes an interrupted publication (crash recovery, recovery.ts): settles it without
   * republishing, clears or rolls it back to the old bytes, or completes it from verified staged
   * images; writes nothing when another process holds the lock or someone else's bytes are in the way.
   */
  recover(root: string, workspaceFolder: string): void;
}

export interface NotebookRpcContext {
  readonly workspaceFolder: string | null;
  readonly trusted: boolean;
}

/** Preflight reasons that mean a target changed on disk after the proposal was made: it went stale. */
const TARGET_CHANGED: ReadonlySet<string> = new Set(["publication-preflight.update-stale", "publication-preflight.update-missing", "publication-preflight.create-collision"]);

function isFailure(value: object): value is PortFailure {
  return "ok" in value && value.ok === false;
}

export class NotebookRpc {
  constructor(
    private readonly context: () => NotebookRpcContext,
    private readonly ports: NotebookPorts,
    private readonly home: string = os.homedir(),
  ) {}

  status(params: NotebookStatusParams): NotebookStatus {
    if (params.notebookPath === null || params.notebookPath.trim() === "") {
      return { health: "not-configured", root: null, notebookId: null, language: null, records: 0, problem: null };
    }
    const resolved = this.resolve(params.notebookPath);
    if (!resolved.ok) {
      return { health: "unusable", root: null, notebookId: null, language: null, records: 0, problem: { code: resolved.code, message: resolved.message } };
    }
    const status = this.ports.status(resolved.path);
    // The view asks for status when it starts: that is the "next start" an interrupted
    // publication is recovered on (only where Docket may write).
    const folder = this.context().workspaceFolder;
    if (status.health !== "recovery-required" || !this.context().trusted || folder === null) return status;
    this.ports.recover(resolved.path, folder);
    return this.ports.status(resolved.path);
  }

  setup(params: NotebookSetupParams): NotebookSetupResult {
    if (params.apply) this.requireTrusted();
    const resolved = this.resolve(params.notebookPath);
    if (!resolved.ok) throw new DocketError(ErrorCodes.notebookSetupRefused, `${resolved.message} (${resolved.code})`);
    const result = this.ports.setup(resolved.path, params.language, params.apply);
    if (isFailure(result)) throw new DocketError(ErrorCodes.notebookSetupRefused, `${result.message} (${result.code})`);
    return result;
  }

  proposals(): ProposalList {
    const folder = this.context().workspaceFolder;
    // Proposals are workspace state: without a folder there are none to list.
    return { proposals: folder === null ? [] : this.ports.listProposals(folder) };
  }

  proposal(proposalId: string): ProposalDetail {
    return this.find(this.requireFolder(), proposalId);
  }

  publish(params: NotebookPublishParams): NotebookPublishResult {
    this.requireTrusted();
    const folder = this.requireFolder();
    const proposal = this.find(folder, params.proposalId);
    if (params.approvedCount !== proposal.records.length) {
      throw new DocketError(
        ErrorCodes.approvalMismatch,
        `Proposal ${proposal.proposalId} has ${proposal.records.length} records, but ${params.approvedCount} were approved: nothing was saved. Review the proposal again.`,
      );
    }
    if (params.proposalSha256 !== proposal.proposalSha256) throw this.digestMismatch(proposal.proposalId);
    if (proposal.stale) {
      throw new DocketError(
        ErrorCodes.proposalStale,
        `Proposal ${proposal.proposalId} is stale: a target record changed on disk after it was made. Nothing was saved; discard it and propose again.`,
      );
    }
    if (!proposal.valid) {
      throw new DocketError(ErrorCodes.proposalInvalid, `Proposal ${proposal.proposalId} does not validate: nothing was saved. Open its records to see the diagnostics.`);
    }
    const outcome = this.ports.publish(folder, proposal.proposalId, params.proposalSha256);
    if (outcome.ok) return { receipt: outcome.receipt };
    // The proposal file was replaced between the check above and the transaction's own read.
    if (outcome.code === "save.declined") throw this.digestMismatch(proposal.proposalId);
    const detail = `(${outcome.reason === null ? outcome.code : `${outcome.code}, ${outcome.reason}`}): ${outcome.message}. ${outcome.advice}`;
    if (outcome.recoveryRequired) {
      throw new DocketError(ErrorCodes.publicationRecoveryRequired, `Publication of ${proposal.proposalId} needs recovery ${detail}`);
    }
    if (outcome.code === "save.concurrent-change" || (outcome.reason !== null && TARGET_CHANGED.has(outcome.reason))) {
      throw new DocketError(ErrorCodes.proposalStale, `Proposal ${proposal.proposalId} is stale ${detail}`);
    }
    if (outcome.code.startsWith("notebook.")) {
      throw new DocketError(ErrorCodes.notebookUnusable, `The notebook ${proposal.root} cannot be used ${detail}`);
    }
    throw new DocketError(ErrorCodes.publicationFailed, `Publication of ${proposal.proposalId} failed ${detail}`);
  }

  discard(proposalId: string): NotebookDiscardResult {
    this.requireTrusted();
    if (!this.ports.discard(this.requireFolder(), proposalId)) throw this.notFound(proposalId);
    return { proposalId, discarded: true };
  }

  private find(folder: string, proposalId: string): ProposalDetail {
    const proposal = this.ports.readProposal(folder, proposalId);
    if (proposal === null) throw this.notFound(proposalId);
    return proposal;
  }

  private digestMismatch(proposalId: string): DocketError {
    return new DocketError(ErrorCodes.approvalMismatch, `Proposal ${proposalId} is not the proposal that was approved (its digest differs): nothing was saved. Review the proposal again.`);
  }

  private notFound(proposalId: string): DocketError {
    return new DocketError(ErrorCodes.proposalNotFound, `No pending proposal ${proposalId}: it was saved or discarded already.`);
  }

  /** Relative paths are read against the workspace folder, as `docket.ledgerPath` is. */
  private resolve(input: string): ReturnType<typeof resolveNotebookPath> {
    return resolveNotebookPath(input, this.context().workspaceFolder ?? process.cwd(), this.home);
  }

  private requireFolder(): string {
    const folder = this.context().workspaceFolder;
    if (folder === null) throw new DocketError(ErrorCodes.noWorkspace, "Open a folder: Docket keeps notebook proposals in the workspace folder.");
    return folder;
  }

  private requireTrusted(): void {
    if (!this.context().trusted) {
      throw new DocketError(ErrorCodes.untrusted, "This workspace is in Restricted Mode: Docket does not write the notebook. Trust the workspace to continue.");
    }
  }
}

/** The ports backed by the notebook modules (server/notebook). */
export function createNotebookPorts(): NotebookPorts {
  return {
    status: storeStatus,
    setup: storeSetup,
    listProposals: listProposalSummaries,
    readProposal: proposalDetail,
    publish: (workspace, proposalId, approvedSha256) => {
      const result = publishProposal({ workspace, proposalId, approved: true, approvedSha256 });
      if (result.ok) return { ok: true, receipt: result.receipt };
      const issue = result.issue;
      return {
        ok: false,
        code: issue.code,
        reason: issue.reason,
        message: issue.message,
        recoveryRequired: issue.recoveryRequired,
        advice: issue.advice,
      };
    },
    discard: discardProposal,
    recover: (root, workspace) => {
      try {
        recoverNotebook({ root: fs.realpathSync(root), workspace, receiptId: () => `receipt-${randomUUID()}` });
      } catch {
        // Best effort: the status that follows still says recovery is required, and publishing says why.
      }
    },
  };
}

function storeStatus(root: string): NotebookStatus {
  const result = notebookStatus(root);
  if (!result.ok) {
    // Not a notebook yet (nothing there, or a folder setup has not touched) rather than a broken one.
    const missing =
      result.issue.code === "notebook.manifest-missing" ||
      result.issue.code === "notebook.path-missing" ||
      (result.issue.code === "notebook.layout-invalid" && !fs.existsSync(path.join(root, OBSERVER_DIRECTORY)));
    return {
      health: missing ? "missing" : "unusable",
      root,
      notebookId: null,
      language: null,
      records: 0,
      problem: { code: result.issue.code, message: result.issue.message },
    };
  }
  const status = result.value;
  const first = status.issues[0];
  // What holds the lock and what recovery does about it, so the view's tooltip says more than "recovery required".
  const recovery = status.activeTransaction ? describeRecovery(status.root) : null;
  return {
    health: status.health === "healthy" ? "ok" : status.health === "recovery-required" ? "recovery-required" : "unusable",
    root: status.root,
    notebookId: status.notebookId,
    language: status.language,
    records: status.records,
    problem: first === undefined ? null : { code: first.code, message: recovery === null ? first.message : `${first.message}. ${recovery.message}` },
  };
}

function storeSetup(root: string, language: NotebookLanguage, apply: boolean): NotebookSetupResult | PortFailure {
  const plan = planNotebookSetup(root, language);
  if (!plan.ok) return { ok: false, code: plan.issue.code, message: plan.issue.message };
  const action = plan.value.existingManifest === null ? "create" : "adopt";
  if (!apply) {
    return { root: plan.value.root, action, applied: false, notebookId: plan.value.existingManifest?.notebook_id ?? null, language };
  }
  const done = setupNotebook(root, language);
  if (!done.ok) return { ok: false, code: done.issue.code, message: done.issue.message };
  return { root: done.value.notebook.root, action, applied: true, notebookId: done.value.notebook.manifest.notebook_id, language };
}
