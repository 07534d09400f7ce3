// The Docket MCP tools: `status`, the five Developer operations, the Router's `plan` and
// `review_report`, and the Notebook's two (notebookTools.ts). Each tool's input schema is the zod
// schema its handler validates with (for the Developer operations the backend's own, from
// protocol/messages.ts), converted by inputSchema.ts; a Developer handler calls the same
// WorkspaceLedger method the `docket/*` request does. Descriptions are written for
// a model: when to call, what each argument means, what the result says, what comes next.
import {
  AuthorizeChangeParams,
  ConcludeJudgmentParams,
  Empty,
  OpenContextSourcesParams,
  OpenJudgmentParams,
  PlanParams,
  RecordLandingParams,
  Requests,
  type WriteResult,
} from "../protocol/messages";
import { ROUTE_CATALOGUE } from "../developer/routes";
import { findPackageRoot } from "../developer/operations/skillCatalog";
import { SeatReportSubmission, type Plan } from "../router/planSchema";
import { renderPlanText } from "../router/planText";
import { WorkspacePlanner } from "../router/workspacePlanner";
import { NOTEBOOK_TOOLS } from "./notebookTools";
import { GUARD_TOOLS } from "./guardTools";
import { OBSERVER_TOOLS } from "./observerTools";
import { recordBoard } from "../guard/boardRecorder";
import { defineTool, type DocketTool, type ToolContext } from "./toolDefinition";
import { recentEvidenceHandles } from "./recentEvidence";
import { statusReport, statusText } from "./statusReport";

export type { DocketTool, ToolContext, ToolOutcome } from "./toolDefinition";

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function written(result: WriteResult): string {
  return result.eventIds.length === 0 ? "nothing was written" : `${plural(result.eventIds.length, "event")} appended to the ledger`;
}

const ROUTES_TEXT = ROUTE_CATALOGUE.map((route) => `"${route.routeDefinitionId}" (${route.sign}): ${route.sense}`).join(" ");

const openJudgment = defineTool({
  name: "open_judgment",
  title: "Open a Docket judgment",
  readOnly: false,
  params: OpenJudgmentParams,
  description: [
    "Open a Docket judgment frame: the one decision that must be settled before files change, and after a landing the reroute and verification decisions.",
    "Call it when status or the previous result names open_judgment as legal (Docket on, no frame open, no change authorized).",
    "purpose (optional): echo status.state.requiredPurpose — \"work-decision\" for ordinary work, \"reroute-decision\" right after a landing, then \"verification-decision\"; a wrong echo is refused with docket.purpose-mismatch, omitting it lets Docket derive it.",
    `routeDefinitionId: the kind of decision, one of: ${ROUTES_TEXT} A verification frame must use "route:claim-evidence-assessment".`,
    "question: the single question this frame settles. obligations: 1–100 {obligationId (letters first, e.g. \"obligation:scope\"), statement}: what must be true for the question to count as settled; a resolved conclusion discharges all of them.",
    "ownerSkill (optional): {skillName (a bundled skill from status.skills), subquestion, expectedContribution, targetObligationIds?, limitations?} hands the frame to that skill; the result then carries the skill's method (result.owner.method) — follow it before concluding. Without ownerSkill Docket owns the frame.",
    "Result: the route sign, the owner's method, contextSources (skills to open with open_context_sources; prepared references to nominate in conclude_judgment), the developer/v8-result summary and the next legal operation (conclude_judgment).",
  ].join("\n"),
  run: async (context, params) => {
    const result = Requests.openJudgment.result.parse(await context.ledger.openJudgment(params));
    const owner = result.owner === null ? "Docket owns it" : `skill ${result.owner.skillName} owns it — follow its method in result.owner.method`;
    const sources = result.contextSources.length === 0 ? "" : `; ${plural(result.contextSources.length, "context source")} available (result.contextSources)`;
    return { summary: `Opened a judgment frame on ${result.routeSign} (${written(result)}); ${owner}${sources}.`, fields: { result }, result };
  },
});

