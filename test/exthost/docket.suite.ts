// Runs inside a real VS Code extension host (desktop via @vscode/test-electron, or the VS Code server bundled
// in code-server) against the extension at the repository root (dist/extension.js), in a fresh workspace.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import * as vscode from "vscode";

const EXTENSION_ID = "docket.docket";
const COMMANDS = [
  "docket.turnOn",
  "docket.turnOff",
  "docket.showStatus",
  "docket.verifyLedger",
  "docket.nextStep",
  "docket.openJudgment",
  "docket.concludeJudgment",
  "docket.authorizeChange",
  "docket.recordLanding",
  "docket.openLandingDiff",
  "docket.showEvidence",
  "docket.openContextSources",
  "docket.openPiSession",
  "docket.closePiSession",
  "docket.connectClaude",
  "docket.connectCodex",
  "docket.disconnectAgent",
  "docket.explainPlan",
  "docket.notebook.setup",
  "docket.notebook.openRecordDiff",
  "docket.notebook.saveAll",
  "docket.notebook.discard",
  "docket.notebook.saveAllInTitle",
  "docket.notebook.discardInTitle",
  "docket.notebook.refresh",
  "docket.notebook.reviewProposal",
  "docket.observer.on",
  "docket.observer.off",
  "docket.observer.addHypothesis",
  "docket.observer.reconcileMemo",
  "docket.observer.reviewSave",
  "docket.observer.reviewMaterial",
  "docket.observer.refresh",
  "docket.openLandingCommit",
  "docket.auditBranch",
  "docket.copyAuditMarkdown",
];

interface LedgerLine {
  entry?: { kind?: unknown; workScopeId?: unknown };
}

function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, "the test workspace folder is open");
  return folder.uri.fsPath;
}

function ledgerPath(): string {
  return path.join(workspaceRoot(), ".docket", "ledger.jsonl");
}

function readLedger(): LedgerLine[] {
  if (!fs.existsSync(ledgerPath())) return [];
  return fs
    .readFileSync(ledgerPath(), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line, index) => {
      try {
        return JSON.parse(line) as LedgerLine;
      } catch (error) {
        throw new Error(`ledger line ${index + 1} is not JSON: ${String(error)}\n${line}`);
      }
    });
}

/** Commands resolve when their work is done; allow a short grace for the file to be flushed anyway. */
async function ledgerWithLines(count: number, timeoutMs = 5000): Promise<LedgerLine[]> {
  const deadline = Date.now() + timeoutMs;
  let lines = readLedger();
  while (lines.length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    lines = readLedger();
  }
  return lines;
}

/** Docket's commands catch failures (and show a notification), resolving with undefined instead of a result. */
function describeResult(result: unknown): string {
  return result === undefined
    ? "the command resolved with undefined, i.e. it reported a failure (see the extension's log)"
    : `the command resolved with ${JSON.stringify(result)}`;
}

/** Speaks just enough MCP over stdio (newline-delimited JSON-RPC) to ask `docket mcp` for its tools. */
async function mcpToolNames(cli: string, workspace: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const { spawn } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, "mcp", "--workspace", workspace], { cwd: workspace, env, stdio: ["pipe", "pipe", "pipe"] });
    let buffer = "";
    let stderr = "";
    const send = (message: object): void => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    };
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`docket mcp did not answer tools/list within 15 s; stderr: ${stderr}`));
    }, 15_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += String(chunk);
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.stdout.on("data", (chunk: Buffer) => {
      buffer += String(chunk);
      for (let newline = buffer.indexOf("\n"); newline >= 0; newline = buffer.indexOf("\n")) {
        const message = JSON.parse(buffer.slice(0, newline)) as { id?: number; result?: { tools?: { name: string }[] } };
        buffer = buffer.slice(newline + 1);
        if (message.id === 1) {
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          clearTimeout(timer);
          child.stdin.end();
          resolve((message.result?.tools ?? []).map((tool) => tool.name));
        }
      }
    });
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "docket-exthost-test", version: "0.0.0" } } });
  });
}

function kinds(lines: LedgerLine[]): unknown[] {
  return lines.map((line) => line.entry?.kind);
}

