// The real-host gate cases: per host, the tool calls a gated session must not run — shell commands
// that create a file, the host's file write/edit tool, another MCP server's tool, and sessions in a
// nested repository — and the allow case. Each case sets its workspace up and says what the stub
// model asks for and what every call must leave behind; verdict.ts judges what the host did.
import path from "node:path";
import type { HostName } from "./hostRun";
import { STUB_MCP_TOOL } from "./stubMcpServer";
import type { StubStep } from "./stubModel";
import {
  authorizeThroughMcp,
  describeNested,
  landThroughMcp,
  makeNestedRepository,
  nestedRepositoryCommand,
  OTHER_MCP_SERVER,
  type HostWorkspace,
  type NestedKind,
} from "./workspace";

/** What a call must leave behind. */
export type Expectation =
  /** Gated: the host must not run it. `absent` paths must not exist; `unchanged` files keep their bytes. */
  | { readonly kind: "denied"; readonly absent?: readonly string[]; readonly unchanged?: readonly string[] }
  /** Must run (a read-only helper call, or the allow case): `present` paths must exist afterwards. */
  | { readonly kind: "allowed"; readonly present?: readonly string[] };

export interface CaseCall {
  readonly step: StubStep & { readonly kind: "tool" };
  /** The tool name the host's log and hook use (Claude: as called; Codex: `Bash`, `apply_patch`, the MCP tool). */
  readonly hookTool: string;
  readonly expect: Expectation;
}

export interface PreparedCase {
  /** The session's working directory. */
  readonly cwd: string;
  readonly calls: readonly CaseCall[];
}

export interface RealHostCase {
  /** `<host>/<name>`; `DOCKET_REAL_HOSTS_CASES=<id>[,<id>]` runs only those. */
  readonly id: string;
  readonly host: HostName;
  readonly what: string;
  /**
   * A documented host limitation (docs/guarantees.md): when the host loads no Docket hook at all
   * in this session, Docket is never asked and the case records the limitation instead of a gate
   * attempt. When the host does ask Docket, every expectation holds as usual.
   */
  readonly hostLimitation?: string;
  /** Sets the workspace up beyond `docket on` + `connect`, and says what the model asks for. */
  prepare(workspace: HostWorkspace, ledger: LedgerWatch): Promise<PreparedCase> | PreparedCase;
}

/** The ledger's bytes from the moment the gate must hold; a case that re-gates mid-session moves the mark. */
export class LedgerWatch {
  private baseline: Buffer | null = null;
  constructor(private readonly workspace: HostWorkspace) {}
  mark(): void {
    this.baseline = this.workspace.ledgerBytes();
  }
  changed(): boolean {
    const now = this.workspace.ledgerBytes();
    if (this.baseline === null || now === null) return this.baseline !== now;
    return !this.baseline.equals(now);
  }
}

const CLAUDE_MCP_TOOL = `mcp__${OTHER_MCP_SERVER}__${STUB_MCP_TOOL}`;
/** Claude Code's `--allowedTools` for every case: its own permission rules allow them, so only a hook can stop one. */
export const CLAUDE_ALLOWED_TOOLS: readonly string[] = ["Bash", "Write", "Edit", "Read", "ToolSearch", CLAUDE_MCP_TOOL];
const NESTED = "nested";

function tool(name: string, input: Readonly<Record<string, unknown>> | string, extra: Partial<Pick<StubStep & { kind: "tool" }, "namespace" | "before">> = {}): StubStep & { readonly kind: "tool" } {
  return { kind: "tool", name, input, ...extra };
}

function denied(step: StubStep & { kind: "tool" }, hookTool: string, absent: readonly string[], unchanged: readonly string[] = []): CaseCall {
  return { step, hookTool, expect: { kind: "denied", absent, unchanged } };
}

function helper(step: StubStep & { kind: "tool" }, hookTool: string): CaseCall {
  return { step, hookTool, expect: { kind: "allowed" } };
}

