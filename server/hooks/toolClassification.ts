// Which host tools Docket gates (developer/v8 §9.2 mapped onto each host's tool names). Hosts
// name the same capability differently, and VS Code agent hooks ignore matchers, so every hook
// call sees every tool: the tables below are the single place that decides what is a shell tool,
// what mutates files, and what is Docket's own MCP surface. Everything else is never gated.

export type HookDialect = "claude" | "codex" | "vscode";
export type ToolClass = "shell" | "edit" | "docket" | "other";

interface DialectTable {
  readonly shell: ReadonlySet<string>;
  readonly edit: ReadonlySet<string>;
  /** Prefixes of Docket's own MCP tools as the host names them. */
  readonly docketPrefixes: readonly string[];
}

/** Claude Code built-ins: `Bash` runs commands; these four write files. MCP tools: `mcp__<server>__<tool>`. */
const CLAUDE: DialectTable = {
  shell: new Set(["Bash"]),
  edit: new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]),
  docketPrefixes: ["mcp__docket__"],
};

/**
 * Codex: hooks report its shell tool as `Bash` (the schema once fixed tool_name to it); the
 * internal names of the shell and unified-exec tools are listed too so a renamed payload is still
 * gated. File edits go through `apply_patch` (matchers `Edit`/`Write` also select it).
 */
const CODEX: DialectTable = {
  shell: new Set(["Bash", "shell", "local_shell", "exec_command", "write_stdin", "unified_exec"]),
  edit: new Set(["apply_patch", "Edit", "Write"]),
  docketPrefixes: ["mcp__docket__"],
};

/**
 * VS Code agent mode: the hook docs name `runTerminalCommand`, `editFiles`, `createFile`; the
 * built-in tools' internal names (as the Chat Debug view shows them) are listed as well. MCP tools
 * are `mcp_<server>_<tool>`; the Claude form is accepted because VS Code also runs Claude's hooks.
 */
const VSCODE: DialectTable = {
  shell: new Set(["runTerminalCommand", "run_in_terminal", "runInTerminal", "runTask", "run_task", "createAndRunTask", "create_and_run_task"]),
  edit: new Set([
    "editFiles",
    "createFile",
    "createDirectory",
    "create_file",
    "create_directory",
    "replace_string_in_file",
    "multi_replace_string_in_file",
    "insert_edit_into_file",
    "apply_patch",
    "edit_notebook_file",
    "editNotebook",
    "create_new_jupyter_notebook",
  ]),
  docketPrefixes: ["mcp_docket_", "mcp__docket__"],
};

export const TOOL_TABLES: Readonly<Record<HookDialect, DialectTable>> = { claude: CLAUDE, codex: CODEX, vscode: VSCODE };

export function classifyTool(dialect: HookDialect, toolName: string): ToolClass {
  const table = TOOL_TABLES[dialect];
  // Docket's own tools first: they are how an agent gets out of a denial, so they are never gated.
  if (table.docketPrefixes.some((prefix) => toolName.startsWith(prefix))) return "docket";
  if (table.shell.has(toolName)) return "shell";
  if (table.edit.has(toolName)) return "edit";
  return "other";
}
