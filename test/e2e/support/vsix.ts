// The packaged extension for the UI test: docket-<version>.vsix at the repo root, made by `npm run package`.
// Rebuilt when missing or older than any source/manifest file (at most once per test process), unless
// DOCKET_E2E_VSIX points at a ready .vsix.
import fs from "node:fs";
import path from "node:path";
import { run } from "./process";
import { repoRoot } from "./toolchain";

const SOURCES = ["package.json", "package.nls.json", ".vscodeignore", "README.md", "LICENSE", "scripts/build.mjs", "extension", "server", "webview", "media", "l10n"];

function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

let built: string | undefined;

/** Our environment without the marker that makes node processes act as node:test children. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

export function packagedVsix(log: (line: string) => void): string {
  const override = process.env.DOCKET_E2E_VSIX;
  if (override !== undefined && override !== "") {
    if (!fs.existsSync(override)) throw new Error(`DOCKET_E2E_VSIX=${override} does not exist`);
    return override;
  }
  if (built !== undefined) return built;
  const root = repoRoot();
  const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
  const vsix = path.join(root, `docket-${version}.vsix`);
  const sourcesTime = Math.max(...SOURCES.map((entry) => newestMtime(path.join(root, entry))));
  if (fs.existsSync(vsix) && fs.statSync(vsix).mtimeMs > sourcesTime && process.env.DOCKET_E2E_REBUILD !== "1") {
    log(`[e2e] reusing ${vsix} (newer than every source file)`);
  } else {
    // `npm run package` replaces dist/ with a production build; put the dev build back afterwards if there was
    // one, so later tests in the same run see what `npm run build` made.
    const hadDevBuild = fs.existsSync(path.join(root, "dist", "extension.js.map"));
    const started = Date.now();
    log("[e2e] npm run package ...");
    try {
      fs.rmSync(vsix, { force: true });
      run("npm", ["run", "package"], { cwd: root, env: childEnv(), timeoutMs: 180_000 });
      if (!fs.existsSync(vsix)) throw new Error(`npm run package did not produce ${vsix}`);
      log(`[e2e] packaged ${path.basename(vsix)} in ${Date.now() - started} ms`);
    } finally {
      if (hadDevBuild) {
        run(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, env: childEnv(), timeoutMs: 180_000 });
        log("[e2e] restored the development build in dist/");
      }
    }
  }
  built = vsix;
  return vsix;
}
