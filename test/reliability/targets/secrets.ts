// Secrets: a corpus of realistic secrets (test/fixtures/secrets/, generated from the seed, never a
// real credential) pushed through the real capture paths — the built hook bundle as a child
// process, for every host, as PostToolUse arguments (shell commands, files written, structured
// and MCP arguments), as output (stdout, stderr, MCP content parts, structured fields, a Read of a
// `.env`, `config.yaml`, `id_rsa`, `credentials.json`…) and as UserPromptSubmit prompts — into a
// Docket-on Git workspace. After every run, every file the run changed is searched for the run's
// secrets as they are, JSON-escaped and base64-encoded, and so are the hook's stdout and stderr;
// at the end every file under the workspace (its `.git/` and `.docket/` included) is searched for
// every secret. A secret found anywhere is a failure naming the file and the kind (and a short
// prefix of the secret, never all of it).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { WorkspaceLedger, type Clock } from "../../../server/workspace/workspaceLedger";
import { runGit } from "../../support/gitRepo";
import {
  ENCODINGS,
  describeNeedle,
  diskForms,
  loadSecretCorpus,
  renderSample,
  seededRandom,
  type SecretCorpus,
  type SecretSample,
} from "../../fixtures/secrets/corpus";
import type { ReliabilityContext, ReliabilityTarget, TargetTally } from "../target";

const HOSTS = ["claude", "codex", "vscode"] as const;
type Host = (typeof HOSTS)[number];
/** Hook runs in CI (each carries one or two secrets) and in `--long`. */
const CI_RUNS = 120;
const LONG_RUNS = 3_000;

/** How the secrets of one run reach the hook. */
const DELIVERIES = ["command", "write", "fields", "mcp", "structured-output", "read", "stderr", "prompt"] as const;
type Delivery = (typeof DELIVERIES)[number];

interface Run {
  readonly index: number;
  readonly host: Host;
  readonly delivery: Delivery;
  readonly event: "PostToolUse" | "UserPromptSubmit";
  readonly samples: readonly SecretSample[];
  readonly input: Record<string, unknown>;
}

/** A sample generator that walks every format through every shape and encoding that fits it. */
function sampleStream(corpus: SecretCorpus, random: () => number): (filter?: (sample: SecretSample) => boolean) => SecretSample {
  let next = 0;
  const offsets = corpus.formats.map(() => Math.floor(random() * 1_000));
  return (filter) => {
    for (let attempt = 0; attempt < 10_000; attempt += 1) {
      const index = next;
      next += 1;
      const formatIndex = index % corpus.formats.length;
      const format = corpus.formats[formatIndex];
      if (format === undefined) continue;
      const round = Math.floor(index / corpus.formats.length) + (offsets[formatIndex] ?? 0);
      const shape = corpus.shapes[round % corpus.shapes.length];
      const encoding = ENCODINGS[Math.floor(round / corpus.shapes.length) % ENCODINGS.length] ?? "raw";
      if (shape === undefined) continue;
      const sample = renderSample(format, shape, encoding, random);
      if (sample !== undefined && (filter === undefined || filter(sample))) return sample;
    }
    throw new Error("the corpus has no sample that fits");
  };
}

function shellToolName(host: Host): string {
  return host === "vscode" ? "runTerminalCommand" : "Bash";
}

/** What a shell tool's response looks like on each host. */
function shellResponse(host: Host, stdout: string, stderr = ""): unknown {
  if (host === "claude") return { stdout, stderr, interrupted: false, isImage: false };
  if (host === "codex") return { stdout: stderr === "" ? stdout : `${stdout}\n${stderr}`, exit_code: stderr === "" ? 0 : 1 };
  return stderr === "" ? stdout : `${stdout}\n${stderr}`;
}

