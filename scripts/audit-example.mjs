// Builds the scripted two-commit branch of docs/examples/audit-report.md and audits it with the
// built CLI (dist/docket.js; run `node scripts/build.mjs` first):
//
//   node scripts/audit-example.mjs [--out FILE] [--repo DIR] [--subfolder NAME]
//
// `main` holds README.md and src/greeting.ts. On `feature`, Docket is turned on (`docket on`) and a
// whole cycle runs through `docket mcp` (the MCP SDK's client): a work judgment, its conclusion, an
// authorization, the edit of src/greeting.ts, the landing, and the reroute judgment; the
// verification judgment is left owed. `docket connect git` ran on `main` (its .gitattributes line is
// in the initial commit); commit 1 carries the edit, the ledger and the Docket-Landing trailer
// Docket's prepare-commit-msg hook added; commit 2 adds
// src/farewell.ts without Docket. The report is `docket audit main..feature --markdown`; with
// --out it is written there (else to stdout). --repo keeps the repository in DIR (which must not
// exist) for further audits; without it the repository is removed. --subfolder runs Docket in a
// folder of the repository instead of its root (the workspace is then DIR/NAME).
//
// Commit dates are fixed; the ledger's `occurredAt` (and so every hash and commit id after it) is
// the clock's, so two runs differ only in hexadecimal ids (test/integration/auditExample.test.ts
// compares with those normalized).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const cli = path.join(root, "dist", "docket.js");
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? null : (args[index + 1] ?? null);
};
const out = option("--out");
const keep = option("--repo");
const subfolder = option("--subfolder") ?? "";

const DATE = "2026-12-01T10:00:00Z";
const gitEnv = { ...process.env, GIT_AUTHOR_DATE: DATE, GIT_COMMITTER_DATE: DATE, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };

function git(repo, gitArgs) {
  return execFileSync("git", ["-C", repo, ...gitArgs], { encoding: "utf8", env: gitEnv, stdio: ["ignore", "pipe", "pipe"] });
}

function docket(repo, cliArgs) {
  const run = spawnSync(process.execPath, [cli, ...cliArgs], { cwd: repo, encoding: "utf8" });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

async function tool(client, name, toolArgs) {
  const result = await client.callTool({ name, arguments: toolArgs });
  if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result;
}

function write(repo, relative, content) {
  fs.mkdirSync(path.dirname(path.join(repo, relative)), { recursive: true });
  fs.writeFileSync(path.join(repo, relative), content);
}

/** The accepted landing the ledger holds (the scenario records one). */
function recordedLanding(repo) {
  const lines = fs.readFileSync(path.join(repo, ".docket", "ledger.jsonl"), "utf8").split("\n").filter((line) => line !== "");
  for (const line of lines) {
    const { entry } = JSON.parse(line);
    if (entry?.kind === "implementation-landing-recorded") return { landingId: entry.payload.landing.landingId, eventSha256: entry.eventSha256, workScopeId: entry.workScopeId };
  }
  throw new Error("the ledger holds no landing");
}

export async function buildScenario(repo, sub = "") {
  fs.mkdirSync(repo);
  const workspace = path.join(repo, sub);
  git(repo, ["init", "--quiet", "--initial-branch=main"]);
  git(repo, ["config", "user.name", "Docket Example"]);
  git(repo, ["config", "user.email", "example@docket.invalid"]);
  git(repo, ["config", "commit.gpgsign", "false"]);
  write(workspace, "README.md", "# Greeter\n");
  write(workspace, "src/greeting.ts", "export const greeting = \"Hello\";\n");
  // Connected once, as a team would: the ledger's merge line in .gitattributes (committed with the
  // project), the merge driver and the prepare-commit-msg hook that writes the landing trailers.
  const connect = docket(workspace, ["connect", "git", "--workspace", workspace]);
  if (connect.status !== 0) throw new Error(`docket connect git failed: ${connect.stderr}`);
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "--no-verify", "-m", "Initial commit"]);
  git(repo, ["checkout", "--quiet", "-b", "feature"]);

  const on = docket(workspace, ["on", "--workspace", workspace]);
  if (on.status !== 0) throw new Error(`docket on failed: ${on.stderr}`);
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, "mcp", "--workspace", workspace], cwd: workspace, stderr: "pipe" });
  const client = new Client({ name: "docket-audit-example", version: "0.0.0" });
  await client.connect(transport);
  try {
    await tool(client, "open_judgment", {
      purpose: "work-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: "What should the greeting say?",
      obligations: [{ obligationId: "obligation:greeting", statement: "The greeting wording is decided." }],
    });
    await tool(client, "conclude_judgment", {
      disposition: "judgment",
      outcome: { kind: "contextual-judgment", rationale: "Users asked for a friendlier greeting.", artifact: "Say \"Hello, world\".", stopEvidence: ["The wording is agreed."] },
    });
    await tool(client, "authorize_change", { movement: "Change the greeting to \"Hello, world\".", stableLanding: "src/greeting.ts says \"Hello, world\".", verificationTarget: "The file says \"Hello, world\"." });
    write(workspace, "src/greeting.ts", "export const greeting = \"Hello, world\";\n");
    await tool(client, "record_landing", { result: "The greeting now says \"Hello, world\".", verification: ["cat src/greeting.ts"] });
    await tool(client, "open_judgment", {
      purpose: "reroute-decision",
      routeDefinitionId: "route:meaning-settlement",
      question: "Does the landing change the plan?",
      obligations: [{ obligationId: "obligation:plan", statement: "The plan still holds." }],
    });
    await tool(client, "conclude_judgment", { disposition: "not-applicable", reason: "The plan is unchanged.", basis: ["Only the planned file changed."] });
  } finally {
    await client.close();
  }
  const landing = recordedLanding(workspace);
  git(repo, ["add", "--all"]);
  // --no-verify skips pre-commit and commit-msg, not prepare-commit-msg: Docket's hook adds the trailers.
  git(repo, ["commit", "--quiet", "--no-verify", "-m", "Change the greeting"]);
  const message = git(repo, ["log", "-1", "--format=%B"]);
  const expected = `Docket-Landing: ${landing.landingId} ${landing.eventSha256}\nDocket-Scope: ${landing.workScopeId}`;
  if (!message.includes(expected)) throw new Error(`the prepare-commit-msg hook did not add the landing's trailers:\n${message}`);
  write(workspace, "src/farewell.ts", "export const farewell = \"Bye\";\n");
  git(repo, ["add", "--all"]);
  git(repo, ["commit", "--quiet", "--no-verify", "-m", "Add a farewell"]);
  return landing;
}

async function main() {
  const temporary = keep === null ? fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "docket-audit-example-"))) : null;
  const repo = keep === null ? path.join(temporary, "greeter") : path.resolve(keep);
  try {
    await buildScenario(repo, subfolder);
    const workspace = path.join(repo, subfolder);
    const audit = docket(workspace, ["audit", "main..feature", "--markdown", "--workspace", workspace]);
    if (audit.status !== 0) throw new Error(`docket audit exited ${String(audit.status)}: ${audit.stderr}`);
    if (out === null) process.stdout.write(audit.stdout);
    else fs.writeFileSync(path.resolve(out), audit.stdout);
  } finally {
    if (temporary !== null) fs.rmSync(temporary, { recursive: true, force: true, maxRetries: 30, retryDelay: 100 });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
