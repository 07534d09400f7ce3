// How a Docket MCP tool is defined: its model-facing description, the input schema derived from
// the zod schema it validates with (published in the shape strict clients accept), and a handler
// that only ever sees validated arguments.
import type * as z from "zod";
import { DocketError } from "../errors";
import { ErrorCodes, type WriteResult } from "../protocol/messages";
import type { WorkspaceLedger } from "../workspace/workspaceLedger";
import type { AgentState } from "./guidance";
import { withoutAbsentNulls } from "./absentNulls";
import { derivedJsonSchema, describeIssues, rootObjectSchema, type ToolInputSchema } from "./inputSchema";
import { strictInputSchema } from "./strictInputSchema";

/** What a call knows about its session: plain data, so a tool that needs only this can run in a worker thread. */
export interface ToolSession {
  readonly workspaceFolder: string;
  /** The notebook folder the server was started with (`docket mcp --notebook`), as given; null when none. */
  readonly notebookPath: string | null;
  /** The MCP client's self-reported "name version", once it has initialized; null before or without one. */
  readonly client: string | null;
}

export interface ToolContext extends ToolSession {
  readonly ledger: WorkspaceLedger;
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
  /**
   * The handler needs only the session (no ledger) and may read and validate a lot (a notebook, a
   * batch of records), so `docket mcp` runs it in its worker thread (toolWorker.ts) and keeps
   * answering other calls meanwhile.
   */
  readonly offThread: boolean;
  /** Validates `args` with the zod schema (coded `docket.invalid-params`) and runs the handler. */
  invoke(context: ToolContext, args: unknown): Promise<ToolOutcome>;
}

/** A tool whose handler needs only the session; `docket mcp` runs it in its worker thread. */
export interface SessionTool extends DocketTool {
  readonly offThread: true;
  invoke(session: ToolSession, args: unknown): Promise<ToolOutcome>;
}

function describeJson(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/**
 * The arguments as the handler's schema sees them: absent means none, anything else must be a JSON
 * object (MCP's `arguments` is one); `null`, arrays and scalars are refused like any bad argument.
 */
function argumentsObject(toolName: string, args: unknown): object {
  if (args === undefined) return {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new DocketError(ErrorCodes.invalidParams, `Invalid arguments for ${toolName}: (arguments): must be a JSON object, got ${describeJson(args)}`);
  }
  return args;
}

/**
 * Validates with the zod schema itself; first, a null that a strict client wrote for an optional key
 * (the published schema makes every key required) is read as the key left out.
 */
function validated<S extends z.ZodType>(name: string, params: S, derived: Record<string, unknown>, args: unknown): z.output<S> {
  const parsed = params.safeParse(withoutAbsentNulls(derived, argumentsObject(name, args)));
  if (!parsed.success) throw new DocketError(ErrorCodes.invalidParams, `Invalid arguments for ${name}: ${describeIssues(parsed.error)}`);
  return parsed.data;
}

interface ToolText {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly readOnly: boolean;
  /**
   * What `tools/list` describes when `params` leaves a part opaque (`z.unknown()`, checked later by
   * its owner with its own codes) that a strict client cannot express: the same arguments with that
   * part spelled out. Calls are still validated with `params`.
   */
  readonly publishedAs?: z.ZodType;
}

/** What `tools/list` shows of a tool, the same for both kinds: the schema in the shape strict clients accept. */
function listed(definition: ToolText, derived: Record<string, unknown>) {
  const inputSchema = strictInputSchema(rootObjectSchema(derived));
  return { name: definition.name, title: definition.title, description: definition.description, inputSchema, readOnly: definition.readOnly };
}

export function defineTool<S extends z.ZodType>(
  definition: ToolText & { readonly params: S; readonly run: (context: ToolContext, params: z.output<S>) => Promise<ToolOutcome> },
): DocketTool {
  const derived = derivedJsonSchema(definition.publishedAs ?? definition.params);
  return Object.freeze({
    ...listed(definition, derived),
    offThread: false,
    invoke: async (context: ToolContext, args: unknown) => definition.run(context, validated(definition.name, definition.params, derived, args)),
  });
}

/** A tool whose handler sees only the session, so it can run off the thread that answers requests. */
export function defineSessionTool<S extends z.ZodType>(
  definition: ToolText & { readonly params: S; readonly run: (session: ToolSession, params: z.output<S>) => Promise<ToolOutcome> },
): SessionTool {
  const derived = derivedJsonSchema(definition.publishedAs ?? definition.params);
  return Object.freeze({
    ...listed(definition, derived),
    offThread: true as const,
    invoke: async (session: ToolSession, args: unknown) => definition.run(session, validated(definition.name, definition.params, derived, args)),
  });
}
