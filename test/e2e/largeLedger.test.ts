// Extension start on a large ledger in a real VS Code workbench (code-server, headless Chromium):
// a workspace whose ledger holds 100,000 generated events (5,000 closed scopes; the bench's cached
// realistic workload, copied) and a current checkpoint. The Work view's first row must come from
// the backend's snapshot answer ("Still reading the history…"), long before the history is read;
// then the History lists the newest 50 closed scopes with "Show older…", which Enter loads; the
// Receipts view shows its counts grouped (100,000) and six-digit ordinals uncut; then the window
// reloads and the Work view's rows come back (a second start, with the compile caches the first
// left). Both starts are reported (diagnostics, asserted nothing: they move by seconds on a shared
// machine) from VS Code's activation event for Docket, step by step, to the first row.
// 100,000 events rather than the target's 1,000,000 keep the test in its time budget (the full read
// behind the first answer takes about 10 s here, 90 s at a million); bench/extensionStart.ts
// measures the backend's part at 1,000,000. Screenshots in test-artifacts/e2e-large-ledger/.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { type TestContext, test } from "node:test";
import { LedgerStore } from "../../server/ledger/store";
import { writeCheckpoint } from "../../server/hooks/checkpointState";
import { realisticLedger } from "../../bench/workloads";
import { openDocketContainer } from "./support/docketViews";
import type { CDPSession, Page } from "./support/playwright";
import { inWorkbench, SIDEBAR_ROWS } from "./support/workbench";
import { artifactsDir } from "./support/workspace";

const BUDGET_MS = Number(process.env.DOCKET_E2E_BUDGET_MS ?? 240_000);
const SCOPES = 5_000;

/** The time of a log line ("YYYY-MM-DD HH:MM:SS.mmm …", local time), or null. */
function stampOf(line: string | undefined): number | null {
  const stamp = line?.match(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}\.\d{3})/u);
  return stamp === undefined || stamp === null ? null : new Date(`${stamp[1]}T${stamp[2]}`).getTime();
}

/**
 * The lines of every log file under the profile's logs whose path ends with `suffix`, oldest
 * first: each extension host (a window reload starts a new one) logs under a folder named after
 * its start (`<stamp>/exthost<n>/`), and the names sort as they were made.
 */
function logLines(userData: string, suffix: string): string[] {
  const logs = path.join(userData, "logs");
  const files = fs.existsSync(logs) ? (fs.readdirSync(logs, { recursive: true }) as string[]).filter((name) => name.endsWith(suffix)).sort() : [];
  return files.flatMap((file) => fs.readFileSync(path.join(logs, file), "utf8").split("\n"));
}

/** The `nth` (0-based) line that contains `text`, or undefined. */
function nthWith(lines: string[], text: string, nth: number): string | undefined {
  return lines.filter((line) => line.includes(text))[nth];
}

/**
 * The start's milestones, from VS Code's extension host log (the activation event) and Docket.log
 * (activate() entered, "backend starting", "backend ready", "status answered", the Work view's
 * first rows given to VS Code); null where a line is missing. VS Code stamps Docket.log's lines when
 * its logger writes them, and the lines logged before that logger is ready (often the first second
 * of a start) all share one later stamp: this build's lines name the time activate() was entered
 * and each milestone's time after it, which are used when present (an older build's are not there:
 * its stamps are used, and activate() entered is "activating" minus the bundle's load time).
 */
interface StartMilestones {
  activationEvent: number | null;
  entryRequired: number | null;
  activateEntered: number | null;
  activating: number | null;
  backendStarting: number | null;
  backendReady: number | null;
  statusAnswered: number | null;
  rowsGiven: number | null;
}

/** The time of a Docket.log milestone: activate() entered plus the "+N ms after activate()" it names, else its stamp. */
function milestoneAt(line: string | undefined, activateEntered: number | null): number | null {
  const after = line?.match(/\(\+(\d+) ms after activate\(\)\)/u);
  if (after !== null && after !== undefined && activateEntered !== null) return activateEntered + Number(after[1]);
  return stampOf(line);
}

/** The extension host logs, one list of lines per host (0: the first start; 1: after the window's reload). */
function hostLogs(userData: string): string[][] {
  const logs = path.join(userData, "logs");
  const files = fs.existsSync(logs) ? (fs.readdirSync(logs, { recursive: true }) as string[]).filter((name) => name.endsWith("remoteexthost.log")).sort() : [];
  return files.map((file) => fs.readFileSync(path.join(logs, file), "utf8").split("\n"));
}

