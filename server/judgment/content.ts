// Content parts of a sealed member and their digest.
import { JudgmentParseError } from "./errors";
import { hashJson, type JsonValue } from "./json";
import { S, Sha256, type Schema } from "./schema";

export type ContextContentPart =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "image"; readonly mediaType: string; readonly contentSha256: string };
export type ContextContentPartData = ContextContentPart;

export const MAX_TEXT_PART_CHARS = 48_000;

export const ContextContentPartSchema: Schema = S.union("kind", [
  S.object({ kind: S.literal("text"), text: { type: "string", maxLength: MAX_TEXT_PART_CHARS } }),
  S.object({ kind: S.literal("image"), mediaType: S.text(1, 128, false), contentSha256: Sha256 }),
]);

export function parseContentPart(data: ContextContentPartData, path: string): ContextContentPart {
  if (data.kind === "text") return Object.freeze({ kind: "text", text: data.text });
  if (data.mediaType !== data.mediaType.trim() || !data.mediaType.trim())
    throw new JudgmentParseError(`Image media type must be directly normalized at ${path}/mediaType.`);
  return Object.freeze({ kind: "image", mediaType: data.mediaType, contentSha256: data.contentSha256 });
}

export function partIdentity(part: ContextContentPart): JsonValue {
  return part.kind === "text" ? { kind: "text", text: part.text } : { kind: "image", mediaType: part.mediaType, contentSha256: part.contentSha256 };
}

/** sha256 of the canonical array of part identities (order is significant). */
export function contextContentSha256(parts: readonly ContextContentPart[]): string {
  return hashJson(parts.map(partIdentity));
}
