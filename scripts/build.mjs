// Bundles the extension (node, cjs), the CLI + backend (node, cjs) and the webviews (browser).
// Usage: node scripts/build.mjs [--watch] [--production]
import * as esbuild from "esbuild";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");

const common = {
  bundle: true,
  sourcemap: production ? false : "linked",
  minify: production,
  logLevel: "info",
  absWorkingDir: root,
  legalComments: "none",
};

/**
 * In the hook bundles, the lazily required slow paths resolve to their siblings: the tail reduction
 * (a checkpoint behind) to docket-hook-tail.js, the evidence store (PostToolUse's capture, the
 * recent handles) to docket-hook-evidence.js, the full replay to docket-hook-slow.js.
 */
const hookSlowPathPlugin = {
  name: "docket-hook-slow-path",
  setup(build) {
    build.onResolve({ filter: /^(\.\/replayState|\.\.\/evidence\/evidenceStore|\.\/tailCatchUp)$/ }, (args) => {
      if (!args.importer.includes(`${path.sep}server${path.sep}hooks${path.sep}`)) return undefined;
      const sibling = args.path === "./tailCatchUp" ? "docket-hook-tail.js" : args.path === "./replayState" ? "docket-hook-slow.js" : "docket-hook-evidence.js";
      return { path: `./${sibling}`, external: true };
    });
  },
};

/**
 * In dist/docket-hook.js and dist/docket-hook-evidence.js, `node:crypto` is
 * server/hooks/lazyCrypto.ts: the module loads on the first hash, so a hook that hashes nothing
 * (a PreToolUse answer) never pays for it. The tail bundle hashes every line it reduces and keeps
 * the module itself.
 */
const hookLazyCryptoPlugin = {
  name: "docket-hook-lazy-crypto",
  setup(build) {
    build.onResolve({ filter: /^node:crypto$/ }, () => ({ path: path.join(root, "server", "hooks", "lazyCrypto.ts") }));
  },
};

/**
 * In dist/docket-hook-evidence.js, secretlint's preset (server/evidence/secretlintPreset.ts, 40 % of
 * the bundle) is its sibling dist/docket-hook-secretlint.js: redaction loads it only for a text
 * one of the preset's rules may flag (server/evidence/ruleGate.ts), so most captures never parse it.
 */
const hookSecretlintPlugin = {
  name: "docket-hook-secretlint",
  setup(build) {
    build.onResolve({ filter: /^\.\/secretlintPreset$/ }, (args) =>
      args.importer.includes(`${path.sep}server${path.sep}evidence${path.sep}`) ? { path: "./docket-hook-secretlint.js", external: true } : undefined,
    );
  },
};

/**
 * In dist/docket-hook.js, dist/docket-hook-tail.js and dist/docket-cli-validate.js, the default import of node:fs, node:path or node:os is the module itself:
 * esbuild's interop would copy the module's every property into a fresh object once per importing
 * file (a millisecond or more of each hook's start). A named import of them fails the build
 * ("No matching export"), which is the cue to add it here.
 */
const hookBuiltinDefaultsPlugin = {
  name: "docket-hook-builtin-defaults",
  setup(build) {
    build.onResolve({ filter: /^node:(fs|path|os)$/ }, (args) =>
      args.namespace === "docket-builtin" ? undefined : { path: args.path, namespace: "docket-builtin" },
    );
    build.onLoad({ filter: /.*/, namespace: "docket-builtin" }, (args) => ({ contents: `export default require(${JSON.stringify(args.path)});`, loader: "js" }));
  },
};

/**
 * The command modules dist/docket.js (server/cli/main.ts) requires lazily, each bundled alone beside
 * it: a command parses and initialises only its own code (docs/performance.md). Only `require()`
 * calls from server/cli/ are redirected; a static import stays inside the importing bundle, so a
 * bundle never shares module state (or classes) with another by accident.
 */
