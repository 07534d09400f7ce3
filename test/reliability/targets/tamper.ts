// Tamper: on real ledgers of whole Developer cycles, edit (a byte in every field's key and value,
// and the newline), re-hash, remove, reorder, insert and truncate every line, cut inside every
// line, and rewrite the whole chain from every line; each must be found by `docket ledger verify
// --json` at the right line or range, and writers must refuse the damaged ledger and write
// nothing. Verify runs through the bundled CLI's own entry point (dist/docket.js `runCli`, the
// code `node dist/docket.js ledger verify --json` runs) for every tampering, and as a real
// process for a sample of each family.
//
// Truncation, the re-hashed last line and whole-chain rewrites keep a consistent hash chain: only
// the head anchor (`<ledger>.anchor`, line count, byte length, head line hash) can reveal them.
// Those assertions follow the anchor contract and are marked "[needs head anchor]" until the
// writers keep one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { ReliabilityContext, ReliabilityTarget } from "../target";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";
import { DocketError } from "../../../server/errors";
import { buildCycleLedger } from "../support/cycleLedger";
import { seededSamples, unit } from "../support/seeded";
import { tamperings, type Expectation } from "../support/tamperings";

interface BundledCli {
  runCli(argv: readonly string[], io: { stdout(text: string): void; stderr(text: string): void; cwd: string }): number | null | Promise<number>;
}

interface Verdict {
  readonly exitCode: number;
  readonly json: Record<string, unknown> | null;
  readonly text: string;
}

const ANCHOR_NOTE = "[needs head anchor]";
/** Ledgers: CI one (two whole cycles and a third begun, 44 lines, 3 scopes); --long several, every byte. */
const CI_LEDGERS = [{ operations: 23, clockStart: Date.UTC(2031, 0, 1) }];
const LONG_LEDGERS = [
  { operations: 23, clockStart: Date.UTC(2031, 0, 1) },
  { operations: 10, clockStart: Date.UTC(2032, 5, 1) },
  { operations: 4, clockStart: Date.UTC(2034, 8, 30) },
];
const STORE_REFUSALS = ["docket.ledger-corrupt", "docket.ledger-foreign", "docket.history-blocked", "docket.ledger-truncated", "docket.ledger-rewritten"];

async function verifyThroughBundle(cli: BundledCli, ledgerPath: string, cwd: string): Promise<Verdict> {
  let out = "";
  let err = "";
  const code = await cli.runCli(["ledger", "verify", "--json", "--ledger", ledgerPath], { stdout: (text) => (out += text), stderr: (text) => (err += text), cwd });
  if (typeof code !== "number") throw new Error("ledger verify gave no exit code");
  return { exitCode: code, json: parseJson(out), text: out + err };
}

function verifyAsProcess(cliPath: string, ledgerPath: string, cwd: string): Verdict {
  const run = spawnSync(process.execPath, [cliPath, "ledger", "verify", "--json", "--ledger", ledgerPath], { cwd, encoding: "utf8", timeout: 30_000 });
  return { exitCode: run.status ?? -1, json: parseJson(run.stdout), text: run.stdout + run.stderr };
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
}

function needsAnchor(expect: Expectation): boolean {
  return expect.kind !== "fault";
}

/** Null when the verdict meets the expectation; otherwise what is wrong. */
function judge(verdict: Verdict, expect: Expectation): string | null {
  const json = verdict.json;
  if (json === null) return `verify printed no JSON (exit ${verdict.exitCode}): ${verdict.text.slice(0, 200)}`;
  const fault = json.firstFault as { line?: unknown; code?: unknown; message?: unknown } | null | undefined;
  const said = `exit ${verdict.exitCode}, ok ${String(json.ok)}, firstFault ${fault === null || fault === undefined ? "null" : `line ${String(fault.line)} ${String(fault.code)}`}`;
  if (expect.kind === "no-anchor") {
    if (verdict.exitCode !== 0 || json.ok !== true) return `verify failed without the anchor (${said})`;
    return /anchor/iu.test(JSON.stringify(json)) ? null : `verify passed but does not say that no anchor was found (${said})`;
  }
  if (verdict.exitCode !== 1 || json.ok !== false || fault === null || fault === undefined) return `not detected (${said})`;
  if (expect.kind === "fault") {
    if (fault.line !== expect.line) return `detected at the wrong line: expected line ${expect.line} (${said})`;
    if (expect.codes !== undefined && !expect.codes.includes(String(fault.code))) return `detected with code ${String(fault.code)}, expected ${expect.codes.join(" or ")} (${said})`;
    return null;
  }
  const code = expect.kind === "truncated" ? "ledger-truncated" : "ledger-rewritten";
  if (fault.code !== code || fault.line !== expect.line) return `expected ${code} at line ${expect.line} (${said})`;
  if (expect.kind === "truncated") {
    const missing = json.missingLines as { from?: unknown; to?: unknown } | undefined;
    if (missing?.from !== expect.line || missing.to !== expect.to) return `expected missingLines {from: ${expect.line}, to: ${expect.to}}, got ${JSON.stringify(missing ?? null)} (${said})`;
    const ranges = expect.line === expect.to ? [`line ${expect.line}`, `lines ${expect.line}–${expect.to}`] : [`lines ${expect.line}–${expect.to}`];
    if (!ranges.some((range) => String(fault.message).includes(range))) return `the message does not name ${ranges.join(" or ")}: ${String(fault.message)}`;
  }
  return null;
}

