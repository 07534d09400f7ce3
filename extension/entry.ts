// The extension's entry (dist/extension.js): loads the bundle of everything else
// (dist/extension-main.js, from extension/main.ts) with V8's code cache kept in the extension's
// global storage (codeCache.ts), then activates it. Kept tiny — it is compiled on every start.
import * as path from "node:path";
import { loadWithCodeCache, type LoadedBundle } from "./codeCache";
import { versionedCacheFolder, type VersionedCacheContext } from "./versionedCache";

interface MainModule {
  activate(context: unknown, loading: { readonly ms: number; readonly cache: string; readonly enteredAt: number; readonly requiredBeforeMs: number }): void;
  deactivate(): Promise<void> | undefined;
  /** Settles once the first status after the first start has its answer (or failed). */
  startSettled(): Promise<void>;
}

/** The cache is written this long after the first status answer (the start's code has run by then) ... */
const SAVE_AFTER_ANSWER_MS = 1_000;
/** ... or this long after activation, whichever comes first (a backend that never answers). */
const SAVE_AT_THE_LATEST_MS = 30_000;

let main: MainModule | undefined;

/** When the extension host required this file: VS Code may call activate() much later (the log says how much). */
const requiredAt = Date.now();

export function activate(context: VersionedCacheContext): void {
  const enteredAt = Date.now();
  const started = performance.now();
  let folder: string | undefined;
  try {
    folder = versionedCacheFolder(context, "extension-code-cache");
  } catch {
    folder = undefined;
  }
  const bundle: LoadedBundle = loadWithCodeCache(path.join(__dirname, "extension-main.js"), folder, module);
  main = bundle.exports as MainModule;
  main.activate(context, { ms: Math.round(performance.now() - started), cache: bundle.cache, enteredAt, requiredBeforeMs: enteredAt - requiredAt });
  if (bundle.cache === "used" || bundle.cache === "off") return;
  let latest: ReturnType<typeof setTimeout> | undefined;
  const save = (): void => {
    clearTimeout(latest);
    bundle.save();
  };
  latest = setTimeout(save, SAVE_AT_THE_LATEST_MS);
  latest.unref?.();
  void main.startSettled().then(() => setTimeout(save, SAVE_AFTER_ANSWER_MS).unref?.());
}

export function deactivate(): Promise<void> | undefined {
  return main?.deactivate();
}