describe("Docket in a real VS Code extension host", function () {
  this.timeout(60_000);

  it("activates the extension docket.docket", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is installed (extensionDevelopmentPath)`);
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it("registers all Docket commands", async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((command) => !registered.has(command));
    assert.deepEqual(missing, [], `missing commands: ${missing.join(", ")}`);
  });

  it("announces an MCP server whose command starts on the editor's runtime and lists Docket's tools", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const providers = (extension?.packageJSON as { contributes?: { mcpServerDefinitionProviders?: { id?: unknown }[] } } | undefined)?.contributes?.mcpServerDefinitionProviders;
    assert.deepEqual(providers?.map((provider) => provider.id), ["docket.mcp"]);
    // The same command line extension/mcpRegistration.ts announces: process.execPath (+ ELECTRON_RUN_AS_NODE).
    const cli = path.join(extension?.extensionPath ?? "", "dist", "docket.js");
    const names = await mcpToolNames(cli, workspaceRoot(), { ...process.env, ELECTRON_RUN_AS_NODE: "1" });
    assert.deepEqual(names, ["status", "open_judgment", "open_context_sources", "conclude_judgment", "authorize_change", "record_landing", "plan", "review_report", "notebook", "propose_notebook_records", "review_open", "review_submit", "observer_status", "observer_commit"]);
  });

  it("docket.turnOn opens a work scope in <workspace>/.docket/ledger.jsonl", async () => {
    assert.deepEqual(readLedger(), [], "the fresh workspace has no ledger yet");
    const result: unknown = await vscode.commands.executeCommand("docket.turnOn");
    const lines = await ledgerWithLines(1);
    assert.equal(lines.length, 1, `one ledger line after turnOn, got ${lines.length}; ${describeResult(result)}`);
    assert.deepEqual(kinds(lines), ["work-scope-opened"]);
    const scopeId = (result as { workScopeId?: unknown } | undefined)?.workScopeId;
    if (typeof scopeId === "string") assert.equal(lines[0]?.entry?.workScopeId, scopeId, "the ledger line is the returned scope");
  });

  it("docket.turnOff closes the work scope", async () => {
    const result: unknown = await vscode.commands.executeCommand("docket.turnOff");
    const lines = await ledgerWithLines(2);
    assert.deepEqual(kinds(lines), ["work-scope-opened", "work-scope-closed"], describeResult(result));
    assert.equal(lines[1]?.entry?.workScopeId, lines[0]?.entry?.workScopeId, "the same scope is closed");
  });

  it("docket.showStatus resolves with the status", async () => {
    const status: unknown = await vscode.commands.executeCommand("docket.showStatus");
    assert.ok(status !== undefined && status !== null && typeof status === "object", describeResult(status));
  });

  it("docket.verifyLedger resolves with an intact ledger", async () => {
    const result: unknown = await vscode.commands.executeCommand("docket.verifyLedger");
    assert.ok(result !== undefined && result !== null && typeof result === "object", describeResult(result));
    const verify = result as { ok?: unknown; accepted?: unknown };
    assert.equal(verify.ok, true, `verification failed: ${JSON.stringify(result)}`);
    if (typeof verify.accepted === "number") assert.equal(verify.accepted, 2, "both entries are accepted");
  });

  it("docket.auditBranch with a range shows the report and docket.copyAuditMarkdown puts it on the clipboard", async () => {
    const report = (await vscode.commands.executeCommand("docket.auditBranch", "HEAD")) as { range?: unknown; markdown?: unknown } | undefined;
    assert.equal(report?.range, "HEAD", describeResult(report));
    assert.equal(typeof report?.markdown, "string");
    const copied: unknown = await vscode.commands.executeCommand("docket.copyAuditMarkdown");
    assert.equal(copied, report?.markdown);
    assert.equal(await vscode.env.clipboard.readText(), report?.markdown);
    // From an audit document's title: that document's report.
    const shown = vscode.workspace.textDocuments.find((document) => document.uri.scheme === "docket-audit");
    assert.ok(shown, "the report is a docket-audit: document");
    await vscode.env.clipboard.writeText("");
    assert.equal(await vscode.commands.executeCommand("docket.copyAuditMarkdown", shown.uri), report?.markdown);
    assert.equal(await vscode.env.clipboard.readText(), report?.markdown);
    // An option-like range is refused before anything runs: the command reports and resolves undefined.
    assert.equal(await vscode.commands.executeCommand("docket.auditBranch", "--output=/tmp/docket-x"), undefined);
  });

  it("docket.openLandingCommit shows a commit: with the Git extension, else as a read-only diff document", async () => {
    const { execFileSync } = await import("node:child_process");
    const sha = execFileSync("git", ["-C", workspaceRoot(), "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    const shown: unknown = await vscode.commands.executeCommand("docket.openLandingCommit", sha, "initial commit");
    assert.ok(shown === "git" || shown === "patch", describeResult(shown));
    // Without the Git extension's repository (git.enabled off), the backend's git show text opens instead.
    const git = vscode.workspace.getConfiguration("git");
    await git.update("enabled", false, vscode.ConfigurationTarget.Global);
    try {
      const deadline = Date.now() + 10_000;
      let fallback: unknown;
      do {
        await new Promise((resolve) => setTimeout(resolve, 250));
        fallback = await vscode.commands.executeCommand("docket.openLandingCommit", sha, "initial commit");
      } while (fallback !== "patch" && Date.now() < deadline);
      assert.equal(fallback, "patch");
      const document = vscode.window.activeTextEditor?.document;
      assert.equal(document?.uri.scheme, "docket-commit");
      assert.equal(document?.languageId, "diff");
      assert.match(document?.getText() ?? "", new RegExp(`^commit ${sha}`, "u"));
    } finally {
      await git.update("enabled", undefined, vscode.ConfigurationTarget.Global);
    }
    // A value that is not a full commit id does nothing.
    assert.equal(await vscode.commands.executeCommand("docket.openLandingCommit", "--output=/tmp/x", "x"), undefined);
  });

  it("sees ledger appends made by another process without a reload", async () => {
    // Another writer (here: the CLI's code path, run as a separate node process) opens a scope.
    const cli = path.join(vscode.extensions.getExtension(EXTENSION_ID)?.extensionPath ?? "", "dist", "docket.js");
    assert.ok(fs.existsSync(cli), "the bundled CLI exists");
    const before = await statusPhase();
    assert.equal(before, "off");
    const { execFileSync } = await import("node:child_process");
    execFileSync(process.execPath, ["-e", OPEN_SCOPE_SCRIPT, ledgerPath()], { env: { ...process.env, ELECTRON_RUN_AS_NODE: "1" } });
    const deadline = Date.now() + 10_000;
    let phase: unknown = before;
    while (phase !== "deciding" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      phase = await statusPhase();
    }
    assert.equal(phase, "deciding", "the status follows the other process's append");
  });

  it("restarts the backend after it crashes; commands work again", async () => {
    const victims = backendPids();
    assert.ok(victims.length > 0, "the backend process runs as a child of the extension host");
    for (const pid of victims) process.kill(pid, "SIGKILL");
    const deadline = Date.now() + 30_000;
    let phase: unknown;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const fresh = backendPids().filter((pid) => !victims.includes(pid));
      if (fresh.length === 0) continue;
      phase = await statusPhase();
      if (phase === "deciding") break;
    }
    assert.equal(phase, "deciding", "a new backend answers with the ledger's state");
    const off: unknown = await vscode.commands.executeCommand("docket.turnOff");
    assert.ok(off !== undefined, describeResult(off));
  });
});

/** Appends `work-scope-opened` the way any other process would: through the bundled store. */
const OPEN_SCOPE_SCRIPT = `
const fs = require("fs"), path = require("path"), crypto = require("crypto");
const ledger = process.argv[1];
const lines = fs.readFileSync(ledger, "utf8").split("\\n").filter(Boolean);
const last = JSON.parse(lines[lines.length - 1]);
const canon = (v) => v === null || typeof v !== "object" ? JSON.stringify(v) : Array.isArray(v) ? "[" + v.map(canon).join(",") + "]" : "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}";
const H = (v) => crypto.createHash("sha256").update(canon(v)).digest("hex");
const draft = { protocolVersion: "developer/v8", eventId: "event:external-open", workScopeId: "scope:external", scopeSequence: 0,
  previousScopeEventSha256: null, causalRefs: [], occurredAt: new Date().toISOString(), kind: "work-scope-opened", payload: {} };
const entry = { ...draft, eventSha256: H({ domain: "developer.event-envelope/v8", value: draft }) };
const line = lines.length, previousLineSha256 = last.lineSha256, stream = "developer/v8";
const lineSha256 = H({ domain: "docket/ledger-line/v1", value: { line, previousLineSha256, stream, entry } });
fs.appendFileSync(ledger, canon({ ledger: "docket/ledger-line/v1", line, previousLineSha256, stream, entry, lineSha256 }) + "\\n");
`;

async function statusPhase(): Promise<unknown> {
  const status: unknown = await vscode.commands.executeCommand("docket.showStatus");
  return (status as { phase?: unknown } | undefined)?.phase;
}

/** Pids of `docket.js serve` processes whose parent is this extension host. */
function backendPids(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/u.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (parent === process.pid && cmdline.includes("docket.js") && cmdline.includes("serve")) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

