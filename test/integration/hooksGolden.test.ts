// Golden hook fixtures: for every host and event, a real `docket hook` child process reads the
// fixture's stdin inside a real Git workspace in a given Docket state and must print exactly the
// expected JSON with the expected exit code. Every output is also checked against the host's
// documented output schema, and the ledger must be byte-identical afterwards (hooks never write it).
// DOCKET_UPDATE_HOOK_FIXTURES=1 rewrites the expectations (review the diff before committing).
import { before, after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { WorkspaceLedger, type Clock } from "../../server/workspace/workspaceLedger";
import { HOST_OUTPUT_SCHEMAS } from "../../server/hooks/hostOutputSchemas";
import { HOOK_HOSTS, isHookEvent, type HookHost } from "../../server/hooks/hostInput";
import { tempFolder, tempRepo, type TempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const root = repoRoot();
const FIXTURES = path.join(root, "test", "fixtures", "hooks");
const HOOK_BUNDLE = path.join(root, "dist", "docket-hook.js");
const CLI_BUNDLE = path.join(root, "dist", "docket.js");
const UPDATE = process.env.DOCKET_UPDATE_HOOK_FIXTURES === "1";

const WorkspaceKind = z.enum(["off", "deciding", "authorized", "closed", "corrupt", "foreign"]);
type WorkspaceKind = z.infer<typeof WorkspaceKind>;

const Fixture = z.strictObject({
  description: z.string().min(1),
  workspace: WorkspaceKind,
  /** Options between `--host <host>` and the event, as Connect writes them (`--workspace $WORKSPACE`). */
  args: z.array(z.string()).optional(),
  input: z.unknown().optional(),
  stdin: z.string().optional(),
  expected: z
    .strictObject({
      exitCode: z.number().int(),
      /** The parsed stdout JSON, or null for "nothing on stdout". */
      stdout: z.unknown(),
      /** A regular expression stderr must match; absent means stderr must be empty. */
      stderr: z.string().optional(),
    })
    .optional(),
});
type Fixture = z.infer<typeof Fixture>;

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

interface Template {
  readonly repo: TempRepo;
  readonly scopeId: string;
}

const templates = new Map<WorkspaceKind, Template>();
const scratch: string[] = [];

async function buildTemplate(kind: WorkspaceKind): Promise<Template> {
  const repo = tempRepo({ files: { "src/a.ts": "export const a = 1;\n" } });
  const ledgerPath = path.join(repo.root, ".docket", "ledger.jsonl");
  let scopeId = "";
  if (kind === "foreign") {
    fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
    fs.writeFileSync(ledgerPath, "these are somebody else's notes\n");
  } else if (kind !== "off") {
    const ledger = new WorkspaceLedger({ workspaceFolder: repo.root, ledgerPath, trusted: true, clock: fixedClock() });
    ledger.refresh();
    scopeId = (await ledger.turnOn()).workScopeId ?? "";
    if (kind === "authorized") {
      await ledger.openJudgment({
        routeDefinitionId: "route:meaning-settlement",
        question: "What should change?",
        obligations: [{ obligationId: "obligation:a", statement: "The change is settled." }],
      });
      await ledger.concludeJudgment({ disposition: "not-applicable", reason: "Nothing needs deciding.", basis: ["The code already says it."] });
      await ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
    }
    if (kind === "closed") await ledger.turnOff("Done for today.");
    // A line someone appended by hand after Docket's last write.
    if (kind === "corrupt") fs.appendFileSync(ledgerPath, "{\"hand\":\"edited\"}\n");
  }
  return { repo, scopeId };
}

function substitute(value: unknown, from: string, to: string): unknown {
  if (typeof value === "string") return value.split(from).join(to);
  if (Array.isArray(value)) return value.map((entry) => substitute(entry, from, to));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, substitute(entry, from, to)]));
  }
  return value;
}

function placeholders(value: unknown, workspace: string, scopeId: string, reverse: boolean): unknown {
  const pairs: [string, string][] = [["$WORKSPACE", workspace]];
  if (scopeId !== "") pairs.push(["$SCOPE", scopeId]);
  let result = value;
  for (const [name, actual] of pairs) result = reverse ? substitute(result, actual, name) : substitute(result, name, actual);
  return result;
}

function readFixtures(): { host: HookHost; event: string; name: string; file: string; fixture: Fixture }[] {
  const fixtures = [];
  for (const host of HOOK_HOSTS) {
    const directory = path.join(FIXTURES, host);
    for (const name of fs.readdirSync(directory).filter((file) => file.endsWith(".json")).sort()) {
      const file = path.join(directory, name);
      const fixture = Fixture.parse(JSON.parse(fs.readFileSync(file, "utf8")));
      fixtures.push({ host, event: name.slice(0, name.indexOf("-")), name: name.slice(0, -".json".length), file, fixture });
    }
  }
  return fixtures;
}