function planRun(index: number, host: Host, delivery: Delivery, next: ReturnType<typeof sampleStream>): Omit<Run, "input"> & { toolName: string; toolInput: unknown; toolResponse: unknown; prompt?: string } {
  const base = { index, host, delivery };
  switch (delivery) {
    case "command": {
      const [argument, output] = [next(), next()];
      return { ...base, event: "PostToolUse", samples: [argument, output], toolName: shellToolName(host), toolInput: { command: argument.text }, toolResponse: shellResponse(host, output.text) };
    }
    case "write": {
      const [sample, echoed] = [next(), next()];
      const toolName = host === "claude" ? "Write" : host === "codex" ? "apply_patch" : "createFile";
      // The tool answers with a structured result whose message quotes what it wrote.
      return { ...base, event: "PostToolUse", samples: [sample, echoed], toolName, toolInput: { file_path: sample.file ?? "notes/scratch.txt", content: sample.text }, toolResponse: { success: true, message: echoed.text } };
    }
    case "fields": {
      const sample = next();
      // A structured field named for the secret, and the same value in argument lists: as
      // `NAME=value`, and as the item after a `--name` flag.
      const flag = `--${sample.name.toLowerCase().replaceAll("_", "-")}`;
      return {
        ...base,
        event: "PostToolUse",
        samples: [sample],
        toolName: shellToolName(host),
        toolInput: { command: "deploy", env: { [sample.name]: sample.value }, args: ["--verbose", `${sample.name}=${sample.value}`], argv: ["deploy", flag, sample.value] },
        toolResponse: shellResponse(host, "deployed\n"),
      };
    }
    case "mcp": {
      const [argument, output] = [next(), next()];
      return {
        ...base,
        event: "PostToolUse",
        samples: [argument, output],
        toolName: host === "vscode" ? "mcp_db_query" : "mcp__db__query",
        toolInput: { connection: { user: "app", [argument.name]: argument.value }, sql: "select 1" },
        toolResponse: { content: [{ type: "text", text: "1 row" }, { type: "text", text: output.text }], isError: false },
      };
    }
    case "structured-output": {
      const [sample, logged] = [next(), next()];
      return {
        ...base,
        event: "PostToolUse",
        samples: [sample, logged],
        toolName: host === "vscode" ? "mcp_vault_read" : "mcp__vault__read",
        toolInput: { path: "kv/app" },
        toolResponse: { result: { [sample.name]: sample.value, rows: 2 }, items: [{ name: sample.name, value: sample.value }], log: [logged.text] },
      };
    }
    case "read": {
      const sample = next((candidate) => candidate.file !== undefined && candidate.encoding === "raw");
      const file = sample.file as string;
      if (host === "claude") {
        const lines = sample.text.split("\n").length;
        return { ...base, event: "PostToolUse", samples: [sample], toolName: "Read", toolInput: { file_path: file }, toolResponse: { type: "text", file: { filePath: file, content: sample.text, numLines: lines, startLine: 1, totalLines: lines } } };
      }
      if (host === "codex") return { ...base, event: "PostToolUse", samples: [sample], toolName: "Bash", toolInput: { command: `cat ${file}` }, toolResponse: shellResponse(host, sample.text) };
      return { ...base, event: "PostToolUse", samples: [sample], toolName: "readFile", toolInput: { filePath: file }, toolResponse: sample.text };
    }
    case "stderr": {
      const [printed, failed] = [next(), next()];
      return { ...base, event: "PostToolUse", samples: [printed, failed], toolName: shellToolName(host), toolInput: { command: "npm run deploy" }, toolResponse: shellResponse(host, printed.text, failed.text) };
    }
    case "prompt": {
      const sample = next();
      return { ...base, event: "UserPromptSubmit", samples: [sample], toolName: "", toolInput: null, toolResponse: null, prompt: `Use this for the deploy:\n${sample.text}` };
    }
  }
}

function hookInput(host: Host, event: string, workspace: string, index: number, plan: { toolName: string; toolInput: unknown; toolResponse: unknown; prompt?: string }): Record<string, unknown> {
  const session = `secrets-${host}`;
  const tool = event === "PostToolUse" ? { tool_name: plan.toolName, tool_input: plan.toolInput, tool_response: plan.toolResponse, tool_use_id: `call_secret_${index}` } : { prompt: plan.prompt };
  if (host === "claude") return { session_id: session, transcript_path: "/home/u/.claude/projects/p/s.jsonl", cwd: workspace, permission_mode: "default", hook_event_name: event, ...tool };
  if (host === "codex") return { session_id: session, turn_id: `turn-${index}`, transcript_path: null, cwd: workspace, hook_event_name: event, model: "gpt-5-codex", permission_mode: "default", ...tool };
  return { timestamp: "2031-01-01T00:00:00.000Z", cwd: workspace, sessionId: session, hookEventName: event, transcript_path: "/home/u/.vscode/chat/s.json", ...tool };
}

