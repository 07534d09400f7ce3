// The server `instructions` an MCP client hands to the model once per session: the protocol in a
// few lines. Tool descriptions carry the details; every result names the next legal operation.
export const DOCKET_MCP_INSTRUCTIONS = [
  "Docket governs file changes in this workspace and records every step in an append-only, hash-chained ledger.",
  "Protocol: decide → authorize → edit → land → reroute → verify.",
  "1. open_judgment (the question and the obligations that settle it), then conclude_judgment with your decision.",
  "2. authorize_change before touching any file: shell and file-edit tools are denied until then.",
  "3. Make exactly the authorized edits, then record_landing; Docket reconciles the changed paths with Git.",
  "4. The landing owes two judgments: open_judgment with purpose \"reroute-decision\" and conclude it, then purpose \"verification-decision\" on route \"route:claim-evidence-assessment\" and conclude it.",
  "Call status first and after any refusal; every result names the next legal operation and refusals say what to do. Only the user turns Docket on or off.",
  "Router: plan turns the task sentence into an explained plan (skills in order, context, checks, review board; writes nothing). Each seat awaiting a report is answered with review_report, one seat at a time, on the plan's basisSha256.",
  "Notebook: notebook reads the user's records; propose_notebook_records stores a batch for the user to review and approve in VS Code. Only the user saves it.",
  "Before you say the work is done: review your final answer with review_open (the exact draft, its claims, their sources) and review_submit (your honest judgment per claim and of the whole answer). Append the marker only a supported review returns; Docket's Stop check tells the user about any answer without one and about the work that remains.",
  "Observer (only while the user has it on): call observer_status; before your turn ends, nominate the tool results you relied on and record your reading and interpretation with one observer_commit (it also answers a pending Memo reconciliation or Review & Save). Never rewrite the user's hypotheses.",
].join("\n");
