// Mutations that grow fuzz inputs from real ones: a valid JSON value or text is edited a few
// times (a value replaced, a key dropped or added, an item repeated, a string changed, lines
// duplicated, fragments inserted) so the fuzzer reaches the checks behind the first parse instead
// of bouncing off it. Every mutation is plain data, so fast-check can show and replay it.
import fc from "fast-check";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys that break naive object handling. */
const NASTY_KEYS = ["__proto__", "constructor", "prototype", "toString", "", " ", "a.b", "$ref", "\u0000", "é", "𝒳"];

/** Strings that stress decoders and validators: lone surrogates, controls, combining marks, RTL, huge. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("\ud800", "\udc00", "a\u0000b", "\r\n", "\u2028", "\u202e", "e\u0301", "\ufeff", "ﷺ", "ΐ".repeat(50), "💥".repeat(100), "0".repeat(400)),
  fc.nat({ max: 200_000 }).map((length) => "x".repeat(length)),
);

/** A deeply nested array or object (built, not generated level by level, so depth is cheap). */
export const deepJson: fc.Arbitrary<Json> = fc.tuple(fc.integer({ min: 10, max: 20_000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: Json = arrays ? [] : {};
  for (let level = 0; level < depth; level += 1) value = arrays ? [value] : { k: value };
  return value;
});

export const anyJson: fc.Arbitrary<Json> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json> },
  { weight: 2, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.constantFrom<Json>(0, -0, 1e308, -1e-308, 2 ** 53 + 1, 1.5, -1, true, false, null, [], {}) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...NASTY_KEYS), fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, { maxKeys: 3 }) },
  { weight: 1, arbitrary: deepJson },
);

export type JsonMutation =
  | { readonly op: "replace"; readonly at: number; readonly value: Json }
  | { readonly op: "delete"; readonly at: number }
  | { readonly op: "insert"; readonly at: number; readonly key: string; readonly value: Json }
  | { readonly op: "repeat"; readonly at: number }
  | { readonly op: "swap"; readonly at: number; readonly other: number }
  | { readonly op: "edit-string"; readonly at: number; readonly cut: number; readonly text: string };

export const jsonMutation: fc.Arbitrary<JsonMutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant("replace" as const), at: fc.nat(), value: anyJson }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("insert" as const), at: fc.nat(), key: fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ maxLength: 12 })), value: anyJson }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("repeat" as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("swap" as const), at: fc.nat(), other: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("edit-string" as const), at: fc.nat(), cut: fc.nat({ max: 64 }), text: nastyString }) },
);

type Slot = { readonly parent: Json[] | { [key: string]: Json }; readonly key: string | number };

/** Every value's place in the tree, parents before children, without recursion. */
function slots(root: { value: Json }): Slot[] {
  const found: Slot[] = [{ parent: root as unknown as { [key: string]: Json }, key: "value" }];
  for (let index = 0; index < found.length && found.length < 50_000; index += 1) {
    const slot = found[index] as Slot;
    const value = (slot.parent as Record<string | number, Json>)[slot.key];
    if (Array.isArray(value)) value.forEach((_, position) => found.push({ parent: value, key: position }));
    else if (value !== null && typeof value === "object") for (const key of Object.keys(value)) found.push({ parent: value, key });
  }
  return found;
}

function setAt(slot: Slot, value: Json): void {
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  else Object.defineProperty(slot.parent, slot.key, { value, enumerable: true, writable: true, configurable: true });
}

/** A deep copy of any depth (JSON.parse does not recurse; JSON.stringify does, so jsonText writes). */
export function copyJson(value: Json): Json {
  return JSON.parse(jsonText(value)) as Json;
}

/**
 * A copy of `value` with the mutations applied in order (no objects shared with `value` or with
 * the mutations: a mutation's value is copied before it is placed, because fast-check hands the
 * same `{}` and `[]` constants to every case, and inserting one into itself made a cycle that grew
 * across cases until jsonText ran out of memory in a --long run).
 */
export function mutateJson(value: Json, mutations: readonly JsonMutation[]): Json {
  const root = { value: copyJson(value) };
  for (const mutation of mutations) {
    const all = slots(root);
    const slot = all[mutation.at % all.length] as Slot;
    const current = (slot.parent as Record<string | number, Json>)[slot.key] as Json;
    switch (mutation.op) {
      case "replace":
        setAt(slot, copyJson(mutation.value));
        break;
      case "delete":
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
        else if (slot.parent !== (root as unknown)) delete (slot.parent as Record<string, Json>)[slot.key as string];
        break;
      case "insert": {
        const inserted = copyJson(mutation.value);
        if (Array.isArray(current)) current.splice(mutation.at % (current.length + 1), 0, inserted);
        else if (current !== null && typeof current === "object") Object.defineProperty(current, mutation.key, { value: inserted, enumerable: true, writable: true, configurable: true });
        else setAt(slot, inserted);
        break;
      }
      case "repeat":
        if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 0, copyJson(current));
        break;
      case "swap": {
        if (!Array.isArray(slot.parent) || slot.parent.length < 2) break;
        const other = mutation.other % slot.parent.length;
        const here = slot.key as number;
        [slot.parent[here], slot.parent[other]] = [slot.parent[other] as Json, slot.parent[here] as Json];
        break;
      }
      case "edit-string":
        if (typeof current === "string") {
          const at = mutation.at % (current.length + 1);
          setAt(slot, current.slice(0, at) + mutation.text + current.slice(Math.min(current.length, at + mutation.cut)));
        }
        break;
    }
  }
  return root.value;
}

