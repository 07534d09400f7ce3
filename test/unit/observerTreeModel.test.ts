// The Observer view's own rows, pure: the root (mode, Episode, next step, what activating it does),
// the Issues node, one section per kind of working evidence with its rows (stance codicons, a
// hypothesis's own wording before its review), empty sections left out, unique ids, and when the
// status-bar item is worth showing.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import type { ObserverOverview } from "../../server/protocol/messages";
import { buildObserverTree, ObserverItemContext, observerWorthShowing, stanceIcon, type ObserverModelContext, type ObserverNode } from "../../extension/observerTreeModel";

/** English as written, placeholders filled: what the extension shows without a translation. */
const context: ObserverModelContext = {
  l10n: { t: (message, ...args) => message.replace(/\{(\d+)\}/gu, (_, index: string) => String(args[Number(index)])) },
  time: (iso) => `T(${iso})`,
};

const empty: ObserverOverview = {
  mode: "off",
  episode: { status: "empty", episodeId: null, notebookId: null, language: null, proposalId: null, summary: null },
  notebook: null,
  fingerprint: "f0",
  entries: 0,
  issues: [],
  issueCount: 0,
  staged: [],
  candidates: [],
  readings: [],
  observations: [],
  hypotheses: [],
  memos: [],
  lastMemo: null,
  pendingMemoRequest: null,
  unconsumedObservationIds: [],
  next: "Turn Observer on to start an Episode.",
};

const full: ObserverOverview = {
  ...empty,
  mode: "on",
  episode: { status: "reviewing-save", episodeId: "episode-1", notebookId: "notebook-1", language: "ko", proposalId: "proposal-9", summary: "Two records." },
  notebook: { root: "/notes", notebookId: "notebook-1" },
  entries: 12,
  issues: [{ index: 4, code: "observation.conflict", message: "a different observation reuses the id" }],
  issueCount: 3,
  staged: [
    { toolCallId: "call-1", toolName: "Read", host: "claude", isError: false, occurredAt: "2026-05-01T10:00:00.000Z" },
    { toolCallId: "call-2", toolName: "Bash", host: "claude", isError: true, occurredAt: "2026-05-01T10:01:00.000Z" },
  ],
  candidates: [{ candidateId: "candidate-1", episodeId: "episode-1", origin: "tool-result", label: "README excerpt", preview: "Docket makes…", capturedAt: "2026-05-01T10:02:00.000Z", read: true }],
  readings: [{ readId: "read-1", episodeId: "episode-1", sourceId: "source-1", title: "The README", summary: "It says what Docket does.", claims: 2, candidateIds: ["candidate-1"], observed: true }],
  observations: (["supports", "challenges", "refines", "boundary", "uncertain"] as const).map((stance, index) => ({
    observationId: `observation-${index}`,
    readId: "read-1",
    sourceId: index === 4 ? null : "source-1",
    stance,
    movement: "record-observation",
    rationale: `Rationale ${stance}`,
    inquiryIds: ["inquiry-1"],
    newHypothesis: index === 2 ? "A narrower claim" : null,
    consumed: index < 2,
  })),
  hypotheses: [
    {
      observationId: "observation-h1",
      inquiryId: "inquiry-1",
      original: "  Notes lose context after a restart  ",
      context: "seen twice",
      review: { assessment: "mixed", supportingClues: ["clue A"], challengingClues: ["clue B"], missingInformation: [], interpretationBoundary: "only this week" },
      consumed: false,
    },
    { observationId: "observation-h2", inquiryId: "inquiry-2", original: "Second idea", context: "", review: null, consumed: false },
  ],
  memos: [{ memoId: "memo-1", title: "Context capture", disposition: "created", revisionId: "revision-1", evidence: 3 }],
  lastMemo: { revisionId: "revision-1", summary: "One memo." },
  pendingMemoRequest: { requestId: "memo-request-1", observationIds: ["observation-2", "observation-3"] },
  unconsumedObservationIds: ["observation-2"],
  next: "Review the proposal and save it.",
};

