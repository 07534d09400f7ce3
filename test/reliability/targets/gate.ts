// Gate: nothing runs while Docket withholds tools. Real Git workspaces in every phase (deciding,
// frame open, debt pending; authorized, off and turned off for the allow cases), connected with
// the real `docket connect claude|codex`; every call goes through the files Connect wrote, the way
// each host picks and runs hooks (test/support/installedHooks.ts). Tried: every tool name the
// hosts document (test/support/hostTools.ts) and Docket's tables, generated unknown names, nested
// repositories (`git init x`, an empty `.git` file, a `.git` folder) with tool paths into the
// parent, symlinked folders, forged state files, oversized and malformed inputs. A call that would
// run while gated is a failure naming host, tool and case; a denied call must leave the ledger's
// bytes as they were.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger } from "../../../server/workspace/workspaceLedger";
import { TOOL_TABLES } from "../../../server/hooks/toolClassification";
import { checkpointPathFor } from "../../../server/hooks/checkpoint";
import { DOCUMENTED_TOOLS, docketToolNames } from "../../support/hostTools";
import { runInstalledPreToolUse, runInstalledPreToolUseInProcess, type HostKind, type HostVerdict, type ToolCallSpec } from "../../support/installedHooks";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";
import { seededRandom as random } from "../../support/seededRandom";

const HOSTS: readonly HostKind[] = ["claude", "codex", "vscode"];
const CONCURRENCY = 3;


async function pool<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const index = next;
      next += 1;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

function git(cwd: string, args: readonly string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

function makeRepo(folder: string): string {
  fs.mkdirSync(path.join(folder, "src"), { recursive: true });
  git(folder, ["init", "--quiet"]);
  git(folder, ["config", "user.name", "Docket Gate"]);
  git(folder, ["config", "user.email", "gate@example.invalid"]);
  git(folder, ["config", "commit.gpgsign", "false"]);
  fs.writeFileSync(path.join(folder, "src", "a.ts"), "export const a = 1;\n");
  git(folder, ["add", "--all"]);
  git(folder, ["commit", "--quiet", "--no-verify", "-m", "fixture"]);
  return fs.realpathSync(folder);
}

function ledgerOf(folder: string): WorkspaceLedger {
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath: path.join(folder, ".docket", "ledger.jsonl"), trusted: true });
  ledger.refresh();
  return ledger;
}

const OBLIGATIONS = [{ obligationId: "obligation:a", statement: "Settled." }];

type Phase = "deciding" | "frame-open" | "debt-pending" | "authorized" | "off" | "turned-off";
const GATED: ReadonlySet<Phase> = new Set(["deciding", "frame-open", "debt-pending"]);

async function enterPhase(folder: string, phase: Phase): Promise<void> {
  if (phase === "off") return;
  const ledger = ledgerOf(folder);
  await ledger.turnOn();
  if (phase === "deciding") return;
  if (phase === "turned-off") {
    await ledger.turnOff("Done for today.");
    return;
  }
  await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Rename a?", obligations: OBLIGATIONS });
  if (phase === "frame-open") return;
  await ledger.concludeJudgment({ disposition: "not-applicable", reason: "A plain rename.", basis: ["The user asked for it."] });
  await ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
  if (phase === "authorized") return;
  fs.writeFileSync(path.join(folder, "src", "a.ts"), "export const renamed = 1;\n");
  await ledger.recordLanding({ result: "Renamed a.", verification: ["npm test"] });
}

