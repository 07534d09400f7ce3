// The `[mcp_servers.docket]` table in `.codex/config.toml`. The file is the user's, so Docket
// never re-serializes it: it appends, replaces or removes one table between its own marker
// comments and leaves every other byte alone. A TOML parser (smol-toml) reads the file first and
// the result afterwards, so an edit happens only when both parse and the result means exactly the
// user's settings plus (or minus) Docket's table; anything else is refused with nothing changed.
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { isTomlTable, readTomlDocument, sameTomlValue, type TomlTable } from "../toml/toml";
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
    `${file}: ${why}. Docket changed nothing; add the [mcp_servers.docket] table by hand (see docs/agents.md) or simplify the file.`,
  );
}

/** The file's settings; a file that is not TOML is the user's to fix (Codex cannot read it either). */
function settingsOf(text: string, file: string): TomlTable {
  const read = readTomlDocument(text);
  if (!read.ok) throw new DocketError(ErrorCodes.agentConfigMalformed, `${file}: not valid TOML: ${read.message}. Docket changed nothing; fix the file and try again.`);
  return read.value;
}

/** `mcp_servers.docket` as the settings define it, or undefined. */
function docketServer(settings: TomlTable): unknown {
  const servers = settings["mcp_servers"];
  return isTomlTable(servers) ? servers[MCP_SERVER_NAME] : undefined;
}

/** `settings` with `mcp_servers.docket` set to `server` (a fresh object; `settings` is left alone). */
function withServer(settings: TomlTable, server: unknown, file: string): TomlTable {
  const servers = settings["mcp_servers"] ?? {};
  if (!isTomlTable(servers)) throw unsupported(file, "its mcp_servers is not a table");
  return { ...settings, mcp_servers: { ...servers, [MCP_SERVER_NAME]: server } };
}

interface Located {
  readonly lines: string[];
  /** Index of the begin marker and end marker lines, or null when there is no managed block. */
  readonly block: { readonly begin: number; readonly end: number } | null;
  /** The file without Docket's block, as text. */
  readonly outside: string;
  /** Docket's server as the whole file defines it (only ever inside the block), or undefined. */
  readonly server: unknown;
}

/**
 * Finds Docket's block and proves it holds Docket's table and nothing else: the whole file must
 * mean exactly the rest of the file plus that table (or plus nothing, when the table was removed
 * by hand), and nothing outside the block may define `mcp_servers.docket`.
 */
function locate(text: string, file: string): Located {
  // Lines are split and joined on LF; CR line endings would not survive the edit byte for byte.
  if (text.includes("\r")) throw unsupported(file, "it has CR line endings");
  const whole = settingsOf(text, file);
  const lines = text.split("\n");
  const begins = lines.flatMap((line, index) => (line === TOML_BEGIN ? [index] : []));
  const ends = lines.flatMap((line, index) => (line === TOML_END ? [index] : []));
  if (begins.length > 1 || ends.length > 1 || begins.length !== ends.length) throw unsupported(file, "its Docket marker comments are duplicated or unpaired");
  const block = begins.length === 1 ? { begin: begins[0] as number, end: ends[0] as number } : null;
  if (block !== null && block.end < block.begin) throw unsupported(file, "its Docket marker comments are out of order");
  const outside = block === null ? text : [...lines.slice(0, block.begin), ...lines.slice(block.end + 1)].join("\n");
  const rest = readTomlDocument(outside);
  // E.g. the markers sit inside a multi-line string, or keys after the block belong to its table.
  if (!rest.ok) throw unsupported(file, "Docket's marked block cannot be told apart from the rest of the file");
  const settings = rest.value;
  if (docketServer(settings) !== undefined) {
    throw new DocketError(
      ErrorCodes.agentConfigConflict,
      `${file}: it already defines mcp_servers.docket outside Docket's markers. Docket changed nothing; remove that table (or rename the server) and try again.`,
    );
  }
  const server = docketServer(whole);
  const expected = server === undefined ? settings : withServer(settings, server, file);
  if (!sameTomlValue(whole, expected)) throw unsupported(file, "Docket's marked block holds more than its [mcp_servers.docket] table");
  return { lines, block, outside, server };
}

/** The edited text, once it is proven to mean the settings outside the block plus `server` (or nothing). */
function verified(result: string, outside: string, server: McpServerEntry | null, file: string): string {
  const settings = settingsOf(outside, file);
  const expected = server === null ? settings : withServer(settings, { command: server.command, args: [...server.args] }, file);
  const actual = readTomlDocument(result);
  if (!actual.ok) throw unsupported(file, "Docket's table cannot be added to it as written (e.g. mcp_servers is an inline table)");
  if (!sameTomlValue(actual.value, expected)) throw unsupported(file, "the edited file would not mean its settings plus Docket's table alone");
  return result;
}

/** Docket's table is present (between its markers, and defining the server). */
export function hasDocketTomlBlock(text: string | null, file: string): boolean {
  if (text === null) return false;
  const { block, server } = locate(text, file);
  return block !== null && server !== undefined;
}

/** The file with Docket's table appended or replaced; the same text when already in place. */
export function withDocketToml(text: string | null, file: string, entry: McpServerEntry): string {
  const desired = docketTomlBlock(entry);
  if (text === null || text.trim() === "") return `${desired}\n`;
  const { lines, block, outside } = locate(text, file);
  if (block !== null) {
    if (lines.slice(block.begin, block.end + 1).join("\n") === desired) return verified(text, outside, entry, file);
    return verified([...lines.slice(0, block.begin), desired, ...lines.slice(block.end + 1)].join("\n"), outside, entry, file);
  }
  const base = text.endsWith("\n") ? text : `${text}\n`;
  return verified(`${base}\n${desired}\n`, outside, entry, file);
}

/** The file without Docket's table (and the blank line Docket put before it); null when nothing is left. */
export function withoutDocketToml(text: string | null, file: string): string | null {
  if (text === null) return null;
  const { lines, block, outside } = locate(text, file);
  if (block === null) return text;
  let start = block.begin;
  if (start > 0 && lines[start - 1] === "") start -= 1;
  let end = block.end + 1;
  // A block Docket appended at the end leaves the file's own final newline behind.
  if (start === 0 && lines[end] === "") end += 1;
  const rest = [...lines.slice(0, start), ...lines.slice(end)].join("\n");
  return rest.trim() === "" ? null : verified(rest, outside, null, file);
}
