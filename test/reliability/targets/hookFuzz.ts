// Hook input fuzz: inputs of each host — mutations of the real golden fixtures (tool names, cwd,
// tool input, dropped and retyped fields, dialect switches, truncation) plus random JSON and text —
// with the arguments Connect writes (and broken ones), answered in process by the entry the hook
// bundle runs (hookOutcome). Properties: no crash, no call over 2 s, exit 0 or 1 only (never 2),
// every refusal carries a docket.* code, output matches the host's documented schema, the ledger is
// never written, and a PreToolUse for a gated workspace is never let through unless the tool is
// known read-only (the hosts' documented read-only tools, Docket's own, the user's additions).
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { hookOutcome } from "../../../server/hooks/hookCli";
import { HookInputError, isHookEvent, parseHookInput, type HookHost } from "../../../server/hooks/hostInput";
import { HOST_OUTPUT_SCHEMAS } from "../../../server/hooks/hostOutputSchemas";
import { TOOL_TABLES, type HookDialect } from "../../../server/hooks/toolClassification";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";
import { DOCUMENTED_TOOLS, docketToolNames } from "../../support/hostTools";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";

const HOSTS: readonly HookHost[] = ["claude", "codex", "vscode"];
const EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "SessionStart", "Stop", "Notification"] as const;
const USER_READ_ONLY = "mcp__github__get_issue";
const MAX_CASE_MS = 2_000;

function git(cwd: string, args: readonly string[]): void {
  execFileSync("git", ["-C", cwd, ...args], { stdio: "ignore" });
}

function makeRepo(folder: string): string {
  fs.mkdirSync(path.join(folder, "src"), { recursive: true });
  git(folder, ["init", "--quiet"]);
  fs.writeFileSync(path.join(folder, "src", "a.ts"), "export const a = 1;\n");
  return fs.realpathSync(folder);
}

/** What the oracle accepts as "may run while gated", independent of Docket's classifier. */
function allowlisted(dialect: HookDialect, toolName: string, extras: ReadonlySet<string>): boolean {
  const host = dialect;
  const documented = DOCUMENTED_TOOLS[host].some((tool) => tool.readOnly && tool.name === toolName);
  // VS Code also runs Claude's hooks and may name Docket's tools the Claude way.
  const docket = [...docketToolNames(host), ...(host === "vscode" ? docketToolNames("claude") : [])].includes(toolName);
  const table = TOOL_TABLES[dialect];
  const extra = extras.has(toolName) && !table.shell.has(toolName) && !table.edit.has(toolName);
  return documented || docket || extra;
}

interface Fixture {
  readonly host: HookHost;
  readonly event: string;
  readonly input: Record<string, unknown> | null;
  readonly stdin: string | null;
}

function loadFixtures(repoRoot: string, workspace: string): Fixture[] {
  const fixtures: Fixture[] = [];
  for (const host of HOSTS) {
    const folder = path.join(repoRoot, "test", "fixtures", "hooks", host);
    for (const name of fs.readdirSync(folder).filter((file) => file.endsWith(".json"))) {
      const text = fs.readFileSync(path.join(folder, name), "utf8").split("$WORKSPACE").join(workspace);
      const raw = JSON.parse(text) as { input?: unknown; stdin?: string };
      const input = typeof raw.input === "object" && raw.input !== null && !Array.isArray(raw.input) ? (raw.input as Record<string, unknown>) : null;
      fixtures.push({ host, event: name.slice(0, name.indexOf("-")), input, stdin: raw.stdin ?? null });
    }
  }
  return fixtures;
}

interface ArgChoice {
  readonly host: HookHost;
  readonly event: string;
  /** "gated" / "off": `--workspace` of that workspace; "none": an older command; "relative" / "broken": a bad command line. */
  readonly configured: string;
  readonly readOnly: readonly string[];
  readonly processCwd: string;
}

type InputChoice =
  | { readonly kind: "fixture"; readonly index: number; readonly change: Readonly<Record<string, unknown>> }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "cut"; readonly index: number; readonly cut: number };