const openContextSources = defineTool({
  name: "open_context_sources",
  title: "Open context sources",
  readOnly: false,
  params: OpenContextSourcesParams,
  description: [
    "Open up to 4 other bundled skills as context for the open frame, so their methods can inform your conclusion. Legal only while a frame is open, before conclude_judgment; optional.",
    "inventorySourceIds: 1–4 unique ids of kind \"skill\" from open_judgment's result.contextSources or status.skills[].inventorySourceId (prepared references are not opened: nominate them in conclude_judgment).",
    "Ids already opened in this scope and the frame's owner are skipped, and nothing is written for them. Opening grants no permission to edit files; only authorize_change does.",
    "Result: each opened skill's method text (result.opened[].method) — apply it — the skipped ids, the developer/v8-result summary and the next legal operation.",
  ].join("\n"),
  run: async (context, params) => {
    const result = Requests.openContextSources.result.parse(await context.ledger.openContextSources(params));
    const opened = result.opened.length === 0 ? "opened nothing" : `opened ${result.opened.map((entry) => entry.skillName).join(", ")} (methods in result.opened)`;
    const skipped = result.skipped.length === 0 ? "" : `; skipped ${result.skipped.map((entry) => `${entry.inventorySourceId} (${entry.reason})`).join(", ")}`;
    return { summary: `Context sources: ${opened}${skipped}; ${written(result)}.`, fields: { result }, result };
  },
});

const concludeJudgment = defineTool({
  name: "conclude_judgment",
  title: "Conclude the open judgment",
  readOnly: false,
  params: ConcludeJudgmentParams,
  description: [
    "Conclude the open frame with your decision. Legal only while a frame is open.",
    "Shape 1 — {disposition: \"not-applicable\", reason, basis: [facts]}: the question does not apply here; resolves the frame.",
    "Shape 2 — {disposition: \"judgment\", outcome}: outcome.kind \"contextual-judgment\" {rationale, artifact (the decision itself), stopEvidence: [what shows it is settled]} resolves the frame (every obligation is discharged and the frame concludes); \"needs-evidence\" {evidenceNeeded: [...], resolutionOwner, artifact?} and \"emergent-question\" {question, reason, artifact, stopEvidence} record that you cannot decide yet: the frame stays open and conclude_judgment stays next.",
    "Citing evidence (optional; when any of applicability, selectionBasis, coverage or outcome.citedUses is given, applicability {kind: \"applicable\", basis}, selectionBasis and coverage are all required): nominations [{nominationId, kind: \"tool-result\", branchResultId: \"branch-result-<16 hex>\"}] cite a tool result the hooks captured (handles are listed in status.recentEvidence; others are refused with docket.unknown-evidence-handle), {nominationId, kind: \"user-decision\"} cites the user's latest message, {nominationId, kind: \"inventory-source\", inventorySourceId} an opened skill or a prepared reference. coverage {status: \"sufficient\", contributions: [{nominationId, useAs: constraint|evidence|decision|method|guidance, contribution, assurance: \"agent-asserted\" | \"user-accepted\" | \"domain-verified\" (+ evaluator, evidenceNominationIds)}]} says how each nomination is used; outcome.citedUses cite contributions by index.",
    "With an owning skill the conclusion also settles the skill's invocation. After a landing, concluding the reroute frame clears the reroute debt and concluding the verification frame (route:claim-evidence-assessment) clears the verification debt — put the checks you ran in stopEvidence.",
    "Result: the developer/v8-result summary and the next legal operation (authorize_change after a work decision).",
  ].join("\n"),
  run: async (context, params) => {
    const result = Requests.concludeJudgment.result.parse(await context.ledger.concludeJudgment(params));
    const resolved = result.runtime.state !== "frame";
    return {
      summary: resolved ? `Concluded the frame (${written(result)}).` : `Recorded the conclusion without resolving the frame; it stays open (${written(result)}).`,
      fields: { result },
      result,
    };
  },
});

const authorizeChange = defineTool({
  name: "authorize_change",
  title: "Authorize the decided change",
  readOnly: false,
  params: AuthorizeChangeParams,
  description: [
    "Authorize the file changes the latest concluded judgment decided. Call it after conclude_judgment and before editing anything: until it succeeds Docket's hooks deny shell and file-edit tools.",
    "Refused while a frame is open, a change is already authorized or a landing still owes reroute/verification (docket.operation-not-legal), and when files changed since the last baseline (docket.workspace-changed-before-authorization).",
    "movement: what will change; stableLanding: the state the workspace reaches when the change is done; verificationTarget: how the landing will be verified (tests, commands, checks).",
    "Docket snapshots the workspace through Git as the authorization baseline that record_landing reconciles against. Result: the developer/v8-result summary; next legal operation record_landing.",
  ].join("\n"),
  run: async (context, params) => {
    const result = Requests.authorizeChange.result.parse(await context.ledger.authorizeChange(params));
    return { summary: `Change authorized (${written(result)}); shell and file-edit tools are allowed until record_landing.`, fields: { result }, result };
  },
});

