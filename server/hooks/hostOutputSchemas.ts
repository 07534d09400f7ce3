// The documented output of each host, as zod schemas. Docket's golden fixtures are checked against
// them, so an emitted field a host does not document (or a decision it rejects) fails a test
// instead of silently disabling a gate in the field. Codex's schemas are closed
// (`additionalProperties: false` in codex-rs/hooks/schema/generated), so they are strict here;
// Claude Code and VS Code are strict too because Docket must not rely on undocumented fields.
import * as z from "zod";
import type { HookEvent } from "./hostInput";
import type { HookDialect } from "./toolClassification";

const nonEmpty = z.string().regex(/\S/u);

const ClaudeUniversal = {
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
};

const claude: Record<HookEvent, z.ZodType> = {
  PreToolUse: z.strictObject({
    ...ClaudeUniversal,
    hookSpecificOutput: z
      .strictObject({
        hookEventName: z.literal("PreToolUse"),
        permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
        permissionDecisionReason: z.string().max(10_000).optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().max(10_000).optional(),
      })
      .refine((value) => value.permissionDecision !== "deny" || (value.permissionDecisionReason ?? "").trim() !== "", "a deny needs a reason")
      .optional(),
  }),
  PostToolUse: z.strictObject({
    ...ClaudeUniversal,
    decision: z.literal("block").optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("PostToolUse"), additionalContext: z.string().max(10_000).optional() }).optional(),
  }),
  UserPromptSubmit: z.strictObject({
    ...ClaudeUniversal,
    decision: z.literal("block").optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("UserPromptSubmit"), additionalContext: z.string().max(10_000).optional() }).optional(),
  }),
  SessionStart: z.strictObject({
    ...ClaudeUniversal,
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("SessionStart"), additionalContext: z.string().max(10_000).optional() }).optional(),
  }),
  // A Stop block needs a reason: it is what tells Claude why to continue (hooks.md, "Stop").
  Stop: z
    .strictObject({ ...ClaudeUniversal, decision: z.literal("block").optional(), reason: z.string().max(10_000).optional() })
    .refine((value) => value.decision === undefined || (value.reason ?? "").trim() !== "", "a block needs a non-empty reason"),
};

const CodexUniversal = {
  continue: z.boolean().optional(),
  stopReason: z.string().nullable().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().nullable().optional(),
};

const codex: Record<HookEvent, z.ZodType> = {
  // output_parser.rs: deny needs a non-empty reason, allow only with updatedInput, ask unsupported,
  // and continue/stopReason/suppressOutput are not supported for PreToolUse.
  PreToolUse: z.strictObject({
    systemMessage: z.string().optional(),
    decision: z.literal("block").optional(),
    reason: nonEmpty.optional(),
    hookSpecificOutput: z
      .strictObject({
        hookEventName: z.literal("PreToolUse"),
        permissionDecision: z.enum(["allow", "deny"]).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.unknown().optional(),
        additionalContext: z.string().optional(),
      })
      .refine((value) => value.permissionDecision !== "deny" || (value.permissionDecisionReason ?? "").trim() !== "", "a deny needs a non-empty reason")
      .refine((value) => value.permissionDecision !== "allow" || value.updatedInput !== undefined, "allow is accepted only with updatedInput")
      .optional(),
  }),
  PostToolUse: z.strictObject({
    ...CodexUniversal,
    decision: z.literal("block").optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z
      .strictObject({
        hookEventName: z.literal("PostToolUse"),
        additionalContext: z.string().optional(),
        updatedToolOutput: z.unknown().optional(),
        updatedMCPToolOutput: z.unknown().optional(),
      })
      .optional(),
  }),
  UserPromptSubmit: z.strictObject({
    ...CodexUniversal,
    decision: z.literal("block").nullable().optional(),
    reason: z.string().nullable().optional(),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("UserPromptSubmit"), additionalContext: z.string().nullable().optional() }).nullable().optional(),
  }),
  SessionStart: z.strictObject({
    ...CodexUniversal,
    hookSpecificOutput: z
      .strictObject({ hookEventName: z.literal("SessionStart"), additionalContext: z.string().optional(), env: z.record(z.string(), z.string()).optional() })
      .optional(),
  }),
  // stop.command.output.schema.json: exactly continue, decision, reason, stopReason, suppressOutput,
  // systemMessage; output_parser.rs honours a block only with a non-empty reason.
  Stop: z
    .strictObject({ ...CodexUniversal, decision: z.literal("block").optional(), reason: nonEmpty.optional() })
    .refine((value) => value.decision === undefined || value.reason !== undefined, "a block needs a non-empty reason"),
};

const vscode: Record<HookEvent, z.ZodType> = {
  PreToolUse: z.strictObject({
    ...ClaudeUniversal,
    hookSpecificOutput: z
      .strictObject({
        hookEventName: z.literal("PreToolUse").optional(),
        permissionDecision: z.enum(["allow", "deny", "ask"]).optional(),
        permissionDecisionReason: z.string().optional(),
        updatedInput: z.record(z.string(), z.unknown()).optional(),
        additionalContext: z.string().optional(),
      })
      .refine((value) => value.permissionDecision !== "deny" || (value.permissionDecisionReason ?? "").trim() !== "", "a deny needs a reason")
      .optional(),
  }),
  PostToolUse: z.strictObject({
    ...ClaudeUniversal,
    decision: z.literal("block").optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("PostToolUse").optional(), additionalContext: z.string().optional() }).optional(),
  }),
  UserPromptSubmit: z.strictObject({
    ...ClaudeUniversal,
    decision: z.literal("block").optional(),
    reason: z.string().optional(),
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("UserPromptSubmit").optional(), additionalContext: z.string().optional() }).optional(),
  }),
  SessionStart: z.strictObject({
    ...ClaudeUniversal,
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("SessionStart").optional(), additionalContext: z.string().optional() }).optional(),
  }),
  // The VS Code reference documents the Stop block inside hookSpecificOutput.
  Stop: z.strictObject({
    ...ClaudeUniversal,
    hookSpecificOutput: z.strictObject({ hookEventName: z.literal("Stop"), decision: z.literal("block"), reason: nonEmpty }).optional(),
  }),
};

export const HOST_OUTPUT_SCHEMAS: Readonly<Record<HookDialect, Readonly<Record<HookEvent, z.ZodType>>>> = { claude, codex, vscode };