interface Case {
  readonly host: HookHost;
  readonly event: string;
  readonly argv: readonly string[];
  readonly stdin: string;
  readonly cwd: string;
  /** The gated workspace is one of the call's anchors (configured, or the input's cwd or file path). */
  readonly gatedAnchor: boolean;
  readonly extras: ReadonlySet<string>;
}

export const target: ReliabilityTarget = {
  name: "hookFuzz",
  description: "host hook inputs (mutated fixtures, random JSON and text) through the hook entry: no crash or hang, coded refusals, documented outputs, and PreToolUse never lets a non-allowlisted tool through in a gated workspace",
  async run(context: ReliabilityContext): Promise<TargetTally> {
    const failures: string[] = [];
    const root = fs.realpathSync(context.tmp);
    const gated = makeRepo(path.join(root, "gated"));
    const off = makeRepo(path.join(root, "off"));
    const ledger = new WorkspaceLedger({ workspaceFolder: gated, ledgerPath: path.join(gated, ".docket", "ledger.jsonl"), trusted: true });
    ledger.refresh();
    await ledger.turnOn();
    const ledgerPath = path.join(gated, ".docket", "ledger.jsonl");
    const ledgerBytes = fs.readFileSync(ledgerPath);
    const nested = path.join(gated, "nested");
    fs.mkdirSync(nested);
    git(nested, ["init", "--quiet"]);
    fs.symlinkSync(path.join(gated, "src"), path.join(off, "link"));
    const fixtures = loadFixtures(context.repoRoot, gated);
    const runtimeDir = path.join(context.repoRoot, "dist");

    const gatedLocations = [gated, path.join(gated, "src"), path.join(gated, "src", "a.ts"), nested, path.join(gated, "does", "not", "exist"), path.join(off, "link"), path.join(off, "link", "a.ts")];
    const otherLocations = [off, path.join(off, "src", "a.ts"), root, "/", "relative/dir", "", "\u0000", "file:///etc/passwd", "~"];
    const names = [...new Set(HOSTS.flatMap((host) => [...DOCUMENTED_TOOLS[host].map((tool) => tool.name), ...docketToolNames(host)]))];

    const location = fc.oneof(fc.constantFrom(...gatedLocations), fc.constantFrom(...otherLocations), fc.string());
    const toolName = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...names, USER_READ_ONLY) }, { weight: 2, arbitrary: fc.string() }, { weight: 1, arbitrary: fc.jsonValue() });
    const patch = location.map((where) => `*** Begin Patch\n*** Update File: ${where}\n@@\n-a\n+b\n*** End Patch\n`);
    const toolInput = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue(),
      fc.record({ file_path: location }),
      fc.record({ command: patch }),
      fc.record({ filePath: location, files: fc.array(location, { maxLength: 3 }) }),
      fc.dictionary(fc.constantFrom("path", "notebook_path", "cwd", "workdir", "uri", "x"), location),
    );
    const fixtureIndex = fc.nat({ max: fixtures.length - 1 });
    const mutation = fc.record(
      {
        toolName,
        cwd: fc.oneof(location, fc.jsonValue()),
        toolInput,
        drop: fc.subarray(["session_id", "sessionId", "cwd", "hook_event_name", "hookEventName", "tool_name", "tool_input", "tool_use_id", "prompt"]),
        extra: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        camel: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    const stdinArbitrary = fc.oneof(
      { weight: 8, arbitrary: fc.tuple(fixtureIndex, mutation).map(([index, change]) => ({ kind: "fixture" as const, index, change })) },
      { weight: 1, arbitrary: fc.json().map((text) => ({ kind: "text" as const, text })) },
      { weight: 1, arbitrary: fc.string({ unit: "binary" }).map((text) => ({ kind: "text" as const, text })) },
      { weight: 1, arbitrary: fc.tuple(fixtureIndex, fc.nat()).map(([index, cut]) => ({ kind: "cut" as const, index, cut })) },
    );
    const argvArbitrary = fc.record({
      host: fc.constantFrom<HookHost>(...HOSTS),
      event: fc.oneof({ weight: 7, arbitrary: fc.constant("PreToolUse") }, { weight: 3, arbitrary: fc.constantFrom(...EVENTS) }),
      configured: fc.oneof({ weight: 6, arbitrary: fc.constant("gated") }, { weight: 3, arbitrary: fc.constant("off") }, { weight: 1, arbitrary: fc.constantFrom("none", "relative", "broken") }),
      readOnly: fc.oneof({ weight: 4, arbitrary: fc.constant<readonly string[]>([]) }, { weight: 1, arbitrary: fc.constantFrom<readonly string[]>([USER_READ_ONLY], ["Bash"], ["not a name"]) }),
      processCwd: fc.constantFrom(gated, off, root),
    });

    const build = (args: ArgChoice, input: InputChoice): Case => {
      const { host, event, configured, readOnly, processCwd } = args;
      const argv = ["hook", "--host", host];
      if (configured === "gated") argv.push("--workspace", gated);
      else if (configured === "off") argv.push("--workspace", off);
      else if (configured === "relative") argv.push("--workspace", "gated");
      else if (configured === "broken") argv.push("--workspace");
      for (const name of readOnly) argv.push("--read-only-tool", name);
      argv.push(event);
      let stdin: string;
      let inputCwd: unknown;
      let inputPath: unknown;
      if (input.kind === "text") {
        stdin = input.text;
      } else {
        const fixture = fixtures[input.index] as Fixture;
        const base: Record<string, unknown> = fixture.input === null ? {} : { ...fixture.input };
        if (input.kind === "cut") {
          const text = fixture.stdin ?? JSON.stringify(base);
          stdin = text.slice(0, input.cut % (text.length + 1));
        } else {
          const change = input.change;
          const record: Record<string, unknown> = { ...base };
          if ("toolName" in change) record["tool_name"] = change["toolName"];
          if ("cwd" in change) record["cwd"] = change["cwd"];
          if ("toolInput" in change) record["tool_input"] = change["toolInput"];
          for (const key of (change["drop"] as string[] | undefined) ?? []) delete record[key];
          Object.assign(record, (change["extra"] as Record<string, unknown> | undefined) ?? {});
          if (change["camel"] === true && typeof record["session_id"] === "string") {
            record["sessionId"] = record["session_id"];
            delete record["session_id"];
            record["hookEventName"] = record["hook_event_name"];
            delete record["hook_event_name"];
          }
          stdin = fixture.input === null && fixture.stdin !== null ? fixture.stdin : JSON.stringify(record);
        }
      }
      try {
        const parsed = JSON.parse(stdin) as Record<string, unknown> | null;
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
          inputCwd = parsed["cwd"];
          const tool = parsed["tool_input"];
          inputPath = typeof tool === "object" && tool !== null ? (tool as Record<string, unknown>)["file_path"] : undefined;
        }
      } catch {
        // not JSON: only the configured workspace and the process cwd count
      }
      const gatedAnchor =
        configured === "gated" ||
        (typeof inputCwd === "string" && gatedLocations.includes(inputCwd)) ||
        (typeof inputPath === "string" && gatedLocations.includes(inputPath)) ||
        // An input Docket cannot read falls back to the process's cwd.
        (processCwd === gated && (typeof inputCwd !== "string" || !path.isAbsolute(inputCwd)));
      return { host, event, argv, stdin, cwd: processCwd, gatedAnchor, extras: new Set(readOnly) };
    };

    let cases = 0;
    let gateAttempts = 0;
    const check = async (item: Case): Promise<string | null> => {
      cases += 1;
      const started = Date.now();
      let outcome;
      try {
        // In-process capture: thousands of calls must not start a detached process each.
        outcome = await hookOutcome(item.argv, item.stdin, item.cwd, { runtimeDir, captureInProcess: true, now: () => "2031-01-01T00:00:00.000Z" });
      } catch (error) {
        return `crashed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`;
      }
      const elapsed = Date.now() - started;
      if (elapsed > MAX_CASE_MS) return `took ${elapsed} ms`;
      if (outcome.exitCode !== 0 && outcome.exitCode !== 1) return `exit ${outcome.exitCode} (only 0 and 1 are allowed; 2 blocks on some hosts)`;
      if (outcome.exitCode === 1) {
        if (outcome.stdout !== "") return "exit 1 with output";
        if (!/^docket hook: docket\.[a-z-]+: /u.test(outcome.stderr)) return `an uncoded refusal: ${outcome.stderr.slice(0, 200)}`;
        if (item.event === "PreToolUse") return `PreToolUse ended without a decision: ${outcome.stderr.slice(0, 200)}`;
        return null;
      }
      let output: unknown;
      try {
        output = JSON.parse(outcome.stdout);
      } catch {
        return `stdout is not JSON: ${outcome.stdout.slice(0, 200)}`;
      }
      let dialect: HookDialect = item.host;
      let parsedTool: string | null = null;
      try {
        const parsed = parseHookInput(item.host, "PreToolUse", item.stdin);
        dialect = parsed.dialect;
        parsedTool = parsed.toolName;
      } catch (error) {
        if (!(error instanceof HookInputError)) return `the input parser threw ${String(error)}`;
      }
      if (isHookEvent(item.event)) {
        const checked = HOST_OUTPUT_SCHEMAS[dialect][item.event].safeParse(output);
        if (!checked.success) return `output does not match ${dialect}'s ${item.event} schema: ${outcome.stdout.slice(0, 200)}`;
      }
      if (item.event !== "PreToolUse") return null;
      const denied = (output as { hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string } }).hookSpecificOutput?.permissionDecision === "deny";
      const reason = (output as { hookSpecificOutput?: { permissionDecisionReason?: string } }).hookSpecificOutput?.permissionDecisionReason ?? "";
      if (denied && reason.startsWith("Docket denied this tool call: it could not decide") && !/\(docket\.[a-z-]+: /u.test(reason)) return `an uncoded fail-closed denial: ${reason.slice(0, 200)}`;
      if (item.gatedAnchor) {
        const argvOk = !item.argv.includes("Bash") && !item.argv.includes("not a name") && !item.argv.includes("gated") && item.argv[item.argv.length - 2] !== "--workspace";
        const mayRun = argvOk && parsedTool !== null && allowlisted(dialect, parsedTool, item.extras);
        if (!mayRun) {
          gateAttempts += 1;
          if (!denied) return `PreToolUse let ${JSON.stringify(parsedTool)} (${dialect}) run in a gated workspace: ${outcome.stdout.slice(0, 200)}`;
        }
      }
      return null;
    };

    const numRuns = context.long ? 100_000 : 15_000;
    const property = fc.asyncProperty(argvArbitrary, stdinArbitrary, async (args, input) => {
      const item = build(args, input);
      const problem = await check(item);
      if (problem !== null) {
        throw new Error(`${problem}\n  argv: ${JSON.stringify(item.argv)}\n  cwd: ${item.cwd}\n  stdin: ${JSON.stringify(item.stdin.slice(0, 500))}`);
      }
    });
    const started = Date.now();
    const result = await fc.check(property, { numRuns, seed: context.seed, endOnFailure: true });
    if (result.failed) {
      failures.push(
        `${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n  reproduce: node out/test/reliability/run.js --only hookFuzz --seed ${context.seed} (fast-check path ${String(result.counterexamplePath)})`,
      );
    }
    if (!fs.readFileSync(ledgerPath).equals(ledgerBytes)) failures.push(`a hook call changed the ledger's bytes (seed ${context.seed})`);
    context.log(`${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { trials: cases, inputs: cases, gateAttempts, failures };
  },
};
