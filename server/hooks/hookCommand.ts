// The command line installers write into host configurations. It runs the lean hook bundle next
// to the installed CLI bundle; both accept `hook --host <host> [--workspace <dir>]
// [--read-only-tool <name>]… <event>`. The workspace is part of the command so the hook never has
// to guess it from the cwd an agent can change (hookWorkspace.ts).
import path from "node:path";
import type { HookEvent, HookHost } from "./hostInput";

export const HOOK_BUNDLE = "docket-hook.js";

/** Double quotes where the host's shell leaves the text alone, else POSIX single quotes. */
function quote(value: string, platform: NodeJS.Platform): string {
  if (platform === "win32" || !/["$`\\!]/u.test(value)) return `"${value}"`;
  return `'${value.replace(/'/gu, `'\\''`)}'`;
}

export interface HookCommandOptions {
  /** Absolute real path of the connected workspace. */
  readonly workspace?: string;
  /** Tool names the user declared read-only (already validated: letters, digits, `_ . : -`). */
  readonly readOnlyTools?: readonly string[];
}

/**
 * `runtimePath` is the absolute path of the installed `dist/docket.js` (or of `dist/docket-hook.js`
 * itself); the command runs `docket-hook.js` from the same folder.
 */
export function hookCommand(
  host: HookHost,
  event: HookEvent,
  runtimePath: string,
  options: HookCommandOptions = {},
  platform: NodeJS.Platform = process.platform,
): string {
  if (!path.isAbsolute(runtimePath)) throw new Error(`the Docket runtime path must be absolute: ${runtimePath}`);
  const bundle = path.join(path.dirname(runtimePath), HOOK_BUNDLE);
  const parts = ["node", quote(bundle, platform), "hook", "--host", host];
  if (options.workspace !== undefined) {
    if (!path.isAbsolute(options.workspace)) throw new Error(`the workspace path must be absolute: ${options.workspace}`);
    // A newline would end the shell command; no real folder needs one.
    if (/[\r\n\0]/u.test(options.workspace)) throw new Error(`the workspace path cannot be written into a command: ${JSON.stringify(options.workspace)}`);
    parts.push("--workspace", quote(options.workspace, platform));
  }
  for (const name of options.readOnlyTools ?? []) {
    if (!/^[A-Za-z0-9_.:-]{1,128}$/u.test(name)) throw new Error(`not a tool name: ${JSON.stringify(name)}`);
    parts.push("--read-only-tool", name);
  }
  parts.push(event);
  return parts.join(" ");
}
