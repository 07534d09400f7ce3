// The command line installers write into host configurations. It runs the lean hook bundle next
// to the installed CLI bundle; both accept `hook --host <host> <event>`.
import path from "node:path";
import type { HookEvent, HookHost } from "./hostInput";

export const HOOK_BUNDLE = "docket-hook.js";

/** Double quotes where the host's shell leaves the text alone, else POSIX single quotes. */
function quote(value: string, platform: NodeJS.Platform): string {
  if (platform === "win32" || !/["$`\\!]/u.test(value)) return `"${value}"`;
  return `'${value.replace(/'/gu, `'\\''`)}'`;
}

/**
 * `runtimePath` is the absolute path of the installed `dist/docket.js` (or of `dist/docket-hook.js`
 * itself); the command runs `docket-hook.js` from the same folder.
 */
export function hookCommand(host: HookHost, event: HookEvent, runtimePath: string, platform: NodeJS.Platform = process.platform): string {
  if (!path.isAbsolute(runtimePath)) throw new Error(`the Docket runtime path must be absolute: ${runtimePath}`);
  const bundle = path.join(path.dirname(runtimePath), HOOK_BUNDLE);
  return `node ${quote(bundle, platform)} hook --host ${host} ${event}`;
}
