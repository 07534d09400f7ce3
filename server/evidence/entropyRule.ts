// The entropy rule: a random-looking value assigned to a name that mentions a secret
// (`SESSION_SALT=9fK2…`, `stripeKey: "rk_…"`, `X-Signature: 1a2B…`). Names that always hold a
// secret are handled by the keyword rules whatever the value; this rule widens the net to names
// that merely *look* secret-related, and pays for that with a test of the value: long enough,
// mixed like a generated token, and not a hex digest, Git SHA, UUID, path, URL, version or date.
import { mayMatch } from "./ruleGate";
import { isNonSecretValue, isSecretLookingKeyName, SECRET_NAME_ANCHOR } from "./secretKeys";
import type { SpanSink } from "./redactionKinds";

const MIN_LENGTH = 16;
const MAX_LENGTH = 1_024;
/** Bits per character below which a value reads as words or repetition, not as a generated token. */
const MIN_ENTROPY = 3.0;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX = /^(?:0x)?[0-9a-f]+$/i;
/** Lengths of the digests people print: MD5, SHA-1 / Git, SHA-224, SHA-256, SHA-384, SHA-512. */
const DIGEST_LENGTHS = new Set([32, 40, 56, 64, 96, 128]);
const PATH_START = /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:[\\/])/;
const RELATIVE_PATH = /^[\w.-]+(?:\/[\w.-]+)+$/;

/**
 * A location, not a secret: a `file:` URL, or a path (absolute or relative) that ends with a file
 * extension or is made of lower-case segments. A base64 secret may start with `/` and hold more of
 * them, but it has no extension and mixes cases.
 */
function isPath(value: string): boolean {
  if (value.startsWith("file:")) return true;
  if (!PATH_START.test(value) && !RELATIVE_PATH.test(value)) return false;
  if (/[+=]/.test(value)) return false;
  return /\.[A-Za-z0-9]{1,8}$/.test(value) || value.split(/[\\/]/).every((segment) => /^[a-z0-9_.~:-]*$/.test(segment));
}
const URL = /^[A-Za-z][A-Za-z0-9+.-]{0,31}:\/\//;
const VERSION_OR_DATE = /^v?\d+(?:[.:_-]\d+)+(?:[.+-][A-Za-z0-9.]+)?$/;
const DIGEST_PREFIX = /^(?:sha\d{1,3}|md5|blake2b?)[-:=]/i;
const IDENTIFIER_WORDS = /^[a-z]+(?:[_.-][a-z]+)*$/;

/** `cl100k_base_tokenizer_v2`: one case, separated segments, at least half of them words. */
function readsAsIdentifier(value: string): boolean {
  if (!/^(?:[a-z0-9]+(?:[_.-][a-z0-9]+)+|[A-Z0-9]+(?:[_.-][A-Z0-9]+)+)$/.test(value)) return false;
  const segments = value.split(/[_.-]/);
  return segments.filter((segment) => /^[A-Za-z]{3,}$/.test(segment)).length * 2 >= segments.length;
}

function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const probability = count / value.length;
    entropy -= probability * Math.log2(probability);
  }
  return entropy;
}

/** A value that reads like a generated credential rather than a word, a digest or a location. */
export function looksRandom(value: string): boolean {
  if (value.length < MIN_LENGTH || value.length > MAX_LENGTH) return false;
  if (isNonSecretValue(value) || UUID.test(value) || isPath(value) || URL.test(value) || VERSION_OR_DATE.test(value) || DIGEST_PREFIX.test(value)) return false;
  if (HEX.test(value) && DIGEST_LENGTHS.has(value.replace(/^0x/i, "").length)) return false;
  if (IDENTIFIER_WORDS.test(value) || readsAsIdentifier(value)) return false;
  const hasDigit = /[0-9]/.test(value);
  const hasLower = /[a-z]/.test(value);
  const hasUpper = /[A-Z]/.test(value);
  const mixed = (hasDigit && (hasLower || hasUpper)) || (hasLower && hasUpper && value.length >= 20);
  return mixed && shannonEntropy(value) >= MIN_ENTROPY;
}

// `NAME=value`, `NAME: value`, `"name": "value"`, `name := value`, `Name: value` headers, and
// `--name value` flags: a name (optionally quoted), an assignment and a value of token characters.
// `=`, `,`, `:` and spaces end a value, so a match never swallows the next assignment. The name's
// own test is done in code, on the captured name.
// A value must end where its token ends: a name's match never takes the next `name=` as its value.
const VALUE = String.raw`\\?["']?(?!\[REDACTED:)([A-Za-z0-9+/_.~!#$%^*-]{16,1024}={0,3})(?![A-Za-z0-9+/_.~!#$%^*=-])`;
const ASSIGNMENTS = [
  new RegExp(String.raw`(?<![A-Za-z0-9_.-])(?:--?)?\\?["']?([A-Za-z_][A-Za-z0-9_.-]{0,127})\\?["']?[ \t]{0,8}(?::=|=>|[:=])[ \t]{0,8}${VALUE}`, "dg"),
  new RegExp(String.raw`(?<![^\s])--?([A-Za-z][A-Za-z0-9_.-]{0,127})[ \t]{1,8}${VALUE}`, "dg"),
];

/** Every span's name is secret-looking, so the text holds one of SECRET_NAME_ANCHOR's words (ruleGate.ts). */
const ANCHORS = [SECRET_NAME_ANCHOR];

/** Spans of random-looking values assigned to secret-looking names. */
export function entropySpans(text: string, sink: SpanSink): void {
  if (!mayMatch(text, ANCHORS)) return;
  for (const pattern of ASSIGNMENTS) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const range = match.indices?.[2];
      if (range === undefined) continue;
      const start = range[0];
      let end = range[1];
      if (!isSecretLookingKeyName(match[1] ?? "")) {
        // `"output": "cookieSeed: …"`: what looked like this name's value may be the next name.
        pattern.lastIndex = start;
        continue;
      }
      // Sentence punctuation after a value is not part of it.
      while (end > start && /[,.]/.test(text[end - 1] as string)) end -= 1;
      if (looksRandom(text.slice(start, end))) sink(start, end, "high-entropy-assignment");
    }
  }
}
