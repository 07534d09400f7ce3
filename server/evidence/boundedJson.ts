// Canonical JSON of arbitrary tool input and output without trusting its size or depth. The
// ledger's canonicalJson.ts recurses, which is right for Docket's own bounded values but would
// overflow the stack on a hostile, deeply nested tool_input. This walker produces the same bytes
// with an explicit stack (a test holds the two equal), keeps only a bounded prefix, and counts the
// rest.
import { createHash } from "node:crypto";
import { compareCodeUnits, hashValue, nestsDeeperThan } from "../ledger/canonicalJson";
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";

/** Nesting up to this depth is hashed by the ledger's own canonical JSON. */
const RECURSION_SAFE_DEPTH = 200;

/**
 * Where a leaf sits: its property name (array items inherit their array's), the object holding it,
 * and for an array item the item before it (`["--password", "…"]`).
 */
export interface LeafPlace {
  readonly name: string | undefined;
  readonly parent: Readonly<Record<string, unknown>> | undefined;
  readonly previous?: unknown;
}

/**
 * Rendering hooks (never used for hashing): `leaf` may replace a scalar before it is rendered
 * (describing binary content, redacting a secret); `key` may replace a property name (its sort
 * position stays the original's).
 */
export interface JsonRendering {
  leaf?(value: string | number | boolean | null, place: LeafPlace): unknown;
  key?(name: string): string;
}

type Frame =
  | { readonly kind: "array"; readonly items: readonly unknown[]; index: number; readonly place: LeafPlace }
  | { readonly kind: "object"; readonly record: Record<string, unknown>; readonly keys: readonly string[]; index: number };

function notJson(where: string): never {
  throw new DocketError(ErrorCodes.invalidParams, `Tool data is not JSON (${where}).`);
}

function scalarText(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? JSON.stringify(value) : notJson("a non-finite number");
  return undefined;
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/** More values than this in one tool call is not tool data (or is a cycle). */
const MAX_NODES = 5_000_000;
const TOP: LeafPlace = { name: undefined, parent: undefined };

/**
 * Emits the canonical JSON of `value` chunk by chunk; `emit` returns false to stop early.
 * `rendering` may replace leaves and property names (rendering only, never hashing). Throws
 * docket.invalid-params for anything JSON cannot represent.
 */
export function walkCanonicalJson(value: unknown, emit: (chunk: string) => boolean, rendering?: JsonRendering): void {
  const stack: Frame[] = [];
  let pending: unknown = value;
  let place: LeafPlace = TOP;
  let hasPending = true;
  let nodes = 0;
  for (;;) {
    if (hasPending) {
      hasPending = false;
      nodes += 1;
      if (nodes > MAX_NODES) notJson(`more than ${MAX_NODES} values`);
      if (rendering?.leaf !== undefined && isScalar(pending)) {
        if (typeof pending === "number" && !Number.isFinite(pending)) notJson("a non-finite number");
        pending = rendering.leaf(pending, place);
      }
      const scalar = scalarText(pending);
      if (scalar !== undefined) {
        if (!emit(scalar)) return;
      } else if (Array.isArray(pending)) {
        if (!emit("[")) return;
        stack.push({ kind: "array", items: pending, index: 0, place });
      } else if (typeof pending === "object" && pending !== null) {
        const record = pending as Record<string, unknown>;
        if (!emit("{")) return;
        stack.push({ kind: "object", record, keys: Object.keys(record).sort(compareCodeUnits), index: 0 });
      } else {
        notJson(`a ${typeof pending} value`);
      }
    }
    const top = stack[stack.length - 1];
    if (top === undefined) return;
    if (top.kind === "array") {
      if (top.index >= top.items.length) {
        stack.pop();
        if (!emit("]")) return;
        continue;
      }
      if (top.index > 0 && !emit(",")) return;
      pending = top.items[top.index];
      place = top.index === 0 ? top.place : { name: top.place.name, parent: top.place.parent, previous: top.items[top.index - 1] };
      top.index += 1;
      hasPending = true;
      continue;
    }
    if (top.index >= top.keys.length) {
      stack.pop();
      if (!emit("}")) return;
      continue;
    }
    const key = top.keys[top.index] as string;
    const shown = rendering?.key === undefined ? key : rendering.key(key);
    if (!emit(`${top.index > 0 ? "," : ""}${JSON.stringify(shown)}:`)) return;
    pending = top.record[key];
    place = { name: key, parent: top.record };
    top.index += 1;
    hasPending = true;
  }
}

/** sha256 of the canonical JSON of a call's arguments; absent (or null) arguments hash as `{}` (judgment.md §11). */
export function argumentsSha256(toolInput: unknown): string {
  const value = toolInput ?? {};
  if (!nestsDeeperThan(value, RECURSION_SAFE_DEPTH)) {
    try {
      return hashValue(value);
    } catch {
      notJson("a value canonical JSON rejects");
    }
  }
  const hash = createHash("sha256");
  walkCanonicalJson(value, (chunk) => {
    hash.update(chunk);
    return true;
  });
  return hash.digest("hex");
}

export interface BoundedText {
  /** At most `maxChars` UTF-16 units of the canonical JSON, cut on a code point boundary. */
  readonly text: string;
  /** UTF-8 length of the whole canonical JSON. */
  readonly bytes: number;
  readonly truncated: boolean;
}

/** UTF-8 length of the canonical JSON of `value` as it is (no rendering hooks). */
export function canonicalJsonBytes(value: unknown): number {
  let bytes = 0;
  walkCanonicalJson(value, (chunk) => {
    bytes += Buffer.byteLength(chunk, "utf8");
    return true;
  });
  return bytes;
}

/** What rendering hooks learn about the bound: the room left, and a way to say a leaf was cut short. */
export interface RenderingBound {
  remaining(): number;
  /** A hook kept only part of a value: the result is truncated even if what is kept fits. */
  cut(): void;
}

/**
 * The canonical JSON of `value` as `rendering` shows it, kept up to `maxChars`, with the byte count
 * of the JSON as it is. Rendering stops at the bound, so hooks run only for what is kept.
 */
export function boundedCanonicalJson(value: unknown, maxChars: number, rendering?: (bound: RenderingBound) => JsonRendering): BoundedText {
  let kept = "";
  let truncated = false;
  let leafCut = false;
  const bound: RenderingBound = {
    remaining: () => Math.max(0, maxChars - kept.length),
    cut: () => {
      leafCut = true;
    },
  };
  walkCanonicalJson(
    value,
    (chunk) => {
      if (kept.length + chunk.length <= maxChars) {
        kept += chunk;
        return true;
      }
      kept += chunk.slice(0, maxChars - kept.length);
      truncated = true;
      return false;
    },
    rendering?.(bound),
  );
  return { text: truncated ? cutOnCodePoint(kept, maxChars) : kept, bytes: canonicalJsonBytes(value), truncated: truncated || leafCut };
}

/** The first `maxChars` UTF-16 units, without leaving half of a surrogate pair at the end. */
export function cutOnCodePoint(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