function runHook(bundle: string, host: HookHost, event: string, stdin: string, cwd: string, args: readonly string[] = []): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bundle, "hook", "--host", host, ...args, event], { cwd, input: stdin, encoding: "utf8", timeout: 20_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function freshWorkspace(kind: WorkspaceKind): { folder: string; scopeId: string } {
  const template = templates.get(kind);
  if (template === undefined) throw new Error(`no template ${kind}`);
  const folder = tempFolder(`docket-hook-${kind}-`);
  fs.cpSync(template.repo.root, folder, { recursive: true });
  scratch.push(folder);
  // A copied ledger is another file: its head anchor must be bound to the copy, as a person
  // adopting a moved workspace does with `docket ledger anchor`.
  const ledgerPath = path.join(folder, ".docket", "ledger.jsonl");
  if (kind !== "corrupt" && fs.existsSync(`${ledgerPath}.anchor`)) adoptLedger(ledgerPath);
  return { folder, scopeId: template.scopeId };
}

function adoptLedger(ledgerPath: string): void {
  const result = spawnSync(process.execPath, [CLI_BUNDLE, "ledger", "anchor", "--ledger", ledgerPath], { encoding: "utf8", timeout: 20_000 });
  assert.equal(result.status, 0, result.stderr);
}

function ledgerBytes(folder: string): Buffer | null {
  try {
    return fs.readFileSync(path.join(folder, ".docket", "ledger.jsonl"));
  } catch {
    return null;
  }
}

before(async () => {
  for (const kind of WorkspaceKind.options) templates.set(kind, await buildTemplate(kind));
});

after(() => {
  for (const template of templates.values()) template.repo.dispose();
  for (const folder of scratch) fs.rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

const fixtures = readFixtures();

test("every host has a fixture for every handled event", () => {
  for (const host of HOOK_HOSTS) {
    const events = new Set(fixtures.filter((entry) => entry.host === host).map((entry) => entry.event));
    for (const event of ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop", "Notification"]) {
      assert.ok(events.has(event), `${host} has a ${event} fixture`);
    }
  }
});

for (const entry of fixtures) {
  test(`${entry.host}/${entry.name}: ${entry.fixture.description}`, () => {
    const { folder, scopeId } = freshWorkspace(entry.fixture.workspace);
    const stdin = entry.fixture.stdin ?? JSON.stringify(placeholders(entry.fixture.input, folder, scopeId, false));
    const before = ledgerBytes(folder);
    const args = (entry.fixture.args ?? []).map((arg) => placeholders(arg, folder, scopeId, false) as string);
    const result = runHook(HOOK_BUNDLE, entry.host, entry.event, stdin, folder, args);
    const after = ledgerBytes(folder);
    assert.deepEqual(after, before, "the hook never writes the ledger");
    const stdoutJson: unknown = result.stdout === "" ? null : JSON.parse(result.stdout);
    if (result.stdout !== "") assert.ok(result.stdout.endsWith("}\n") && result.stdout.split("\n").length === 2, "stdout holds exactly one JSON line");
    if (UPDATE) {
      const expected = { exitCode: result.status ?? -1, stdout: placeholders(stdoutJson, folder, scopeId, true) };
      const stderr = result.stderr === "" ? {} : { stderr: entry.fixture.expected?.stderr ?? "." };
      fs.writeFileSync(entry.file, `${JSON.stringify({ ...entry.fixture, expected: { ...expected, ...stderr } }, null, 2)}\n`);
      return;
    }
    const expected = entry.fixture.expected;
    assert.ok(expected !== undefined, "the fixture has an expectation");
    assert.equal(result.status, expected.exitCode, result.stderr);
    assert.deepEqual(stdoutJson, placeholders(expected.stdout, folder, scopeId, false));
    if (expected.stderr === undefined) assert.equal(result.stderr, "");
    else assert.match(result.stderr, new RegExp(expected.stderr, "u"));
    if (stdoutJson !== null && isHookEvent(entry.event)) {
      // The dialect the host documents: VS Code input through Claude's hooks is answered as VS Code.
      const dialect = entry.name.endsWith("vscode-dialect") ? "vscode" : entry.host;
      const checked = HOST_OUTPUT_SCHEMAS[dialect][entry.event].safeParse(stdoutJson);
      assert.ok(checked.success, `output matches ${dialect}'s documented ${entry.event} schema: ${checked.success ? "" : checked.error.message}`);
    }
  });
}

test("dist/docket.js hook answers exactly like dist/docket-hook.js", () => {
  for (const host of HOOK_HOSTS) {
    const entry = fixtures.find((candidate) => candidate.host === host && candidate.name === "PreToolUse-deny-shell");
    assert.ok(entry !== undefined);
    const { folder, scopeId } = freshWorkspace(entry.fixture.workspace);
    const stdin = JSON.stringify(placeholders(entry.fixture.input, folder, scopeId, false));
    const lean = runHook(HOOK_BUNDLE, host, entry.event, stdin, folder);
    const full = runHook(CLI_BUNDLE, host, entry.event, stdin, folder);
    assert.deepEqual({ status: full.status, stdout: full.stdout }, { status: lean.status, stdout: lean.stdout });
  }
});