const recordLanding = defineTool({
  name: "record_landing",
  title: "Record the landed change",
  readOnly: false,
  params: RecordLandingParams,
  description: [
    "Record that the authorized change has landed. Call it once the authorized edits are made; legal only while a change is authorized.",
    "Docket reconciles with Git: it compares the workspace with the authorization baseline and records exactly the paths that changed (added, modified, deleted, untracked; its own .docket/ folder excluded). changedPaths is optional with Git — when given it must equal what Git observed (docket.landing-paths-mismatch) — and required without Git. A landing with no change is refused (docket.landing-empty).",
    "result: what was done; verification: the checks you ran (commands, tests).",
    "The landing leaves two debts, and shell/edit tools stay denied until both are cleared: open_judgment with purpose \"reroute-decision\" and conclude it, then open_judgment with purpose \"verification-decision\" on route \"route:claim-evidence-assessment\" and conclude it.",
    "Result: the recorded landing (result.landing.changedPaths = the Git delta), the developer/v8-result summary and the next legal operation.",
  ].join("\n"),
  run: async (context, params) => {
    const result = Requests.recordLanding.result.parse(await context.ledger.recordLanding(params));
    const landings = context.ledger.landingsNow();
    const latest = landings[landings.length - 1];
    const landing =
      latest === undefined
        ? null
        : { landingId: latest.landingId, changedPaths: latest.changedPaths, reroutePending: latest.reroutePending, verificationPending: latest.verificationPending };
    const paths = landing === null ? "" : `: ${landing.changedPaths.join(", ")}`;
    return { summary: `Landing recorded, reconciled with the workspace${paths} (${written(result)}).`, fields: { result, landing }, result };
  },
});

const status = defineTool({
  name: "status",
  title: "Docket status",
  readOnly: true,
  params: Empty,
  description: [
    "Read Docket's replay-current state for this workspace; writes nothing. Call it first, and again whenever a Docket tool or a shell/edit tool was refused.",
    "Returns: the phase; the legal operations and the next one; the decision purpose open_judgment must echo (state.requiredPurpose); whether shell and file-edit tools are allowed and why not; the open frame (route, question, obligations and their state, owner skill); the authorized change; landings that still owe reroute or verification; captured evidence handles (recentEvidence: branch-result-… · tool) that conclude_judgment may nominate; and the bundled skills (owner candidates for open_judgment, sources for open_context_sources).",
  ].join("\n"),
  run: async (context) => {
    context.ledger.refresh();
    const skills = await context.ledger.skills().then(
      (listing) => listing.skills,
      () => [],
    );
    const report = statusReport(context.ledger.status(), context.ledger.workState(), recentEvidenceHandles(context.workspaceFolder), skills);
    return { summary: statusText(report, context.state()), fields: { status: report }, result: null };
  },
});

// One planner per workspace for the life of the MCP process: it remembers the bases of the plans
// it gave, so review_report can check a report against the plan as it is now. Nothing watches the
// files here, so every plan rescans the workspace.
const planners = new Map<string, WorkspacePlanner>();

function plannerFor(workspaceFolder: string): WorkspacePlanner {
  let planner = planners.get(workspaceFolder);
  if (planner === undefined) {
    planner = new WorkspacePlanner(workspaceFolder, findPackageRoot(__dirname), undefined, "rescan");
    planners.set(workspaceFolder, planner);
  }
  return planner;
}

function planSummary(plan: Plan): string {
  const review = plan.review;
  const awaiting = review.seats.filter((seat) => seat.state === "awaiting-report").map((seat) => seat.reviewer);
  return [
    `Plan ${plan.planSha256.slice(0, 12)}: verdict ${review.verdict} (${review.verdictReasons.join("; ")}).`,
    `Basis for review reports: ${plan.contextPack.versions.basisSha256}.`,
    awaiting.length === 0 ? "Every seated reviewer has reported." : `Seats awaiting a report: ${awaiting.join(", ")} (review_report).`,
  ].join(" ");
}

/** A plan the agent makes during a work scope is remaining work for the Stop check until its board says GO. */
function recordPlanBoard(context: ToolContext, plan: Plan): void {
  const scope = context.ledger.history().activeScope;
  if (scope === null) return;
  recordBoard(context.workspaceFolder, scope.workScopeId, {
    basisSha256: plan.contextPack.versions.basisSha256,
    task: plan.task.text,
    verdict: plan.review.verdict,
    reasons: plan.review.verdictReasons,
  });
}