function byId(nodes: readonly ObserverNode[], id: string): ObserverNode {
  const found = nodes.find((node) => node.id === id);
  assert.ok(found, `node ${id} among ${nodes.map((node) => node.id).join(", ")}`);
  return found;
}

function allNodes(nodes: readonly ObserverNode[]): ObserverNode[] {
  return nodes.flatMap((node) => [node, ...allNodes(node.children)]);
}

test("without an overview there is only the root, saying why", () => {
  const roots = buildObserverTree({ overview: null, error: "Docket's backend is not running." }, context);
  assert.equal(roots.length, 1);
  const root = roots[0];
  assert.equal(root?.label, "Observer");
  assert.equal(root?.description, "Docket's backend is not running.");
  assert.equal(root?.icon, "warning");
  assert.equal(root?.context, ObserverItemContext.rootUnavailable);
  assert.equal(root?.action, undefined, "nothing to toggle while the backend cannot answer");
});

test("an unused Observer shows the root only: every empty section is left out", () => {
  const roots = buildObserverTree({ overview: empty, error: null }, context);
  assert.deepEqual(
    roots.map((node) => node.id),
    ["observer/root"],
  );
  const root = roots[0];
  // The label is the mode alone, short enough for a default-width side bar; the Episode and the next step follow.
  assert.equal(root?.label, "Observer: off");
  assert.equal(root?.description, `Episode none yet · ${empty.next}`);
  assert.equal(root?.accessibilityLabel, `Observer: off, Episode none yet. ${empty.next}`);
  assert.equal(root?.icon, "eye-closed");
  assert.equal(root?.action, "observer-on");
  assert.equal(root?.context, ObserverItemContext.rootOff);
  assert.match(root?.tooltip ?? "", /Notebook: none selected/u);
  assert.match(root?.tooltip ?? "", /Activate to turn Observer on\./u);
});

test("a busy Episode shows every section in order, with counts", () => {
  const roots = buildObserverTree({ overview: full, error: null }, context);
  assert.deepEqual(
    roots.map((node) => [node.id, node.description]),
    [
      ["observer/root", `Episode reviewing save · ${full.next}`],
      ["observer/issues", "3"],
      ["observer/staged", "2"],
      ["observer/candidates", "1"],
      ["observer/readings", "1"],
      ["observer/observations", "5"],
      ["observer/hypotheses", "2"],
      ["observer/memos", "1"],
      ["observer/proposal", "1"],
    ],
  );
  const root = byId(roots, "observer/root");
  assert.equal(root.label, "Observer: on");
  assert.equal(root.icon, "eye");
  assert.equal(root.action, "observer-off");
  assert.equal(root.context, ObserverItemContext.rootOn);
  for (const line of ["Episode: episode-1 (reviewing save)", "Notebook: /notes (notebook-1)", "Output language: 한국어", "Replay issues: 3", "Next: Review the proposal and save it."]) {
    assert.ok(root.tooltip?.includes(line), `root tooltip has ${line}`);
  }
  for (const node of roots.slice(1)) assert.equal(node.expanded, true, `${node.id} opens expanded`);
});

test("the Issues node carries the warning icon, each issue's code and message, and how many are not listed", () => {
  const issues = byId(buildObserverTree({ overview: full, error: null }, context), "observer/issues");
  assert.equal(issues.icon, "warning");
  assert.equal(issues.context, ObserverItemContext.issues);
  assert.match(issues.tooltip ?? "", /3 replay issues \(2 not listed\)/u);
  assert.deepEqual(
    issues.children.map((issue) => [issue.label, issue.description, issue.icon, issue.tooltip]),
    [["observation.conflict", "a different observation reuses the id", "warning", "Entry 4: a different observation reuses the id (observation.conflict)"]],
  );
  assert.equal(buildObserverTree({ overview: { ...full, issues: [], issueCount: 0 }, error: null }, context).some((node) => node.id === "observer/issues"), false);
});

