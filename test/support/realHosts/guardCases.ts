// The completion guard's real-host cases (issue 13, guard.md "At Stop"): per host, a session whose
// model ends with a completion claim and no review (notice mode: the host shows Docket's notice),
// one that reviews its answer through Docket's own MCP tools first and ends with the marker they
// return (the host stops with nothing added), and block-once (the host continues the model exactly
// once with Docket's reason, then stops with the notice). Each case says what the stub model
// answers; guardVerdict.ts judges what the host did.
import { answerSha256, completionMarker } from "../../../server/guard/marker";
import type { HostName } from "./hostRun";
import type { StubScriptStep, StubStep, StubTurn } from "./stubModel";

/** What the host must do at Stop. */
export type GuardOutcome =
  /** The host shows Docket's notice and stops; the model is not asked again. */
  | "notice"
  /** The host stops with no added output; the model is not asked again. */
  | "silent"
  /** The host continues the model once with Docket's reason, then stops with the notice. */
  | "continued-once";

export interface GuardCase {
  /** `<host>/guard-<name>`; `DOCKET_REAL_HOSTS_CASES=<id>[,<id>]` runs only those. */
  readonly id: string;
  readonly host: HostName;
  readonly what: string;
  /** `docket guard mode …` before the session (a fresh workspace starts in notice). */
  readonly mode: "notice" | "block-once";
  readonly outcome: GuardOutcome;
  /** What the stub model answers; the last step is the final answer. */
  readonly steps: readonly StubScriptStep[];
  /** Claude Code's `--allowedTools`: its own rules allow the review tools, so nothing but Docket decides. */
  readonly allowedTools: readonly string[];
}

/** The unsupported completion claim the model ends with. */
export const UNSUPPORTED_DONE = "Done, all tests pass.";
/** The reviewed answer: one claim, backed by the workspace's README.md (created with "hello"). */
export const REVIEWED_DRAFT = "Done. README.md says hello.";
const REVIEWED_CLAIM = "README.md says hello.";

const CLAUDE_REVIEW_OPEN = "mcp__docket__review_open";
const CLAUDE_REVIEW_SUBMIT = "mcp__docket__review_submit";
const CODEX_DOCKET_NAMESPACE = "mcp__docket";

/** The review id Docket's `review_open` gave the model, read back from the result the host sent. */
function reviewIdFrom(turn: StubTurn, openStep: number): string {
  const result = turn.resultOf(openStep);
  if (result === undefined) throw new Error(`the request carries no result for review_open (step ${openStep})`);
  const id = /review:[0-9a-f]{24}/u.exec(result)?.[0];
  if (id === undefined) throw new Error(`review_open returned no review id: ${JSON.stringify(result.slice(0, 400))}`);
  return id;
}

/** The `marker` string of a `review_submit` result as the model received it (JSON), or null. */
function markerFrom(result: string): string | null {
  const literal = /"marker":("(?:[^"\\]|\\.)*")/u.exec(result)?.[1];
  if (literal === undefined) return null;
  try {
    return JSON.parse(literal) as string;
  } catch {
    return null;
  }
}

function reviewTool(host: HostName, tool: "review_open" | "review_submit", input: Readonly<Record<string, unknown>>): StubStep {
  if (host === "claude") return { kind: "tool", name: tool === "review_open" ? CLAUDE_REVIEW_OPEN : CLAUDE_REVIEW_SUBMIT, input };
  return { kind: "tool", name: tool, namespace: CODEX_DOCKET_NAMESPACE, input };
}

/**
 * The review flow a model follows (the tool descriptions in server/mcp/guardTools.ts): open a review
 * of the exact final answer with its claim and source, judge the claim citing the sealed source,
 * then send the answer with the marker appended after a blank line. The marker is built from the
 * review id Docket returned and the draft's digest, and must be the one `review_submit` returned.
 */
function reviewedSteps(host: HostName): StubScriptStep[] {
  // Claude Code defers MCP tools behind ToolSearch: a model loads their schemas first, as a real one does.
  const load: StubScriptStep[] = host === "claude" ? [{ kind: "tool", name: "ToolSearch", input: { query: `select:${CLAUDE_REVIEW_OPEN},${CLAUDE_REVIEW_SUBMIT}` } }] : [];
  const openStep = load.length;
  const submitStep = openStep + 1;
  const open = reviewTool(host, "review_open", {
    draft: REVIEWED_DRAFT,
    claims: [{ id: "c1", text: REVIEWED_CLAIM }],
    sources: [{ kind: "file", path: "README.md" }],
  });
  const submit = (turn: StubTurn): StubStep =>
    reviewTool(host, "review_submit", {
      reviewId: reviewIdFrom(turn, openStep),
      claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }],
      response: { verdict: "supported", rationale: "README.md, read again and sealed as source:1, holds the line hello; the answer claims nothing else." },
    });
  const answer = (turn: StubTurn): StubStep => {
    const reviewId = reviewIdFrom(turn, openStep);
    const marker = completionMarker(reviewId, answerSha256(REVIEWED_DRAFT));
    // Both hosts hand the model the tool's structured result as JSON; the marker Docket returned must be the stub's.
    const returned = markerFrom(turn.resultOf(submitStep) ?? "");
    if (returned !== marker) throw new Error(`review_submit returned the marker ${JSON.stringify(returned)}, expected ${JSON.stringify(marker)}`);
    return { kind: "text", text: `${REVIEWED_DRAFT}${marker}` };
  };
  return [...load, open, submit, answer];
}

function casesFor(host: HostName): GuardCase[] {
  const reviewTools = host === "claude" ? ["ToolSearch", CLAUDE_REVIEW_OPEN, CLAUDE_REVIEW_SUBMIT] : [];
  return [
    {
      id: `${host}/guard-unsupported-done`,
      host,
      what: `a final "${UNSUPPORTED_DONE}" without a review (notice mode): the host shows Docket's notice and stops`,
      mode: "notice",
      outcome: "notice",
      steps: [{ kind: "text", text: UNSUPPORTED_DONE }],
      allowedTools: [],
    },
    {
      id: `${host}/guard-reviewed-clear`,
      host,
      what: "review_open → review_submit (supported, citing README.md) → the answer with the marker, nothing remaining: the host stops with nothing added",
      mode: "notice",
      outcome: "silent",
      steps: reviewedSteps(host),
      allowedTools: reviewTools,
    },
    {
      id: `${host}/guard-block-once`,
      host,
      what: `block-once: a final "${UNSUPPORTED_DONE}" without a review is continued exactly once with Docket's reason, then the host stops with the notice`,
      mode: "block-once",
      outcome: "continued-once",
      steps: [{ kind: "text", text: UNSUPPORTED_DONE }],
      allowedTools: [],
    },
  ];
}

/** Every guard case, or those `DOCKET_REAL_HOSTS_CASES` names (case ids or a host name, comma-separated). */
export function selectedGuardCases(): GuardCase[] {
  const all = [...casesFor("claude"), ...casesFor("codex")];
  const filter = process.env.DOCKET_REAL_HOSTS_CASES;
  if (filter === undefined || filter.trim() === "") return all;
  const wanted = new Set(filter.split(",").map((id) => id.trim()));
  return all.filter((entry) => wanted.has(entry.id) || wanted.has(entry.host));
}
