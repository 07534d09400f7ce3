// `docket ledger verify|anchor|replay|import-pi`, loaded by the dispatcher (main.ts) from its own
// bundle: the store, replay and the Pi importer, without the workspace ledger or the backend.
import fs from "node:fs";
import path from "node:path";
import { UsageError, parseArgs, stringFlag } from "./args";
import { locateLedger, type CliIo as Io } from "./locate";
import { replayEntries } from "../ledger/replay";
import { readReplayInputs } from "../ledger/replayInput";
import { DocketError, toDocketError } from "../errors";
import { anchorPathFor } from "../ledger/anchor";
import { LedgerStore } from "../ledger/store";
import { containmentRootFor } from "../workspace/ledgerPaths";
import { verifyLedgerFile } from "../workspace/ledgerVerify";

async function ledgerVerify(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(args, ["ledger", "workspace"], ["json"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { ledgerPath } = locateLedger(parsed, io);
  const anchorLeft = fs.existsSync(anchorPathFor(ledgerPath));
  let stat: fs.Stats | null = null;
  try {
    stat = fs.lstatSync(ledgerPath);
  } catch {
    // A missing ledger whose anchor remains is a truncation to nothing: verify reports it.
    if (!anchorLeft) throw new UsageError(`no ledger at ${ledgerPath}`, "docket.ledger-missing");
  }
  if (stat !== null && !stat.isFile() && !stat.isSymbolicLink()) throw new UsageError(`${ledgerPath} is not a file`, "docket.ledger-missing");
  const result = await verifyLedgerFile(ledgerPath);
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify(result)}\n`);
    return result.ok ? 0 : 1;
  }
  if (result.ok) {
    io.stdout(`ok: ${result.lines} lines, ${result.accepted} accepted entries, hash chains intact (${ledgerPath})\n`);
    if (result.tornTailBytes > 0) {
      io.stdout(`note: ${result.tornTailBytes} bytes of an interrupted write follow the last line; they are not an entry and will be set aside on the next append\n`);
    }
  } else if (result.firstFault !== null) {
    const fault = result.firstFault;
    io.stdout(`rejected: line ${fault.line}${fault.index === null ? "" : ` (entry ${fault.index})`}: ${fault.code}: ${fault.message}\n`);
  }
  if (result.anchor === "matched") io.stdout(`head anchor: matched (${anchorPathFor(ledgerPath)})\n`);
  else if (result.anchor === "none") io.stdout("head anchor: none yet — lines cut from the end cannot be noticed until Docket writes to this ledger (or `docket ledger anchor`)\n");
  if (result.git.state === "matched") io.stdout(result.git.note === null ? `git: matches the ledger committed at ${(result.git.commit ?? "").slice(0, 12)}\n` : `git: ${result.git.note}\n`);
  else if (result.git.state === "mismatched") io.stdout(`git: ${result.git.note ?? "differs from the committed ledger"}\n`);
  return result.ok ? 0 : 1;
}

async function ledgerAnchor(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArgs(args, ["ledger", "workspace"], ["json", "accept"]);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0] ?? ""}`);
  const { workspaceFolder, ledgerPath } = locateLedger(parsed, io);
  const store = new LedgerStore(ledgerPath, { root: containmentRootFor(workspaceFolder, ledgerPath) });
  try {
    const anchored = await store.anchorNow({ accept: parsed.flags.has("accept") });
    const result = { ok: true, path: ledgerPath, anchor: anchorPathFor(ledgerPath), lines: anchored.lines, previous: anchored.previous };
    if (parsed.flags.has("json")) io.stdout(`${JSON.stringify(result)}\n`);
    else if (anchored.lines === 0 && !store.exists) io.stdout(`removed the head anchor of the missing ledger ${ledgerPath}\n`);
    else io.stdout(`anchored ${anchored.lines} lines of ${ledgerPath} (previous anchor: ${anchored.previous})\n`);
    return 0;
  } catch (error) {
    const coded = toDocketError(error);
    if (parsed.flags.has("json")) io.stdout(`${JSON.stringify({ ok: false, code: coded.code, message: coded.message })}\n`);
    io.stderr(`docket: ${coded.code}: ${coded.message}\n`);
    return 1;
  }
}

function ledgerReplay(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, [], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError("ledger replay needs exactly one FILE");
  const file = path.resolve(io.cwd, parsed.positionals[0] as string);
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`, "docket.input-unreadable");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new UsageError(`${file} is not UTF-8 text`, "docket.input-unreadable");
  }
  const { inputs } = readReplayInputs(text);
  const replayer = replayEntries(inputs.map((input) => input.value));
  const dispositions = replayer.dispositions.map((disposition) =>
    disposition.status === "accepted"
      ? { index: disposition.index, status: "accepted" as const }
      : { index: disposition.index, status: "rejected" as const, code: disposition.code },
  );
  const scopes = replayer.scopes().map((scope) => ({ workScopeId: scope.workScopeId, status: scope.root.status, head: scope.head.scopeSequence }));
  if (parsed.flags.has("json")) {
    io.stdout(`${JSON.stringify({ dispositions, scopes })}\n`);
  } else {
    for (const disposition of replayer.dispositions) {
      const line = inputs[disposition.index]?.line ?? 0;
      io.stdout(
        disposition.status === "accepted"
          ? `${disposition.index}\tline ${line}\taccepted\n`
          : `${disposition.index}\tline ${line}\trejected\t${disposition.code}: ${disposition.message}\n`,
      );
    }
    for (const scope of scopes) io.stdout(`scope ${scope.workScopeId}\t${scope.status}\thead ${scope.head}\n`);
  }
  return replayer.firstRejected === null ? 0 : 1;
}

function ledgerImportPi(args: readonly string[], io: Io): number {
  const parsed = parseArgs(args, ["out"], ["json"]);
  if (parsed.positionals.length !== 1) throw new UsageError("ledger import-pi needs exactly one SESSION.jsonl");
  const file = path.resolve(io.cwd, parsed.positionals[0] as string);
  const out = stringFlag(parsed, "out");
  // Loaded only here: the Pi session reader builds the protocol's schemas, which verify does not need.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { formatImportReport, importPiSession } = require("../pi/piImport") as typeof import("../pi/piImport");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { LedgerExportError } = require("../pi/piLedgerExport") as typeof import("../pi/piLedgerExport");
  let outcome: ReturnType<typeof importPiSession>;
  try {
    outcome = importPiSession(file, out === undefined ? null : path.resolve(io.cwd, out));
  } catch (error) {
    if (error instanceof DocketError) throw new UsageError(error.message, error.code);
    if (error instanceof LedgerExportError) throw new UsageError(error.message, `docket.${error.code}`);
    throw error;
  }
  io.stdout(parsed.flags.has("json") ? `${JSON.stringify(outcome.report)}\n` : formatImportReport(outcome.report, out !== undefined));
  return outcome.exitCode;
}

/** One `docket ledger SUB …` command; asynchronous ones resolve to their exit code. */
export function runLedgerCommand(args: readonly string[], io: Io): number | Promise<number> {
  const [sub, ...subArgs] = args;
  if (sub === "verify") return ledgerVerify(subArgs, io);
  if (sub === "anchor") return ledgerAnchor(subArgs, io);
  if (sub === "replay") return ledgerReplay(subArgs, io);
  if (sub === "import-pi") return ledgerImportPi(subArgs, io);
  throw new UsageError(sub === undefined ? "ledger needs a subcommand: verify, anchor, replay or import-pi" : `unknown ledger subcommand ${sub}`);
}
