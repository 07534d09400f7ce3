// Structured data (tool arguments, JSON tool output) as redacted canonical JSON: every string field
// and property name redacted as decoded text before it is encoded, knowing the name it is assigned
// to (redaction.ts `fieldName`, `redactByName`). A first walk gathers the fields that will be
// kept and asks which of them may hold a secret at all (one rule pass for all of them); the
// rendering walk then redacts those one by one and passes the rest through.
import { boundedCanonicalJson, walkCanonicalJson, type BoundedText, type LeafPlace, type RenderingBound } from "./boundedJson";
import { addRedactionCounts, fieldName, redactBounded, redactByName, REDACTION_MARGIN_CHARS, secretCandidates, type BoundedRedaction, type RedactionCounts } from "./redaction";

export interface StructuredRedactionOptions {
  /** Replaces a string field that is binary content by its description (never redacted or kept). */
  readonly describeBlob?: (text: string) => string | undefined;
}

/** The texts the rendering walk will meet, in its order: property names and string fields (blobs as ""). */
function gatherTexts(value: unknown, maxChars: number, options: StructuredRedactionOptions): string[] {
  const texts: string[] = [];
  const budget = maxChars + REDACTION_MARGIN_CHARS;
  let emitted = 0;
  const take = (text: string): string => text.slice(0, Math.max(0, budget - emitted));
  walkCanonicalJson(
    value,
    (chunk) => {
      emitted += chunk.length;
      return emitted <= budget;
    },
    {
      key: (name) => {
        texts.push(take(name));
        return name;
      },
      leaf: (leaf) => {
        if (typeof leaf === "string") texts.push(options.describeBlob?.(leaf) !== undefined ? "" : take(leaf));
        return leaf;
      },
    },
  );
  return texts;
}

/** The canonical JSON of `value` with every field redacted, kept up to `maxChars`, and what was redacted. */
export function redactedCanonicalJson(value: unknown, maxChars: number, options: StructuredRedactionOptions = {}): BoundedText & { readonly redactions: RedactionCounts } {
  const texts = gatherTexts(value, maxChars, options);
  const candidates = secretCandidates(texts);
  let redactions: RedactionCounts = {};
  let index = 0;
  /** A text the first walk did not see whole, or one the rules flagged, is redacted on its own. */
  const mayHoldSecret = (position: number, text: string): boolean => position >= texts.length || (texts[position] as string).length < text.length || candidates.has(position);
  const record = (result: BoundedRedaction, text: string, bound: RenderingBound): string => {
    if (result.consumed < text.length) bound.cut();
    redactions = addRedactionCounts(redactions, result.counts);
    return result.text;
  };
  const rendered = boundedCanonicalJson(value, maxChars, (bound) => ({
    key: (name) => {
      const position = index++;
      return mayHoldSecret(position, name) ? record(redactBounded(name, bound.remaining()), name, bound) : name;
    },
    leaf: (leaf, place: LeafPlace) => {
      const name = fieldName(place);
      if (typeof leaf === "number") {
        const byName = redactByName(String(leaf), name);
        return byName === undefined ? leaf : record(byName, String(leaf), bound);
      }
      if (typeof leaf !== "string") return leaf;
      const position = index++;
      const blob = options.describeBlob?.(leaf);
      if (blob !== undefined) return blob;
      const byName = redactByName(leaf, name);
      if (byName !== undefined) return record(byName, leaf, bound);
      return mayHoldSecret(position, leaf) ? record(redactBounded(leaf, bound.remaining()), leaf, bound) : leaf;
    },
  }));
  return { ...rendered, redactions };
}
