// What a tool returned, as Judgment content parts: redacted, bounded, and with binary content
// described by size and digest instead of stored. Hosts hand results over in many shapes (a plain
// string in VS Code, `{stdout, stderr, …}` for Claude's Bash, MCP `{content: [...], isError}`);
// each becomes parts the engine can seal, and anything else is rendered as canonical JSON.
// Every text is redacted as decoded text while the parts are built — each content part on its
// own, each string field of structured output knowing its name — and only then bounded.
import { createHash } from "node:crypto";
import type { ContextContentPart } from "../judgment/content";
import { MAX_SEALED_MEMBER_BYTES } from "../judgment/seal";
import { addRedactionCounts, redactBounded, type RedactionCounts } from "./redaction";
import { redactedCanonicalJson } from "./structuredRedaction";

/** A stored member must still seal: its parts' canonical JSON stays within the engine's limit. */
export const CONTENT_BYTE_LIMIT = MAX_SEALED_MEMBER_BYTES;
/** The engine's limit on parts per member. */
export const MAX_PARTS = 64;
/** Text redacted per capture; far above what is kept, so no secret straddles a cut that is kept. */
export const REDACTION_WINDOW_CHARS = 262_144;
/** A string this long made only of base64 characters is binary content, not text. */
const BASE64_BLOB_CHARS = 1_024;

export interface BoundedContent {
  readonly parts: readonly ContextContentPart[];
  readonly truncated: boolean;
  /** UTF-8 bytes of the content before redaction and bounds (binary: its decoded size). */
  readonly originalBytes: number;
  readonly redactions: RedactionCounts;
}

interface RawContent {
  /** Already redacted. */
  readonly parts: Array<{ readonly kind: "text"; readonly text: string } | ContextContentPart>;
  /** True when rendering already dropped content (a text longer than the redaction window). */
  readonly cut: boolean;
  readonly originalBytes: number;
  readonly redactions: RedactionCounts;
}

type Fields = { readonly [key: string]: unknown };
function record(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function describeBinary(what: string, bytes: Buffer): string {
  return `[${what}: ${bytes.length} bytes, sha256 ${sha256(bytes)}; not stored]`;
}

function looksBinary(text: string): boolean {
  return text.includes("\u0000");
}

function isBase64Blob(text: string): boolean {
  return text.length >= BASE64_BLOB_CHARS && /^[A-Za-z0-9+/]+={0,2}$/.test(text.replace(/\r?\n/g, ""));
}

/** Binary and base64 blobs are described, never kept (nor redacted: nothing of them is stored). */
function describedBlob(text: string): string | undefined {
  if (looksBinary(text)) return describeBinary("binary content", Buffer.from(text, "utf8"));
  if (isBase64Blob(text)) return describeBinary("base64 content", Buffer.from(text, "base64"));
  return undefined;
}

class RawBuilder {
  readonly parts: RawContent["parts"] = [];
  cut = false;
  originalBytes = 0;
  redactions: RedactionCounts = {};
  private windowLeft = REDACTION_WINDOW_CHARS;

  private readonly record = (result: { readonly text: string; readonly counts: RedactionCounts }): string => {
    this.redactions = addRedactionCounts(this.redactions, result.counts);
    return result.text;
  };

  text(text: string): void {
    if (looksBinary(text)) {
      const bytes = Buffer.from(text, "utf8");
      this.originalBytes += bytes.length;
      this.parts.push({ kind: "text", text: describeBinary("binary content", bytes) });
      return;
    }
    this.originalBytes += Buffer.byteLength(text, "utf8");
    if (this.windowLeft <= 0) {
      this.cut = true;
      return;
    }
    const result = redactBounded(text, this.windowLeft);
    if (result.consumed < text.length) this.cut = true;
    this.windowLeft -= result.consumed;
    this.parts.push({ kind: "text", text: this.record(result) });
  }

  image(mediaType: string, base64: string): void {
    const bytes = Buffer.from(base64, "base64");
    this.originalBytes += bytes.length;
    const type = mediaType.trim();
    if (type.length === 0 || type.length > 128) this.parts.push({ kind: "text", text: describeBinary("image", bytes) });
    else this.parts.push({ kind: "image", mediaType: type, contentSha256: sha256(bytes) });
  }

  json(value: unknown): void {
    const rendered = redactedCanonicalJson(value, Math.max(this.windowLeft, 0), { describeBlob: describedBlob });
    this.redactions = addRedactionCounts(this.redactions, rendered.redactions);
    this.originalBytes += rendered.bytes;
    if (rendered.truncated) this.cut = true;
    this.windowLeft -= rendered.text.length;
    if (rendered.text.length > 0) this.parts.push({ kind: "text", text: rendered.text });
  }
}

/** MCP / Anthropic style content parts: `{type: "text", text}`, `{type: "image", data, mimeType}`, … */
function contentPart(builder: RawBuilder, raw: unknown): boolean {
  const part = record(raw);
  if (part === undefined || typeof part.type !== "string") return false;
  if (part.type === "text" && typeof part.text === "string") builder.text(part.text);
  else if (part.type === "image" && typeof part.data === "string") builder.image(typeof part.mimeType === "string" ? part.mimeType : typeof part.media_type === "string" ? part.media_type : "", part.data);
  else if (part.type === "image" && record(part.source) !== undefined && typeof record(part.source)?.data === "string")
    builder.image(String(record(part.source)?.media_type ?? ""), String(record(part.source)?.data));
  else if ((part.type === "audio" || part.type === "blob") && typeof part.data === "string")
    builder.text(describeBinary(`${part.type} content${typeof part.mimeType === "string" ? ` (${part.mimeType})` : ""}`, Buffer.from(part.data, "base64")));
  else builder.json(part);
  return true;
}

function isContentPartList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every((entry) => typeof record(entry)?.type === "string");
}

