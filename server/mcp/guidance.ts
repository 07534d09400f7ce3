// The sentences that tell a model what to do next: after a successful call (from the replay-current
// policy) and after a refusal (from the Docket error code). Kept apart from the tool wiring so the
// wording is reviewed in one place and unit-tested without a server.
import { ErrorCodes, type Phase, type ToolPolicyResult } from "../protocol/messages";

/** The replay-current state every MCP result carries next to the operation's own result. */
export interface AgentState {
  readonly phase: Phase;
  readonly workScopeId: string | null;
  readonly legalOperations: ToolPolicyResult["legalOperations"];
  readonly nextAction: ToolPolicyResult["nextAction"];
  /** The `purpose` open_judgment must serve now (echo it or omit it); null when no judgment is due. */
  readonly requiredPurpose: "work-decision" | "reroute-decision" | "verification-decision" | null;
  readonly shell: "allow" | "deny";
  readonly edit: "allow" | "deny";
  /** Why shell/edit tools are denied, or null. */
  readonly reason: string | null;
}

const VERIFICATION_ROUTE = "route:claim-evidence-assessment";

/** One or two sentences naming the next legal call, with the arguments that matter for it. */
export function nextStep(state: AgentState): string {
  switch (state.phase) {
    case "off":
      return "Docket is off in this workspace, so it governs nothing and no Docket tool is legal. Only the user turns it on (VS Code: \"Docket: Turn On\"; terminal: `docket on`).";
    case "blocked":
      return "The ledger is blocked, so Docket writes nothing. Tell the user; `docket ledger verify` names the first bad line.";
    default:
      break;
  }
  const legal = state.legalOperations.join(", ");
  switch (state.nextAction) {
    case "open_judgment":
      if (state.requiredPurpose === "reroute-decision") {
        return "A landing left reroute debt: call open_judgment with purpose \"reroute-decision\" to decide whether the landing changes the plan, then conclude it.";
      }
      if (state.requiredPurpose === "verification-decision") {
        return `A landing left verification debt: call open_judgment with purpose "verification-decision" on route "${VERIFICATION_ROUTE}", then conclude it with the verification evidence.`;
      }
      return "Call open_judgment (purpose \"work-decision\") with the question you must decide before changing files and the obligations that settle it.";
    case "open_context_sources":
      return `A frame is open: decide it and call conclude_judgment (legal now: ${legal}). Call open_context_sources first only if you need another bundled skill's method.`;
    case "conclude_judgment":
      return "A frame is open: call conclude_judgment.";
    case "authorize_change":
      return state.phase === "done"
        ? `The landing is rerouted and verified; nothing is owed. For another change call authorize_change (from the latest conclusion) or open_judgment for a new decision (legal now: ${legal}).`
        : `The judgment is concluded: call authorize_change (movement, stableLanding, verificationTarget) before editing any file (legal now: ${legal}).`;
    case "record_landing":
      return "The change is authorized: make exactly the authorized edits, then call record_landing with the result and the verification you ran. Docket reconciles the changed paths with Git.";
    case null:
      return "No Docket operation is legal now. Call status.";
  }
}

