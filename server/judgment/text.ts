// Shared text rules: directly normalised text, whitespace collapse, sorted unique text sets.
import { JudgmentParseError } from "./errors";
import { lowerCaseText, sortedText } from "./json";

/** Collapses every whitespace run to one space. */
export function collapseWhitespace(value: string): string {
  return value.replace(/\s+/gu, " ");
}

/** Text that equals its own trim and is not blank, with whitespace runs collapsed. */
export function normalizedText(value: string, path: string): string {
  if (value !== value.trim() || !value.trim()) throw new JudgmentParseError(`Expected directly normalized non-blank text at ${path}.`);
  return collapseWhitespace(value);
}

/** Like normalizedText but without collapsing (for owner fields that are kept verbatim). */
export function directlyNormalized(value: string, path: string): string {
  if (value !== value.trim() || !value.trim()) throw new JudgmentParseError(`Expected directly normalized non-blank text at ${path}.`);
  return value;
}

/** Normalises each item, rejects duplicates after normalisation, sorts; frozen. */
export function uniqueTextSet(values: readonly string[], path: string, duplicateMessage: (value: string) => string): readonly string[] {
  const normalized = values.map((value, index) => normalizedText(value, `${path}/${index}`));
  const seen = new Set<string>();
  for (const value of normalized) {
    if (seen.has(value)) throw new JudgmentParseError(duplicateMessage(value));
    seen.add(value);
  }
  return Object.freeze(sortedText(normalized));
}

/** The comparison key for "same statement" checks: lower-cased, whitespace collapsed. */
export function semanticKey(value: string): string {
  return collapseWhitespace(lowerCaseText(value)).trim();
}
