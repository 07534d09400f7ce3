// Pi adapter: rebuilds observed context from the host's active branch (never from model claims)
// for the nominated tool calls and user decisions, with an acquisition serving exactly those parts.
import type { ContextContentPartData } from "./content";
import { contextContentSha256 } from "./content";
import { JudgmentParseError } from "./errors";
import { hashJson, jsonValueFromUnknown, sha256 } from "./json";
import { observedContextFromJson, type ObservedContext, type ObservedContextEntry } from "./observed";
import type { AcquiredContextData } from "./seal";

export interface PiBranchEntry {
  readonly id?: string;
  readonly type: string;
  readonly message?: unknown;
}
export interface ToolResultNomination {
  readonly toolCallId: string;
  readonly inventorySourceId?: string;
}
export interface UserDecisionNomination {
  readonly userEventId: string;
}
export interface ResolvedObservedContext {
  readonly observedContext: ObservedContext;
  acquireObservedContext(entry: ObservedContextEntry): Promise<AcquiredContextData>;
}
export interface ActiveBranchToolResultIdentity {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly isError: boolean;
}

interface ToolCall {
  readonly name: string;
  readonly argumentsSha256: string;
}
interface ToolResult {
  readonly sequence: number;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly isError: boolean;
  readonly parts: readonly ContextContentPartData[];
}
interface UserDecision {
  readonly sequence: number;
  readonly userEventId: string;
  readonly parts: readonly ContextContentPartData[];
}

type Fields = { readonly [key: string]: unknown };
function record(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}
function messageOf(entry: PiBranchEntry): Fields | undefined {
  return entry.type === "message" ? record(entry.message) : undefined;
}

function toolCalls(branch: readonly PiBranchEntry[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const entry of branch) {
    const message = messageOf(entry);
    if (message?.role !== "assistant" || !Array.isArray(message.content)) continue;
    for (const raw of message.content as readonly unknown[]) {
      const part = record(raw);
      if (part?.type !== "toolCall" || typeof part.id !== "string" || typeof part.name !== "string") continue;
      if (calls.has(part.id)) throw new JudgmentParseError(`Duplicate tool call ID on the active branch: ${part.id}.`);
      calls.set(part.id, { name: part.name, argumentsSha256: hashJson(jsonValueFromUnknown(part.arguments ?? {})) });
    }
  }
  return calls;
}

function contentParts(value: unknown): readonly ContextContentPartData[] {
  if (!Array.isArray(value)) throw new JudgmentParseError("Tool result content is not an array.");
  const parts = (value as readonly unknown[]).map((raw, index): ContextContentPartData => {
    const part = record(raw);
    if (part?.type === "text" && typeof part.text === "string") return { kind: "text", text: part.text };
    if (part?.type === "image" && typeof part.data === "string" && typeof part.mimeType === "string")
      return { kind: "image", mediaType: part.mimeType, contentSha256: sha256(Buffer.from(part.data, "base64")) };
    throw new JudgmentParseError(`Unsupported tool-result content part at index ${index}.`);
  });
  return Object.freeze(parts.length > 0 ? parts : [{ kind: "text", text: "" }]);
}

function toolResults(branch: readonly PiBranchEntry[]): Map<string, ToolResult> {
  const results = new Map<string, ToolResult>();
  branch.forEach((entry, sequence) => {
    const message = messageOf(entry);
    if (message?.role !== "toolResult" || typeof message.toolCallId !== "string" || typeof message.toolName !== "string" || typeof message.isError !== "boolean") return;
    if (results.has(message.toolCallId)) throw new JudgmentParseError(`Duplicate tool result ID on the active branch: ${message.toolCallId}.`);
    results.set(message.toolCallId, { sequence, toolCallId: message.toolCallId, toolName: message.toolName, isError: message.isError, parts: contentParts(message.content) });
  });
  return results;
}

function userDecisions(branch: readonly PiBranchEntry[]): Map<string, UserDecision> {
  const decisions = new Map<string, UserDecision>();
  branch.forEach((entry, sequence) => {
    const message = messageOf(entry);
    if (!entry.id || message?.role !== "user") return;
    const parts = typeof message.content === "string" ? Object.freeze([{ kind: "text" as const, text: message.content }]) : contentParts(message.content);
    if (decisions.has(entry.id)) throw new JudgmentParseError(`Duplicate user event ID on the active branch: ${entry.id}.`);
    decisions.set(entry.id, { sequence, userEventId: entry.id, parts });
  });
  return decisions;
}