/** A writer on the damaged copy must refuse with a code and leave every byte as it was. */
async function writerRefusal(copy: string, scratch: string, expect: Expectation): Promise<string | null> {
  const before = fs.readFileSync(copy);
  const anchor = `${copy}.anchor`;
  const anchorBefore = fs.existsSync(anchor) ? fs.readFileSync(anchor) : null;
  const ledger = new WorkspaceLedger({ workspaceFolder: scratch, ledgerPath: copy, trusted: true, lockTimeoutMs: 2_000 });
  ledger.refresh();
  let problem: string | null = null;
  try {
    await (ledger.history().activeScope === null ? ledger.turnOn() : ledger.turnOff("The tamper target tries to write."));
    problem = "a writer appended to the damaged ledger";
  } catch (error) {
    const code = error instanceof DocketError ? error.code : String(error);
    const wanted = expect.kind === "truncated" ? ["docket.ledger-truncated"] : expect.kind === "rewritten" ? ["docket.ledger-rewritten"] : STORE_REFUSALS;
    if (!wanted.includes(code)) problem = `a writer refused with ${code}, expected ${wanted.join(" or ")}`;
  }
  if (!fs.readFileSync(copy).equals(before)) problem = `${problem ?? "the writer refused"}, but the ledger bytes changed`;
  const anchorAfter = fs.existsSync(anchor) ? fs.readFileSync(anchor) : null;
  if ((anchorBefore === null) !== (anchorAfter === null) || (anchorBefore !== null && anchorAfter !== null && !anchorBefore.equals(anchorAfter))) {
    problem = `${problem ?? "the writer refused"}, but the anchor changed`;
  }
  return problem;
}

/** `node dist/docket.js off|on` on the damaged copy: exit 3 with the contract's code, nothing written. */
function cliRefusal(cliPath: string, copy: string, scratch: string, expect: Expectation): string | null {
  const before = fs.readFileSync(copy);
  const run = spawnSync(process.execPath, [cliPath, "off", "--ledger", copy, "--workspace", scratch], { cwd: scratch, encoding: "utf8", timeout: 30_000 });
  const code = /docket: (docket\.[a-z-]+):/u.exec(run.stderr)?.[1] ?? `exit ${String(run.status)}`;
  const wanted = expect.kind === "truncated" ? "docket.ledger-truncated" : "docket.ledger-rewritten";
  const problems = [
    ...(run.status === 3 && code === wanted ? [] : [`docket off answered ${code} (exit ${String(run.status)}), expected ${wanted}`]),
    ...(fs.readFileSync(copy).equals(before) ? [] : ["docket off changed the ledger"]),
  ];
  return problems.length === 0 ? null : problems.join("; ");
}

function linesOf(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    if (bytes[index] === 0x0a) {
      lines.push(bytes.subarray(start, index + 1));
      start = index + 1;
    }
  }
  return lines;
}

