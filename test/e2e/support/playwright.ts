// The few playwright-core types the real-VS-Code tests use. playwright-core is not a project dependency: the
// toolchain (scripts/e2e/toolchain.sh) installs it into the e2e cache and we require() it from there, so we
// declare the subset we call here instead of importing its .d.ts.
import fs from "node:fs";
import path from "node:path";
import type { Toolchain } from "./toolchain";

export interface WaitOptions {
  timeout?: number;
  state?: "attached" | "detached" | "visible" | "hidden";
}

export interface Locator {
  first(): Locator;
  nth(index: number): Locator;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  waitFor(options?: WaitOptions): Promise<void>;
  click(options?: { timeout?: number; position?: { x: number; y: number } }): Promise<void>;
  count(): Promise<number>;
  allInnerTexts(): Promise<string[]>;
  innerText(options?: { timeout?: number }): Promise<string>;
  getAttribute(name: string, options?: { timeout?: number }): Promise<string | null>;
  isVisible(): Promise<boolean>;
  fill(value: string, options?: { timeout?: number }): Promise<void>;
  /** The current value of an input. */
  inputValue(options?: { timeout?: number }): Promise<string>;
  hover(options?: { timeout?: number }): Promise<void>;
  selectOption(value: string, options?: { timeout?: number }): Promise<string[]>;
  focus(options?: { timeout?: number }): Promise<void>;
  /** Focuses the element, then presses the key. */
  press(key: string, options?: { timeout?: number }): Promise<void>;
  /** Runs `fn` in the page on every matching element. */
  evaluateAll<R>(fn: (elements: Element[]) => R): Promise<R>;
}

export interface FrameLocator {
  frameLocator(selector: string): FrameLocator;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
}

export interface ConsoleMessage {
  type(): string;
  text(): string;
}

/** A Chrome DevTools Protocol session (diagnostics: the page's CPU profile). */
export interface CDPSession {
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  detach(): Promise<void>;
}

export interface Page {
  goto(url: string, options?: { timeout?: number; waitUntil?: "load" | "domcontentloaded" | "commit" }): Promise<unknown>;
  reload(options?: { timeout?: number; waitUntil?: "load" | "domcontentloaded" | "commit" }): Promise<unknown>;
  waitForSelector(selector: string, options?: WaitOptions): Promise<unknown>;
  locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
  frameLocator(selector: string): FrameLocator;
  screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
  keyboard: {
    press(key: string): Promise<void>;
    type(text: string, options?: { delay?: number }): Promise<void>;
  };
  on(event: "console", listener: (message: ConsoleMessage) => void): void;
  on(event: "pageerror", listener: (error: Error) => void): void;
  waitForTimeout(ms: number): Promise<void>;
}

export interface BrowserContext {
  pages(): Page[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface PlaywrightCore {
  chromium: {
    launchPersistentContext(
      userDataDir: string,
      options: {
        executablePath: string;
        headless: boolean;
        viewport?: { width: number; height: number };
        args?: string[];
        env?: Record<string, string | undefined>;
        timeout?: number;
      },
    ): Promise<BrowserContext>;
  };
}

export function loadPlaywright(toolchain: Toolchain): PlaywrightCore {
  if (!fs.existsSync(path.join(toolchain.playwrightCore, "package.json"))) {
    throw new Error(`playwright-core not found at ${toolchain.playwrightCore}; run scripts/e2e/toolchain.sh`);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(toolchain.playwrightCore) as PlaywrightCore;
}

/**
 * Headless Debian Chromium with a private profile folder. Flags: no sandbox (we may run as root), no GPU,
 * and nothing that phones home (the machine is offline).
 */
export async function launchChromium(
  playwright: PlaywrightCore,
  toolchain: Toolchain,
  profileDir: string,
  env: Record<string, string | undefined>,
): Promise<BrowserContext> {
  return playwright.chromium.launchPersistentContext(profileDir, {
    executablePath: toolchain.chromium,
    headless: true,
    viewport: { width: 1400, height: 900 },
    timeout: 30_000,
    env,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
}
