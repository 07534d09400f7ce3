// One real VS Code workbench for an end-to-end test: package and install the .vsix into a fresh profile,
// start code-server on a fresh git workspace, open it in headless Chromium, run the test's flow, and always
// collect screenshots, logs and the browser console into test-artifacts/<label>/ before tearing down.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import type { TestContext } from "node:test";
import { launchChromium, loadPlaywright, type BrowserContext, type FrameLocator, type Locator, type Page } from "./playwright";
import { freePort, run, startDetached, tailFile, waitForHttp, type ServerProcess } from "./process";
import { ensureToolchain, type Toolchain } from "./toolchain";
import { packagedVsix } from "./vsix";
import { artifactsDir, createRunDir, extensionLogFiles, initGitWorkspace, serverEnv, writeUserSettings, type RunDir } from "./workspace";

export const SIDEBAR_ROWS = '[id="workbench.parts.sidebar"] .monaco-list-row';

export interface Workbench {
  readonly page: Page;
  readonly dirs: RunDir;
  /** The Receipts webview's document (two nested iframes deep). */
  readonly receipts: FrameLocator;
  shot(name: string): Promise<void>;
  mark(name: string): void;
}

/** Runs a palette command by its title; reopens the palette when the command is not listed yet. */
export async function runCommand(page: Page, title: string): Promise<void> {
  // The palette computes its list when it opens; a command contributed a moment later is missing
  // from that list, so reopen it a few times before giving up.
  for (let attempt = 1; ; attempt += 1) {
    await page.keyboard.press("F1");
    const input = page.locator(".quick-input-widget input").first();
    await input.waitFor({ state: "visible", timeout: 15_000 });
    await page.keyboard.type(title);
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 5_000 });
    } catch (error) {
      await page.keyboard.press("Escape");
      if (attempt >= 3) throw error;
      continue;
    }
    await row.click();
    // The palette closes when the command starts; a command that opens its own quick input is
    // answered by the caller.
    await input.waitFor({ state: "hidden", timeout: 10_000 }).catch(() => undefined);
    return;
  }
}

/**
 * Answers the quick input whose title or prompt matches `expect`: types `text` (may be empty) and
 * presses Enter. Waiting for the matching prompt keeps successive boxes of one command apart.
 */
export async function answerQuickInput(page: Page, expect: RegExp, text: string): Promise<void> {
  const widget = page.locator(".quick-input-widget", { hasText: expect }).first();
  await widget.waitFor({ state: "visible", timeout: 20_000 });
  const input = widget.locator("input").first();
  await input.fill(text);
  await page.keyboard.press("Enter");
}

/**
 * Hovers `target` until VS Code's hover containing `text` shows (the first hover after a notification
 * or a quick input sometimes never opens), and returns it.
 */
