// End-to-end UI test in a real VS Code workbench (code-server 4.139.1 = VS Code 1.139.1), driven by headless
// Debian Chromium through playwright-core: install the packaged .vsix into a fresh profile, open a fresh git
// workspace, open the Docket container, Turn On / Turn Off from the command palette and check the Work tree and
// the Receipts webview. Screenshots after each step: test-artifacts/e2e/*.png.
// Skips when DOCKET_SKIP_E2E=1, or when the toolchain cannot be installed outside CI (CI=true: fails).
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test, type TestContext } from "node:test";
import { launchChromium, loadPlaywright, type BrowserContext, type Page } from "./support/playwright";
import { freePort, run, startDetached, tailFile, waitForHttp, type ServerProcess } from "./support/process";
import { ensureToolchain, type Toolchain } from "./support/toolchain";
import { packagedVsix } from "./support/vsix";
import { artifactsDir, createRunDir, extensionLogFiles, initGitWorkspace, serverEnv, writeUserSettings } from "./support/workspace";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 180_000);
const SIDEBAR_ROWS = '[id="workbench.parts.sidebar"] .monaco-list-row';
const SCOPE_ROW = /Work scope|scope:/;

async function runCommand(page: Page, title: string): Promise<void> {
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
    // The palette closes when the command starts; if the command opens its own quick input, the
    // later assertions report what is on screen instead.
    await input.waitFor({ state: "hidden", timeout: 10_000 }).catch(() => undefined);
    return;
  }
}

interface Handles {
  browser?: BrowserContext;
}

