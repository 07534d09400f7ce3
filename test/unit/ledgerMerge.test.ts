// The ledger merge (server/team/ledgerMerge.ts through its file adapter) on hand-built ledgers:
// both directions give the same bytes, the result passes the real verifier, and every input the
// merge does not fully understand is a coded conflict that leaves ours untouched.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { canonicalize } from "../../server/ledger/canonicalJson";
import { closeScope, openScope } from "../support/envelopes";
import { tempFolder } from "../support/gitRepo";
import { ledgerText, type LedgerItem } from "../support/ledgerText";
import { mergeLedgerFiles } from "../../server/team/mergeLedgerFiles";
import { MergeConflict } from "../../server/team/ledgerMerge";
import { verifyLedgerBytes } from "../../server/workspace/ledgerVerify";
import type { GuardEntry } from "../../server/guard/guardEntry";

type Item = LedgerItem;
const encode = ledgerText;

const scopeId = (name: string): string => `scope:${Buffer.from(name).toString("hex").padEnd(24, "0").slice(0, 24)}`;

function closedScope(name: string): Item[] {
  const opened = openScope(scopeId(name));
  return [
    { stream: "developer/v8", entry: opened },
    { stream: "developer/v8", entry: closeScope(opened) },
  ];
}

function openOnly(name: string): Item[] {
  return [{ stream: "developer/v8", entry: openScope(scopeId(name)) }];
}

const reviewId = (n: number): string => `review:${n.toString(16).padStart(24, "0")}`;
const sha = (c: string): string => c.repeat(64);

function reviewOpened(n: number, workScopeId: string): GuardEntry {
  return {
    kind: "review-opened",
    reviewId: reviewId(n),
    workScopeId,
    draftSha256: sha("a"),
    draftBytes: 12,
    coversEntireAnswer: false,
    claims: [{ claimId: "c1", text: `claim ${n}` }],
    sources: [{ sourceId: "source:1", kind: "file", path: "a.txt", sha256: sha("b"), bytes: 3 }],
    session: null,
    openedAt: "2026-01-01T00:00:00.000Z",
  };
}

function reviewSubmitted(n: number, openedLineSha256: string): GuardEntry {
  return {
    kind: "review-submitted",
    reviewId: reviewId(n),
    openedLineSha256,
    claims: [{ claimId: "c1", verdict: "supported", citations: ["source:1"] }],
    response: { verdict: "supported", rationale: "because" },
    status: "supported",
    problems: [],
    submittedAt: "2026-01-01T00:01:00.000Z",
  };
}

/** Items followed by a review pair whose submission names the opened line's hash at its position. */
function withReview(items: readonly Item[], n: number, workScopeId: string): Item[] {
  const all = [...items, { stream: "docket/guard/v1" as const, entry: reviewOpened(n, workScopeId) }];
  const lines = encode(all).split("\n").filter((line) => line !== "");
  const openedSha = (JSON.parse(lines.at(-1) as string) as { lineSha256: string }).lineSha256;
  return [...all, { stream: "docket/guard/v1", entry: reviewSubmitted(n, openedSha) }];
}

interface Outcome {
  readonly code: number;
  readonly bytes: string;
  readonly error: MergeConflict | null;
}