test("staged tool results show the tool, the time and a failed state", () => {
  const staged = byId(buildObserverTree({ overview: full, error: null }, context), "observer/staged");
  assert.equal(staged.label, "Waiting for nomination");
  assert.deepEqual(
    staged.children.map((row) => [row.label, row.description, row.icon, row.iconColor]),
    [
      ["Read", "T(2026-05-01T10:00:00.000Z)", "tools", undefined],
      ["Bash", "T(2026-05-01T10:01:00.000Z) · failed", "error", "testing.iconFailed"],
    ],
  );
  assert.match(staged.children[1]?.tooltip ?? "", /Tool call: call-2\nAgent: claude/u);
  assert.equal(staged.children[1]?.accessibilityLabel, "Bash, failed, at T(2026-05-01T10:01:00.000Z)");
});

test("candidates and readings: label, origin, claims count, the summary in the tooltip", () => {
  const roots = buildObserverTree({ overview: full, error: null }, context);
  const candidate = byId(roots, "observer/candidates").children[0];
  assert.equal(candidate?.label, "README excerpt");
  assert.equal(candidate?.description, "tool-result · read");
  assert.match(candidate?.tooltip ?? "", /Docket makes…$/u);
  const reading = byId(roots, "observer/readings").children[0];
  assert.equal(reading?.label, "The README");
  assert.equal(reading?.description, "2 claims · observed");
  assert.match(reading?.tooltip ?? "", /Source: source-1[\s\S]*It says what Docket does\./u);
  const single = buildObserverTree({ overview: { ...full, readings: [{ ...full.readings[0]!, claims: 1, observed: false }] }, error: null }, context);
  assert.equal(byId(single, "observer/readings").children[0]?.description, "1 claim");
});

test("observations: a codicon per stance, the rationale as label, the source as description", () => {
  const observations = byId(buildObserverTree({ overview: full, error: null }, context), "observer/observations").children;
  assert.deepEqual(
    observations.map((row) => [row.icon, row.label, row.description]),
    [
      ["pass", "Rationale supports", "source-1"],
      ["error", "Rationale challenges", "source-1"],
      ["edit", "Rationale refines", "source-1"],
      ["circle-slash", "Rationale boundary", "source-1"],
      // No source id: the reading it came from.
      ["question", "Rationale uncertain", "read-1"],
    ],
  );
  assert.equal(observations[0]?.iconColor, "testing.iconPassed");
  assert.equal(observations[1]?.iconColor, "testing.iconFailed");
  assert.match(observations[2]?.tooltip ?? "", /New hypothesis: A narrower claim/u);
  assert.match(observations[0]?.tooltip ?? "", /Reconciled into the Memo: yes/u);
  assert.match(observations[3]?.tooltip ?? "", /Stance: marks a boundary[\s\S]*Reconciled into the Memo: no/u);
  assert.equal(observations[1]?.accessibilityLabel, "challenges: Rationale challenges (source source-1)");
  assert.deepEqual(stanceIcon("boundary"), { icon: "circle-slash" });
});

test("hypotheses keep the person's own wording, untouched, before the review", () => {
  const hypotheses = byId(buildObserverTree({ overview: full, error: null }, context), "observer/hypotheses").children;
  const [reviewed, pending] = hypotheses;
  assert.equal(reviewed?.label, "  Notes lose context after a restart  ", "the wording exactly as given");
  assert.equal(reviewed?.description, "review: mixed");
  assert.equal(
    reviewed?.tooltip,
    ["  Notes lose context after a restart  ", "", "Context: seen twice", "", "review: mixed", "Supporting clues:", "• clue A", "Challenging clues:", "• clue B", "Boundary: only this week"].join("\n"),
  );
  assert.equal(pending?.label, "Second idea");
  assert.equal(pending?.description, "not reviewed yet");
  assert.equal(pending?.tooltip, ["Second idea", "", "not reviewed yet"].join("\n"));
});