/** What a model should do after a refusal with this code (the code's sentence says why). */
export function errorRemedy(code: string, state: AgentState, tool: string): string {
  const legal = state.legalOperations.length === 0 ? "none" : state.legalOperations.join(", ");
  switch (code) {
    case ErrorCodes.invalidParams:
      return `Fix the named fields and call ${tool} again; the exact input schema is in tools/list.`;
    case ErrorCodes.operationNotLegal:
      return `Not legal in phase ${state.phase}. Legal now: ${legal}. ${nextStep(state)}`;
    case ErrorCodes.purposeMismatch:
      return state.requiredPurpose === null
        ? "No judgment is due now; call status."
        : `Use purpose "${state.requiredPurpose}" (or omit purpose; Docket derives it).`;
    case ErrorCodes.unknownRoute:
      return "Use one of the routeDefinitionId values listed in open_judgment's description.";
    case ErrorCodes.verificationRouteRequired:
      return `Open the verification frame on routeDefinitionId "${VERIFICATION_ROUTE}".`;
    case ErrorCodes.unknownSkill:
      return "Use a skillName from status.skills, or omit ownerSkill so Docket owns the frame.";
    case ErrorCodes.unknownContextSource:
      return "Use inventorySourceIds of kind \"skill\" from open_judgment's contextSources (or status.skills); prepared references are nominated at conclusion, not opened.";
    case ErrorCodes.contextSourceChanged:
      return "A skill's files changed on disk after it was opened for this frame. Tell the user; the frame cannot conclude with the changed method.";
    case ErrorCodes.unknownEvidenceHandle:
      return "Nominate only branch-result-… handles listed in status.recentEvidence (captured tool results), or conclude without that nomination.";
    case ErrorCodes.judgmentRejected:
      return "Correct the judgment as the sentence says (nominations, selectionBasis, coverage, citedUses) and call conclude_judgment again.";
    case ErrorCodes.changedBeforeAuthorization:
      return "Files changed since the last decision without an authorization. Do not edit further; tell the user which files changed: they can revert them, or turn Docket off and on to start a new scope.";
    case ErrorCodes.gitHeadChanged:
    case ErrorCodes.identityChanged:
      return "Git's HEAD or the repository changed under the authorization. Tell the user; Docket cannot reconcile this landing.";
    case ErrorCodes.landingEmpty:
      return "Git observed no change since the authorization: make the authorized edits first, then call record_landing.";
    case ErrorCodes.landingPathsMismatch:
      return "Omit changedPaths to record exactly the paths Git observed, or list exactly those paths (the sentence names the difference).";
    case ErrorCodes.landingPathsRequired:
      return "This workspace is not observed through Git: list every changed path in changedPaths.";
    case ErrorCodes.landingPathsInvalid:
      return "List workspace-relative paths with forward slashes, each once.";
    case ErrorCodes.baselineMissing:
      return "Docket's saved workspace baseline is missing or unreadable. Tell the user; do not edit further.";
    case ErrorCodes.ledgerLocked:
      return `Another Docket writer holds the ledger lock; call ${tool} again in a moment.`;
    case ErrorCodes.alreadyOn:
    case ErrorCodes.alreadyOff:
      return "Nothing to do; call status.";
    case ErrorCodes.historyBlocked:
    case ErrorCodes.ledgerCorrupt:
    case ErrorCodes.ledgerForeign:
    case ErrorCodes.ledgerUnwritable:
    case ErrorCodes.preflightRejected:
      return "Docket cannot append to this ledger. Tell the user; `docket ledger verify` explains what is wrong. Do not edit files meanwhile.";
    case ErrorCodes.untrusted:
    case ErrorCodes.noWorkspace:
      return "Docket cannot write for this workspace. Tell the user.";
    case ErrorCodes.taskInvalid:
      return "Send the task as one plain sentence or paragraph: at most 4000 characters, no control characters other than newline and tab.";
    case ErrorCodes.snapshotUnavailable:
      return "The workspace folder cannot be read for a plan. Tell the user.";
    case ErrorCodes.notebookNotConfigured:
      return "Ask the user which notebook to use (or to set one up with Docket: Set Up Notebook…), then pass its folder as notebook.";
    case ErrorCodes.notebookUnusable:
      return "The folder is not a usable Notebook (the sentence names the reference code). Tell the user; `docket notebook status DIR` and `docket notebook validate DIR` explain it. Do not write record files yourself.";
    case ErrorCodes.proposalInvalid:
      return "Nothing was stored. Fix the records the diagnostics name (read the notebook tool again for current sha256 values) and propose the whole batch again.";
    case ErrorCodes.observerStale:
      return "Nothing was written: the Observer changed since you read it. Call observer_status and send the batch again with its fingerprint and episode.";
    case ErrorCodes.observerRefused:
      return "Nothing was written. The sentence names the Observer code and the member it refused: fix that member (call observer_status for staged tool call ids, candidates, hypotheses and guides) and send the whole batch again.";
    case ErrorCodes.observerBlocked:
      return "The Observer history has replay issues; Observer records nothing until it is repaired. Tell the user (`docket observer replay .docket/ledger.jsonl` lists them).";
    case ErrorCodes.reviewReportInvalid:
      return "Call plan for the task first and report with its contextPack.versions.basisSha256, a reviewer seated on that board, and findings that cite files or ledger events.";
    default:
      return `Call status to see what is legal now (legal now: ${legal}).`;
  }
}
