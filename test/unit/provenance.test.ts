// Provenance beside the ledger: who wrote each batch and which evidence a conclusion nominated.
// Informative only, so damage reads as "unknown" and never blocks a write.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { provenanceFile, readProvenance, recordProvenance } from "../../server/workspace/provenanceStore";
import { WorkspaceLedger } from "../../server/workspace/workspaceLedger";

const sha = (char: string): string => char.repeat(64);

function tempFolder(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-provenance-")));
}

test("records round-trip by event hash; torn and foreign lines are skipped", () => {
  const folder = tempFolder();
  try {
    assert.equal(readProvenance(folder).size, 0, "no file: nothing known");
    recordProvenance(folder, { eventSha256s: [sha("a"), sha("b")], actor: { kind: "mcp", client: "claude-code 2.1", session: "s1" }, nominations: ["branch-result-0123456789abcdef"] });
    fs.appendFileSync(provenanceFile(folder), '{"format":"docket/provenance/v1","eventSha256s":["' + sha("c") + '"],"actor":{"kind":"x"}}\nnot json\n{"format":"docket/prov');
    recordProvenance(folder, { eventSha256s: [sha("d")], actor: { kind: "terminal", client: null, session: null }, nominations: [] });
    const known = readProvenance(folder);
    assert.deepEqual([...known.keys()].sort(), [sha("a"), sha("b"), sha("d")]);
    assert.equal(known.get(sha("a"))?.actor.client, "claude-code 2.1");
    assert.deepEqual(known.get(sha("b"))?.nominations, ["branch-result-0123456789abcdef"]);
    // The record written after a torn tail starts on a fresh line, so it stays readable.
    assert.equal(known.get(sha("d"))?.actor.kind, "terminal");
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("the Work view names who opened each frame when the writer declared itself", async () => {
  const folder = tempFolder();
  try {
    const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
    const actor = { kind: "vscode" as const, client: "Visual Studio Code 1.139.1", session: null };
    const editor = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, actor });
    editor.refresh();
    await editor.turnOn();
    await editor.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Which?", obligations: [{ obligationId: "o1", statement: "Decide." }] });
    assert.deepEqual(editor.workState().frames[0]?.drivenBy, actor);

    // A writer that does not declare itself leaves its frames "unknown".
    const anonymous = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true });
    anonymous.refresh();
    await anonymous.concludeJudgment({ disposition: "not-applicable", reason: "None.", basis: ["Seen."] });
    await anonymous.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Next?", obligations: [{ obligationId: "o1", statement: "Decide." }] });
    editor.refresh();
    const frames = editor.workState().frames;
    assert.deepEqual(frames.map((frame) => frame.drivenBy?.kind ?? null), ["vscode", null]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("a receipt's detail says who wrote it and which evidence its conclusion nominated", async () => {
  const folder = tempFolder();
  try {
    const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
    const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath, trusted: true, actor: { kind: "terminal", client: null, session: null } });
    ledger.refresh();
    await ledger.turnOn();
    const opened = ledger.receiptsPage(null, 10, "start").receipts[0];
    assert.ok(opened !== undefined);
    assert.deepEqual(ledger.receiptDetail(opened.eventSha256).provenance, { actor: { kind: "terminal", client: null, session: null }, nominations: [] });
    fs.rmSync(provenanceFile(folder));
    assert.equal(ledger.receiptDetail(opened.eventSha256).provenance, null, "a lost provenance file reads as unknown");
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test(".docket/ keeps its own .gitignore (state ignored, ledger trackable) and never replaces one", () => {
  const folder = tempFolder();
  try {
    recordProvenance(folder, { eventSha256s: [sha("a")], actor: { kind: "terminal", client: null, session: null }, nominations: [] });
    const ignore = fs.readFileSync(path.join(folder, ".docket", ".gitignore"), "utf8");
    assert.match(ignore, /^\*$/mu);
    assert.match(ignore, /^!ledger\.jsonl$/mu);
    fs.writeFileSync(path.join(folder, ".docket", ".gitignore"), "mine\n");
    recordProvenance(folder, { eventSha256s: [sha("b")], actor: { kind: "terminal", client: null, session: null }, nominations: [] });
    assert.equal(fs.readFileSync(path.join(folder, ".docket", ".gitignore"), "utf8"), "mine\n");
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test("reading is incremental: new records appear, a replaced file is read afresh", () => {
  const folder = tempFolder();
  try {
    const actor = { kind: "terminal" as const, client: null, session: null };
    recordProvenance(folder, { eventSha256s: [sha("a")], actor, nominations: [] });
    assert.deepEqual([...readProvenance(folder).keys()], [sha("a")]);
    recordProvenance(folder, { eventSha256s: [sha("b")], actor, nominations: [] });
    assert.deepEqual([...readProvenance(folder).keys()].sort(), [sha("a"), sha("b")]);
    // Replaced (not appended): a new file with different content, longer than what was read.
    const replacement = `${provenanceFile(folder)}.new`;
    fs.writeFileSync(replacement, fs.readFileSync(provenanceFile(folder), "utf8").replaceAll(sha("a"), sha("c")).replaceAll(sha("b"), sha("d")) + "\n\n\n");
    fs.renameSync(replacement, provenanceFile(folder));
    assert.deepEqual([...readProvenance(folder).keys()].sort(), [sha("c"), sha("d")]);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