const CLI_BUNDLES = {
  "server/cli/stateCommands": "docket-cli-state.js",
  "server/cli/workspaceCommands": "docket-cli-workspace.js",
  "server/cli/ledgerCommands": "docket-cli-ledger.js",
  "server/cli/mergeCommand": "docket-cli-merge.js",
  "server/cli/auditCommand": "docket-cli-audit.js",
  "server/cli/servers": "docket-cli-servers.js",
  "server/router/planCli": "docket-cli-plan.js",
  "server/notebook/notebookCli": "docket-cli-notebook.js",
  "server/notebook/validateCli": "docket-cli-validate.js",
  "server/observer/observerCli": "docket-cli-observer.js",
  "server/guard/guardCli": "docket-cli-guard.js",
  "server/hooks/hookCli": "docket-cli-hook.js",
  "server/team/linkCli": "docket-cli-link.js",
};

/**
 * What `docket notebook validate`'s bundle loads only when it meets it, each bundled alone beside
 * it: yaml (frontmatter the plain reader declines), ajv (a record the schema pre-check is unsure
 * of), zod (a manifest that is not certainly sound) and recovery (a publication lock). The first
 * two decide Phase A answers, so the validation cache's fingerprint covers their bytes too
 * (server/notebook/validationCache.ts names them).
 */
const VALIDATE_SIBLINGS = {
  "server/yaml/strictDocument": "docket-cli-yaml.js",
  "server/notebook/recordSchemaValidator": "docket-cli-ajv.js",
  "server/notebook/manifest": "docket-cli-manifest.js",
  "server/notebook/recovery": "docket-cli-recovery.js",
};

const validateSiblingsPlugin = {
  name: "docket-notebook-validate-siblings",
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== "require-call") return undefined;
      const module = path.relative(root, path.resolve(args.resolveDir, args.path)).split(path.sep).join("/");
      const bundle = VALIDATE_SIBLINGS[module];
      return bundle === undefined ? undefined : { path: `./${bundle}`, external: true };
    });
  },
};

/**
 * In `docket plan`'s bundle, the strict YAML reader (and the `yaml` package, a quarter of the
 * bundle) is the validate bundle's sibling docket-cli-yaml.js: server/router/frontmatter.ts
 * requires it only when a skill file is parsed, which a plan whose catalogue comes from the Router
 * index never does. The module holds no state and shares no classes with the Router's code.
 */
const planYamlPlugin = {
  name: "docket-plan-yaml",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/yaml\/strictDocument$/ }, (args) => {
      if (args.kind !== "require-call" || args.importer !== path.join(root, "server", "router", "frontmatter.ts")) return undefined;
      return { path: "./docket-cli-yaml.js", external: true };
    });
  },
};

const cliBundlesPlugin = {
  name: "docket-cli-bundles",
  setup(build) {
    const cliFolder = path.join(root, "server", "cli") + path.sep;
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (args.kind !== "require-call" || !args.importer.startsWith(cliFolder)) return undefined;
      const module = path.relative(root, path.resolve(args.resolveDir, args.path)).split(path.sep).join("/");
      const bundle = CLI_BUNDLES[module];
      return bundle === undefined ? undefined : { path: `./${bundle}`, external: true };
    });
  },
};