/** The milestones of the `nth` start (0: the first; 1: after the window's reload). */
function startMilestones(userData: string, nth: number): StartMilestones & { activatingLine: string | undefined; othersBefore: string[] } {
  const host = logLines(userData, "remoteexthost.log");
  const docket = logLines(userData, path.join("docket.docket", "Docket.log"));
  const activating = nthWith(docket, "[info] activating", nth);
  const loadedIn = activating?.match(/bundle loaded in (\d+) ms/u);
  const entered = activating?.match(/activate\(\) entered at (\S+), (\d+) ms after the extension host required/u);
  const activatingAt = stampOf(activating);
  const activateEntered = entered !== null && entered !== undefined ? Date.parse(entered[1]!) : activatingAt === null ? null : activatingAt - Number(loadedIn?.[1] ?? 0);
  // The other extensions this host began to activate before Docket's activate() was entered, with their events.
  const activations = (hostLogs(userData)[nth] ?? []).filter((line) => line.includes("_doActivateExtension") && !line.includes("docket.docket"));
  const othersBefore = activations
    .filter((line) => activateEntered !== null && (stampOf(line) ?? Infinity) <= activateEntered)
    .map((line) => line.replace(/^.*_doActivateExtension (\S+), startup: \w+, activationEvent: '([^']*)'.*$/u, "$1 ($2)"));
  return {
    activationEvent: stampOf(nthWith(host, "_doActivateExtension docket.docket", nth)),
    entryRequired: entered !== null && entered !== undefined ? Date.parse(entered[1]!) - Number(entered[2]) : null,
    activateEntered,
    activating: activatingAt === null || activateEntered === null ? activatingAt : activateEntered + Number(loadedIn?.[1] ?? 0),
    backendStarting: milestoneAt(nthWith(docket, "backend starting", nth), activateEntered),
    backendReady: milestoneAt(nthWith(docket, "backend ready", nth), activateEntered),
    statusAnswered: milestoneAt(nthWith(docket, "status answered", nth), activateEntered),
    rowsGiven: milestoneAt(nthWith(docket, "first rows given to VS Code", nth), activateEntered),
    activatingLine: activating?.replace(/^.*\[info\] /u, ""),
    othersBefore,
  };
}

/** Reports the `nth` start's milestones as diagnostics, timed from VS Code's activation event. */
function reportStart(t: TestContext, userData: string, nth: number, firstRowAt: number, openedAt: number): void {
  const at = { ...startMilestones(userData, nth), firstRow: firstRowAt };
  const since = (from: number | null, to: number | null): string => (from === null || to === null ? "not found" : `${to - from} ms`);
  const which = nth === 0 ? "first start" : "start after the window's reload";
  t.diagnostic(`${which}: activation event (remoteexthost.log) to the Work tree's first row: ${since(at.activationEvent, at.firstRow)}`);
  t.diagnostic(
    `${which}: activation event → dist/extension.js required ${since(at.activationEvent, at.entryRequired)}, → activate() entered ${since(at.activationEvent, at.activateEntered)}, → bundle loaded ("activating") ${since(at.activationEvent, at.activating)}, → "backend starting" ${since(at.activationEvent, at.backendStarting)}, → "backend ready" ${since(at.activationEvent, at.backendReady)}, → status answered ${since(at.activationEvent, at.statusAnswered)}, → rows given to VS Code ${since(at.activationEvent, at.rowsGiven)}, → first row on screen ${since(at.activationEvent, at.firstRow)}; Docket.log: ${JSON.stringify(at.activatingLine ?? null)}`,
  );
  t.diagnostic(`${which}: extensions the host began to activate before Docket's activate() was entered: ${at.othersBefore.join(", ") || "none"}`);
  // What the user waits for: from the click (or the reload) to the row, of which VS Code's own start is the part before the event.
  t.diagnostic(`${which}: ${nth === 0 ? "container opened" : "window reloaded"} → activation event ${since(openedAt, at.activationEvent)}, → first row ${since(openedAt, at.firstRow)}`);
  // The figure this test reported before: from the extension's own "backend starting" line.
  t.diagnostic(`${which}: "backend starting" (Docket.log) to the Work tree's first row: ${since(at.backendStarting, at.firstRow)}`);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * DOCKET_E2E_CPU_PROFILE=1: profiles the workbench page's main thread (with its same-origin frames,
 * the webviews) from the container's click to the first row, writes first-row.cpuprofile beside the
 * screenshots and reports where the samples fall by script. A diagnostic: it slows the page.
 */
