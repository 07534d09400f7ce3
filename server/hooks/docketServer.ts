// Docket's own MCP tools run even while Docket gates (they are how an agent decides), so the name
// `mcp__docket__…` must really reach Docket. A repository can ship its own server called "docket"
// in the project MCP config the host reads; its tools would then pass as Docket's. Before letting a
// Docket tool through, the hook reads the project's MCP entry named docket and accepts it only when
// it runs this very runtime (`<dir of this hook bundle>/docket.js … mcp`) — or when the project
// config names no docket server at all (the user registered Docket outside the repository).
// Only read on Docket-tool calls, never on the hot path of other tools.
import fs from "node:fs";
import path from "node:path";
import type { HookDialect } from "./toolClassification";
import { readBounded } from "../workspace/containedFs";

/** Docket's marker comments in `.codex/config.toml` (server/agents/codexToml.ts; a unit test keeps them equal). */
export const CODEX_BLOCK_BEGIN = "# >>> docket: managed by `docket connect codex`; `docket disconnect codex` removes it";
export const CODEX_BLOCK_END = "# <<< docket";

const RUNTIME_NAME = /^docket[^/\\]*\.js$/u;

/** `runtimeDir`: the folder of the running hook bundle, where Docket's `docket.js` lives; null when unknown (in-process callers). */
function isDocketRuntime(candidate: unknown, runtimeDir: string | null): boolean {
  if (typeof candidate !== "string" || !path.isAbsolute(candidate)) return false;
  if (runtimeDir === null) return RUNTIME_NAME.test(path.basename(candidate));
  const expected = path.join(runtimeDir, "docket.js");
  if (path.resolve(candidate) === expected) return true;
  try {
    return fs.realpathSync(candidate) === fs.realpathSync(expected);
  } catch {
    return false;
  }
}

/** Project MCP configs are a few kilobytes; the hosts read them whole too. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The file's text; null when it does not exist; an Error when it exists but cannot be read, is
 * not a regular file (a repository's link to /dev/zero or a pipe) or is larger than any config.
 * Links are followed, as the host follows them.
 */
function readOptional(file: string): string | null | Error {
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      return readBounded(fd, file, MAX_CONFIG_BYTES).toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** A JSON MCP config (`.mcp.json` → `mcpServers`, `.vscode/mcp.json` → `servers`): why its docket entry is not Docket's, or null. */
function jsonProblem(file: string, key: "mcpServers" | "servers", runtimeDir: string | null): string | null {
  const text = readOptional(file);
  if (text === null) return null;
  if (text instanceof Error) return `${file} cannot be read (${text.message}), so Docket cannot tell which server "docket" is`;
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return `${file} cannot be read as JSON, so Docket cannot tell which server "docket" is`;
  }
  if (typeof root !== "object" || root === null) return `${file} is not a JSON object`;
  const servers = (root as Record<string, unknown>)[key];
  if (servers === undefined) return null;
  if (typeof servers !== "object" || servers === null || Array.isArray(servers)) return `${file}: "${key}" is not an object`;
  for (const [name, entry] of Object.entries(servers as Record<string, unknown>)) {
    if (name.toLowerCase() !== "docket") continue;
    const server = entry as { command?: unknown; args?: unknown } | null;
    const args = typeof server === "object" && server !== null && Array.isArray(server.args) ? (server.args as unknown[]) : [];
    if (server?.command !== "node" || !isDocketRuntime(args[0], runtimeDir) || args[1] !== "mcp") {
      return `the MCP server "${name}" in ${file} does not run this Docket runtime`;
    }
  }
  return null;
}

function tomlProblem(file: string, runtimeDir: string | null): string | null {
  const text = readOptional(file);
  if (text === null) return null;
  if (text instanceof Error) return `${file} cannot be read (${text.message}), so Docket cannot tell which server "docket" is`;
  const lines = text.split(/\r?\n/u);
  let inBlock = false;
  for (const line of lines) {
    if (line === CODEX_BLOCK_BEGIN) {
      inBlock = true;
      continue;
    }
    if (line === CODEX_BLOCK_END) {
      inBlock = false;
      continue;
    }
    const code = line.replace(/^\s+/u, "");
    if (code.startsWith("#") || code === "") continue;
    if (inBlock) {
      const args = /^args\s*=\s*\[\s*("(?:[^"\\]|\\.)*")/u.exec(code);
      if (args !== null) {
        let runtime: unknown;
        try {
          runtime = JSON.parse(args[1] as string);
        } catch {
          runtime = null;
        }
        if (!isDocketRuntime(runtime, runtimeDir)) return `the docket server in ${file} does not run this Docket runtime`;
      }
      continue;
    }
    // Without a TOML parser: any key or table named docket outside Docket's own block.
    if (/(^|[\s.[{,])["']?docket["']?\s*(\]|=|\.)/iu.test(code)) return `${file} defines a "docket" entry Docket did not write`;
  }
  return null;
}

/**
 * Why a Docket tool call may not reach Docket's runtime, or null. `folders`: the configured
 * workspace and every Docket-on folder of the call (the host reads project MCP config from them).
 */
export function foreignDocketServer(dialect: HookDialect, folders: readonly string[], runtimeDir: string | null): string | null {
  for (const folder of new Set(folders)) {
    const problem =
      dialect === "codex"
        ? tomlProblem(path.join(folder, ".codex", "config.toml"), runtimeDir)
        : dialect === "claude"
          ? jsonProblem(path.join(folder, ".mcp.json"), "mcpServers", runtimeDir)
          : (jsonProblem(path.join(folder, ".vscode", "mcp.json"), "servers", runtimeDir) ?? jsonProblem(path.join(folder, ".mcp.json"), "mcpServers", runtimeDir));
    if (problem !== null) return problem;
  }
  return null;
}
