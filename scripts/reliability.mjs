// `npm run test:reliability [-- --long] [--only NAME] [--seed N] [--keep]`: build, compile the
// tests, then run the standing reliability suite (test/reliability/run.ts). `npm test` runs the
// same suite (short mode) after the unit and integration tests, without building twice.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const args = process.argv.slice(2);

function step(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

step(process.execPath, [path.join(root, "scripts/build.mjs")]);
step(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--outDir", "out"]);
const run = spawnSync(process.execPath, [path.join(root, "out/test/reliability/run.js"), ...args], { cwd: root, stdio: "inherit" });
process.exit(run.status ?? 1);
