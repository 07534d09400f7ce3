// The merge record (server/ledger/mergeRecord.ts): after a merge that renumbered this clone's
// anchored line, the store and the hooks' anchor check accept the merged ledger only when the
// record matches the anchor and the file exactly; every forged, stale or mismatched record leaves
// the anchor's own refusal in place, and the next anchor write removes the record.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { encodeLedgerLine } from "../../server/ledger/ledgerLine";
import { LedgerStore } from "../../server/ledger/store";
import { checkAnchor } from "../../server/hooks/anchorCheck";
import { inodeOf } from "../../server/ledger/anchor";
import { mergeRecordPathFor } from "../../server/ledger/mergeRecord";
import { mergeLedgerFiles } from "../../server/team/mergeLedgerFiles";
import { closeScope, openScope } from "../support/envelopes";
import { tempFolder } from "../support/gitRepo";
import { ledgerText, type LedgerItem } from "../support/ledgerText";

type Item = LedgerItem;
const encode = ledgerText;

function closedScope(id: string): Item[] {
  const opened = openScope(`scope:${id.padEnd(24, "0")}`);
  return [
    { stream: "developer/v8", entry: opened },
    { stream: "developer/v8", entry: closeScope(opened) },
  ];
}

const baseItems = closedScope("0000aa");
// Two candidate sides: whichever has the larger first-line hash is moved after the other.
const sideA = [...baseItems, ...closedScope("0000bb")];
const sideB = [...baseItems, ...closedScope("0000cc")];

interface Merged {
  readonly root: string;
  readonly ledgerPath: string;
  readonly result: string;
  readonly recordPath: string;
  dispose(): void;
}

/** A workspace whose anchored ledger is the side that the merge moves; the merge run as Git runs it. */
function mergedWorkspace(): Merged {
  const root = tempFolder("docket-merge-record-");
  const ledgerPath = path.join(root, ".docket", "ledger.jsonl");
  fs.mkdirSync(path.dirname(ledgerPath));
  const scratch = path.join(root, "git-temp");
  fs.mkdirSync(scratch);
  const files = { base: path.join(scratch, "base"), ours: path.join(scratch, "ours"), theirs: path.join(scratch, "theirs") };
  // Find the side that goes second: merge once without a work tree.
  fs.writeFileSync(files.base, encode(baseItems));
  fs.writeFileSync(files.ours, encode(sideA));
  fs.writeFileSync(files.theirs, encode(sideB));
  const probe = mergeLedgerFiles(files);
  const [ours, theirs] = probe.moved === "ours" ? [sideA, sideB] : [sideB, sideA];
  fs.writeFileSync(ledgerPath, encode(ours));
  const store = new LedgerStore(ledgerPath, { root });
  store.refresh();
  store.writeAnchorNow();
  fs.writeFileSync(files.ours, encode(ours));
  fs.writeFileSync(files.theirs, encode(theirs));
  const outcome = mergeLedgerFiles({ ...files, workTree: { root, ledgerPath } });
  assert.equal(outcome.moved, "ours");
  assert.equal(outcome.record.kind, "written");
  const result = fs.readFileSync(files.ours, "utf8");
  // Git writes the result to the work tree as a new file.
  fs.rmSync(ledgerPath);
  fs.writeFileSync(ledgerPath, result);
  return { root, ledgerPath, result, recordPath: mergeRecordPathFor(ledgerPath), dispose: () => fs.rmSync(root, { recursive: true, force: true }) };
}

function storeVerdict(merged: Merged): string {
  const store = new LedgerStore(merged.ledgerPath, { root: merged.root });
  store.refresh();
  return store.fault?.code ?? store.anchorState.kind;
}

function hookVerdict(merged: Merged): string {
  const fd = fs.openSync(merged.ledgerPath, "r");
  try {
    const checked = checkAnchor({ ledgerPath: merged.ledgerPath, root: merged.root, fd, size: fs.fstatSync(fd).size, ino: inodeOf(fd) });
    return checked.kind;
  } finally {
    fs.closeSync(fd);
  }
}