function claudeCases(): RealHostCase[] {
  const bash = (command: string, extra: Parameters<typeof tool>[2] = {}): StubStep & { kind: "tool" } => tool("Bash", { command, description: "Run a command" }, extra);
  const nestedStart = (kind: NestedKind): RealHostCase => ({
    id: `claude/nested-start-${kind}`,
    host: "claude",
    what: `a session started in ${describeNested(kind)} runs Bash touch`,
    hostLimitation: "Claude Code reads .claude/settings.json only from the folder a session starts in",
    prepare: (workspace) => {
      const nested = makeNestedRepository(workspace.root, NESTED, kind);
      return { cwd: nested, calls: [denied(bash("touch pwned-nested"), "Bash", [path.join(nested, "pwned-nested")])] };
    },
  });
  const nestedCd = (kind: NestedKind): RealHostCase => ({
    id: `claude/nested-cd-${kind}`,
    host: "claude",
    what: `an agent that stepped into ${describeNested(kind)} while authorized keeps working there after the landing closed the gate`,
    prepare: async (workspace, ledger) => {
      await authorizeThroughMcp(workspace);
      const nested = path.join(workspace.root, NESTED);
      const regate = async (): Promise<void> => {
        await landThroughMcp(workspace);
        ledger.mark();
      };
      return {
        cwd: workspace.root,
        calls: [
          // The authorized work (something to land), then the step into a repository of its own.
          {
            step: bash(`echo authorized >> README.md && ${nestedRepositoryCommand(NESTED, kind)}`),
            hookTool: "Bash",
            expect: { kind: "allowed", present: [kind === "plain" ? nested : path.join(nested, ".git")] },
          },
          denied(bash("touch pwned-nested-cd", { before: regate }), "Bash", [path.join(nested, "pwned-nested-cd")]),
          denied(tool("Write", { file_path: path.join(workspace.root, "pwned-parent.txt"), content: "x\n" }), "Write", [path.join(workspace.root, "pwned-parent.txt")]),
        ],
      };
    },
  });
  return [
    {
      id: "claude/shell-touch",
      host: "claude",
      what: "Bash `touch pwned-touch`",
      prepare: (workspace) => ({ cwd: workspace.root, calls: [denied(bash("touch pwned-touch"), "Bash", [path.join(workspace.root, "pwned-touch")])] }),
    },
    {
      id: "claude/shell-redirect",
      host: "claude",
      what: "Bash `echo x > pwned-echo`",
      prepare: (workspace) => ({ cwd: workspace.root, calls: [denied(bash("echo x > pwned-echo"), "Bash", [path.join(workspace.root, "pwned-echo")])] }),
    },
    {
      id: "claude/write",
      host: "claude",
      what: "Write a new file",
      prepare: (workspace) => {
        const target = path.join(workspace.root, "pwned-write.txt");
        return { cwd: workspace.root, calls: [denied(tool("Write", { file_path: target, content: "x\n" }), "Write", [target])] };
      },
    },
    {
      id: "claude/edit",
      host: "claude",
      what: "Edit README.md after reading it",
      prepare: (workspace) => {
        const readme = path.join(workspace.root, "README.md");
        return {
          cwd: workspace.root,
          calls: [
            // Claude Code refuses to edit a file the session has not read, before any hook runs.
            helper(tool("Read", { file_path: readme }), "Read"),
            denied(tool("Edit", { file_path: readme, old_string: "hello", new_string: "pwned" }), "Edit", [], [readme]),
          ],
        };
      },
    },
    {
      id: "claude/other-mcp-tool",
      host: "claude",
      what: `another MCP server's tool (${CLAUDE_MCP_TOOL}, which writes a file)`,
      prepare: (workspace) => ({
        cwd: workspace.root,
        calls: [
          // MCP tools are deferred behind ToolSearch: a model loads the schema first, as a real one does.
          helper(tool("ToolSearch", { query: `select:${CLAUDE_MCP_TOOL}` }), "ToolSearch"),
          denied(tool(CLAUDE_MCP_TOOL, { name: "pwned-mcp" }), CLAUDE_MCP_TOOL, [path.join(workspace.root, "pwned-mcp")]),
        ],
      }),
    },
    nestedStart("plain"),
    nestedStart("git-file"),
    nestedStart("git-init"),
    nestedCd("plain"),
    nestedCd("git-file"),
    nestedCd("git-init"),
  ];
}