function fixedClock(): Clock {
  let tick = 0;
  return { now: () => new Date(Date.UTC(2031, 0, 1) + 1_000 * tick++).toISOString() };
}

/** A Git workspace with Docket on and a work scope open, so the hooks capture evidence. */
async function docketWorkspace(root: string): Promise<string> {
  fs.mkdirSync(root, { recursive: true });
  const folder = fs.realpathSync(root);
  runGit(folder, ["init", "--quiet"]);
  runGit(folder, ["config", "user.name", "Docket Test"]);
  runGit(folder, ["config", "user.email", "docket-test@example.invalid"]);
  runGit(folder, ["config", "commit.gpgsign", "false"]);
  fs.mkdirSync(path.join(folder, "src"));
  fs.writeFileSync(path.join(folder, "src", "a.ts"), "export const a = 1;\n");
  runGit(folder, ["add", "--all"]);
  runGit(folder, ["commit", "--quiet", "--no-verify", "-m", "fixture"]);
  const ledger = new WorkspaceLedger({ workspaceFolder: folder, ledgerPath: path.join(folder, ".docket", "ledger.jsonl"), trusted: true, clock: fixedClock() });
  ledger.refresh();
  await ledger.turnOn();
  return folder;
}

interface FileState {
  readonly size: number;
  readonly mtimeMs: number;
}

function listFiles(root: string): string[] {
  const files: string[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const directory = pending.pop() as string;
    for (const entry of fs.readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile() || entry.isSymbolicLink()) files.push(full);
    }
  }
  return files.sort();
}

function changedFiles(root: string, known: Map<string, FileState>): string[] {
  const changed: string[] = [];
  for (const file of listFiles(root)) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(file);
    } catch {
      continue;
    }
    const before = known.get(file);
    if (before === undefined || before.size !== stat.size || before.mtimeMs !== stat.mtimeMs) changed.push(file);
    known.set(file, { size: stat.size, mtimeMs: stat.mtimeMs });
  }
  return changed;
}

interface Needle {
  readonly kind: string;
  readonly needle: string;
  readonly form: string;
  readonly text: string;
  readonly where: string;
}

function needlesOfRun(run: Pick<Run, "samples">, where: (sample: SecretSample) => string): Needle[] {
  return run.samples.flatMap((sample) => sample.needles.flatMap((needle) => diskForms(needle).map((form) => ({ kind: sample.kind, needle, form: form.form, text: form.text, where: where(sample) }))));
}

/** Every needle found in `text` (latin1: needles are ASCII), by a first-12-characters index: linear in the text. */
function findNeedles(text: string, needles: readonly Needle[]): Needle[] {
  const KEY = 12;
  const index = new Map<string, Needle[]>();
  for (const needle of needles) {
    const key = needle.text.slice(0, KEY);
    const list = index.get(key);
    if (list === undefined) index.set(key, [needle]);
    else list.push(needle);
  }
  const found = new Set<Needle>();
  for (let position = 0; position + KEY <= text.length; position += 1) {
    const candidates = index.get(text.substr(position, KEY));
    if (candidates === undefined) continue;
    for (const needle of candidates) if (text.startsWith(needle.text, position)) found.add(needle);
  }
  return [...found];
}

function describeSample(run: Pick<Run, "index" | "host" | "delivery" | "event">, sample: SecretSample): string {
  return `run ${run.index} (${run.host} ${run.event}, ${run.delivery}; shape ${sample.shape}, ${sample.encoding}, name ${sample.name})`;
}

