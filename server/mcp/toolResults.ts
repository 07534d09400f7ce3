// Turns a tool outcome or a refusal into an MCP CallToolResult. Success: a short text (what
// happened, the developer/v8-result summary, the next step) plus `structuredContent` (the same as
// JSON). Refusal: `isError: true` with the Docket code, its sentence and what to do next — a
// refusal is always a tool result the model can read, never a JSON-RPC error.
import type { DocketError } from "../errors";
import { errorRemedy, nextStep, type AgentState } from "./guidance";
import type { ToolOutcome } from "./tools";

export interface TextContent {
  readonly type: "text";
  readonly text: string;
}

export interface DocketToolResult {
  readonly content: TextContent[];
  readonly structuredContent: Record<string, unknown>;
  readonly isError?: true;
  readonly [key: string]: unknown;
}

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}

export function successResult(outcome: ToolOutcome, state: AgentState): DocketToolResult {
  const next = nextStep(state);
  const structuredContent = { ...outcome.fields, state, next };
  const lines = [outcome.summary];
  if (outcome.result !== null) {
    const runtime = outcome.result.runtime;
    lines.push(
      `developer/v8-result: state ${runtime.state}, reroute pending ${yesNo(runtime.reroutePending)}, verification pending ${yesNo(runtime.verificationPending)}, next action ${outcome.result.nextAction ?? "none"}.`,
    );
  }
  lines.push(`Legal now: ${state.legalOperations.length === 0 ? "none" : state.legalOperations.join(", ")}. Next: ${next}`);
  // MCP asks tools that return structured content to repeat it as JSON text for older clients.
  return { content: [{ type: "text", text: lines.join("\n") }, { type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
}

export function errorResult(error: DocketError, state: AgentState, tool: string): DocketToolResult {
  const remedy = errorRemedy(error.code, state, tool);
  return {
    isError: true,
    content: [{ type: "text", text: `${error.code}: ${error.message}\nNext: ${remedy}` }],
    structuredContent: { error: { code: error.code, message: error.message, remedy, ...(error.details === undefined ? {} : { details: error.details }) }, state },
  };
}