/** Runs the merge on three texts; returns what ours holds afterwards. */
function merge(base: string, ours: string, theirs: string): Outcome {
  const dir = tempFolder("docket-merge-");
  try {
    const files = { base: path.join(dir, "base"), ours: path.join(dir, "ours"), theirs: path.join(dir, "theirs") };
    fs.writeFileSync(files.base, base);
    fs.writeFileSync(files.ours, ours);
    fs.writeFileSync(files.theirs, theirs);
    let error: MergeConflict | null = null;
    try {
      mergeLedgerFiles(files);
    } catch (caught) {
      if (!(caught instanceof MergeConflict)) throw caught;
      error = caught;
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), ["base", "ours", "theirs"], "no temporary file is left behind");
    return { code: error === null ? 0 : 1, bytes: fs.readFileSync(files.ours, "utf8"), error };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function verified(text: string): ReturnType<typeof verifyLedgerBytes> {
  const dir = tempFolder("docket-merge-verify-");
  try {
    const file = path.join(dir, "ledger.jsonl");
    fs.writeFileSync(file, text);
    return verifyLedgerBytes(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function assertConflict(base: string, ours: string, theirs: string, code: string): MergeConflict {
  const outcome = merge(base, ours, theirs);
  assert.equal(outcome.code, 1, `expected ${code}`);
  assert.equal(outcome.error?.code, code, outcome.error?.message);
  assert.equal(outcome.bytes, ours, "ours is untouched");
  return outcome.error as MergeConflict;
}

function assertMergesBothWays(base: string, ours: string, theirs: string): string {
  const one = merge(base, ours, theirs);
  const other = merge(base, theirs, ours);
  assert.equal(one.error, null, one.error?.message);
  assert.equal(other.error, null, other.error?.message);
  assert.equal(one.bytes, other.bytes, "both directions give the same bytes");
  const result = verified(one.bytes);
  assert.equal(result.ok, true, JSON.stringify(result.firstFault));
  return one.bytes;
}

const baseItems = closedScope("base");

test("two sides that each added closed scopes merge into one verified ledger, the same bytes both ways, prefix and entries untouched", () => {
  const base = encode(baseItems);
  const oursItems = [...baseItems, ...closedScope("ours")];
  const theirsItems = [...baseItems, ...closedScope("theirs"), ...closedScope("theirs2")];
  const ours = encode(oursItems);
  const theirs = encode(theirsItems);
  const merged = assertMergesBothWays(base, ours, theirs);
  assert.ok(merged.startsWith(base), "the common prefix is kept byte for byte");
  const lines = merged.split("\n").filter((line) => line !== "");
  assert.equal(lines.length, 8);
  const entries = lines.map((line) => JSON.stringify((JSON.parse(line) as { entry: unknown }).entry));
  const expected = [...oursItems, ...theirsItems.slice(baseItems.length)].map((item) => canonicalize(item.entry));
  assert.deepEqual([...entries].sort(), [...new Set(expected)].sort(), "every entry of both sides, none changed");
  // One side's lines are exactly as they were: the one whose first new line hash is smaller.
  assert.ok(merged.startsWith(ours) || merged.startsWith(theirs));
});

test("a side that added nothing: the result is the other side, byte for byte", () => {
  const base = encode(baseItems);
  const theirs = encode([...baseItems, ...closedScope("t")]);
  assert.equal(merge(base, base, theirs).bytes, theirs);
  assert.equal(merge(base, theirs, base).bytes, theirs);
  assert.equal(merge(base, theirs, theirs).bytes, theirs);
});

test("the longest common prefix counts, not only the base: lines both sides share after the base are kept once", () => {
  const base = encode(baseItems);
  const shared = [...baseItems, ...closedScope("shared")];
  const merged = assertMergesBothWays(base, encode([...shared, ...closedScope("o")]), encode([...shared, ...closedScope("t")]));
  assert.equal(merged.split("\n").filter((line) => line !== "").length, 8);
});

test("a side that ends with a scope it opened goes last, whatever the hashes say; both open is a conflict", () => {
  const base = encode(baseItems);
  const open = encode([...baseItems, ...openOnly("open")]);
  const closed = encode([...baseItems, ...closedScope("closed")]);
  const merged = assertMergesBothWays(base, open, closed);
  assert.ok(merged.startsWith(closed), "the closed side keeps its positions");
  const error = assertConflict(base, open, encode([...baseItems, ...openOnly("other")]), "docket.merge-both-open");
  assert.match(error.message, /two open scopes/u);
});

test("review pairs bound to their own opened line keep their positions; two such sides conflict", () => {
  const base = encode(baseItems);
  const reviewed = encode(withReview([...baseItems, ...closedScope("r")], 1, scopeId("r")));
  const plain = encode([...baseItems, ...closedScope("p")]);
  const merged = assertMergesBothWays(base, reviewed, plain);
  assert.ok(merged.startsWith(reviewed), "the side with the review pair keeps its positions");
  const mergedLines = merged.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as { lineSha256: string; stream: string; entry: { kind?: string; openedLineSha256?: string } });
  const openedLine = mergedLines.find((line) => line.entry.kind === "review-opened");
  const submittedLine = mergedLines.find((line) => line.entry.kind === "review-submitted");
  assert.equal(submittedLine?.entry.openedLineSha256, openedLine?.lineSha256, "the submission still names its opened line");
  assertConflict(base, reviewed, encode(withReview([...baseItems, ...closedScope("q")], 2, scopeId("q"))), "docket.merge-review-bound");
  // Bound review first and an open scope on the same side: no order works.
  const reviewedOpen = encode([...withReview([...baseItems, ...closedScope("r")], 1, scopeId("r")), ...openOnly("later")]);
  assertConflict(base, reviewedOpen, plain, "docket.merge-review-bound");
});

test("both sides appending to the same scope (developer/v8, or a review naming it) is a conflict", () => {
  const opened = openScope(scopeId("shared"));
  const prefix: Item[] = [...baseItems, { stream: "developer/v8", entry: opened }];
  const base = encode(prefix);
  const ours = encode([...prefix, { stream: "developer/v8", entry: closeScope(opened, "ours closed it") }]);
  const theirs = encode([...prefix, { stream: "developer/v8", entry: closeScope(opened, "theirs closed it") }]);
  const error = assertConflict(base, ours, theirs, "docket.merge-same-scope");
  assert.match(error.message, new RegExp(scopeId("shared"), "u"));
  // A review naming the scope on one side, the scope's close on the other.
  const reviewing = encode([...prefix, { stream: "docket/guard/v1", entry: reviewOpened(3, scopeId("shared")) }]);
  assertConflict(base, ours, reviewing, "docket.merge-same-scope");
});

test("both sides appending Observer entries is a conflict; one side's are merged", () => {
  const base = encode(baseItems);
  const observer = (n: number): Item => ({ stream: "observer/v1", entry: { customType: "observer.lifecycle", data: { protocol: "observer/v1", kind: "episode-opened", episodeId: `episode-${n}`, notebookId: "notebook-1", lang: "en" } } });
  const ours = encode([...baseItems, observer(1)]);
  assertConflict(base, ours, encode([...baseItems, observer(2)]), "docket.merge-observer-both");
  assertMergesBothWays(base, ours, encode([...baseItems, ...closedScope("t")]));
});

test("inputs the merge does not understand are coded conflicts and ours stays as it was", () => {
  const base = encode(baseItems);
  const ours = encode([...baseItems, ...closedScope("o")]);
  const theirs = encode([...baseItems, ...closedScope("t")]);
  // Tampered: one byte of an entry changed (hash mismatch), a line removed (chain), an edited hash.
  const at = theirs.lastIndexOf("User disabled Developer.");
  const edited = `${theirs.slice(0, at)}User disabled Developex.${theirs.slice(at + 24)}`;
  assert.notEqual(edited, theirs);
  assertConflict(base, ours, edited, "docket.merge-tampered");
  // An edited line of the shared prefix on one side: that side is tampered, not merely different.
  assertConflict(base, ours, theirs.replace("User disabled Developer.", "User disabled Developex."), "docket.merge-tampered");
  const theirLines = theirs.split("\n");
  assertConflict(base, ours, [...theirLines.slice(0, 2), ...theirLines.slice(3)].join("\n"), "docket.merge-tampered");
  // Torn: theirs cut inside its last line; ours without its final newline; a torn base.
  assertConflict(base, ours, theirs.slice(0, theirs.length - 10), "docket.merge-torn");
  assertConflict(base, ours.slice(0, -1), theirs, "docket.merge-torn");
  assertConflict(`${base}{"par`, ours, theirs, "docket.merge-torn");
  // The base is not a prefix of a side: theirs rewrote (here: dropped) the common prefix.
  const rewritten = encode([...closedScope("other-base"), ...closedScope("t")]);
  const prefixError = assertConflict(base, ours, rewritten, "docket.merge-prefix-rewritten");
  assert.match(prefixError.message, /theirs/u);
  assertConflict(encode([...baseItems, ...closedScope("gone")]), ours, theirs, "docket.merge-prefix-rewritten");
  // Unrelated histories: no base and no shared first line.
  assertConflict("", encode(closedScope("x")), encode(closedScope("y")), "docket.merge-unrelated");
  // Not a Docket ledger at all, on either side or as the base.
  assertConflict(base, ours, "hello\nworld\n", "docket.merge-not-ledger");
  assertConflict(base, '{"name":"package"}\n', theirs, "docket.merge-not-ledger");
  assertConflict("not a ledger\n", ours, theirs, "docket.merge-not-ledger");
  // Bytes that are not UTF-8 inside a line (a lenient decoder would rewrite them).
  const bad = Buffer.concat([Buffer.from(theirs.slice(0, -5)), Buffer.from([0xff]), Buffer.from(theirs.slice(-4))]).toString("latin1");
  assertConflict(base, ours, bad, "docket.merge-tampered");
});

test("a merged history replay would reject is refused (a side whose own entry replay rejects)", () => {
  const base = encode(baseItems);
  const opened = openScope(scopeId("twice"));
  // Theirs opens the same scope id twice: each line is valid, replay rejects the second open.
  const theirs = encode([...baseItems, { stream: "developer/v8", entry: opened }, { stream: "developer/v8", entry: closeScope(opened) }, { stream: "developer/v8", entry: opened }]);
  assertConflict(base, encode([...baseItems, ...closedScope("o")]), theirs, "docket.merge-replay-rejected");
});

test("lines longer than the reader's chunk are merged whole", () => {
  const base = encode(baseItems);
  const opened = openScope(scopeId("long"));
  const long = closeScope(opened, "x".repeat(3_000));
  const ours = encode([...baseItems, { stream: "developer/v8", entry: opened }, { stream: "developer/v8", entry: long }]);
  assertMergesBothWays(base, ours, encode([...baseItems, ...closedScope("t")]));
});

test("one endless line is refused once it passes the line bound, without gathering it whole", () => {
  const base = encode(baseItems);
  const endless = `${base}${"x".repeat(17 * 1024 * 1024)}\n`;
  const error = assertConflict(base, encode([...baseItems, ...closedScope("o")]), endless, "docket.merge-tampered");
  assert.match(error.message, /longer than/u);
});

test("property: any split of closed scopes between the sides merges the same both ways into a verified ledger", () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 3 }), fc.array(fc.boolean(), { minLength: 0, maxLength: 6 }), fc.boolean(), (sharedCount, split, lastOpen) => {
      const shared = [...baseItems];
      for (let index = 0; index < sharedCount; index += 1) shared.push(...closedScope(`shared${index}`));
      const ours = [...shared];
      const theirs = [...shared];
      split.forEach((toOurs, index) => (toOurs ? ours : theirs).push(...closedScope(`scope${index}`)));
      if (lastOpen) ours.push(...openOnly("still-open"));
      const merged = assertMergesBothWays(encode(baseItems), encode(ours), encode(theirs));
      assert.equal(merged.split("\n").filter((line) => line !== "").length, ours.length + theirs.length - shared.length);
    }),
    { numRuns: 40, seed: 17 },
  );
});
