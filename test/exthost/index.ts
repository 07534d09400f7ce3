// extensionTestsPath entry (the @vscode/test-electron contract): VS Code loads this module inside the
// extension host and awaits run(). We run mocha over every `*.suite.js` next to this file and, because the web
// workbench does not close when run() settles, also write the results to the file named by
// $DOCKET_EXTHOST_RESULTS so the launcher can collect them.
import fs from "node:fs";
import path from "node:path";
import Mocha from "mocha";
import * as vscode from "vscode";
import { RESULTS_ENV, type ExtHostResults, type ExtHostTestResult } from "./results";

function errorText(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

function writeResults(results: ExtHostResults): void {
  const file = process.env[RESULTS_ENV];
  if (file === undefined || file === "") return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename, so the launcher never reads a half-written file.
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(results, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

export function run(): Promise<void> {
  const started = Date.now();
  const tests: ExtHostTestResult[] = [];
  const summary = (error?: string): ExtHostResults => ({
    passed: tests.filter((test) => test.state === "passed").length,
    failed: tests.filter((test) => test.state === "failed").length,
    pending: tests.filter((test) => test.state === "pending").length,
    tests,
    ...(error === undefined ? {} : { error }),
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    remoteName: vscode.env.remoteName ?? null,
    node: process.version,
    durationMs: Date.now() - started,
  });

  return new Promise<void>((resolve, reject) => {
    try {
      const grep = process.env.DOCKET_EXTHOST_GREP;
      const mocha = new Mocha({
        ui: "bdd",
        color: false,
        reporter: "spec",
        timeout: 60_000,
        ...(grep === undefined || grep === "" ? {} : { grep }),
      });
      const suites = fs
        .readdirSync(__dirname)
        .filter((name) => name.endsWith(".suite.js"))
        .sort();
      if (suites.length === 0) throw new Error(`no *.suite.js files in ${__dirname}`);
      for (const name of suites) mocha.addFile(path.join(__dirname, name));

      const runner = mocha.run((failures) => {
        const results = summary();
        writeResults(results);
        if (failures > 0 || results.failed > 0) {
          reject(new Error(`${Math.max(failures, results.failed)} extension-host test(s) failed`));
        } else if (results.passed === 0) {
          reject(new Error("no extension-host test ran"));
        } else {
          resolve();
        }
      });
      runner.on("pass", (test) => tests.push({ title: test.fullTitle(), state: "passed", durationMs: test.duration ?? 0 }));
      runner.on("fail", (test, error) =>
        tests.push({ title: test.fullTitle(), state: "failed", durationMs: test.duration ?? 0, error: errorText(error) }),
      );
      runner.on("pending", (test) => tests.push({ title: test.fullTitle(), state: "pending" }));
    } catch (error) {
      writeResults(summary(errorText(error)));
      reject(error instanceof Error ? error : new Error(String(error)));
    }
  });
}
