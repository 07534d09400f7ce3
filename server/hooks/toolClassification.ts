// Which host tools Docket lets run while it withholds changes (developer/v8 §9.2 mapped onto each
// host's tool names). Classification is fail-closed: a tool runs while Docket gates only when it
// is *known* to be read-only (the allowlists below, from each host's documentation, plus names the
// user added when connecting) or is one of Docket's own MCP tools. Every other name — a tool a
// host adds next release, another MCP server's tool, a misspelling — is gated like shell and edit
// tools, because Docket cannot tell what it does. The shell and edit tables only sharpen the
// denial's wording and the docs; they never decide what may run.
//
// Sources (checked for this release; update them together with docs/hooks.md):
// - Claude Code: https://code.claude.com/docs/en/tools-reference (built-in tool names as used in
//   hook matchers; "Permission required: No" marks read-only tools) and
//   https://code.claude.com/docs/en/hooks (MCP tools are `mcp__<server>__<tool>`; subagent tool
//   calls fire the same PreToolUse hooks, with `agent_id`).
// - Codex: https://developers.openai.com/codex/hooks (PreToolUse covers shell calls as `Bash`,
//   `apply_patch` and MCP tools `mcp__<server>__<tool>`) and openai/codex
//   `codex-rs/core/src/tools/hook_names.rs` (hook-facing names; `Write`/`Edit` are matcher aliases
//   of `apply_patch`, `Agent` of `spawn_agent`); read-only built-ins from `codex-rs/core/src/tools/handlers/`.
// - VS Code agent mode: https://code.visualstudio.com/docs/agents/reference/tools-reference (tool
//   references such as `#read/readFile`), https://code.visualstudio.com/docs/agents/reference/hooks-reference
//   (hooks receive `tool_name` such as `editFiles`, matchers are ignored), and the model-facing
//   and contributed names in microsoft/vscode-copilot-chat `src/extension/tools/common/toolNames.ts`.

export type HookDialect = "claude" | "codex" | "vscode";
/** "read": known read-only; "unknown": anything Docket cannot vouch for (gated like shell/edit). */
export type ToolClass = "shell" | "edit" | "read" | "docket" | "unknown";

/** The tools of Docket's MCP server (server/mcp/tools.ts, notebookTools.ts, guardTools.ts); a unit test keeps them equal. */
export const DOCKET_MCP_TOOLS = [
  "status",
  "open_judgment",
  "open_context_sources",
  "conclude_judgment",
  "authorize_change",
  "record_landing",
  "plan",
  "review_report",
  "notebook",
  "propose_notebook_records",
  "review_open",
  "review_submit",
  "observer_status",
  "observer_commit",
] as const;

interface DialectTable {
  readonly shell: ReadonlySet<string>;
  readonly edit: ReadonlySet<string>;
  /** Known read-only: these run whatever Docket's state. */
  readonly read: ReadonlySet<string>;
  /** Prefixes of Docket's own MCP tools as the host names them. */
  readonly docketPrefixes: readonly string[];
}

const CLAUDE: DialectTable = {
  // `mcp__ide__executeCode` is the IDE integration's Jupyter kernel: it runs code.
  shell: new Set(["Bash", "PowerShell", "Monitor", "mcp__ide__executeCode"]),
  edit: new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]),
  read: new Set([
    "Read",
    "Glob",
    "Grep",
    "LS",
    "NotebookRead",
    "LSP",
    "WebFetch",
    "WebSearch",
    "ToolSearch",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
    "AskUserQuestion",
    "TodoWrite",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "TaskOutput",
    "BashOutput",
    "EnterPlanMode",
    "ExitPlanMode",
    "CronList",
    // A subagent's own tool calls go through these same hooks, so spawning one changes nothing.
    "Agent",
    "Task",
    "mcp__ide__getDiagnostics",
  ]),
  docketPrefixes: ["mcp__docket__"],
};

/**
 * Codex reports every shell-like tool as `Bash`; the internal names are listed too, so a payload
 * that ever carries them is still worded as a shell denial. `js_repl` runs JavaScript.
 */
const CODEX: DialectTable = {
  shell: new Set(["Bash", "shell", "local_shell", "shell_command", "exec_command", "write_stdin", "unified_exec", "js_repl"]),
  edit: new Set(["apply_patch", "Edit", "Write"]),
  read: new Set([
    "read_file",
    "list_dir",
    "grep_files",
    "view_image",
    "web_search",
    "tool_search",
    "update_plan",
    "request_user_input",
    "list_mcp_resources",
    "list_mcp_resource_templates",
    "read_mcp_resource",
  ]),
  docketPrefixes: ["mcp__docket__"],
};

/**
 * VS Code names a built-in tool three ways (hook docs and tool references in camelCase, the
 * model-facing snake_case name, the contributed `copilot_*` id); all three are listed. MCP tools
 * are `mcp_<server>_<tool>`; the Claude form is accepted because VS Code also runs Claude's hooks.
 */
