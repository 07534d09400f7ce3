// The MCP SDK's own client over stdio, spawning the bundled CLI's `docket mcp` for a workspace,
// and the three ways the tests read a tool's answer.
import assert from "node:assert/strict";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { repoRoot } from "./repoRoot";

export const DOCKET_CLI = path.join(repoRoot(), "dist", "docket.js");

export interface ToolAnswer {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: Record<string, unknown>;
}

/** `extraArgs` follow `mcp --workspace DIR` (e.g. `--notebook notes`). */
export async function connectMcp(workspace: string, options: { readonly name?: string; readonly extraArgs?: readonly string[] } = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DOCKET_CLI, "mcp", "--workspace", workspace, ...(options.extraArgs ?? [])],
    cwd: workspace,
    stderr: "pipe",
  });
  const client = new Client({ name: options.name ?? "docket-mcp-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const text = content.map((part) => part.text ?? "").join("\n");
  return { isError: result.isError === true, text, structured: (result.structuredContent ?? {}) as Record<string, unknown> };
}

/** The answer of a call that must succeed (the assertion quotes the refusal otherwise). */
export async function callToolOk(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const answer = await callTool(client, name, args);
  assert.equal(answer.isError, false, `${name} failed: ${answer.text}`);
  return answer;
}

/** A value inside `structuredContent` by key path. */
export function structuredField<T>(answer: ToolAnswer, ...keys: string[]): T {
  let value: unknown = answer.structured;
  for (const key of keys) value = (value as Record<string, unknown> | undefined)?.[key];
  return value as T;
}