const configs = [
  {
    // dist/extension.js is only the entry (extension/entry.ts): it loads dist/extension-main.js
    // (everything else) with V8's code cache. Always minified (its source map kept in development
    // builds): the extension host parses it on every start.
    ...common,
    entryPoints: { extension: "extension/entry.ts", "extension-main": "extension/main.ts" },
    outdir: "dist",
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    external: ["vscode"],
  },
  {
    // The dispatcher alone (arguments, help, version); every command is a bundle of its own below.
    // Always minified, like the hook: every `docket` run parses it.
    ...common,
    entryPoints: ["server/cli/main.ts"],
    outfile: "dist/docket.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    banner: { js: "#!/usr/bin/env node" },
    plugins: [cliBundlesPlugin],
  },
  ...Object.entries(CLI_BUNDLES).map(([module, bundle]) => ({
    ...common,
    entryPoints: [`${module}.ts`],
    outfile: `dist/${bundle}`,
    platform: "node",
    format: "cjs",
    target: "node20",
    // The hot commands (status, policy, notebook validate, plan) and the hook path are parsed on every call: minified.
    ...(bundle === "docket-cli-state.js" || bundle === "docket-cli-hook.js" || bundle === "docket-cli-validate.js" || bundle === "docket-cli-plan.js" ? { minify: true } : {}),
    // `docket hook` shares the hook bundle's slow path (docket-hook-slow.js); validate loads its rare parts from siblings.
    plugins:
      bundle === "docket-cli-hook.js"
        ? [cliBundlesPlugin, hookSlowPathPlugin]
        : bundle === "docket-cli-validate.js"
          ? [cliBundlesPlugin, validateSiblingsPlugin, hookBuiltinDefaultsPlugin]
          : bundle === "docket-cli-plan.js"
            ? [cliBundlesPlugin, planYamlPlugin]
            : [cliBundlesPlugin],
  })),
  ...Object.entries(VALIDATE_SIBLINGS).map(([module, bundle]) => ({
    ...common,
    entryPoints: [`${module}.ts`],
    outfile: `dist/${bundle}`,
    platform: "node",
    format: "cjs",
    target: "node20",
    // The validation cache hashes the yaml and ajv bundles on every validate: smaller is cheaper.
    minify: true,
  })),
  {
    // The agent hook path alone (docs/hooks.md): no language server, MCP SDK or Judgment engine.
    // Always minified and split: a host waits for this process's start-up on every tool call, so
    // the replay and evidence code live in docket-hook-slow.js, loaded only when needed.
    ...common,
    entryPoints: ["server/hooks/main.ts"],
    outfile: "dist/docket-hook.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    plugins: [hookSlowPathPlugin, hookLazyCryptoPlugin, hookBuiltinDefaultsPlugin],
  },
  {
    // The worker thread of `docket mcp` (server/mcp/toolWorker.ts), loaded from beside dist/docket.js.
    ...common,
    entryPoints: ["server/mcp/toolWorkerMain.ts"],
    outfile: "dist/docket-mcp-worker.js",
    platform: "node",
    format: "cjs",
    target: "node20",
  },
  {
    ...common,
    entryPoints: ["server/hooks/slowPath.ts"],
    outfile: "dist/docket-hook-slow.js",
    platform: "node",
    format: "cjs",
    target: "node20",
  },
  {
    // The evidence store alone, for a hook that captures or lists evidence (minified: PostToolUse
    // parses it on every call); the capture helper and detached captures keep docket-hook-slow.js.
    ...common,
    entryPoints: ["server/evidence/evidenceStore.ts"],
    outfile: "dist/docket-hook-evidence.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    plugins: [hookLazyCryptoPlugin, hookBuiltinDefaultsPlugin, hookSecretlintPlugin],
  },
  {
    // The evidence bundle's secretlint preset, loaded on the first text a preset rule may flag.
    ...common,
    entryPoints: ["server/evidence/secretlintPreset.ts"],
    outfile: "dist/docket-hook-secretlint.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
  },
  {
    // A hook whose checkpoint is behind: the tail reduction alone (its fallback, the full replay,
    // stays in docket-hook-slow.js). Minified like the hook: it is parsed on the call it serves.
    ...common,
    entryPoints: ["server/hooks/tailCatchUp.ts"],
    outfile: "dist/docket-hook-tail.js",
    platform: "node",
    format: "cjs",
    target: "node20",
    minify: true,
    plugins: [hookSlowPathPlugin, hookBuiltinDefaultsPlugin],
  },
  {
    ...common,
    entryPoints: fs
      .readdirSync(path.join(root, "webview"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(root, "webview", entry.name, "main.ts")))
      .map((entry) => ({ in: `webview/${entry.name}/main.ts`, out: entry.name })),
    outdir: "dist/webview",
    platform: "browser",
    format: "iife",
    target: "es2022",
  },
];
if (!production) {
  configs.push({
    ...common,
    entryPoints: ["bench/main.ts"],
    outfile: "dist/bench.js",
    platform: "node",
    format: "cjs",
    target: "node20",
  });
  // The replay figures' measured child: only the store and the floor's hashing (bench/replayChild.ts).
  configs.push({
    ...common,
    entryPoints: ["bench/replayChild.ts"],
    outfile: "dist/bench-replay-child.js",
    platform: "node",
    format: "cjs",
    target: "node20",
  });
}