export type TextMutation =
  | { readonly op: "insert"; readonly at: number; readonly text: string }
  | { readonly op: "delete"; readonly at: number; readonly length: number }
  | { readonly op: "repeat-line"; readonly at: number; readonly times: number }
  | { readonly op: "swap-lines"; readonly at: number; readonly other: number }
  | { readonly op: "line-endings"; readonly ending: "\r\n" | "\r" | "\n" };

/** `maxRepeat`: how many copies of a line one mutation may add (thousands reach key bounds; a ledger stops at the first bad line). */
export function textMutation(fragments: fc.Arbitrary<string>, maxRepeat = 3_000): fc.Arbitrary<TextMutation> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ op: fc.constant("insert" as const), at: fc.nat(), text: fc.oneof({ weight: 3, arbitrary: fragments }, { weight: 1, arbitrary: nastyString }) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("delete" as const), at: fc.nat(), length: fc.nat({ max: 40 }) }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant("repeat-line" as const), at: fc.nat(), times: fc.integer({ min: 1, max: maxRepeat }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("swap-lines" as const), at: fc.nat(), other: fc.nat() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("line-endings" as const), ending: fc.constantFrom("\r\n" as const, "\r" as const, "\n" as const) }) },
  );
}

/** Mutated texts stop growing here: every bound under test is far below it, and building more only costs the harness time. */
const MAX_MUTATED_TEXT = 4 * 1024 * 1024;

export function mutateText(text: string, mutations: readonly TextMutation[]): string {
  let current = text;
  for (const mutation of mutations) {
    if (current.length > MAX_MUTATED_TEXT) current = current.slice(0, MAX_MUTATED_TEXT);
    switch (mutation.op) {
      case "insert": {
        const at = mutation.at % (current.length + 1);
        current = current.slice(0, at) + mutation.text + current.slice(at);
        break;
      }
      case "delete": {
        const at = mutation.at % (current.length + 1);
        current = current.slice(0, at) + current.slice(at + mutation.length);
        break;
      }
      case "repeat-line": {
        const lines = current.split("\n");
        const at = mutation.at % lines.length;
        const times = Math.min(mutation.times, Math.floor(MAX_MUTATED_TEXT / Math.max(1, (lines[at] as string).length + 1)));
        lines.splice(at, 0, ...Array.from({ length: times }, () => lines[at] as string));
        current = lines.join("\n");
        break;
      }
      case "swap-lines": {
        const lines = current.split("\n");
        const at = mutation.at % lines.length;
        const other = mutation.other % lines.length;
        [lines[at], lines[other]] = [lines[other] as string, lines[at] as string];
        current = lines.join("\n");
        break;
      }
      case "line-endings":
        current = current.replace(/\r\n|\r|\n/gu, mutation.ending);
        break;
    }
  }
  return current.length > MAX_MUTATED_TEXT ? current.slice(0, MAX_MUTATED_TEXT) : current;
}

/**
 * JSON text of a value of any depth (JSON.stringify recurses and overflows the stack on the deep
 * values above; a real client can still send them). Keys and strings are encoded by JSON.stringify.
 */
export function jsonText(value: Json): string {
  type Piece = { readonly json: Json } | { readonly text: string };
  const out: string[] = [];
  const pending: Piece[] = [{ json: value }];
  const push = (pieces: Piece[]): void => {
    for (let index = pieces.length - 1; index >= 0; index -= 1) pending.push(pieces[index] as Piece);
  };
  while (pending.length > 0) {
    const piece = pending.pop() as Piece;
    if ("text" in piece) {
      out.push(piece.text);
      continue;
    }
    const next = piece.json;
    if (Array.isArray(next)) {
      push([{ text: "[" }, ...next.flatMap((item, index): Piece[] => (index === 0 ? [{ json: item }] : [{ text: "," }, { json: item }])), { text: "]" }]);
    } else if (next !== null && typeof next === "object") {
      const entries = Object.entries(next);
      push([{ text: "{" }, ...entries.flatMap(([key, item], index): Piece[] => [{ text: `${index > 0 ? "," : ""}${JSON.stringify(key)}:` }, { json: item }]), { text: "}" }]);
    } else out.push(JSON.stringify(next));
  }
  return out.join("");
}
