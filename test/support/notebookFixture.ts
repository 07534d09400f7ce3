// A real Notebook in a temp workspace (set up by Docket, optionally holding the six-record
// baseline) and proposals stored for it, for the publication and recovery tests.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { countingSteps } from "../../server/notebook/crashSeam";
import { openNotebook, setupNotebook } from "../../server/notebook/notebookStore";
import { notebookView, prepareProposal } from "../../server/notebook/preflight";
import { OBSERVER_SAVE_SCHEMA, type PreparedRecord } from "../../server/notebook/proposal";
import { writeProposal } from "../../server/notebook/proposalStore";
import { publishProposal } from "../../server/notebook/publication";
import { sha256Hex } from "../../server/ledger/canonicalJson";
import { BASELINE, EXTERNAL_SOURCE, MEMO_ONE, ZETTEL_NEW, promotedZettel } from "./notebookRecords";

export interface NotebookFixture {
  readonly root: string;
  readonly workspace: string;
  readonly notebookId: string;
}

let counter = 0;
/** Deterministic `<prefix>-<uuid v4 shape>` ids, unique within the test process. */
export function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}-00000000-0000-4000-8000-${counter.toString(16).padStart(12, "0")}`;
}

export function notebookFixture(options: { readonly baseline?: boolean; readonly prefix?: string } = {}): NotebookFixture {
  const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? "docket-notebook-")));
  const setup = setupNotebook(path.join(workspace, "notebook"), "en");
  assert.ok(setup.ok, JSON.stringify(setup));
  const root = setup.value.notebook.root;
  if (options.baseline ?? true) for (const name of fs.readdirSync(BASELINE)) fs.copyFileSync(path.join(BASELINE, name), path.join(root, "records", name));
  return { root, workspace, notebookId: setup.value.notebook.manifest.notebook_id };
}

/** Preflights `records` against the Notebook as it is now and stores the proposal; returns its id. */
export function proposeRecords(fx: NotebookFixture, records: readonly PreparedRecord[]): string {
  const opened = openNotebook(fx.root);
  assert.ok(opened.ok, JSON.stringify(opened));
  const proposalId = nextId("proposal");
  const made = prepareProposal(
    { observer_save: OBSERVER_SAVE_SCHEMA, proposal_id: proposalId, notebook_id: fx.notebookId, root: fx.root, episode_language: "en", records: [...records] },
    notebookView(opened.value),
  );
  assert.ok(made.ok, JSON.stringify(made));
  writeProposal(fx.workspace, made.proposal);
  return proposalId;
}

/** The valid external-source fixture record under another id. */
export function externalSource(id: string): string {
  return fs.readFileSync(EXTERNAL_SOURCE, "utf8").replace("source-00000000-0000-4000-8000-000000000101", id);
}

/** Update memo …004 to promoted and create the zettel promoted from it: two records, both needed for a valid graph. */
export function pairedBatch(fx: NotebookFixture): PreparedRecord[] {
  const memo = fs.readFileSync(path.join(fx.root, "records", "memo-incubating.md"), "utf8");
  return [
    { operation: "update", record_id: MEMO_ONE, expected_sha256: sha256Hex(memo), markdown: memo.replace("observer_status: incubating", "observer_status: promoted") },
    { operation: "create", record_id: ZETTEL_NEW, markdown: promotedZettel() },
  ];
}

/** Every file in `records/` by name, with its text. */
export function recordFiles(root: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const name of fs.readdirSync(path.join(root, "records")).sort()) result[name] = fs.readFileSync(path.join(root, "records", name), "utf8");
  return result;
}

/**
 * The numbered disk changes (crash-seam steps, `DOCKET_NOTEBOOK_KILL_AT=publish:N`) a publication
 * of this batch makes, learned by publishing it on a twin fixture in this process.
 */
export function publishSteps(batch: (fx: NotebookFixture) => PreparedRecord[]): string[] {
  const twin = notebookFixture({ prefix: "docket-notebook-steps-" });
  const labels: string[] = [];
  const result = publishProposal({ workspace: twin.workspace, proposalId: proposeRecords(twin, batch(twin)), approved: true, steps: countingSteps("publish", (_index, label) => labels.push(label)) });
  assert.ok(result.ok, JSON.stringify(result));
  return labels;
}

/** The step number (1-based) of the `occurrence`-th step whose label matches. */
export function stepOf(labels: readonly string[], pattern: RegExp, occurrence = 0): number {
  const steps = labels.flatMap((label, index) => (pattern.test(label) ? [index + 1] : []));
  const step = steps[occurrence];
  assert.ok(step !== undefined, `no step matches ${String(pattern)}: ${labels.join(" | ")}`);
  return step;
}
