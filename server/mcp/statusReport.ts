// What the MCP `status` tool answers: the phase, what is legal, the purpose a judgment must echo,
// the open frame, the authorization, unpaid debts, citable evidence handles and the bundled
// skills — everything a model needs to pick its next call, and nothing it cannot act on.
import type { SkillsResult, Status, WorkState } from "../protocol/messages";
import type { AgentState } from "./guidance";
import type { RecentEvidenceEntry } from "./recentEvidence";

export interface StatusReport {
  readonly workspaceFolder: string | null;
  readonly ledgerPath: string | null;
  /** The ledger's first problem (why it is blocked), or null. */
  readonly ledgerProblem: string | null;
  readonly openFrame: {
    readonly frameId: string;
    readonly role: "work" | "reroute" | "verification";
    readonly routeDefinitionId: string;
    readonly question: string;
    readonly owner: string | null;
    readonly obligations: readonly { readonly obligationId: string; readonly statement: string; readonly state: string }[];
    readonly blockers: number;
    readonly unresolvedAttempts: number;
  } | null;
  readonly authorization: { readonly authorizationId: string; readonly movement: string; readonly stableLanding: string; readonly verificationTarget: string } | null;
  readonly pendingDebts: readonly { readonly landingId: string; readonly changedPaths: readonly string[]; readonly reroutePending: boolean; readonly verificationPending: boolean }[];
  readonly recentEvidence: readonly RecentEvidenceEntry[];
  /** Bundled skills: owner candidates for open_judgment and sources for open_context_sources. */
  readonly skills: SkillsResult["skills"];
}

export function statusReport(status: Status, work: WorkState, evidence: readonly RecentEvidenceEntry[], skills: SkillsResult["skills"]): StatusReport {
  const open = work.frames.find((frame) => frame.status === "open");
  return {
    workspaceFolder: status.workspaceFolder,
    ledgerPath: status.ledger?.path ?? null,
    ledgerProblem: status.blockedReason ?? (status.ledger?.problem == null ? null : `${status.ledger.problem.code}: ${status.ledger.problem.message}`),
    openFrame:
      open === undefined
        ? null
        : {
            frameId: open.frameId,
            role: open.role,
            routeDefinitionId: open.routeDefinitionId,
            question: open.question,
            owner: open.owner?.skillName ?? null,
            obligations: open.obligations.map((obligation) => ({ obligationId: obligation.obligationId, statement: obligation.statement, state: obligation.state })),
            blockers: open.blockers.length,
            unresolvedAttempts: open.unresolvedAttempts,
          },
    authorization:
      work.authorization === null
        ? null
        : {
            authorizationId: work.authorization.authorizationId,
            movement: work.authorization.movement,
            stableLanding: work.authorization.stableLanding,
            verificationTarget: work.authorization.verificationTarget,
          },
    pendingDebts: work.landings
      .filter((landing) => landing.reroutePending || landing.verificationPending)
      .map((landing) => ({
        landingId: landing.landingId,
        changedPaths: landing.changedPaths,
        reroutePending: landing.reroutePending,
        verificationPending: landing.verificationPending,
      })),
    recentEvidence: evidence,
    skills,
  };
}

/** The short text next to the structured report. */
export function statusText(report: StatusReport, state: AgentState): string {
  const lines = [`Docket phase: ${state.phase}${state.workScopeId === null ? "" : ` (scope ${state.workScopeId})`}.`];
  if (report.ledgerProblem !== null) lines.push(`Ledger problem: ${report.ledgerProblem}.`);
  lines.push(`Legal operations: ${state.legalOperations.length === 0 ? "none" : state.legalOperations.join(", ")}.`);
  if (state.requiredPurpose !== null) lines.push(`Required decision purpose: ${state.requiredPurpose}.`);
  lines.push(`Shell tools: ${state.shell}; file edits: ${state.edit}.`);
  const frame = report.openFrame;
  if (frame !== null) {
    const obligations = frame.obligations.map((obligation) => `${obligation.obligationId} (${obligation.state})`).join(", ");
    lines.push(`Open ${frame.role} frame ${frame.frameId} on ${frame.routeDefinitionId}${frame.owner === null ? "" : ` owned by skill ${frame.owner}`}: "${frame.question}" — obligations: ${obligations}.`);
  }
  if (report.authorization !== null) lines.push(`Authorized change ${report.authorization.authorizationId}: ${report.authorization.movement}`);
  for (const debt of report.pendingDebts) {
    const owed = [debt.reroutePending ? "reroute" : null, debt.verificationPending ? "verification" : null].filter((item) => item !== null).join(" and ");
    lines.push(`Landing ${debt.landingId} (${debt.changedPaths.join(", ")}) owes ${owed}.`);
  }
  if (report.recentEvidence.length > 0) {
    lines.push(`Captured evidence you may nominate: ${report.recentEvidence.map((entry) => `${entry.branchResultId} · ${entry.toolName}`).join("; ")}.`);
  }
  return lines.join("\n");
}