/** True once `measure()` exceeds `before`, polling for up to 10 s. */
async function grows(measure: () => number, before: number): Promise<boolean> {
  const until = Date.now() + 10_000;
  for (;;) {
    if (measure() > before) return true;
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export const target: ReliabilityTarget = {
  name: "secrets",
  description: "realistic secrets in arguments, output, prompts and files of every shape, through the built hook of every host: none reaches disk",
  async run(context: ReliabilityContext): Promise<TargetTally> {
    const failures: string[] = [];
    const hook = path.join(context.repoRoot, "dist", "docket-hook.js");
    if (!fs.existsSync(hook)) return { failures: [`${hook} is missing; run node scripts/build.mjs first`] };
    const corpus = loadSecretCorpus();
    const random = seededRandom(context.seed);
    const next = sampleStream(corpus, random);
    const workspace = await docketWorkspace(path.join(context.tmp, "workspace"));
    const reproduce = `reproduce: node out/test/reliability/run.js --only secrets --seed ${context.seed}${context.long ? " --long" : ""} --keep`;
    const known = new Map<string, FileState>();
    changedFiles(workspace, known);
    const runs = context.long ? LONG_RUNS : CI_RUNS;
    const everything: Needle[] = [];
    let secrets = 0;
    let captured = 0;
    const started = Date.now();
    for (let index = 0; index < runs; index += 1) {
      const host = HOSTS[index % HOSTS.length] as Host;
      const delivery = DELIVERIES[Math.floor(index / HOSTS.length) % DELIVERIES.length] as Delivery;
      const plan = planRun(index, host, delivery, next);
      const run: Run = { ...plan, input: hookInput(host, plan.event, workspace, index, plan) };
      secrets += run.samples.length;
      const evidenceBefore = evidenceBytes(workspace);
      const result = spawnSync(process.execPath, [hook, "hook", "--host", host, "--workspace", workspace, run.event], { cwd: workspace, input: JSON.stringify(run.input), encoding: "utf8", timeout: 30_000 });
      const label = (sample: SecretSample): string => describeSample(run, sample);
      const needles = needlesOfRun(run, label);
      everything.push(...needles);
      if (result.status !== 0) failures.push(`${describeSample(run, run.samples[0] as SecretSample)}: the hook exited ${result.status ?? result.signal}: ${result.stderr.slice(0, 200)}; ${reproduce}`);
      // Vacuity guard: the run must really have been captured, or "nothing on disk" proves nothing.
      // A prompt is captured by a detached process after the hook answered (promptCapture.ts): wait for it.
      const wasCaptured = run.event === "PostToolUse" ? result.stdout.includes("captured this tool result as evidence") : await grows(() => evidenceBytes(workspace), evidenceBefore);
      if (wasCaptured) captured += 1;
      else failures.push(`${describeSample(run, run.samples[0] as SecretSample)}: nothing was captured (stdout ${JSON.stringify(result.stdout.slice(0, 160))}, stderr ${JSON.stringify(result.stderr.slice(0, 160))}); ${reproduce}`);
      for (const [stream, text] of [["stdout", result.stdout], ["stderr", result.stderr]] as const) {
        for (const hit of findNeedles(text ?? "", needles)) failures.push(`${hit.where}: ${hit.kind} ${describeNeedle(hit.needle)} found ${hit.form} in the hook's ${stream}; ${reproduce}`);
      }
      for (const file of changedFiles(workspace, known)) {
        for (const hit of findNeedles(readLatin1(file), needles)) failures.push(`${hit.where}: ${hit.kind} ${describeNeedle(hit.needle)} found ${hit.form} in ${path.relative(workspace, file)}; ${reproduce}`);
      }
      if ((index + 1) % 50 === 0) context.log(`${index + 1}/${runs} runs, ${secrets} secrets, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    // The final sweep: every file, every secret of every run (a later write may copy an earlier one).
    const reported = new Set(failures);
    for (const file of listFiles(workspace)) {
      for (const hit of findNeedles(readLatin1(file), everything)) {
        const failure = `${hit.where}: ${hit.kind} ${describeNeedle(hit.needle)} found ${hit.form} in ${path.relative(workspace, file)}; ${reproduce}`;
        if (!reported.has(failure)) failures.push(failure);
        reported.add(failure);
      }
    }
    context.log(`${captured}/${runs} runs captured, ${secrets} secrets tried, ${listFiles(workspace).length} files searched`);
    return { trials: runs, inputs: runs, secrets, failures };
  },
};

function readLatin1(file: string): string {
  try {
    return fs.readFileSync(file).toString("latin1");
  } catch {
    return "";
  }
}

function evidenceBytes(workspace: string): number {
  const directory = path.join(workspace, ".docket", "evidence");
  if (!fs.existsSync(directory)) return 0;
  return fs.readdirSync(directory).reduce((sum, name) => sum + fs.statSync(path.join(directory, name)).size, 0);
}
