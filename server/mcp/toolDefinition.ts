// How a Docket MCP tool is defined: its model-facing description, the input schema derived from
// the zod schema it validates with, and a handler that only ever sees validated arguments.
import type * as z from "zod";
import { DocketError } from "../errors";
import { ErrorCodes, type WriteResult } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import type { AgentState } from "./guidance";
import { describeIssues, toolInputSchema, type ToolInputSchema } from "./inputSchema";

export interface ToolContext {
  readonly ledger: WorkspaceLedger;
  readonly workspaceFolder: string;
  /** The notebook folder the server was started with (`docket mcp --notebook`), as given; null when none. */
  readonly notebookPath: string | null;
  /** The MCP client's self-reported "name version", once it has initialized; null before or without one. */
  readonly client: string | null;
  /** The replay-current state (computed after the call, so it names what is legal next). */
  state(): AgentState;
}

/** What a handler produced: one line saying what happened, and the structured fields. */
export interface ToolOutcome {
  readonly summary: string;
  readonly fields: Record<string, unknown>;
  /** The operation's developer/v8-result summary (status has none). */
  readonly result: WriteResult | null;
}

export interface DocketTool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: ToolInputSchema;
  readonly readOnly: boolean;
  /** Validates `args` with the zod schema (coded `docket.invalid-params`) and runs the handler. */
  invoke(context: ToolContext, args: unknown): Promise<ToolOutcome>;
}

export function defineTool<S extends z.ZodType>(definition: {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly params: S;
  readonly readOnly: boolean;
  readonly run: (context: ToolContext, params: z.output<S>) => Promise<ToolOutcome>;
}): DocketTool {
  return Object.freeze({
    name: definition.name,
    title: definition.title,
    description: definition.description,
    inputSchema: toolInputSchema(definition.params),
    readOnly: definition.readOnly,
    invoke: async (context: ToolContext, args: unknown) => {
      const parsed = definition.params.safeParse(args ?? {});
      if (!parsed.success) {
        throw new DocketError(ErrorCodes.invalidParams, `Invalid arguments for ${definition.name}: ${describeIssues(parsed.error)}`);
      }
      return definition.run(context, parsed.data);
    },
  });
}