const VSCODE: DialectTable = {
  shell: new Set([
    "runTerminalCommand",
    "run_in_terminal",
    "runInTerminal",
    "runTask",
    "run_task",
    "createAndRunTask",
    "create_and_run_task",
    "copilot_createAndRunTask",
    "runTests",
    "run_tests",
    "copilot_runTests1",
    "runNotebookCell",
    "run_notebook_cell",
    "copilot_runNotebookCell",
    "runCommand",
    "run_vscode_command",
    "copilot_runVscodeCommand",
    "installExtension",
    "install_extension",
    "copilot_installExtension",
    "install_python_packages",
    "run_agent_script",
  ]),
  edit: new Set([
    "editFiles",
    "edit_files",
    "copilot_editFiles",
    "createFile",
    "create_file",
    "copilot_createFile",
    "createDirectory",
    "create_directory",
    "copilot_createDirectory",
    "replace_string_in_file",
    "copilot_replaceString",
    "multi_replace_string_in_file",
    "copilot_multiReplaceString",
    "insert_edit_into_file",
    "copilot_insertEdit",
    "apply_patch",
    "copilot_applyPatch",
    "editNotebook",
    "edit_notebook_file",
    "copilot_editNotebook",
    "newJupyterNotebook",
    "create_new_jupyter_notebook",
    "copilot_createNewJupyterNotebook",
    "newWorkspace",
    "create_new_workspace",
    "copilot_createNewWorkspace",
    "memory",
    "copilot_memory",
  ]),
  read: new Set([
    "readFile",
    "read_file",
    "copilot_readFile",
    "listDirectory",
    "list_dir",
    "copilot_listDirectory",
    "fileSearch",
    "file_search",
    "copilot_findFiles",
    "textSearch",
    "grep_search",
    "copilot_findTextInFiles",
    "codebase",
    "semantic_search",
    "copilot_searchCodebase",
    "search_workspace_symbols",
    "copilot_searchWorkspaceSymbols",
    "usages",
    "list_code_usages",
    "copilot_listCodeUsages",
    "problems",
    "get_errors",
    "copilot_getErrors",
    "changes",
    "get_changed_files",
    "copilot_getChangedFiles",
    "read_project_structure",
    "copilot_readProjectStructure",
    "vscodeAPI",
    "get_vscode_api",
    "copilot_getVSCodeAPI",
    "testFailure",
    "test_failure",
    "copilot_testFailure",
    "test_search",
    "copilot_findTestFiles",
    "get_doc_info",
    "copilot_getDocInfo",
    "searchResults",
    "get_search_view_results",
    "copilot_getSearchResults",
    "read_notebook_cell_output",
    "copilot_readNotebookCellOutput",
    "copilot_getNotebookSummary",
    "getTerminalOutput",
    "get_terminal_output",
    "terminalSelection",
    "terminal_selection",
    "terminalLastCommand",
    "terminal_last_command",
    "getTaskOutput",
    "get_task_output",
    "fetch",
    "fetch_webpage",
    "copilot_fetchWebPage",
    "githubRepo",
    "github_repo",
    "copilot_githubRepo",
    "todos",
    "manage_todo_list",
    "get_project_setup_info",
    "copilot_getProjectSetupInfo",
  ]),
  docketPrefixes: ["mcp_docket_", "mcp__docket__"],
};

export const TOOL_TABLES: Readonly<Record<HookDialect, DialectTable>> = { claude: CLAUDE, codex: CODEX, vscode: VSCODE };

const DOCKET_TOOL_SET: ReadonlySet<string> = new Set(DOCKET_MCP_TOOLS);
const EMPTY: ReadonlySet<string> = new Set();

/** The Docket tool a name calls (`open_judgment`), or null: only Docket's real tool names count. */
export function docketToolOf(dialect: HookDialect, toolName: string): string | null {
  for (const prefix of TOOL_TABLES[dialect].docketPrefixes) {
    if (toolName.startsWith(prefix) && DOCKET_TOOL_SET.has(toolName.slice(prefix.length))) return toolName.slice(prefix.length);
  }
  return null;
}

/**
 * A name the user may add to the read-only allowlist: never one the host tables call shell or
 * edit, nor one in Docket's own namespace (a user's list can widen reading, never lift the gate).
 */
export function isExtensibleToolName(toolName: string): boolean {
  if (!/^[A-Za-z0-9_.:-]{1,128}$/u.test(toolName)) return false;
  for (const table of Object.values(TOOL_TABLES)) {
    if (table.shell.has(toolName) || table.edit.has(toolName)) return false;
    if (table.docketPrefixes.some((prefix) => toolName.startsWith(prefix))) return false;
  }
  return true;
}

/** `extraReadOnly`: the user's additions (from the installed hook command); shell/edit names in it are ignored. */
export function classifyTool(dialect: HookDialect, toolName: string, extraReadOnly: ReadonlySet<string> = EMPTY): ToolClass {
  const table = TOOL_TABLES[dialect];
  // Docket's own tools first: they are how an agent gets out of a denial.
  if (docketToolOf(dialect, toolName) !== null) return "docket";
  if (table.shell.has(toolName)) return "shell";
  if (table.edit.has(toolName)) return "edit";
  if (table.read.has(toolName)) return "read";
  if (extraReadOnly.has(toolName) && isExtensibleToolName(toolName)) return "read";
  return "unknown";
}