export async function hoverFor(page: Page, target: Locator, text: string | RegExp): Promise<Locator> {
  const hover = page.locator(".monaco-hover, .workbench-hover", { hasText: text }).first();
  for (let attempt = 1; ; attempt += 1) {
    await page.locator(".part.editor").first().hover();
    await target.hover();
    try {
      await hover.waitFor({ timeout: 5_000 });
      return hover;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

interface Handles {
  browser?: BrowserContext;
}

async function session(
  t: TestContext,
  toolchain: Toolchain,
  handles: Handles,
  label: string,
  files: Record<string, string>,
  flow: (workbench: Workbench) => Promise<void>,
  prepare?: (workspace: string) => void,
): Promise<void> {
  const shots = artifactsDir(label);
  for (const old of fs.readdirSync(shots)) fs.rmSync(path.join(shots, old), { recursive: true, force: true });
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string): void => {
    timings[name] = Date.now() - started;
  };
  const vsix = packagedVsix((line) => t.diagnostic(line));
  mark("vsix");
  const dirs = createRunDir(label);
  const consoleLines: string[] = [];
  let server: ServerProcess | undefined;
  let page: Page | undefined;
  try {
    initGitWorkspace(dirs.workspace, files);
    prepare?.(dirs.workspace);
    writeUserSettings(dirs.userData);
    const env = serverEnv(dirs.tmp);
    // --config keeps code-server away from ~/.config/code-server; same profile flags for install and serve.
    const profile = ["--config", path.join(dirs.root, "config.yaml"), "--user-data-dir", dirs.userData, "--extensions-dir", dirs.extensions];
    run(toolchain.node, [toolchain.codeServer, ...profile, "--install-extension", vsix], { cwd: dirs.root, env, timeoutMs: 60_000 });
    const installed = fs.readdirSync(dirs.extensions).filter((name) => name.startsWith("docket."));
    assert.equal(installed.length, 1, `the vsix is installed into the fresh profile (found: ${fs.readdirSync(dirs.extensions).join(", ")})`);
    mark("installed");

    const port = await freePort();
    server = startDetached(
      toolchain.node,
      [
        toolchain.codeServer,
        ...profile,
        "--auth", "none",
        "--bind-addr", `127.0.0.1:${port}`,
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        "--ignore-last-opened",
        // VS Code's own log level (e.g. trace: the extension host logs each module load and context).
        ...(process.env.DOCKET_E2E_LOG_LEVEL ? ["--log", process.env.DOCKET_E2E_LOG_LEVEL] : []),
        dirs.workspace,
      ],
      { cwd: dirs.root, env, logFile: path.join(dirs.logs, "code-server.log") },
    );
    t.diagnostic(`code-server pid ${server.pid} on http://127.0.0.1:${port} (run dir ${dirs.root})`);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server, 30_000);
    mark("serverAnswering");

    const browser = await launchChromium(loadPlaywright(toolchain), toolchain, dirs.chromeProfile, { ...process.env, TMPDIR: dirs.tmp });
    handles.browser = browser;
    page = browser.pages()[0] ?? (await browser.newPage());
    const p = page;
    p.on("console", (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    p.on("pageerror", (error) => consoleLines.push(`[pageerror] ${error.message}`));
    mark("browserLaunched");

    await p.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.workspace)}`, { waitUntil: "domcontentloaded", timeout: 30_000 });
    await p.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    const firstFile = Object.keys(files).find((name) => !name.includes("/")) ?? "README.md";
    await p.locator(".explorer-folders-view .monaco-list-row", { hasText: firstFile }).first().waitFor({ timeout: 60_000 });
    mark("workbench");

    await flow({
      page: p,
      dirs,
      receipts: p.frameLocator("iframe.webview").frameLocator("#active-frame"),
      shot: async (name) => {
        await p.screenshot({ path: path.join(shots, `${name}.png`) });
        t.diagnostic(`screenshot ${path.join(shots, `${name}.png`)}`);
      },
      mark,
    });
    t.diagnostic(`timings (ms from start): ${JSON.stringify(timings)}`);
  } catch (error) {
    if (page !== undefined) await page.screenshot({ path: path.join(shots, "99-failure.png") }).catch(() => undefined);
    const extensionLogs = extensionLogFiles(path.join(dirs.userData, "logs"), "docket.docket")
      .map((file) => `--- last lines of the extension's ${path.basename(file)}:\n${tailFile(file, 25)}`)
      .join("\n");
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n` +
        `timings so far: ${JSON.stringify(timings)}; screenshots, logs and browser console in ${shots}\n` +
        `${extensionLogs}\ncode-server log tail:\n${server?.logTail(20) ?? "(not started)"}`,
    );
  } finally {
    await handles.browser?.close().catch(() => undefined);
    if (server !== undefined) await server.stop();
    fs.writeFileSync(path.join(shots, "browser-console.log"), consoleLines.join("\n") + "\n");
    fs.writeFileSync(path.join(shots, "code-server.log"), tailFile(path.join(dirs.logs, "code-server.log"), 100_000) + "\n");
    if (fs.existsSync(path.join(dirs.userData, "logs"))) {
      fs.cpSync(path.join(dirs.userData, "logs"), path.join(shots, "logs"), { recursive: true });
    }
    dirs.cleanup();
  }
}

/**
 * The body of an end-to-end test: installs the tool chain (or skips), then runs `flow` in a fresh workbench
 * within `budgetMs` (the budget starts after a possibly cold tool-chain install).
 */
export async function inWorkbench(
  t: TestContext,
  options: {
    label: string;
    files: Record<string, string>;
    budgetMs: number;
    /** Runs on the committed workspace before the workbench opens it (e.g. to seed a large ledger). */
    prepare?: (workspace: string) => void;
  },
  flow: (workbench: Workbench) => Promise<void>,
): Promise<void> {
  const installed = await ensureToolchain();
  if ("skip" in installed) {
    t.skip(installed.skip);
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${options.label} exceeded its ${options.budgetMs} ms budget`)), options.budgetMs);
  });
  const handles: Handles = {};
  const running = session(t, installed.toolchain, handles, options.label, options.files, flow, options.prepare);
  try {
    await Promise.race([running, budget]);
  } finally {
    clearTimeout(timer);
    // On a budget overrun the flow is still running: closing the browser makes its pending waits fail at once,
    // and its finally then stops code-server; wait for that before returning.
    await handles.browser?.close().catch(() => undefined);
    await running.catch(() => undefined);
  }
}
