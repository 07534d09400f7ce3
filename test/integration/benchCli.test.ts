// `npm run bench`'s contract with its callers (dist/bench.js): `--json <file>` writes a report of
// the documented shape, the exit code is 0 when every target passes and 1 when one fails, and a
// usage error exits 2 having measured nothing. Only the cheapest figure is measured.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import test from "node:test";
import { BenchReportSchema } from "../../bench/report";
import { repoRoot } from "../support/repoRoot";

const BENCH = path.join(repoRoot(), "dist", "bench.js");

function bench(args: readonly string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const { DOCKET_BENCH_TEST_TARGETS: _ignored, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [BENCH, ...args], { encoding: "utf8", env: { ...inherited, ...env }, timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function temporaryReport(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "docket-bench-test-")), "report.json");
}

test("--only and --json measure the chosen figure and write a valid report; every target passing exits 0", () => {
  const file = temporaryReport();
  const result = bench(["--only=calibration", "--rounds=9", "--json", file]);
  assert.equal(result.status, 0, result.stderr + result.stdout);
  const report = BenchReportSchema.parse(JSON.parse(fs.readFileSync(file, "utf8")));
  assert.deepEqual(report.figures.map((entry) => entry.id), ["calibration.emptyScript"]);
  const [measured] = report.figures;
  assert.equal(measured?.rounds, 9);
  assert.equal(measured?.floor?.label, "node -e 0");
  assert.ok((measured?.measured.cpuMs.min ?? 0) > 0 && (measured?.measured.peakRssMb?.median ?? 0) > 0);
  assert.equal(report.passed, true);
  assert.deepEqual(report.options, { quick: false, only: ["calibration"], rounds: 9 });
  assert.equal(report.machine.cpus, os.cpus().length);
  assert.match(result.stdout, /calibration\.emptyScript .*info/u);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

test("a failed target exits 1 and says so in the report, also on standard output with --json -", () => {
  const result = bench(["--only=calibration", "--rounds=9", "--json", "-"], { DOCKET_BENCH_TEST_TARGETS: JSON.stringify({ "calibration.emptyScript": 0.01 }) });
  assert.equal(result.status, 1, result.stderr);
  const report = BenchReportSchema.parse(JSON.parse(result.stdout));
  assert.equal(report.passed, false);
  assert.deepEqual(report.verdicts, [{ id: "calibration.emptyScript", verdict: "FAIL" }]);
  assert.equal(report.figures[0]?.pass, false);
  assert.equal(report.figures[0]?.target?.max, 0.01);
  assert.match(result.stderr, /failed: calibration\.emptyScript \(FAIL\)/u, "the table goes to standard error");
});

test("usage errors exit 2 and measure nothing", () => {
  for (const args of [["--bogus"], ["--only=nothing.here"], ["--rounds=0"], ["--json"]]) {
    const result = bench(args);
    assert.equal(result.status, 2, `${args.join(" ")}: ${result.stderr}${result.stdout}`);
    assert.match(result.stderr, /usage: npm run bench/u);
    assert.equal(result.stdout, "");
  }
});