async function uiFlow(t: TestContext, toolchain: Toolchain, handles: Handles): Promise<void> {
  const shots = artifactsDir("e2e");
  for (const old of fs.readdirSync(shots)) fs.rmSync(path.join(shots, old), { recursive: true, force: true });
  const started = Date.now();
  const timings: Record<string, number> = {};
  const mark = (name: string): void => {
    timings[name] = Date.now() - started;
  };
  const shot = async (page: Page, name: string): Promise<void> => {
    await page.screenshot({ path: path.join(shots, `${name}.png`) });
    t.diagnostic(`screenshot ${path.join(shots, `${name}.png`)}`);
  };

  const vsix = packagedVsix((line) => t.diagnostic(line));
  mark("vsix");
  const dirs = createRunDir("ui");
  const consoleLines: string[] = [];
  let server: ServerProcess | undefined;
  let browser: BrowserContext | undefined;
  let page: Page | undefined;
  try {
    initGitWorkspace(dirs.workspace, {
      "README.md": "# Docket UI test workspace\n\nCreated fresh for one end-to-end run.\n",
      "src/hello.ts": 'export const hello = (name: string): string => `hello ${name}`;\n',
    });
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
        dirs.workspace,
      ],
      { cwd: dirs.root, env, logFile: path.join(dirs.logs, "code-server.log") },
    );
    t.diagnostic(`code-server pid ${server.pid} on http://127.0.0.1:${port} (run dir ${dirs.root})`);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server, 30_000);
    mark("serverAnswering");

    browser = await launchChromium(loadPlaywright(toolchain), toolchain, dirs.chromeProfile, { ...process.env, TMPDIR: dirs.tmp });
    handles.browser = browser;
    page = browser.pages()[0] ?? (await browser.newPage());
    const p = page;
    p.on("console", (message) => consoleLines.push(`[${message.type()}] ${message.text()}`));
    p.on("pageerror", (error) => consoleLines.push(`[pageerror] ${error.message}`));
    mark("browserLaunched");

    // 1. Workbench with the workspace's files.
    await p.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(dirs.workspace)}`, { waitUntil: "domcontentloaded", timeout: 30_000 });
    await p.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    await p.locator(".explorer-folders-view .monaco-list-row", { hasText: "README.md" }).first().waitFor({ timeout: 60_000 });
    mark("workbench");
    await shot(p, "01-workbench");

    // 2. Docket's activity-bar container.
    const container = p.locator('.activitybar [aria-label^="Docket"]').first();
    await container.waitFor({ timeout: 30_000 });
    await container.click();
    await p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /Work/i }).first().waitFor({ timeout: 30_000 });
    mark("containerOpen");
    await shot(p, "02-docket-container");

    // 3. Docket: Turn On → the Work tree shows the scope, Receipts shows work-scope-opened.
    await runCommand(p, "Docket: Turn On");
    await p.locator(SIDEBAR_ROWS, { hasText: SCOPE_ROW }).first().waitFor({ timeout: 30_000 });
    mark("workTreeScope");
    const receipts = p.frameLocator("iframe.webview").frameLocator("#active-frame");
    const rowKinds = async (): Promise<string[]> => {
      const rows = receipts.locator("#receipts-table [data-kind]");
      const kinds: string[] = [];
      for (let index = 0; index < (await rows.count()); index++) kinds.push((await rows.nth(index).getAttribute("data-kind", { timeout: 5_000 })) ?? "");
      return kinds;
    };
    // Receipts does not swap its page under the reader: when the ledger grows it shows a "New receipts are
    // available" banner (#stale-banner) with a Show latest button (#show-latest). Click it when it appears.
    const showLatest = receipts.locator("#stale-banner #show-latest");
    const receiptKinds = async (count: number, bannerShot: string): Promise<string[]> => {
      const deadline = Date.now() + 20_000;
      let kinds = await rowKinds();
      let bannerSeen = false;
      while (kinds.length < count && Date.now() < deadline) {
        if (await showLatest.isVisible()) {
          if (!bannerSeen) await shot(p, bannerShot);
          bannerSeen = true;
          await showLatest.click({ timeout: 5_000 }).catch(() => undefined);
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
        kinds = await rowKinds();
      }
      t.diagnostic(`Receipts rows: ${JSON.stringify(kinds)}${bannerSeen ? " (after clicking Show latest)" : ""}`);
      return kinds;
    };
    await receipts.locator("#receipts-table").waitFor({ timeout: 30_000 });
    const afterOn = await receiptKinds(1, "03a-new-receipts-banner");
    mark("receiptOpened");
    await shot(p, "03-turned-on");
    assert.deepEqual(afterOn, ["work-scope-opened"], "Receipts shows exactly the work-scope-opened row after Turn On");

    // 4. Docket: Turn Off → two receipts.
    await runCommand(p, "Docket: Turn Off");
    const afterOff = await receiptKinds(2, "04a-new-receipts-banner");
    mark("receiptClosed");
    await shot(p, "04-turned-off");
    assert.deepEqual([...afterOff].sort(), ["work-scope-closed", "work-scope-opened"], "Receipts shows both rows after Turn Off");
    const tree = await p.locator(SIDEBAR_ROWS).allInnerTexts();
    t.diagnostic(`Work tree after Turn Off: ${JSON.stringify(tree)}`);
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
    await browser?.close().catch(() => undefined);
    if (server !== undefined) await server.stop();
    fs.writeFileSync(path.join(shots, "browser-console.log"), consoleLines.join("\n") + "\n");
    fs.writeFileSync(path.join(shots, "code-server.log"), tailFile(path.join(dirs.logs, "code-server.log"), 100_000) + "\n");
    if (fs.existsSync(path.join(dirs.userData, "logs"))) {
      fs.cpSync(path.join(dirs.userData, "logs"), path.join(shots, "logs"), { recursive: true });
    }
    dirs.cleanup();
  }
}

test("Docket in real VS Code (code-server): Turn On / Turn Off through the UI", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const installed = await ensureToolchain();
  if ("skip" in installed) {
    t.skip(installed.skip);
    return;
  }
  // The budget covers everything after the (possibly cold) toolchain install.
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`UI test exceeded its ${BUDGET_MS} ms budget`)), BUDGET_MS);
  });
  const handles: Handles = {};
  const flow = uiFlow(t, installed.toolchain, handles);
  try {
    await Promise.race([flow, budget]);
  } finally {
    clearTimeout(timer);
    // On a budget overrun the flow is still running: closing the browser makes its pending waits fail at once,
    // and its finally then stops code-server; wait for that before returning.
    await handles.browser?.close().catch(() => undefined);
    await flow.catch(() => undefined);
  }
});