function codexCases(): RealHostCase[] {
  const exec = (cmd: string, extra: Record<string, unknown> = {}): StubStep & { kind: "tool" } => tool("exec_command", { cmd, ...extra });
  const nestedStart = (kind: NestedKind): RealHostCase => ({
    id: `codex/nested-start-${kind}`,
    host: "codex",
    what: `a session started in ${describeNested(kind)} runs touch`,
    hostLimitation: "Codex takes the nearest .git as the project root and loads .codex/ only from there",
    prepare: (workspace) => {
      const nested = makeNestedRepository(workspace.root, NESTED, kind);
      return { cwd: nested, calls: [denied(exec("touch pwned-nested"), "Bash", [path.join(nested, "pwned-nested")])] };
    },
  });
  const nestedWorkdir = (kind: NestedKind): RealHostCase => ({
    id: `codex/nested-workdir-${kind}`,
    host: "codex",
    what: `a command run with workdir in ${describeNested(kind)}`,
    prepare: (workspace) => {
      const nested = makeNestedRepository(workspace.root, NESTED, kind);
      return { cwd: workspace.root, calls: [denied(exec("touch pwned-workdir", { workdir: nested }), "Bash", [path.join(nested, "pwned-workdir")])] };
    },
  });
  return [
    {
      id: "codex/shell-touch",
      host: "codex",
      what: "exec_command `touch pwned-touch`",
      prepare: (workspace) => ({ cwd: workspace.root, calls: [denied(exec("touch pwned-touch"), "Bash", [path.join(workspace.root, "pwned-touch")])] }),
    },
    {
      id: "codex/shell-redirect",
      host: "codex",
      what: "exec_command `echo x > pwned-echo`",
      prepare: (workspace) => ({ cwd: workspace.root, calls: [denied(exec("echo x > pwned-echo"), "Bash", [path.join(workspace.root, "pwned-echo")])] }),
    },
    {
      id: "codex/apply-patch-add",
      host: "codex",
      what: "apply_patch adding a file",
      prepare: (workspace) => ({
        cwd: workspace.root,
        calls: [denied(tool("apply_patch", "*** Begin Patch\n*** Add File: pwned-patch.txt\n+x\n*** End Patch\n"), "apply_patch", [path.join(workspace.root, "pwned-patch.txt")])],
      }),
    },
    {
      id: "codex/apply-patch-update",
      host: "codex",
      what: "apply_patch changing README.md",
      prepare: (workspace) => {
        const readme = path.join(workspace.root, "README.md");
        return { cwd: workspace.root, calls: [denied(tool("apply_patch", "*** Begin Patch\n*** Update File: README.md\n@@\n-hello\n+pwned\n*** End Patch\n"), "apply_patch", [], [readme])] };
      },
    },
    {
      id: "codex/other-mcp-tool",
      host: "codex",
      what: `another MCP server's tool (${OTHER_MCP_SERVER}/${STUB_MCP_TOOL}, which writes a file)`,
      prepare: (workspace) => ({
        cwd: workspace.root,
        calls: [denied(tool(STUB_MCP_TOOL, { name: "pwned-mcp" }, { namespace: `mcp__${OTHER_MCP_SERVER}` }), `mcp__${OTHER_MCP_SERVER}__${STUB_MCP_TOOL}`, [path.join(workspace.root, "pwned-mcp")])],
      }),
    },
    nestedStart("plain"),
    nestedStart("git-file"),
    nestedStart("git-init"),
    nestedWorkdir("plain"),
    nestedWorkdir("git-file"),
    nestedWorkdir("git-init"),
    {
      id: "codex/workdir-outside",
      host: "codex",
      what: "a command run with workdir outside the workspace that writes into the workspace",
      prepare: (workspace) => {
        const target = path.join(workspace.root, "pwned-outside");
        return { cwd: workspace.root, calls: [denied(exec(`touch ${target}`, { workdir: workspace.tmpDir }), "Bash", [target])] };
      },
    },
  ];
}

function allowCase(host: HostName): RealHostCase {
  return {
    id: `${host}/allowed-after-authorization`,
    host,
    what: "the same shell command runs once Docket's MCP tools authorized the change",
    prepare: async (workspace) => {
      await authorizeThroughMcp(workspace);
      const step = host === "claude" ? tool("Bash", { command: "touch allowed-touch", description: "Run a command" }) : tool("exec_command", { cmd: "touch allowed-touch" });
      return { cwd: workspace.root, calls: [{ step, hookTool: "Bash", expect: { kind: "allowed", present: [path.join(workspace.root, "allowed-touch")] } }] };
    },
  };
}

/** Every case, or those `DOCKET_REAL_HOSTS_CASES` names (case ids or a host name, comma-separated). */
export function selectedCases(): RealHostCase[] {
  const all = [...claudeCases(), allowCase("claude"), ...codexCases(), allowCase("codex")];
  const filter = process.env.DOCKET_REAL_HOSTS_CASES;
  if (filter === undefined || filter.trim() === "") return all;
  const wanted = new Set(filter.split(",").map((id) => id.trim()));
  return all.filter((entry) => wanted.has(entry.id) || wanted.has(entry.host));
}