function renderResponse(response: unknown): { raw: RawContent; isError: boolean } {
  const builder = new RawBuilder();
  let isError = false;
  const fields = record(response);
  if (typeof response === "string") builder.text(response);
  else if (isContentPartList(response)) for (const part of response) contentPart(builder, part);
  else if (fields !== undefined && isContentPartList(fields.content)) {
    for (const part of fields.content) contentPart(builder, part);
    isError = fields.isError === true || fields.is_error === true;
  } else if (fields !== undefined && typeof fields.stdout === "string") {
    // Shell tools: the output is what matters; keep it as text, not JSON-escaped.
    builder.text(fields.stdout);
    if (typeof fields.stderr === "string" && fields.stderr.length > 0) builder.text(`stderr:\n${fields.stderr}`);
    if (fields.interrupted === true) builder.text("(interrupted)");
  } else if (response !== undefined && response !== null) builder.json(response);
  if (fields !== undefined) {
    const exit = fields.exit_code ?? fields.exitCode;
    isError ||= fields.isError === true || fields.is_error === true || fields.success === false || (typeof exit === "number" && exit !== 0);
  }
  return { raw: { parts: builder.parts, cut: builder.cut, originalBytes: builder.originalBytes, redactions: builder.redactions }, isError };
}

/** UTF-8 bytes one code point takes inside a JSON string literal (JSON.stringify escaping). */
function escapedBytes(codePoint: number): number {
  if (codePoint === 0x22 || codePoint === 0x5c || codePoint === 0x08 || codePoint === 0x0c || codePoint === 0x0a || codePoint === 0x0d || codePoint === 0x09) return 2;
  if (codePoint < 0x20) return 6;
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 6; // a lone surrogate is escaped as \udxxx
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/** The longest prefix of `text` whose JSON string body fits in `budget` bytes. */
function prefixWithin(text: string, budget: number): string {
  let used = 0;
  let end = 0;
  for (const char of text) {
    const cost = escapedBytes(char.codePointAt(0) as number);
    if (used + cost > budget) break;
    used += cost;
    end += char.length;
  }
  return text.slice(0, end);
}

function partBytes(part: ContextContentPart): number {
  return part.kind === "text"
    ? Buffer.byteLength(`{"kind":"text","text":${JSON.stringify(part.text)}}`, "utf8")
    : Buffer.byteLength(`{"contentSha256":${JSON.stringify(part.contentSha256)},"kind":"image","mediaType":${JSON.stringify(part.mediaType)}}`, "utf8");
}

const EMPTY_TEXT_PART_BYTES = Buffer.byteLength('{"kind":"text","text":""}', "utf8");

/** Keeps the (already redacted) parts while their canonical JSON fits `limit` bytes. */
export function boundContent(raw: RawContent, limit: number = CONTENT_BYTE_LIMIT): BoundedContent {
  const kept: ContextContentPart[] = [];
  let truncated = raw.cut;
  let used = 2; // the array brackets
  for (const part of raw.parts) {
    const separator = kept.length > 0 ? 1 : 0;
    if (kept.length >= MAX_PARTS) {
      truncated = true;
      break;
    }
    const bytes = partBytes(part);
    if (used + separator + bytes <= limit) {
      kept.push(part);
      used += separator + bytes;
      continue;
    }
    truncated = true;
    const room = limit - used - separator - EMPTY_TEXT_PART_BYTES;
    if (part.kind === "text" && room > 0) kept.push({ kind: "text", text: prefixWithin(part.text, room) });
    break;
  }
  return { parts: kept.length > 0 ? kept : [{ kind: "text", text: "" }], truncated, originalBytes: raw.originalBytes, redactions: raw.redactions };
}

/** A tool's response as redacted, bounded content, and whether the host reported an error. */
export function toolResultContent(response: unknown, limit: number = CONTENT_BYTE_LIMIT): BoundedContent & { readonly isError: boolean } {
  const { raw, isError } = renderResponse(response);
  return { ...boundContent(raw, limit), isError };
}

/** A user's prompt as redacted, bounded content. */
export function promptContent(prompt: string, limit: number = CONTENT_BYTE_LIMIT): BoundedContent {
  const builder = new RawBuilder();
  builder.text(prompt);
  return boundContent({ parts: builder.parts, cut: builder.cut, originalBytes: builder.originalBytes, redactions: builder.redactions }, limit);
}
