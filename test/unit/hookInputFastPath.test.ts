// The hook input's direct field check (server/hooks/hostInput.ts acceptedFields) lets a call skip
// building and running the zod schemas of the fields Docket reads. It must accept exactly what
// those schemas accept, and parseHookInput must answer as the schemas-only parse did: the same
// HookInput (same values, same references for the tool's input and response) or the same refusal.
// The schemas-only parse is kept here as the reference.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import type * as z from "zod/mini";
import { HOOK_EVENTS, HOOK_HOSTS, HookInputError, acceptedFields, detectDialect, hookInputSchemas, parseHookInput, type HookEvent, type HookHost, type HookInput } from "../../server/hooks/hostInput";

function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "input"}: ${issue.message}`)
    .join("; ");
}

/** parseHookInput as it was before the direct check: every field through the schemas. */
function referenceParse(host: HookHost, event: HookEvent, text: string): HookInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new HookInputError("malformed-json", "the hook input is not JSON");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new HookInputError("wrong-shape", "the hook input is not a JSON object");
  const record = raw as Record<string, unknown>;
  const schemas = hookInputSchemas();
  const dialect = detectDialect(host, record);
  const common = (dialect === "vscode" ? schemas.CamelCommon : schemas.SnakeCommon).safeParse(record);
  if (!common.success) throw new HookInputError("wrong-shape", describeIssues(common.error));
  const sessionId = dialect === "vscode" ? (record.sessionId as string | undefined) : (record.session_id as string | undefined);
  let toolName: string | null = null;
  let toolUseId: string | null = null;
  let toolInput: unknown = undefined;
  let toolResponse: unknown = undefined;
  let prompt: string | null = null;
  if (event === "PreToolUse" || event === "PostToolUse") {
    const tool = (event === "PostToolUse" ? schemas.PostToolFields : schemas.ToolFields).safeParse(record);
    if (!tool.success) throw new HookInputError("wrong-shape", describeIssues(tool.error));
    toolName = tool.data.tool_name;
    toolUseId = tool.data.tool_use_id ?? null;
    toolInput = tool.data.tool_input;
    toolResponse = tool.data.tool_response;
  } else if (event === "UserPromptSubmit") {
    const fields = schemas.PromptFields.safeParse(record);
    if (!fields.success) throw new HookInputError("wrong-shape", describeIssues(fields.error));
    prompt = fields.data.prompt;
  }
  // Stop's fields are read the same way by both (no schema): taken from the parse under test.
  return { dialect, sessionId: sessionId ?? null, cwd: common.data.cwd ?? null, toolName, toolUseId, toolInput, toolResponse, prompt, lastAssistantMessage: null, stopHookActive: false, transcriptPath: null, turnId: null };
}

function outcome(parse: () => HookInput): { ok: true; input: HookInput } | { ok: false; problem: string; message: string } {
  try {
    return { ok: true, input: parse() };
  } catch (error) {
    if (!(error instanceof HookInputError)) throw error;
    return { ok: false, problem: error.problem, message: error.message };
  }
}

const FIELDS = ["session_id", "sessionId", "cwd", "hook_event_name", "hookEventName", "tool_name", "tool_use_id", "tool_input", "tool_response", "prompt", "last_assistant_message", "stop_hook_active"] as const;

const fieldValue = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 6 }) },
  { weight: 2, arbitrary: fc.constantFrom("", "x", "Bash", "toolu_1", "/work", "\u00e9", "\ud83d\ude00") },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, 0, 1, true, false, [], {}, ["x"], { a: 1 }) },
);

const record = fc.dictionary(fc.constantFrom(...FIELDS, "other", "__proto__", "constructor"), fieldValue, { maxKeys: 10 });

test("acceptedFields accepts exactly what the schemas accept, for every dialect and event", () => {
  fc.assert(
    fc.property(record, fc.constantFrom(...HOOK_EVENTS), fc.constantFrom("claude", "codex", "vscode" as const), (value, event, dialect) => {
      const parsed = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
      const schemas = hookInputSchemas();
      const common = (dialect === "vscode" ? schemas.CamelCommon : schemas.SnakeCommon).safeParse(parsed).success;
      const fields =
        event === "PreToolUse"
          ? schemas.ToolFields.safeParse(parsed).success
          : event === "PostToolUse"
            ? schemas.PostToolFields.safeParse(parsed).success
            : event === "UserPromptSubmit"
              ? schemas.PromptFields.safeParse(parsed).success
              : true;
      assert.equal(acceptedFields(dialect, event, parsed), common && fields);
    }),
    { numRuns: 3_000 },
  );
});

test("parseHookInput answers as the schemas-only parse: same fields, same references, same refusals", () => {
  fc.assert(
    fc.property(record, fc.constantFrom(...HOOK_EVENTS), fc.constantFrom(...HOOK_HOSTS), (value, event, host) => {
      const text = JSON.stringify(value);
      const fast = outcome(() => parseHookInput(host, event, text));
      const reference = outcome(() => referenceParse(host, event, text));
      if (fast.ok && reference.ok) {
        const { lastAssistantMessage, stopHookActive, transcriptPath, turnId, ...rest } = fast.input;
        void [lastAssistantMessage, stopHookActive, transcriptPath, turnId];
        const { lastAssistantMessage: _a, stopHookActive: _b, transcriptPath: _c, turnId: _d, ...expected } = reference.input;
        assert.deepEqual(rest, expected);
      } else {
        assert.deepEqual(fast, reference);
      }
    }),
    { numRuns: 3_000 },
  );
});

test("the tool's input and response are the parsed values themselves, as the schemas passed them on", () => {
  const text = JSON.stringify({ session_id: "s", cwd: "/w", tool_name: "Read", tool_use_id: "t", tool_input: { file_path: "/w/a" }, tool_response: [1, { b: 2 }] });
  const fast = parseHookInput("claude", "PostToolUse", text);
  const reference = referenceParse("claude", "PostToolUse", text);
  assert.deepEqual(fast.toolInput, reference.toolInput);
  assert.deepEqual(fast.toolResponse, reference.toolResponse);
  assert.equal(fast.toolUseId, "t");
});

test("edge cases: empty tool names and call ids, wrong types, non-objects", () => {
  const cases: [HookHost, HookEvent, string][] = [
    ["claude", "PreToolUse", JSON.stringify({ tool_name: "" })],
    ["claude", "PostToolUse", JSON.stringify({ tool_name: "Bash", tool_use_id: "" })],
    ["claude", "PostToolUse", JSON.stringify({ tool_name: "Bash" })],
    ["claude", "PreToolUse", JSON.stringify({ tool_name: "Bash", tool_use_id: 5 })],
    ["vscode", "UserPromptSubmit", JSON.stringify({ sessionId: 1, prompt: "x" })],
    ["codex", "UserPromptSubmit", JSON.stringify({ session_id: "s", prompt: null })],
    ["claude", "Stop", JSON.stringify({ session_id: ["s"] })],
    ["claude", "SessionStart", JSON.stringify({ cwd: {} })],
    ["claude", "Stop", "[]"],
    ["claude", "Stop", "null"],
    ["claude", "Stop", "{"],
    ["claude", "PreToolUse", '{"__proto__":{"tool_name":"Bash"}}'],
  ];
  for (const [host, event, text] of cases) assert.deepEqual(outcome(() => parseHookInput(host, event, text)), outcome(() => referenceParse(host, event, text)), `${host} ${event} ${text}`);
});