export const target: ReliabilityTarget = {
  name: "tamper",
  description: "edit, re-hash, remove, reorder, insert, truncate and cut every line of real ledgers and rewrite their chain: verify finds each at the right line or range, writers refuse and write nothing",
  async run(context: ReliabilityContext) {
    const failures: string[] = [];
    const cliPath = path.join(context.repoRoot, "dist", "docket.js");
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const cli = require(cliPath) as BundledCli;
    const specs = context.long ? LONG_LEDGERS : CI_LEDGERS;
    let faults = 0;
    let anchorPending = 0;
    let spawned = 0;
    for (const [number, spec] of specs.entries()) {
      const folder = path.join(context.tmp, `ledger-${number}`);
      const source = await buildCycleLedger(folder, spec);
      const other = await buildCycleLedger(path.join(context.tmp, `other-${number}`), { operations: spec.operations, clockStart: spec.clockStart + 86_400_000 });
      const original = fs.readFileSync(source);
      const lines = linesOf(original);
      const anchorSource = `${source}.anchor`;
      const anchor = fs.existsSync(anchorSource) ? fs.readFileSync(anchorSource) : null;
      const intact = await verifyThroughBundle(cli, source, context.tmp);
      if (intact.exitCode !== 0) failures.push(`ledger ${number} (seed ${context.seed}): the untouched ledger does not verify: ${intact.text.slice(0, 300)}`);
      const scopes = new Set(lines.map((line) => (JSON.parse(line.toString("utf8")) as { entry: { workScopeId: string } }).entry.workScopeId)).size;
      const values = seededSamples(unit, context.seed, 301 + number, 4_096);
      const all = tamperings(lines, linesOf(fs.readFileSync(other)), (salt) => values[salt % values.length] as number, { everyByte: context.long, everyCut: context.long });
      context.log(`ledger ${number}: ${lines.length} lines, ${scopes} scopes, ${original.length} bytes, anchor ${anchor === null ? "absent" : "present"}; ${all.length} tamperings`);
      const sampled = new Set<string>();
      const editedLines = new Set<number>();
      const work = path.join(context.tmp, `work-${number}`);
      const scratch = path.join(context.tmp, `scratch-${number}`);
      fs.mkdirSync(work, { recursive: true });
      for (const [index, tampering] of all.entries()) {
        faults += 1;
        const copy = path.join(work, "ledger.jsonl");
        for (const name of fs.readdirSync(work)) fs.rmSync(path.join(work, name), { recursive: true, force: true });
        fs.rmSync(scratch, { recursive: true, force: true });
        fs.mkdirSync(scratch, { recursive: true });
        fs.writeFileSync(copy, tampering.bytes);
        if (anchor !== null && tampering.keepAnchor) fs.writeFileSync(`${copy}.anchor`, anchor);
        const repro = `ledger ${number} (${spec.operations} operations from ${new Date(spec.clockStart).toISOString()}, ${lines.length} lines), seed ${context.seed}, tampering ${index}: ${tampering.label}`;
        const note = needsAnchor(tampering.expect) ? `${ANCHOR_NOTE} ` : "";
        const fail = (problem: string): void => {
          failures.push(`${note}${repro}: ${problem}`);
          if (note !== "") anchorPending += 1;
        };
        if (tampering.family === "rewrite" && anchor === null) {
          // The forgery must pass every chain check, or it is not the attack it claims to be.
          const plain = await verifyThroughBundle(cli, copy, context.tmp);
          if (plain.json?.ok !== true) failures.push(`${repro}: the rewritten chain is not self-consistent (generator error): ${plain.text.slice(0, 200)}`);
        }
        const problem = judge(await verifyThroughBundle(cli, copy, context.tmp), tampering.expect);
        if (problem !== null) fail(problem);
        if (!sampled.has(tampering.family) || (context.long && index % 997 === 0)) {
          sampled.add(tampering.family);
          spawned += 1;
          const asProcess = judge(verifyAsProcess(cliPath, copy, context.tmp), tampering.expect);
          if (asProcess !== null) fail(`node dist/docket.js ledger verify --json: ${asProcess}`);
          if (tampering.expect.kind === "truncated" || tampering.expect.kind === "rewritten") {
            const refusal = cliRefusal(cliPath, copy, scratch, tampering.expect);
            if (refusal !== null) fail(refusal);
          }
        }
        // Writers are tried on every tampering but the byte edits, where one per line is enough.
        const writerCheck = tampering.family !== "edit" || !editedLines.has(tampering.expect.kind === "fault" ? tampering.expect.line : -1);
        if (tampering.family === "edit" && tampering.expect.kind === "fault") editedLines.add(tampering.expect.line);
        if (writerCheck && tampering.expect.kind !== "no-anchor") {
          const refusal = await writerRefusal(copy, scratch, tampering.expect);
          if (refusal !== null) fail(refusal);
        }
      }
    }
    context.log(`${faults} tamperings, ${spawned} also through a real verify process; ${anchorPending} failures await the head anchor`);
    return { trials: specs.length, faults, failures };
  },
};
