// The `[mcp_servers.docket]` table in `.codex/config.toml`. There is no TOML parser here, so
// Docket only ever appends, replaces or removes one table between its own marker comments, and
// refuses any file whose structure a line-based edit could corrupt.
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/messages";
import { MCP_SERVER_NAME, type McpServerEntry } from "./hostConfig";

export const TOML_BEGIN = "# >>> docket: managed by `docket connect codex`; `docket disconnect codex` removes it";
export const TOML_END = "# <<< docket";

/** A TOML basic string: JSON's escapes are all valid TOML escapes; DEL must be escaped too. */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/gu, "\\u007F");
}

export function docketTomlBlock(entry: McpServerEntry): string {
  return [
    TOML_BEGIN,
    `[mcp_servers.${MCP_SERVER_NAME}]`,
    `command = ${tomlString(entry.command)}`,
    `args = [${entry.args.map(tomlString).join(", ")}]`,
    TOML_END,
  ].join("\n");
}

function unsupported(file: string, why: string): DocketError {
  return new DocketError(
    ErrorCodes.agentConfigUnsupported,
    `${file}: ${why}, which Docket cannot edit safely without a TOML parser. Docket changed nothing; add the [mcp_servers.docket] table by hand (see docs/agents.md) or simplify the file.`,
  );
}

interface Located {
  readonly lines: string[];
  /** Index of the begin marker and end marker lines, or null when there is no managed block. */
  readonly block: { readonly begin: number; readonly end: number } | null;
}

const HEADER = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?\s*(#.*)?$/u;

function splitLines(text: string): string[] {
  return text.split(/\r?\n/u);
}

/** Finds Docket's block and checks nothing else defines or could extend `mcp_servers.docket`. */
function locate(text: string, file: string): Located {
  if (text.includes('"""') || text.includes("'''")) throw unsupported(file, "it contains a multi-line string");
  if (text.includes("\r")) throw unsupported(file, "it has CR line endings");
  const lines = splitLines(text);
  const begins = lines.flatMap((line, index) => (line === TOML_BEGIN ? [index] : []));
  const ends = lines.flatMap((line, index) => (line === TOML_END ? [index] : []));
  if (begins.length > 1 || ends.length > 1 || begins.length !== ends.length) throw unsupported(file, "its Docket marker comments are duplicated or unpaired");
  const block = begins.length === 1 ? { begin: begins[0] as number, end: ends[0] as number } : null;
  if (block !== null && block.end < block.begin) throw unsupported(file, "its Docket marker comments are out of order");
  let table = "";
  for (const [index, line] of lines.entries()) {
    const inBlock = block !== null && index >= block.begin && index <= block.end;
    const header = HEADER.exec(line);
    if (header !== null && /^\s*\[/u.test(line)) {
      table = (header[1] ?? "").replace(/\s+/gu, "");
      if (!inBlock && (table === "mcp_servers.docket" || table.startsWith("mcp_servers.docket.") || /^mcp_servers\.["']docket["']/u.test(table))) {
        throw new DocketError(
          ErrorCodes.agentConfigConflict,
          `${file}: it already defines [${table}] outside Docket's markers. Docket changed nothing; remove that table (or rename the server) and try again.`,
        );
      }
      continue;
    }
    if (inBlock) continue;
    const key = /^\s*([A-Za-z0-9_.\-"' ]+?)\s*=/u.exec(line)?.[1]?.replace(/\s+/gu, "");
    if (key === undefined) continue;
    if (table === "" && (key === "mcp_servers" || key.startsWith("mcp_servers.docket"))) {
      throw unsupported(file, "it defines mcp_servers with dotted keys or an inline table");
    }
    if (table === "mcp_servers" && (key === "docket" || key.startsWith("docket."))) {
      throw unsupported(file, "it defines the docket server inside [mcp_servers] with dotted keys or an inline table");
    }
  }
  if (block !== null) {
    // Keys written after the end marker but before the next table would belong to Docket's table.
    for (const line of lines.slice(block.end + 1)) {
      if (/^\s*\[/u.test(line)) break;
      if (line.trim() !== "" && !line.trim().startsWith("#")) throw unsupported(file, "keys follow Docket's [mcp_servers.docket] table outside its markers");
    }
  }
  return { lines, block };
}

/** Docket's table is present (between its markers). */
export function hasDocketTomlBlock(text: string | null, file: string): boolean {
  return text !== null && locate(text, file).block !== null;
}

/** The file with Docket's table appended or replaced; the same text when already in place. */
export function withDocketToml(text: string | null, file: string, entry: McpServerEntry): string {
  const desired = docketTomlBlock(entry);
  if (text === null || text.trim() === "") return `${desired}\n`;
  const { lines, block } = locate(text, file);
  if (block !== null) {
    if (lines.slice(block.begin, block.end + 1).join("\n") === desired) return text;
    return [...lines.slice(0, block.begin), desired, ...lines.slice(block.end + 1)].join("\n");
  }
  const base = text.endsWith("\n") ? text : `${text}\n`;
  return `${base}\n${desired}\n`;
}

/** The file without Docket's table (and the blank line Docket put before it); null when nothing is left. */
export function withoutDocketToml(text: string | null, file: string): string | null {
  if (text === null) return null;
  const { lines, block } = locate(text, file);
  if (block === null) return text;
  let start = block.begin;
  if (start > 0 && lines[start - 1] === "") start -= 1;
  let end = block.end + 1;
  // A block Docket appended at the end leaves the file's own final newline behind.
  if (start === 0 && lines[end] === "") end += 1;
  const rest = [...lines.slice(0, start), ...lines.slice(end)].join("\n");
  return rest.trim() === "" ? null : rest;
}