function runCli(cli: string, args: readonly string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

interface Probe {
  readonly host: HostKind;
  readonly toolName: string;
  readonly label: string;
  /** The workspace whose installed configuration the host reads. */
  readonly workspace: string;
  readonly cwd: string;
  readonly toolInput?: unknown;
  readonly rawStdin?: string | Buffer;
  /** True: the call must be denied. */
  readonly gated: boolean;
  /** Ledgers that must be byte-identical after a denied call. */
  readonly ledgers: readonly string[];
  /** Answered by the bundle's entry in this process with the installed command's arguments (name sweeps). */
  readonly inProcess?: boolean;
}

function readBytes(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}

function expectedReadOnly(host: HostKind): ReadonlySet<string> {
  return new Set([...DOCUMENTED_TOOLS[host].filter((tool) => tool.readOnly).map((tool) => tool.name), ...docketToolNames(host)]);
}

/** Every name worth trying for a host: documented, Docket's tables, Docket's own, and look-alikes. */
function namesFor(host: HostKind, rng: () => number, generated: number): string[] {
  const dialect = TOOL_TABLES[host];
  const names = new Set<string>([
    ...DOCUMENTED_TOOLS[host].map((tool) => tool.name),
    ...dialect.shell,
    ...dialect.edit,
    ...dialect.read,
    ...docketToolNames(host),
  ]);
  const prefix = host === "vscode" ? "mcp_docket_" : "mcp__docket__";
  const word = (): string => Math.floor(rng() * 36 ** 6).toString(36);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
  const documented = DOCUMENTED_TOOLS[host].map((tool) => tool.name);
  for (let index = 0; index < generated; index += 1) {
    const base = pick(documented);
    const shapes = [
      () => `mcp__${word()}__${word()}`,
      () => `mcp_${word()}_${word()}`,
      () => `${prefix}${word()}`,
      () => `${base}${word()}`,
      () => base.toLowerCase() === base ? base.toUpperCase() : base.toLowerCase(),
      () => `${base} `,
      () => ` ${base}`,
      () => `${base}\u200b`,
      () => `run_${word()}`,
      () => word().repeat(1 + Math.floor(rng() * 40)),
    ];
    const name = pick(shapes)();
    if (!expectedReadOnly(host).has(name)) names.add(name);
  }
  return [...names];
}

function toolInputFor(workspace: string): Record<string, unknown> {
  const file = path.join(workspace, "src", "a.ts");
  return { command: "touch pwned", file_path: file, filePath: file, path: file, content: "pwned" };
}

function sample<T>(items: readonly T[], count: number, rng: () => number): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(rng() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy.slice(0, count);
}

function describeVerdict(verdict: HostVerdict): string {
  const first = verdict.results[0];
  if (first === undefined) return "no Docket hook was selected for this tool";
  return `exit ${String(first.status)}${first.timedOut ? " (timed out)" : ""}, stdout ${JSON.stringify(first.stdout.slice(0, 300))}, stderr ${JSON.stringify(first.stderr.slice(0, 300))}`;
}

export const target: ReliabilityTarget = {
  name: "gate",
  description: "every host's tool names, unknown tools, nested repositories, symlinks, forged state files and undecidable inputs through the installed hook configuration: nothing runs while gated",
  async run(context: ReliabilityContext): Promise<TargetTally> {
    const tally = { trials: 0, faults: 0, inputs: 0, gateAttempts: 0, failures: [] as string[] };
    const cli = path.join(context.repoRoot, "dist", "docket.js");
    if (!fs.existsSync(path.join(context.repoRoot, "dist", "docket-hook.js"))) {
      return { failures: ["dist/docket-hook.js is missing: run node scripts/build.mjs first"] };
    }
    const rng = random(context.seed);
    const reproduce = `reproduce: node out/test/reliability/run.js --only gate --seed ${context.seed}`;
    const root = fs.realpathSync(context.tmp);

    // Workspaces, one per phase, each connected with the real CLI.
    const phases: Phase[] = ["deciding", "frame-open", "debt-pending", "authorized", "off", "turned-off"];
    const folders = new Map<Phase, string>();
    for (const phase of phases) {
      const folder = makeRepo(path.join(root, `ws-${phase}`));
      await enterPhase(folder, phase);
      folders.set(phase, folder);
    }
    const forgedCases = ["authorization-active", "scope-inactive", "blocked-without-reason", "forged-tail-seed", "cloned-authorized"] as const;
    const forged = new Map<string, string>();
    for (const name of forgedCases) forged.set(name, await buildForged(root, name));
    const connectTasks = [...folders.values(), ...forged.values()].flatMap((folder) =>
      (["claude", "codex"] as const).map((host) => async () => {
        const result = await runCli(cli, ["connect", host, "--workspace", folder], folder);
        if (result.status !== 0) tally.failures.push(`docket connect ${host} failed in ${folder}: ${result.stderr.trim()}`);
      }),
    );
    await pool(connectTasks, CONCURRENCY);
    context.log(`${folders.size + forged.size} workspaces connected`);

    const probes: Probe[] = [];
    const ledgerFile = (folder: string): string => path.join(folder, ".docket", "ledger.jsonl");
    // Every name in every phase through the installed arguments in this process; a sample of
    // them (all of them with --long) as the real command line run by `sh -c`.
    const addPhaseProbes = (phase: Phase, gatedSample: number, readSample: number): void => {
      const folder = folders.get(phase) as string;
      const gated = GATED.has(phase);
      for (const host of HOSTS) {
        const readOnly = expectedReadOnly(host);
        const all = namesFor(host, rng, context.long ? 60 : 12);
        const spawned = new Set(
          context.long
            ? all
            : [...sample(all.filter((name) => !readOnly.has(name)), gatedSample, rng), ...sample(all.filter((name) => readOnly.has(name)), readSample, rng)],
        );
        for (const toolName of all) {
          const probe = { host, toolName, label: phase, workspace: folder, cwd: folder, toolInput: toolInputFor(folder), gated: gated && !readOnly.has(toolName), ledgers: [ledgerFile(folder)] };
          probes.push({ ...probe, inProcess: true });
          if (spawned.has(toolName)) probes.push(probe);
        }
      }
    };
    addPhaseProbes("deciding", 6, 3);
    addPhaseProbes("frame-open", 3, 1);
    addPhaseProbes("debt-pending", 3, 1);
    addPhaseProbes("authorized", 2, 1);
    addPhaseProbes("off", 2, 1);
    addPhaseProbes("turned-off", 2, 1);

    // Nested repositories and tool paths into the parent.
    const deciding = folders.get("deciding") as string;
    const nestedRepo = path.join(deciding, "x");
    fs.mkdirSync(nestedRepo);
    git(nestedRepo, ["init", "--quiet"]);
    const gitFile = path.join(deciding, "y");
    fs.mkdirSync(gitFile);
    fs.writeFileSync(path.join(gitFile, ".git"), "");
    const gitFolder = path.join(deciding, "z", "deep");
    fs.mkdirSync(path.join(deciding, "z", ".git"), { recursive: true });
    fs.mkdirSync(gitFolder);
    const shellOf = (host: HostKind): string => (host === "vscode" ? "run_in_terminal" : "Bash");
    const editOf = (host: HostKind): string => (host === "codex" ? "apply_patch" : host === "vscode" ? "create_file" : "Write");
    for (const [label, cwd] of [["cwd in `git init x`", nestedRepo], ["cwd beside an empty .git file", gitFile], ["cwd under a subfolder's .git", gitFolder]] as const) {
      for (const host of HOSTS) {
        const parentFile = path.join(deciding, "src", "a.ts");
        probes.push({ host, toolName: shellOf(host), label, workspace: deciding, cwd, toolInput: { command: "git status" }, gated: true, ledgers: [ledgerFile(deciding)] });
        probes.push({
          host,
          toolName: editOf(host),
          label: `${label}, writing into the parent`,
          workspace: deciding,
          cwd,
          toolInput: { file_path: path.relative(cwd, parentFile), filePath: parentFile, command: `*** Begin Patch\n*** Update File: ${path.relative(cwd, parentFile)}\n*** End Patch\n` },
          gated: true,
          ledgers: [ledgerFile(deciding)],
        });
        probes.push({ host, toolName: `mcp__${host}__unknown`, label: `${label}, unknown tool`, workspace: deciding, cwd, toolInput: {}, gated: true, ledgers: [ledgerFile(deciding)] });
      }
    }

    // Symlinked folders: a workspace with Docket off holds a link into the gated one.
    const off = folders.get("off") as string;
    fs.symlinkSync(path.join(deciding, "src"), path.join(off, "link"));
    for (const host of HOSTS) {
      const linked = path.join(off, "link", "a.ts");
      probes.push({ host, toolName: editOf(host), label: "writing through a symlink into the gated workspace", workspace: off, cwd: off, toolInput: { file_path: linked, filePath: linked, command: "*** Begin Patch\n*** Update File: link/a.ts\n*** End Patch\n" }, gated: true, ledgers: [ledgerFile(deciding)] });
      probes.push({ host, toolName: shellOf(host), label: "cwd through a symlink into the gated workspace", workspace: off, cwd: path.join(off, "link"), toolInput: { command: "ls" }, gated: true, ledgers: [ledgerFile(deciding)] });
    }

    // Undecidable input through the installed configuration.
    const undecidable: [string, (cwd: string) => string | Buffer][] = [
      ["oversized input", (cwd) => JSON.stringify({ session_id: "s", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "x".repeat(4 * 1024 * 1024 + 1) } })],
      ["malformed JSON", () => '{"tool_name":"Bash",'],
      ["not UTF-8", () => Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ["wrong shape", (cwd) => JSON.stringify({ session_id: 7, cwd, tool_name: ["Bash"] })],
      ["empty stdin", () => ""],
      ["a JSON array", () => "[]"],
    ];
    for (const phase of context.long ? (["deciding", "frame-open", "debt-pending", "off"] as const) : (["deciding", "off"] as const)) {
      const folder = folders.get(phase) as string;
      for (const [label, stdin] of undecidable) {
        for (const host of HOSTS) {
          tally.faults += 1;
          probes.push({ host, toolName: shellOf(host), label: `${label} (${phase})`, workspace: folder, cwd: folder, rawStdin: stdin(folder), gated: GATED.has(phase), ledgers: [ledgerFile(folder)] });
        }
      }
    }

    // Forged state files: the hook must deny while `docket status` says deny.
    for (const [name, folder] of forged) {
      tally.faults += 1;
      const status = await runCli(cli, ["status", "--json"], folder);
      let policy: { shell?: string; edit?: string } = {};
      try {
        policy = JSON.parse(status.stdout) as typeof policy;
      } catch {
        tally.failures.push(`forged ${name}: docket status --json printed no JSON (${status.stderr.trim()})`);
      }
      if (policy.shell !== "deny" || policy.edit !== "deny") {
        tally.failures.push(`forged ${name}: docket status says shell ${String(policy.shell)}, edit ${String(policy.edit)}; it must say deny (the forged files must not lift the gate anywhere) — ${reproduce}`);
      }
      for (const host of HOSTS) {
        for (const toolName of [shellOf(host), editOf(host), `mcp__forged__${host}`]) {
          probes.push({ host, toolName, label: `forged state: ${name}`, workspace: folder, cwd: folder, toolInput: toolInputFor(folder), gated: true, ledgers: [ledgerFile(folder)] });
        }
      }
    }

    const spawnedCount = probes.filter((probe) => probe.inProcess !== true).length;
    context.log(`${probes.length} calls through the installed configuration (${spawnedCount} as sh -c processes)`);
    const started = Date.now();
    const check = (probe: Probe): (() => Promise<void>) => async () => {
        const before = probe.ledgers.map(readBytes);
        const call: ToolCallSpec = { toolName: probe.toolName, toolInput: probe.toolInput ?? {}, cwd: probe.cwd, ...(probe.rawStdin === undefined ? {} : { rawStdin: probe.rawStdin }) };
        const callStarted = Date.now();
        const verdict = probe.inProcess === true ? await runInstalledPreToolUseInProcess(probe.host, probe.workspace, call) : await runInstalledPreToolUse(probe.host, probe.workspace, call, 20_000);
        const elapsed = Date.now() - callStarted;
        tally.trials += 1;
        tally.inputs += 1;
        const where = `${probe.host}/${JSON.stringify(probe.toolName)}/${probe.label}${probe.inProcess === true ? " (in process)" : ""}`;
        if (verdict.results.some((result) => result.timedOut)) tally.failures.push(`${where}: the hook did not answer within 20 s — ${reproduce}`);
        if (probe.gated) {
          tally.gateAttempts += 1;
          if (verdict.runs) tally.failures.push(`${where}: would run while gated (${describeVerdict(verdict)}) — ${reproduce}`);
          const after = probe.ledgers.map(readBytes);
          if (after.some((bytes, index) => !(bytes === null ? before[index] === null : before[index] !== null && bytes.equals(before[index] as Buffer)))) {
            tally.failures.push(`${where}: a denied call changed a ledger's bytes — ${reproduce}`);
          }
        } else if (!verdict.runs) {
          tally.failures.push(`${where}: denied although it should run: ${verdict.reasons.join(" | ").slice(0, 300)} — ${reproduce}`);
        }
        if (elapsed > 10_000) context.log(`${where}: slow hook (${elapsed} ms)`);
    };
    // In-process calls one at a time (they share this process); spawned ones a few at once.
    for (const probe of probes.filter((candidate) => candidate.inProcess === true)) await check(probe)();
    context.log(`in-process calls done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await pool(probes.filter((probe) => probe.inProcess !== true).map(check), CONCURRENCY);
    context.log(`calls done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return tally;
  },
};

/**
 * A Docket-on workspace whose state files are forged. Every case's ledger itself says deny: the
 * forgery is only in what a hook might read instead of replaying (the checkpoint, the tail seed),
 * or in files that arrived with a clone rather than being written by a local Docket.
 */
async function buildForged(root: string, name: string): Promise<string> {
  const folder = makeRepo(path.join(root, `forged-${name}`));
  const ledger = ledgerOf(folder);
  const ledgerPath = ledger.store.ledgerPath;
  const checkpointPath = checkpointPathFor(ledgerPath);
  const seedPath = `${ledgerPath}.tail-seed.json`;
  await ledger.turnOn();
  const editCheckpoint = (edit: (checkpoint: { state: { blockedReason: string | null; facts: Record<string, boolean> } }) => void): void => {
    const checkpoint = JSON.parse(fs.readFileSync(checkpointPath, "utf8")) as { state: { blockedReason: string | null; facts: Record<string, boolean> } };
    edit(checkpoint);
    fs.writeFileSync(checkpointPath, JSON.stringify(checkpoint));
  };
  if (name === "authorization-active") editCheckpoint((checkpoint) => (checkpoint.state.facts["authorizationActive"] = true));
  else if (name === "scope-inactive") editCheckpoint((checkpoint) => (checkpoint.state.facts["scopeActive"] = false));
  else if (name === "blocked-without-reason") {
    editCheckpoint((checkpoint) => {
      checkpoint.state.facts["blocked"] = true;
      checkpoint.state.blockedReason = null;
    });
  } else if (name === "forged-tail-seed") {
    // A checkpoint and seed of an earlier position (scope open, frame open), the ledger moved on
    // (frame concluded: still withheld), and the stale seed claims an active authorization.
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Rename a?", obligations: OBLIGATIONS });
    const staleCheckpoint = fs.readFileSync(checkpointPath);
    const seed = JSON.parse(fs.readFileSync(seedPath, "utf8")) as { openScopes: { head: { eventRef: unknown }; root: { activeAuthorization: unknown } }[] };
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "A plain rename.", basis: ["The user asked for it."] });
    for (const scope of seed.openScopes) scope.root.activeAuthorization = { authorizationId: "authorization:forged", eventRef: scope.head.eventRef };
    fs.writeFileSync(checkpointPath, staleCheckpoint);
    fs.writeFileSync(seedPath, JSON.stringify(seed));
  } else if (name === "cloned-authorized") {
    // Authorized somewhere else, committed with its state files, cloned here: no local writer
    // ever confirmed this ledger, so nothing here may rely on it.
    await ledger.openJudgment({ routeDefinitionId: "route:meaning-settlement", question: "Rename a?", obligations: OBLIGATIONS });
    await ledger.concludeJudgment({ disposition: "not-applicable", reason: "A plain rename.", basis: ["The user asked for it."] });
    await ledger.authorizeChange({ movement: "Rename a.", stableLanding: "a is renamed.", verificationTarget: "Types check." });
    git(folder, ["add", "--all", "--force"]);
    git(folder, ["commit", "--quiet", "--no-verify", "-m", "with Docket's state"]);
    const clone = path.join(root, `forged-${name}-clone`);
    execFileSync("git", ["clone", "--quiet", folder, clone], { stdio: "ignore" });
    return fs.realpathSync(clone);
  }
  return folder;
}