test("memos list each memo and a pending reconciliation request; the proposal points at the rows below", () => {
  const roots = buildObserverTree({ overview: full, error: null }, context);
  const memos = byId(roots, "observer/memos");
  assert.deepEqual(
    memos.children.map((row) => [row.label, row.description, row.context]),
    [
      ["Context capture", "created · 3 pieces of evidence", ObserverItemContext.memo],
      ["Memo reconciliation requested", "2 observations", ObserverItemContext.memoRequest],
    ],
  );
  assert.match(memos.tooltip ?? "", /Last Memo revision: revision-1\n\nOne memo\./u);
  const proposal = byId(roots, "observer/proposal").children[0];
  assert.equal(proposal?.label, "Proposal proposal-9");
  assert.equal(proposal?.description, "review below");
  assert.match(proposal?.tooltip ?? "", /listed below in this view[\s\S]*Two records\./u);
  // A generated id is cut to its UUID's first block in the label, whole in the tooltip.
  const generated = "proposal-771696ae-43cd-42bb-9e12-1741803b0188";
  const long = byId(buildObserverTree({ overview: { ...full, episode: { ...full.episode, proposalId: generated } }, error: null }, context), "observer/proposal").children[0];
  assert.equal(long?.label, "Proposal 771696ae");
  assert.ok(long?.tooltip?.startsWith(`Proposal ${generated}\n`));
  // Once saved, the Episode keeps its proposal id but nothing waits for review.
  const settled = buildObserverTree({ overview: { ...full, episode: { ...full.episode, status: "settled", summary: null } }, error: null }, context);
  assert.equal(settled.some((node) => node.id === "observer/proposal"), false);
  // A request alone keeps the section.
  const requestOnly = buildObserverTree({ overview: { ...empty, pendingMemoRequest: { requestId: "memo-request-2", observationIds: ["o"] } }, error: null }, context);
  assert.deepEqual(byId(requestOnly, "observer/memos").children.map((row) => row.description), ["1 observation"]);
});

test("ids are unique even when the history repeats an id", () => {
  const repeated: ObserverOverview = { ...full, staged: [full.staged[0]!, full.staged[0]!], memos: [full.memos[0]!, full.memos[0]!] };
  const ids = allNodes(buildObserverTree({ overview: repeated, error: null }, context)).map((node) => node.id);
  assert.equal(new Set(ids).size, ids.length);
});

test("property: a section appears exactly when it has rows, and ids never repeat", () => {
  const item = <T>(value: T): fc.Arbitrary<T[]> => fc.array(fc.constant(value), { maxLength: 3 });
  fc.assert(
    fc.property(
      item(full.staged[0]!),
      item(full.candidates[0]!),
      item(full.readings[0]!),
      item(full.observations[0]!),
      item(full.hypotheses[0]!),
      item(full.memos[0]!),
      fc.boolean(),
      (staged, candidates, readings, observations, hypotheses, memos, issue) => {
        const overview: ObserverOverview = { ...empty, staged, candidates, readings, observations, hypotheses, memos, issues: issue ? full.issues : [], issueCount: issue ? 1 : 0 };
        const roots = buildObserverTree({ overview, error: null }, context);
        const shown = new Set(roots.map((node) => node.id));
        const expected: Array<[string, number]> = [
          ["observer/issues", overview.issues.length],
          ["observer/staged", staged.length],
          ["observer/candidates", candidates.length],
          ["observer/readings", readings.length],
          ["observer/observations", observations.length],
          ["observer/hypotheses", hypotheses.length],
          ["observer/memos", memos.length],
        ];
        for (const [id, count] of expected) {
          assert.equal(shown.has(id), count > 0, id);
          if (count > 0) assert.equal(byId(roots, id).children.length, count);
        }
        const ids = allNodes(roots).map((node) => node.id);
        assert.equal(new Set(ids).size, ids.length);
      },
    ),
    { numRuns: 200 },
  );
});

test("the status-bar item shows once a Notebook is configured or Observer was used", () => {
  assert.equal(observerWorthShowing(null, false), false);
  assert.equal(observerWorthShowing(empty, false), false);
  assert.equal(observerWorthShowing(empty, true), true);
  assert.equal(observerWorthShowing(null, true), true);
  assert.equal(observerWorthShowing({ ...empty, mode: "on" }, false), true);
  assert.equal(observerWorthShowing({ ...empty, entries: 2, episode: { ...empty.episode, status: "settled" } }, false), true);
});
