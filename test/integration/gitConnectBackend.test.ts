// `docket/git/plan` and `docket/git/apply` over stdio, as "Docket: Connect Git…" uses them: the
// plan writes nothing, apply writes only the plan shown, an untrusted window writes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { ErrorCodes, Requests } from "../../server/protocol/messages";
import { startBackend } from "../support/backendProcess";
import { runGit, tempRepo } from "../support/gitRepo";

test("git plan → stale apply refused → apply(planSha256) → disconnect plan and apply; untrusted refuses", async () => {
  const repo = tempRepo({ files: { "README.md": "hi\n" } });
  const hook = path.join(repo.root, ".git", "hooks", "prepare-commit-msg");
  try {
    const untrusted = await startBackend({ workspaceFolder: repo.root, trusted: false });
    try {
      const shown = await untrusted.request(Requests.gitPlan, { mode: "connect" });
      assert.equal(await untrusted.errorCode(Requests.gitApply.method, { mode: "connect", planSha256: shown.planSha256 }), ErrorCodes.untrusted);
      assert.equal(fs.existsSync(hook), false);
    } finally {
      await untrusted.stop();
    }

    const backend = await startBackend({ workspaceFolder: repo.root });
    try {
      const plan = await backend.request(Requests.gitPlan, { mode: "connect" });
      assert.deepEqual(plan.files.map((file) => [path.relative(repo.root, file.path), file.before, file.executable]), [
        [".gitattributes", null, false],
        [path.join(".git", "hooks", "prepare-commit-msg"), null, true],
      ]);
      assert.deepEqual(plan.config.map((entry) => entry.key), ["merge.docket-ledger.name", "merge.docket-ledger.driver"]);
      assert.equal(fs.existsSync(hook), false, "planning writes nothing");

      // The attributes file changes between "shown" and "confirmed": the shown plan is refused.
      fs.writeFileSync(path.join(repo.root, ".gitattributes"), "*.bin binary\n");
      assert.equal(await backend.errorCode(Requests.gitApply.method, { mode: "connect", planSha256: plan.planSha256 }), ErrorCodes.agentPlanChanged);
      assert.equal(fs.existsSync(hook), false);

      const fresh = await backend.request(Requests.gitPlan, { mode: "connect" });
      const applied = await backend.request(Requests.gitApply, { mode: "connect", planSha256: fresh.planSha256 });
      assert.equal(applied.planSha256, fresh.planSha256);
      for (const file of fresh.files) assert.equal(fs.readFileSync(file.path, "utf8"), file.after);
      assert.equal(runGit(repo.root, ["config", "--local", "merge.docket-ledger.name"]).trim(), "Docket ledger merge");
      const connected = await backend.request(Requests.gitPlan, { mode: "connect" });
      assert.deepEqual([connected.files, connected.config], [[], []], "already connected");

      const removal = await backend.request(Requests.gitPlan, { mode: "disconnect" });
      await backend.request(Requests.gitApply, { mode: "disconnect", planSha256: removal.planSha256 });
      assert.equal(fs.readFileSync(path.join(repo.root, ".gitattributes"), "utf8"), "*.bin binary\n");
      assert.equal(fs.existsSync(hook), false);

      // A foreign hook: the plan itself is a coded conflict.
      fs.writeFileSync(hook, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      assert.equal(await backend.errorCode(Requests.gitPlan.method, { mode: "connect" }), ErrorCodes.gitHookConflict);
    } finally {
      await backend.stop();
    }
  } finally {
    repo.dispose();
  }
});
