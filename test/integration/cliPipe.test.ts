// A reader that stops early (`docket status | head -1`) closes the pipe before Docket has written
// everything: the command must finish with its own exit code, never crash on EPIPE.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { tempRepo } from "../support/gitRepo";
import { repoRoot } from "../support/repoRoot";

const cli = path.join(repoRoot(), "dist", "docket.js");

function runWithClosedStdout(args: readonly string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    // The reader is gone before the command prints anything.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

test("status, ledger verify and --help exit with their own code when stdout's reader has gone", async () => {
  const repo = tempRepo({ files: { "a.txt": "a\n" } });
  try {
    for (const args of [["status"], ["on"], ["ledger", "verify"], ["--help"], ["off", "--json"]]) {
      const run = await runWithClosedStdout(args, repo.root);
      assert.equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      assert.doesNotMatch(run.stderr, /EPIPE|Unhandled/u, args.join(" "));
    }
  } finally {
    repo.dispose();
  }
});