function copyStatic() {
  // Webview assets that must ship inside the .vsix (no node_modules at run time).
  const codicons = path.join(root, "node_modules/@vscode/codicons/dist");
  const target = path.join(root, "dist/webview");
  fs.mkdirSync(target, { recursive: true });
  for (const file of ["codicon.css", "codicon.ttf"]) {
    fs.copyFileSync(path.join(codicons, file), path.join(target, file));
  }
}

const existing = configs.filter((config) =>
  config.entryPoints.length === undefined ? true : config.entryPoints.length > 0,
).filter((config) => {
  const first = Array.isArray(config.entryPoints) ? config.entryPoints[0] : undefined;
  const file = typeof first === "string" ? first : first?.in;
  return file === undefined || fs.existsSync(path.join(root, file));
});

/**
 * The short-lived entries compiled through V8's code cache (server/codeCache/, docs/performance.md
 * "A safe V8 code cache"): the bundle is written as <name>.bundle.js and <name>.js becomes a small
 * loader holding the bundle's sha256, so the hosts' hook commands, the CLI's requires and the
 * siblings' requires keep their paths. Only the bundles whose interleaved medians improved are here
 * (docket-cli-state.js by only 2–3 %, but in every run). DOCKET_BUILD_CODE_CACHE (a comma
 * list of entry names, empty for none) overrides the set for measurements.
 * Watch builds keep the plain bundles (a rebuild of one would need its loader rebuilt too).
 */
const CODE_CACHED_BUNDLES = new Set(process.env.DOCKET_BUILD_CODE_CACHE === undefined ? ["docket-hook.js", "docket-hook-evidence.js", "docket-hook-tail.js", "docket-cli-state.js", "docket-cli-plan.js"] : process.env.DOCKET_BUILD_CODE_CACHE.split(",").filter((name) => name !== ""));

const cachedOutfile = (name) => `dist/${name.replace(/\.js$/u, ".bundle.js")}`;

if (!watch) {
  for (const config of configs) {
    const name = config.outfile === undefined ? undefined : path.basename(config.outfile);
    if (name !== undefined && CODE_CACHED_BUNDLES.has(name)) config.outfile = cachedOutfile(name);
  }
}

/** The loaders, built once their bundles exist: each holds its bundle's file name and sha256. */
async function buildCodeCacheLoaders() {
  await Promise.all(
    [...CODE_CACHED_BUNDLES].map((name) => {
      const bundleFile = path.basename(cachedOutfile(name));
      const sha256 = crypto.createHash("sha256").update(fs.readFileSync(path.join(root, "dist", bundleFile))).digest("hex");
      return esbuild.build({
        ...common,
        sourcemap: false,
        entryPoints: ["server/codeCache/loaderMain.ts"],
        outfile: `dist/${name}`,
        platform: "node",
        format: "cjs",
        target: "node20",
        minify: true,
        logLevel: "warning",
        define: { DOCKET_CACHED_BUNDLE_FILE: JSON.stringify(bundleFile), DOCKET_CACHED_BUNDLE_SHA256: JSON.stringify(sha256) },
        plugins: [hookBuiltinDefaultsPlugin],
      });
    }),
  );
}

fs.rmSync(path.join(root, "dist"), { recursive: true, force: true });
copyStatic();
if (watch) {
  for (const config of existing) {
    const context = await esbuild.context(config);
    await context.watch();
  }
  console.log("[watch] watching for changes");
} else {
  await Promise.all(existing.map((config) => esbuild.build(config)));
  await buildCodeCacheLoaders();
  fs.chmodSync(path.join(root, "dist/docket.js"), 0o755);
}