/** Tool call/result pairs on the branch whose names agree. */
export function activeBranchToolResultIdentities(branch: readonly PiBranchEntry[]): readonly ActiveBranchToolResultIdentity[] {
  const calls = toolCalls(branch);
  return Object.freeze(
    [...toolResults(branch).values()]
      .filter((result) => calls.get(result.toolCallId)?.name === result.toolName)
      .map((result) => Object.freeze({ toolCallId: result.toolCallId, toolName: result.toolName, isError: result.isError })),
  );
}

/** An observed-context entry (still to be validated by observedContextFromJson) and its content. */
export interface Observation {
  readonly id: string;
  readonly entry: Record<string, unknown>;
  readonly content: AcquiredContextData;
}

/**
 * One tool result as observed context. `read` marks a read of the workspace (kind `read-result`,
 * keeping the inventory source it read); anything else is a plain `tool-result`.
 */
export function toolResultObservation(
  result: {
    readonly toolCallId: string;
    readonly toolName: string;
    readonly isError: boolean;
    readonly truncated: boolean;
    readonly sequence: number;
    readonly parts: AcquiredContextData["parts"];
    readonly argumentsSha256: string;
  },
  read: { readonly inventorySourceId: string | undefined } | null,
): Observation {
  const id = `result-${sha256(result.toolCallId).slice(0, 24)}`;
  const isRead = read !== null;
  const inventorySourceId = read?.inventorySourceId;
  return {
    id,
    content: { parts: result.parts, isError: result.isError, truncated: result.truncated },
    entry: {
      id,
      kind: isRead ? "read-result" : "tool-result",
      contentSha256: contextContentSha256(result.parts),
      isError: result.isError,
      truncated: result.truncated,
      sequence: result.sequence,
      provenance: { source: result.toolName, scope: "temporary", origin: "session" },
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      argumentsSha256: result.argumentsSha256,
      ...(isRead && inventorySourceId ? { inventorySourceId } : {}),
    },
  };
}

/** One explicit user decision as observed context. */
export function userDecisionObservation(decision: { readonly sequence: number; readonly userEventId: string; readonly parts: AcquiredContextData["parts"] }): Observation {
  const id = `user-${sha256(decision.userEventId).slice(0, 24)}`;
  return {
    id,
    content: { parts: decision.parts, isError: false, truncated: false },
    entry: {
      id,
      kind: "user-explicit",
      contentSha256: contextContentSha256(decision.parts),
      isError: false,
      truncated: false,
      sequence: decision.sequence,
      provenance: { source: "user", scope: "temporary", origin: "session" },
      userEventId: decision.userEventId,
    },
  };
}

export function resolveObservedContext(input: {
  readonly branchRef: string;
  readonly branch: readonly PiBranchEntry[];
  readonly toolNominations: readonly ToolResultNomination[];
  readonly userDecisionNominations: readonly UserDecisionNomination[];
}): ResolvedObservedContext {
  const calls = toolCalls(input.branch);
  const results = toolResults(input.branch);
  const decisions = userDecisions(input.branch);
  const content = new Map<string, AcquiredContextData>();
  const entries: unknown[] = [];
  for (const nomination of input.toolNominations) {
    const call = calls.get(nomination.toolCallId);
    const result = results.get(nomination.toolCallId);
    if (!call || !result) throw new JudgmentParseError(`Tool call/result pair is not present on the active branch: ${nomination.toolCallId}.`);
    if (call.name !== result.toolName) throw new JudgmentParseError(`Tool call/result names differ for ${nomination.toolCallId}.`);
    const read = result.toolName === "read" ? { inventorySourceId: nomination.inventorySourceId } : null;
    const observed = toolResultObservation({ ...result, truncated: false, argumentsSha256: call.argumentsSha256 }, read);
    content.set(observed.id, observed.content);
    entries.push(observed.entry);
  }
  for (const nomination of input.userDecisionNominations) {
    const decision = decisions.get(nomination.userEventId);
    if (!decision) throw new JudgmentParseError(`User decision is not present on the active branch: ${nomination.userEventId}.`);
    const observed = userDecisionObservation(decision);
    content.set(observed.id, observed.content);
    entries.push(observed.entry);
  }
  const observedContext = observedContextFromJson(jsonValueFromUnknown({ branchRef: input.branchRef, entries }));
  return Object.freeze({
    observedContext,
    async acquireObservedContext(entry: ObservedContextEntry): Promise<AcquiredContextData> {
      const acquired = content.get(entry.id);
      if (!acquired) throw new JudgmentParseError(`Observed content is unavailable on the active branch: ${entry.id}.`);
      return acquired;
    },
  });
}