function editRecord(merged: Merged, edit: (record: Record<string, any>) => void): void {
  const record = JSON.parse(fs.readFileSync(merged.recordPath, "utf8")) as Record<string, any>;
  edit(record);
  fs.writeFileSync(merged.recordPath, `${JSON.stringify(record)}\n`);
}

test("a merge that renumbered the anchored line: the store and the hooks accept exactly the recorded result", () => {
  const merged = mergedWorkspace();
  try {
    assert.equal(storeVerdict(merged), "matched");
    assert.equal(hookVerdict(merged), "ok");
    // Without the record the same ledger is refused as rewritten: the record is what vouches.
    const saved = fs.readFileSync(merged.recordPath);
    fs.rmSync(merged.recordPath);
    assert.equal(storeVerdict(merged), "ledger-rewritten");
    assert.equal(hookVerdict(merged), "fault");
    fs.writeFileSync(merged.recordPath, saved);
    // The next anchor write names the merged ledger itself and removes the record.
    const store = new LedgerStore(merged.ledgerPath, { root: merged.root });
    store.refresh();
    store.writeAnchorNow();
    assert.equal(fs.existsSync(merged.recordPath), false);
    assert.equal(storeVerdict(merged), "matched");
  } finally {
    merged.dispose();
  }
});

/** A valid next line (a scope opened), written without Docket: the chain holds, the record does not. */
function appendValidLine(merged: Merged): void {
  const lines = fs.readFileSync(merged.ledgerPath, "utf8").split("\n").filter((line) => line !== "");
  const head = JSON.parse(lines.at(-1) as string) as { lineSha256: string };
  fs.appendFileSync(merged.ledgerPath, encodeLedgerLine(lines.length, head.lineSha256, "developer/v8", openScope(`scope:${"dd".padEnd(24, "0")}`)).text);
}

const attacks: Array<{ name: string; store: string; hook: string; attack: (merged: Merged) => void }> = [
  { name: "a record whose digest of the result is forged", store: "ledger-rewritten", hook: "ok", attack: (m) => editRecord(m, (r) => (r.after.sha256 = "0".repeat(64))) },
  { name: "a stale record (its `before` is another anchor)", store: "ledger-rewritten", hook: "fault", attack: (m) => editRecord(m, (r) => (r.before.lines += 1)) },
  { name: "a record with an unknown field", store: "ledger-rewritten", hook: "fault", attack: (m) => editRecord(m, (r) => (r.note = "trust me")) },
  { name: "a record pointing at another line as the anchored one", store: "ledger-rewritten", hook: "fault", attack: (m) => editRecord(m, (r) => ((r.anchoredLine.offset = 0), (r.anchoredLine.line = 0))) },
  { name: "a record claiming another link before the merge", store: "ledger-rewritten", hook: "fault", attack: (m) => editRecord(m, (r) => (r.anchoredLine.previousLineSha256Before = "1".repeat(64))) },
  { name: "a record that is not JSON", store: "ledger-rewritten", hook: "fault", attack: (m) => fs.writeFileSync(m.recordPath, "{") },
  { name: "a record that is a link", store: "ledger-rewritten", hook: "fault", attack: (m) => { const real = `${m.recordPath}.real`; fs.renameSync(m.recordPath, real); fs.symlinkSync(real, m.recordPath); } },
  { name: "a different file: a line appended after the merge without Docket", store: "ledger-rewritten", hook: "fault", attack: (m) => appendValidLine(m) },
  { name: "a different file: the merged result cut back to the old length", store: "ledger-rewritten", hook: "fault", attack: (m) => fs.truncateSync(m.ledgerPath, Buffer.byteLength(m.result) - Buffer.byteLength(m.result.split("\n").at(-2) as string) - 1) },
];

for (const { name, store, hook, attack } of attacks) {
  test(`merge record attack refused: ${name}`, () => {
    const merged = mergedWorkspace();
    try {
      attack(merged);
      const storeResult = storeVerdict(merged);
      // A cut file may also be read as a truncation; either way it is refused.
      if (store === "ledger-rewritten") assert.ok(storeResult === "ledger-rewritten" || storeResult === "ledger-truncated", storeResult);
      assert.equal(hookVerdict(merged), hook);
    } finally {
      merged.dispose();
    }
  });
}
