// `npm test`: build, type-check and compile the tests, then run them with node's test runner in
// two phases: fast unit + integration tests in parallel, then the real-VS-Code suites (extension
// host and end-to-end UI) one at a time. Ends with one summary line for both phases.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const outDir = path.join(root, "out");
const artifacts = path.join(root, "test-artifacts");
fs.mkdirSync(artifacts, { recursive: true });

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`✖ ${title} failed (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

function testFiles(...folders) {
  return folders.flatMap((folder) => {
    const directory = path.join(outDir, "test", folder);
    if (!fs.existsSync(directory)) return [];
    return fs
      .readdirSync(directory)
      .filter((name) => name.endsWith(".test.js"))
      .sort()
      .map((name) => path.join(directory, name));
  });
}

function runPhase(title, files, concurrency) {
  console.log(`\n▶ ${title} (${files.length} files)`);
  if (files.length === 0) return { pass: 0, fail: 0, skipped: 0, status: 0 };
  const tap = path.join(artifacts, `${title.replace(/\W+/gu, "-")}.tap`);
  const result = spawnSync(
    process.execPath,
    [
      "--test",
      `--test-concurrency=${concurrency}`,
      "--test-reporter=spec",
      "--test-reporter-destination=stdout",
      "--test-reporter=tap",
      `--test-reporter-destination=${tap}`,
      ...files,
    ],
    { cwd: root, stdio: "inherit" },
  );
  const text = fs.existsSync(tap) ? fs.readFileSync(tap, "utf8") : "";
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, "mu").exec(text)?.[1] ?? 0);
  return { pass: count("pass"), fail: count("fail") + count("cancelled"), skipped: count("skipped"), status: result.status ?? 1 };
}

fs.rmSync(outDir, { recursive: true, force: true });
step("build (esbuild)", process.execPath, [path.join(root, "scripts/build.mjs")]);
step("type-check and compile tests (tsc)", process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json", "--outDir", "out"]);

const fast = runPhase("unit and integration tests", testFiles("unit", "integration"), 2);
console.log("\n▶ reliability suite (npm run test:reliability)");
const reliabilityReport = path.join(artifacts, "reliability.txt");
fs.rmSync(reliabilityReport, { force: true });
const reliability =
  spawnSync(process.execPath, [path.join(outDir, "test", "reliability", "run.js"), "--report", reliabilityReport], { cwd: root, stdio: "inherit" })
    .status ?? 1;
const real = runPhase("real VS Code tests", testFiles("exthost", "e2e"), 1);

const pass = fast.pass + real.pass;
const fail = fast.fail + real.fail;
const skipped = fast.skipped + real.skipped;
// The reliability suite prints in the middle of a long log; its failures are repeated at the end,
// where a CI log's tail shows them.
if (reliability !== 0) {
  const report = fs.existsSync(reliabilityReport) ? fs.readFileSync(reliabilityReport, "utf8") : "(the suite wrote no report)\n";
  console.log(`\n▶ reliability suite failures (${path.relative(root, reliabilityReport)})\n${report}`);
}
console.log(`\n${pass} passed, ${fail} failed, ${skipped} skipped; reliability suite ${reliability === 0 ? "passed" : "FAILED"}`);
process.exit(fast.status !== 0 || real.status !== 0 || reliability !== 0 || fail > 0 || pass === 0 ? 1 : 0);
