// The one way a proposal is made, whoever asks (the CLI's `notebook propose`, an agent's MCP
// `propose_notebook_records`, later the Observer pipeline): open the notebook as it is now, bind
// the batch to its identity and language, preflight it and store the sealed result. Nothing is
// written to the notebook, and a refusal stores nothing at all.
import { randomUUID } from "node:crypto";
import type { NotebookIssue } from "./manifest";
import { openNotebook, type OpenNotebook } from "./notebookStore";
import { notebookView, prepareProposal, type PreflightIssue } from "./preflight";
import { decodePreparedSave, OBSERVER_SAVE_SCHEMA, type NotebookProposal, type PreparedRecord, type ProposalIssue, type ProposalOrigin } from "./proposal";
import { writeProposal } from "./proposalStore";
import { redactPersistedInput } from "../evidence/persistedText";

export interface MakeProposalInput {
  /** The workspace whose `.docket/notebook/proposals/` receives the proposal. */
  readonly workspace: string;
  /** The notebook folder, already through the path rules (notebookPath.ts). */
  readonly root: string;
  /** Null: the notebook's own default language. */
  readonly episodeLanguage: "en" | "ko" | null;
  readonly records: readonly PreparedRecord[];
  /** Who asks (an MCP client, a script); sealed into the proposal for the reviewer to see. */
  readonly origin: ProposalOrigin;
}

export type MakeProposalOutcome =
  | { readonly ok: true; readonly proposal: NotebookProposal; readonly file: string }
  /** The folder is not a usable notebook (missing, damaged, records invalid). */
  | { readonly ok: false; readonly stage: "notebook"; readonly issue: NotebookIssue }
  /** The batch is not an observer-save/v1 shape (e.g. an id with surrounding spaces). */
  | { readonly ok: false; readonly stage: "shape"; readonly issue: ProposalIssue }
  /** Preflight refused it (observer.md §6.2): one cause, with its diagnostics. */
  | { readonly ok: false; readonly stage: "preflight"; readonly issue: PreflightIssue; readonly notebook: OpenNotebook };

export function makeProposal(input: MakeProposalInput): MakeProposalOutcome {
  const opened = openNotebook(input.root);
  if (!opened.ok) return { ok: false, stage: "notebook", issue: opened.issue };
  const prepared = decodePreparedSave({
    observer_save: OBSERVER_SAVE_SCHEMA,
    proposal_id: `proposal-${randomUUID()}`,
    notebook_id: opened.value.manifest.notebook_id,
    root: opened.value.root,
    episode_language: input.episodeLanguage ?? opened.value.manifest.default_language,
    // The proposal is stored under .docket/ and may become Notebook files: no secret goes with it.
    records: redactPersistedInput(input.records).value,
  });
  if (!prepared.ok) return { ok: false, stage: "shape", issue: prepared.issue };
  const checked = prepareProposal(prepared.value, notebookView(opened.value), input.origin);
  if (!checked.ok) return { ok: false, stage: "preflight", issue: checked.issue, notebook: opened.value };
  return { ok: true, proposal: checked.proposal, file: writeProposal(input.workspace, checked.proposal) };
}
