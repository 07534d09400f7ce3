// One YAML document with duplicate keys as errors, in linear time, and a bound on how many mapping
// keys it may hold. The `yaml` package's own duplicate check (`uniqueKeys: true`) compares each new
// key with every earlier key of its mapping, so a frontmatter of n keys costs n²/2 comparisons
// (8,000 keys took seconds and blocked whoever parsed it). Here the document is parsed with that
// check off, and the keys of each mapping go through one Set under the very equality yaml uses
// (the same node, or two scalars whose values are ===).
//
// Callers report yaml's first error, position included, so a document that does repeat a key is
// parsed once more with yaml's own check: only then are its errors, in yaml's order, exactly what
// the checked parse gives. That second parse only ever runs for a document being refused, and the
// key bound, applied first, keeps its quadratic step small (2,000 keys: about 0.1 s).
//
// Nesting is bounded too, before yaml builds any node: its composer recurses once per level, and a
// stack overflow deep inside it can take the whole process down (V8 aborts when it has to compile
// a regular expression with no stack left) instead of ending as an error. The token stream yaml's
// Parser yields is built without recursion, so the depth is measured on it first.
import { isAlias, isMap, isScalar, isSeq, parseDocument, Parser, type CST, type DocumentOptions, type ParseOptions, type SchemaOptions } from "yaml";

/** parseDocument's options, without a LineCounter (a second parse would feed it every line twice). */
export type StrictYamlOptions = Omit<ParseOptions, "lineCounter" | "uniqueKeys"> & DocumentOptions & SchemaOptions;

export type StrictYamlDocument = ReturnType<typeof parseDocument>;

export interface StrictYamlLimits {
  /** Mapping keys, counted at every depth. */
  readonly maxKeys: number;
  /** Collections nested in one another (a flat mapping is 1). */
  readonly maxDepth: number;
}

export type StrictYamlResult =
  /** `document` is what parseDocument gives with `uniqueKeys: true` (its errors, warnings and contents). */
  | { readonly ok: true; readonly document: StrictYamlDocument; readonly keys: number }
  /** Collections nested deeper than the bound (`depth` is the first depth past it); nothing was composed. */
  | { readonly ok: false; readonly limit: "depth"; readonly depth: number }
  /** More mapping keys than the bound; nothing else was looked at. */
  | { readonly ok: false; readonly limit: "keys"; readonly keys: number };

interface KeyScan {
  readonly keys: number;
  readonly repeated: boolean;
}

/** yaml's key equality as a Set member: a scalar's value (NaN equals nothing), else the node itself. */
function keyIdentity(key: unknown): unknown {
  if (isScalar(key)) return typeof key.value === "number" && Number.isNaN(key.value) ? Symbol("NaN") : key.value;
  return key ?? Symbol("no key");
}

/** Whether yaml's token stream nests collections deeper than `maxDepth` (measured without recursion). */
function nestsDeeperThan(text: string, maxDepth: number): boolean {
  const pending: { token: CST.Token | null | undefined; depth: number }[] = [];
  for (const token of new Parser().parse(text)) pending.push({ token, depth: 0 });
  while (pending.length > 0) {
    const { token, depth } = pending.pop() as { token: CST.Token | null | undefined; depth: number };
    if (token === null || token === undefined) continue;
    if (token.type === "document") pending.push({ token: token.value, depth });
    else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      if (depth + 1 > maxDepth) return true;
      for (const item of token.items) {
        if ("key" in item) pending.push({ token: item.key, depth: depth + 1 });
        pending.push({ token: item.value, depth: depth + 1 });
      }
    }
  }
  return false;
}

/** Counts mapping keys at every depth and notices a repeated key, without recursion (deep documents cannot overflow the stack). */
function scanKeys(root: unknown): KeyScan {
  let keys = 0;
  let repeated = false;
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || node === undefined || isScalar(node) || isAlias(node)) continue;
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        keys += 1;
        const identity = keyIdentity(pair.key);
        if (seen.has(identity)) repeated = true;
        else seen.add(identity);
        pending.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) pending.push(item);
    }
  }
  return { keys, repeated };
}

/**
 * `parseDocument(text, { ...options, uniqueKeys: true })` in linear time for every document within
 * the limits that repeats no key; refused, after one linear pass, when it nests or holds more than
 * they allow. Throws only what parseDocument itself throws.
 */
export function parseStrictYaml(text: string, options: StrictYamlOptions, limits: StrictYamlLimits): StrictYamlResult {
  if (nestsDeeperThan(text, limits.maxDepth)) return { ok: false, limit: "depth", depth: limits.maxDepth + 1 };
  const document = parseDocument(text, { ...options, uniqueKeys: false });
  const scan = scanKeys(document.contents);
  if (scan.keys > limits.maxKeys) return { ok: false, limit: "keys", keys: scan.keys };
  if (!scan.repeated) return { ok: true, document, keys: scan.keys };
  return { ok: true, document: parseDocument(text, { ...options, uniqueKeys: true }), keys: scan.keys };
}

/** The 1-based line of a character offset, counted as yaml's LineCounter counts it (after each LF). */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
  return line;
}