async function startPageProfile(page: Page): Promise<CDPSession | null> {
  if (process.env.DOCKET_E2E_CPU_PROFILE !== "1") return null;
  // The page's context (only this diagnostic needs it, so it is not part of the shared Page type).
  const context = (page as unknown as { context(): { newCDPSession(page: Page): Promise<CDPSession> } }).context();
  const session = await context.newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 500 });
  await session.send("Profiler.start");
  return session;
}

async function stopPageProfile(t: TestContext, session: CDPSession | null, file: string): Promise<void> {
  if (session === null) return;
  const { profile } = (await session.send("Profiler.stop")) as { profile: CpuProfile };
  await session.detach();
  fs.writeFileSync(file, JSON.stringify(profile));
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const byScript = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = byNode.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    total += delta;
    const name = node?.callFrame.url ? node.callFrame.url.replace(/^.*\/(?=[^/]+\/[^/]+$)/u, "") : `(${node?.callFrame.functionName ?? "?"})`;
    byScript.set(name, (byScript.get(name) ?? 0) + delta);
  });
  const top = [...byScript.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([name, us]) => `${name} ${Math.round(us / 1000)} ms`);
  t.diagnostic(`page CPU profile, click → first row (${Math.round(total / 1000)} ms sampled): ${top.join(", ")}`);
}

/** Copies the cached ledger into the workspace and writes its snapshot with one full replay, as a writer leaves it. */
function seedLedger(workspace: string): void {
  const ledgerPath = path.join(workspace, ".docket", "ledger.jsonl");
  fs.mkdirSync(path.dirname(ledgerPath), { recursive: true });
  fs.copyFileSync(realisticLedger(SCOPES).file, ledgerPath);
  const store = new LedgerStore(ledgerPath);
  store.refresh();
  assert.equal(store.fault, null);
  assert.ok(writeCheckpoint(store), "the seeded ledger's checkpoint is written");
}

