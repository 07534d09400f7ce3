// A workspace's `.docket/` files other than the ledger, saved once and put back before a measured
// run, so every round of a figure starts from the same checkpoint (current, or N lines behind) and
// no round inherits what the previous one wrote (a moved checkpoint, captured evidence). Whatever
// files the checkpoint or snapshot format consists of, they are restored without knowing it.
import fs from "node:fs";
import path from "node:path";

export interface SavedDocketState {
  readonly folder: string;
  readonly ledgerPath: string;
  readonly ledgerBytes: number;
  /** Relative path → content of every other file under `.docket/`. */
  readonly files: ReadonlyMap<string, Buffer>;
}

function filesUnder(folder: string, skip: string): string[] {
  return (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile() || entry.isSymbolicLink() || entry.isSocket())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .filter((relative) => relative !== skip)
    .sort();
}

export function saveDocketState(workspace: string): SavedDocketState {
  const folder = path.join(workspace, ".docket");
  const ledgerPath = path.join(folder, "ledger.jsonl");
  const files = new Map<string, Buffer>();
  for (const relative of filesUnder(folder, "ledger.jsonl")) {
    const absolute = path.join(folder, relative);
    if (fs.lstatSync(absolute).isFile()) files.set(relative, fs.readFileSync(absolute));
  }
  return { folder, ledgerPath, ledgerBytes: fs.statSync(ledgerPath).size, files };
}

/** Puts the saved files back and removes any other; refuses when the ledger itself changed. */
export function restoreDocketState(saved: SavedDocketState): void {
  const size = fs.statSync(saved.ledgerPath).size;
  if (size !== saved.ledgerBytes) throw new Error(`the measured process changed ${saved.ledgerPath} (${saved.ledgerBytes} → ${size} bytes)`);
  for (const relative of filesUnder(saved.folder, "ledger.jsonl")) {
    if (!saved.files.has(relative)) fs.rmSync(path.join(saved.folder, relative), { force: true });
  }
  for (const [relative, content] of saved.files) {
    const absolute = path.join(saved.folder, relative);
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
    fs.writeFileSync(absolute, content);
  }
}