const plan = defineTool({
  name: "plan",
  title: "Plan a task",
  readOnly: true,
  params: PlanParams,
  description: [
    "Turn a task sentence into Docket's explained routing plan for this workspace; writes nothing, consults no model, and the same task against the same workspace always gives the same plan.",
    "task: the task as the user wrote it (≤ 4000 characters, no control characters except newline and tab; otherwise docket.task-invalid). mode (optional): force plan-only, implement, review or investigate instead of deriving it from the task.",
    "Result (result.plan, seven stages): task tokens; intent (domain, entities in the project's spelling — a named file becomes its real path — unmatched names, ambiguous names with every candidate, signals such as \"don't touch X\", risk rules, execution mode); routing (skill candidates, each with reasons that point at task words, workspace files or catalogue fields; excluded and unavailable skills); composition (steps in parallel groups, execution edges, gates, blocking issues); contextPack (frozen versions incl. basisSha256, files, import graph, rule files, constraints, unknowns); verification (required checks and only the ones with evidence that they ran); review (every seat of the review board in its real state, and the verdict GO / FIX_REQUIRED / BLOCKED).",
    "Use it before deciding how to approach a task: follow the composition order, respect the constraints, treat unmatched names as unknowns to ask about. Each seat awaiting a report is reviewed by reading that reviewer's skill (review.seats[].skill) and answering with review_report.",
  ].join("\n"),
  run: async (context, params) => {
    const result = await plannerFor(context.workspaceFolder).plan(params.task, params.mode ?? null);
    recordPlanBoard(context, result);
    return { summary: `${planSummary(result)}\n\n${renderPlanText(result)}`, fields: { plan: result }, result: null };
  },
});

const reviewReport = defineTool({
  name: "review_report",
  title: "Report a review-board seat",
  readOnly: false,
  params: SeatReportSubmission,
  description: [
    "Record one review-board seat's report for a plan. Reviewers cannot read each other's reports: review as that one seat only.",
    "basisSha256: the plan's contextPack.versions.basisSha256 (a report for any other basis, or after the task, files or skills changed, is refused with docket.review-report-invalid — plan again). task (and mode, if the plan was made with one): the plan's task exactly, needed only when this session did not call plan for it (e.g. a reviewer running as its own agent); Docket plans it again and checks the basis. reviewer: a seated reviewer id (code-reviewer, security-auditor, test-engineer, architect, performance-specialist).",
    "outcome \"reported\" with findings [{findingId, severity: blocking|major|minor|info, message, citations: [{kind: \"file\", path (workspace-relative), line|null} | {kind: \"ledger-event\", workScopeId, eventId} | {kind: \"evidence\", handle}], resolved}] and failure null; or outcome \"failed\" with failure saying why the seat could not review (it stays on the board as failed).",
    "Appends to .docket/reviews/<basisSha256>.jsonl (the recorded review; a later report from the same seat supersedes its earlier one). Result: the report and the re-evaluated plan with its verdict.",
  ].join("\n"),
  run: async (context, params) => {
    const { task, mode, ...report } = params;
    const recorded = await plannerFor(context.workspaceFolder).recordReport(report, task === undefined ? undefined : { task, mode: mode ?? null });
    recordPlanBoard(context, recorded.plan);
    return {
      summary: `Recorded the ${recorded.report.reviewer} report (${recorded.report.findings.length} finding${recorded.report.findings.length === 1 ? "" : "s"}). ${planSummary(recorded.plan)}`,
      fields: { report: recorded.report, plan: recorded.plan },
      result: null,
    };
  },
});

/** In the order a model meets them: status first, then the cycle, then the Router, the Notebook, and the review of the final answer. */
export const DOCKET_TOOLS: readonly DocketTool[] = Object.freeze([
  status,
  openJudgment,
  openContextSources,
  concludeJudgment,
  authorizeChange,
  recordLanding,
  plan,
  reviewReport,
  ...NOTEBOOK_TOOLS,
  ...GUARD_TOOLS,
  ...OBSERVER_TOOLS,
]);

export const DOCKET_TOOL_NAMES: readonly string[] = Object.freeze(DOCKET_TOOLS.map((tool) => tool.name));

export function findTool(name: string): DocketTool | undefined {
  return DOCKET_TOOLS.find((tool) => tool.name === name);
}