test("a 100,000-event ledger: the Work view's first row comes from the snapshot, then the History pages", { timeout: BUDGET_MS + 600_000 }, async (t) => {
  const files = { "README.md": "# A year of work\n", ".gitignore": ".docket/\n" };
  await inWorkbench(t, { label: "e2e-large-ledger", files, budgetMs: BUDGET_MS, prepare: seedLedger }, async (workbench) => {
    const { page: p, shot, mark } = workbench;
    const profiling = await startPageProfile(p);
    const opened = Date.now();
    await openDocketContainer(p);
    const firstRow = p.locator(SIDEBAR_ROWS).first();
    await firstRow.waitFor({ timeout: 60_000 });
    const firstRowAt = Date.now();
    await stopPageProfile(t, profiling, path.join(artifactsDir("e2e-large-ledger"), "first-row.cpuprofile"));
    const firstRowMs = firstRowAt - opened;
    mark("workTreeFirstRow");
    // The start is timed from VS Code's activation event for Docket (its extension host log): the
    // event → activate() entered → "backend starting" → "backend ready" → the first status answer →
    // the first row. Read once the history is read (below): log files are written behind the calls.
    const rows = await p.locator(SIDEBAR_ROWS).allInnerTexts();
    t.diagnostic(`first Work rows ${firstRowMs} ms after the container opened: ${JSON.stringify(rows)}`);
    await shot("01-first-rows");
    const reading = await p.locator(SIDEBAR_ROWS, { hasText: /Still reading the history/u }).count();
    t.diagnostic(`"Still reading the history…" shown at the first rows: ${reading > 0}`);

    // Once the history is read the History lists the newest page of its 5,000 closed scopes.
    const history = p.locator(SIDEBAR_ROWS, { hasText: /History.*5,?000 closed scopes/su }).first();
    await history.waitFor({ timeout: 120_000 });
    mark("historyRead");
    reportStart(t, workbench.dirs.userData, 0, firstRowAt, opened);
    await shot("02-history-newest-page");

    // From the keyboard: the History row (a click folds it, Enter unfolds it), End to its last row,
    // "Show older…" (the tree lists only the rows in view), Enter to load the next page, and again.
    await history.click();
    await p.keyboard.press("Enter");
    await p.keyboard.press("End");
    const expectOlderRow = async (shown: number): Promise<void> => {
      const pattern = new RegExp(`Show older.*${shown} of 5,?000 shown`, "su");
      for (let attempt = 0; attempt < 60; attempt += 1) {
        await p.keyboard.press("End");
        if ((await p.locator(SIDEBAR_ROWS, { hasText: pattern }).count()) > 0) return;
        await p.waitForTimeout(500);
      }
      assert.fail(`no "Show older…" row with ${shown} shown`);
    };
    // End may land before the unfolded rows (or a view refresh, such as the Reviews row arriving)
    // have rendered: the helper presses it again until the row is in view.
    await expectOlderRow(50);
    const older = p.locator(SIDEBAR_ROWS, { hasText: /Show older/u }).first();
    const described = await older.innerText();
    assert.match(described, /50 of 5,?000 shown/u, described);
    // The loaded rows push the row down out of view (the tree renders only the rows in view): End again.
    await p.keyboard.press("Enter");
    await p.locator(SIDEBAR_ROWS, { hasText: /Landed/u }).first().waitFor({ timeout: 30_000 });
    await expectOlderRow(100);
    mark("olderPage");
    await p.keyboard.press("Enter");
    await expectOlderRow(150);
    mark("olderPageAgain");
    await shot("03-history-older-pages");

    // The Receipts view below: counts in the user's number format, and six-digit ordinals whole
    // (their column grows with the page's widest number instead of cutting "99,9…").
    await p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /^Work/u }).first().click();
    const pageInfo = workbench.receipts.locator('[data-testid="page-info"]', { hasText: /of \d{1,3}(,\d{3})+ receipts/u });
    await pageInfo.waitFor({ timeout: 60_000 });
    t.diagnostic(`Receipts: ${await pageInfo.innerText()}`);
    const cut = await workbench.receipts.locator("#receipts-table td.col-ordinal, #receipts-table td.col-sequence").evaluateAll((cells) =>
      cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent ?? ""),
    );
    assert.deepEqual(cut, [], "no ordinal or sequence number is cut");
    const infoCut = await pageInfo.evaluateAll((nodes) => nodes.filter((node) => node.scrollWidth > node.clientWidth || node.getBoundingClientRect().right > document.documentElement.clientWidth).length);
    assert.equal(infoCut, 0, "the page range wraps rather than being cut");
    await shot("04-receipts-large-ordinals");

    // A second start: the window reloaded (a new extension host), with the compile caches the
    // first start left in the profile's storage (the extension's own and the backend's).
    const reloadedAt = Date.now();
    await p.reload({ waitUntil: "domcontentloaded", timeout: 60_000 });
    await p.waitForSelector(".monaco-workbench", { timeout: 60_000 });
    const workHeader = p.locator('[id="workbench.parts.sidebar"] .pane-header', { hasText: /Work/i }).first();
    if (!(await workHeader.isVisible().catch(() => false))) {
      await workHeader.waitFor({ timeout: 15_000 }).catch(() => undefined);
      // A click on the icon of the container the side bar shows closes the side bar: click only when
      // the side bar does not show Docket (on a loaded machine its views can take seconds to render).
      const docketShown = await p.locator('[id="workbench.parts.sidebar"] .title-label', { hasText: /docket/iu }).first().isVisible().catch(() => false);
      if (!(await workHeader.isVisible().catch(() => false)) && !docketShown) await openDocketContainer(p);
    }
    // The Work view was folded above (for the Receipts view); the workbench restores it folded.
    const expanded = await workHeader.getAttribute("aria-expanded", { timeout: 10_000 });
    t.diagnostic(`after the reload the Work view is ${expanded === "false" ? "folded: unfolding it" : `shown (aria-expanded ${String(expanded)})`}`);
    await shot("05-reloaded");
    if (expanded === "false") await workHeader.click();
    await p.locator(SIDEBAR_ROWS, { hasText: /History/u }).first().waitFor({ timeout: 60_000 });
    const secondRowAt = Date.now();
    mark("reloadFirstRow");
    await p.waitForTimeout(3_000);
    reportStart(t, workbench.dirs.userData, 1, secondRowAt, reloadedAt);
    await shot("06-after-reload-first-rows");
    assert.ok(reading > 0, "the first rows said the history was still being read (they came from the snapshot)");
  });
});
