// Two ways to run an extensionTestsPath suite in a real extension host:
//   - runInVSCodeServer: the plain VS Code server bundled in code-server (server-main.js with the smoke-test
//     driver enabled) + headless Chromium opening the workbench with a `payload` URL parameter;
//   - runInDesktopVSCode: @vscode/test-electron runTests() with an installed desktop VS Code.
// Both give the server its own temp dirs/TMPDIR, kill the whole process group at the end, and return the
// results the suite wrote to $DOCKET_EXTHOST_RESULTS.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { runTests } from "@vscode/test-electron";
import { launchChromium, loadPlaywright, type BrowserContext } from "../e2e/support/playwright";
import { freePort, startDetached, stopGroup, trackGroup, waitForHttp, waitUntil } from "../e2e/support/process";
import type { Toolchain } from "../e2e/support/toolchain";
import { artifactsDir, createRunDir, initGitWorkspace, serverEnv, writeUserSettings } from "../e2e/support/workspace";
export { extensionLogFiles } from "../e2e/support/workspace";
import { RESULTS_ENV, type ExtHostResults } from "./results";

export interface SuiteRunOptions {
  extensionDevelopmentPath: string;
  extensionTestsPath: string;
  /** Name for artifacts (test-artifacts/exthost/<label>-*). */
  label: string;
  timeoutMs: number;
  /** Extra environment for the extension host. */
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface SuiteRun {
  results: ExtHostResults;
  timings: Record<string, number>;
  /** test-artifacts/exthost: this run's logs are in <artifacts>/<label>-server|desktop. */
  artifacts: string;
  /** This run's artifact folder (server log, VS Code logs incl. each extension's log, browser console, results). */
  runArtifacts: string;
}

const WORKSPACE_FILES = {
  "README.md": "# Docket extension-host test workspace\n\nCreated fresh for one test run.\n",
  "src/hello.ts": 'export const hello = (name: string): string => `hello ${name}`;\n',
};

function readResults(file: string): ExtHostResults | undefined {
  if (!fs.existsSync(file)) return undefined;
  return JSON.parse(fs.readFileSync(file, "utf8")) as ExtHostResults;
}

function copyIfExists(from: string, to: string): void {
  if (fs.existsSync(from)) fs.cpSync(from, to, { recursive: true });
}

// ------------------------------------------------------------------------------------ VS Code server (web)

export async function runInVSCodeServer(toolchain: Toolchain, options: SuiteRunOptions): Promise<SuiteRun> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string): void => {
    timings[name] = Date.now() - started;
  };
  const run = createRunDir("xh");
  const artifacts = artifactsDir("exthost");
  const resultsFile = path.join(run.out, "results.json");
  const consoleLines: string[] = [];
  let server: ReturnType<typeof startDetached> | undefined;
  let browser: BrowserContext | undefined;
  try {
    initGitWorkspace(run.workspace, WORKSPACE_FILES);
    writeUserSettings(run.userData);
    const port = await freePort();
    const host = `127.0.0.1:${port}`;
    server = startDetached(
      toolchain.node,
      [
        toolchain.serverMain,
        "--host", "127.0.0.1",
        "--port", String(port),
        "--without-connection-token",
        "--accept-server-license-terms",
        "--enable-smoke-test-driver",
        "--disable-telemetry",
        "--extensions-dir", run.extensions,
        "--server-data-dir", run.userData,
        "--user-data-dir", run.userData,
      ],
      {
        cwd: run.root,
        env: serverEnv(run.tmp, { [RESULTS_ENV]: resultsFile, ...options.env }),
        logFile: path.join(run.logs, "server.log"),
      },
    );
    log(`[exthost/server] VS Code ${toolchain.vscodeVersion} server pid ${server.pid} on http://${host} (run dir ${run.root})`);
    await waitForHttp(`http://${host}/version`, server, 30_000);
    mark("serverAnswering");

    const playwright = loadPlaywright(toolchain);
    browser = await launchChromium(playwright, toolchain, run.chromeProfile, { ...process.env, TMPDIR: run.tmp });
    mark("browserLaunched");
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.on("console", (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    page.on("pageerror", (error) => consoleLines.push(`[pageerror] ${error.message}`));

    const remote = (file: string): string => `vscode-remote://${host}${file}`;
    const payload = [
      ["extensionDevelopmentPath", remote(options.extensionDevelopmentPath)],
      ["extensionTestsPath", remote(options.extensionTestsPath)],
      ["skipWelcome", "true"],
    ];
    const url = `http://${host}/?folder=${encodeURIComponent(run.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    await page.goto(url, { waitUntil: "domcontentloaded", timeout: 30_000 });
    await page.waitForSelector(".monaco-workbench", { timeout: 30_000 });
    mark("workbench");

    const results = await Promise.race([
      waitUntil(() => readResults(resultsFile), options.timeoutMs, `extension-host results in ${resultsFile}`),
      server.exited.then((code) => {
        throw new Error(`VS Code server exited early (${code}):\n${server?.logTail() ?? ""}`);
      }),
    ]);
    mark("results");
    return { results, timings, artifacts, runArtifacts: path.join(artifacts, `${options.label}-server`) };
  } catch (error) {
    const progress = consoleLines.filter((line) => /[✔✗]|passing|failing|\d+\) /.test(line)).slice(-20);
    const hint = `server log, ext-host logs and browser console: ${path.join(artifacts, `${options.label}-server`)}`;
    const detail = progress.length > 0 ? `\nmocha progress seen in the browser console:\n${progress.join("\n")}` : "";
    throw new Error(`${error instanceof Error ? error.message : String(error)}${detail}\n${hint}`);
  } finally {
    await browser?.close().catch(() => undefined);
    if (server !== undefined) await server.stop();
    mark("stopped");
    // Keep the evidence: server log, ext host logs, browser console, results.
    const prefix = path.join(artifacts, `${options.label}-server`);
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.mkdirSync(prefix, { recursive: true });
    copyIfExists(path.join(run.logs, "server.log"), path.join(prefix, "server.log"));
    copyIfExists(path.join(run.userData, "logs"), path.join(prefix, "logs"));
    copyIfExists(resultsFile, path.join(prefix, "results.json"));
    fs.writeFileSync(path.join(prefix, "browser-console.log"), consoleLines.join("\n") + "\n");
    run.cleanup();
  }
}

// --------------------------------------------------------------------------------- desktop VS Code (electron)

/**
 * The desktop VS Code executable to use, if any: $VSCODE_EXECUTABLE, else `code` on PATH. The `code` on PATH is
 * usually the CLI shell script (<install>/bin/code); runTests needs the Electron binary next to bin/.
 */
export function findDesktopVSCode(): string | undefined {
  const fromEnv = process.env.VSCODE_EXECUTABLE;
  if (fromEnv !== undefined && fromEnv !== "") {
    if (!fs.existsSync(fromEnv)) throw new Error(`VSCODE_EXECUTABLE=${fromEnv} does not exist`);
    return fromEnv;
  }
  const which = spawnSync("sh", ["-c", "command -v code"], { encoding: "utf8" });
  const onPath = which.status === 0 ? which.stdout.trim() : "";
  if (onPath === "") return undefined;
  const real = fs.realpathSync(onPath);
  if (path.basename(path.dirname(real)) === "bin") {
    const install = path.dirname(path.dirname(real));
    for (const name of ["code", "code-insiders", "codium"]) {
      const candidate = path.join(install, name);
      if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
    }
  }
  return real;
}

function hasCommand(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

/** Why the desktop route cannot run on this machine, or undefined if it can. */
export function desktopSkipReason(): string | undefined {
  let executable: string | undefined;
  try {
    executable = findDesktopVSCode();
  } catch (error) {
    return String(error instanceof Error ? error.message : error);
  }
  if (executable === undefined) {
    return "no desktop VS Code: set VSCODE_EXECUTABLE or put `code` on PATH (the VS Code server route still runs)";
  }
  if (process.platform === "linux" && !process.env.DISPLAY && !hasCommand("Xvfb")) {
    return `desktop VS Code found (${executable}) but there is no DISPLAY and no Xvfb (apt-get install xvfb)`;
  }
  return undefined;
}

export async function runInDesktopVSCode(options: SuiteRunOptions): Promise<SuiteRun> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const executable = findDesktopVSCode();
  if (executable === undefined) throw new Error("no desktop VS Code executable");
  const started = Date.now();
  const timings: Record<string, number> = {};
  const run = createRunDir("xd");
  const artifacts = artifactsDir("exthost");
  const resultsFile = path.join(run.out, "results.json");
  const pidFile = path.join(run.root, "vscode.pid");
  let xvfb: ReturnType<typeof startDetached> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const env: Record<string, string> = { [RESULTS_ENV]: resultsFile, TMPDIR: run.tmp, ...options.env };
  try {
    initGitWorkspace(run.workspace, WORKSPACE_FILES);
    writeUserSettings(run.userData);
    if (process.platform === "linux" && !process.env.DISPLAY) {
      const display = `:${90 + Math.floor(Math.random() * 400)}`;
      xvfb = startDetached("Xvfb", [display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"], {
        cwd: run.root,
        env: serverEnv(run.tmp),
        logFile: path.join(run.logs, "xvfb.log"),
      });
      env.DISPLAY = display;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // runTests() spawns the executable itself and offers no process-group control, so it gets a wrapper that
    // records its pid and execs VS Code in a new session: that pid is then the group we kill afterwards.
    const wrapper = path.join(run.root, "vscode-wrapper.sh");
    fs.writeFileSync(
      wrapper,
      `#!/bin/sh\necho $$ > '${pidFile}'\nexec setsid '${executable}' "$@"\n`,
      { mode: 0o755 },
    );
    log(`[exthost/desktop] ${executable} (run dir ${run.root})`);
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`desktop VS Code run timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    });
    const pending = runTests({
      vscodeExecutablePath: wrapper,
      extensionDevelopmentPath: options.extensionDevelopmentPath,
      extensionTestsPath: options.extensionTestsPath,
      extensionTestsEnv: env,
      launchArgs: [
        run.workspace,
        "--disable-extensions",
        `--user-data-dir=${run.userData}`,
        `--extensions-dir=${run.extensions}`,
      ],
    });
    // Register the group for the exit hook as soon as the wrapper has written its pid.
    void waitUntil(() => (fs.existsSync(pidFile) ? true : undefined), 30_000, "pid file")
      .then(() => trackGroup(Number(fs.readFileSync(pidFile, "utf8").trim())))
      .catch(() => undefined);
    let runError: unknown;
    try {
      await Promise.race([pending, timeout]);
    } catch (error) {
      runError = error;
    }
    timings.results = Date.now() - started;
    const results = readResults(resultsFile);
    if (results === undefined) {
      throw new Error(`desktop VS Code wrote no results (${String(runError ?? "exit 0")})`);
    }
    return { results, timings, artifacts, runArtifacts: path.join(artifacts, `${options.label}-desktop`) };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    if (fs.existsSync(pidFile)) await stopGroup(Number(fs.readFileSync(pidFile, "utf8").trim()));
    if (xvfb !== undefined) await xvfb.stop();
    const prefix = path.join(artifacts, `${options.label}-desktop`);
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.mkdirSync(prefix, { recursive: true });
    copyIfExists(path.join(run.userData, "logs"), path.join(prefix, "logs"));
    copyIfExists(resultsFile, path.join(prefix, "results.json"));
    run.cleanup();
  }
}
