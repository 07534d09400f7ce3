// Secret redaction for captured evidence. Everything a hook captures passes through here before a
// byte is persisted, so a credential a tool printed never reaches `.docket/evidence/`. Each secret
// becomes `[REDACTED:<kind>]` and is counted per kind; the secret itself is never returned, logged
// or stored.
//
// Every pattern is written to run in linear time on hostile input: each starts with a negative
// look-behind over its own character class (so a long run of token characters offers one start,
// not one per character), and every repetition has an upper bound. PEM blocks are found with
// indexOf instead of a lazy `[\s\S]*?`, which is quadratic when END markers are missing.

export const REDACTION_KINDS = [
  "private-key",
  "aws-access-key-id",
  "aws-secret-access-key",
  "github-token",
  "anthropic-api-key",
  "openai-api-key",
  "slack-token",
  "slack-webhook",
  "stripe-key",
  "google-api-key",
  "npm-token",
  "jwt",
  "bearer-token",
  "basic-auth",
  "url-password",
  "secret-assignment",
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

/** Redactions per kind; only kinds that occurred are present. */
export type RedactionCounts = Partial<Record<RedactionKind, number>>;

export interface RedactionResult {
  readonly text: string;
  readonly counts: RedactionCounts;
}

export function redactionMarker(kind: RedactionKind): string {
  return `[REDACTED:${kind}]`;
}

/** Never re-redact a marker: keeps redaction idempotent. */
const NOT_MARKER = String.raw`(?!\[REDACTED:)`;

interface PatternRule {
  readonly kind: RedactionKind;
  readonly pattern: RegExp;
  /** Capture group holding the secret; the rest of the match is kept. 0 = the whole match. */
  readonly group: number;
}

// Keys whose value is a secret in env files, .npmrc, INI/YAML/JSON and query strings. The key must
// end with the keyword (`GITHUB_TOKEN`, `db_password`), so `max_tokens` or `password_hash` are kept.
// The look-behind includes every key character, so a long identifier run offers one start only.
const KEY_START = String.raw`(?<![A-Za-z0-9_.-])`;
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]{0,64}?(?:password|passwd|passphrase|secret|secret[_-]?key|api[_-]?key|apikey|access[_-]?key|access[_-]?token|auth[_-]?token|_auth|refresh[_-]?token|client[_-]?secret|private[_-]?key|token|credentials?)`;
// A value that is a reference, not a secret: `$VAR`, `${VAR}`, `%VAR%`, `<placeholder>`, `{{ x }}`.
const NOT_REFERENCE = String.raw`(?![$%<{\[])`;
// Values a typed declaration puts where YAML would put a secret (`password: string`).
const NOT_TYPE_WORD = String.raw`(?!(?:string|number|boolean|any|unknown|null|undefined|true|false|none|~)[ \t]*$)`;

const RULES: readonly PatternRule[] = [
  { kind: "aws-access-key-id", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, group: 0 },
  {
    kind: "aws-secret-access-key",
    pattern: /(?<![A-Za-z0-9_.-])((?:aws_?)?secret_?access_?key["']?[ \t]{0,8}[:=][ \t]{0,8}["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    group: 2,
  },
  { kind: "github-token", pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,251})(?![A-Za-z0-9_])/g, group: 0 },
  { kind: "anthropic-api-key", pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,512}(?![A-Za-z0-9_-])/g, group: 0 },
  // OpenAI keys are long and contain digits; `sk-learn-contrib-…` words are kept.
  { kind: "openai-api-key", pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?=[A-Za-z_-]{0,520}[0-9])(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32,512}(?![A-Za-z0-9_-])/g, group: 0 },
  { kind: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{16,256}/g, group: 0 },
  { kind: "slack-token", pattern: /(?<![A-Za-z0-9_-])(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,512}(?![A-Za-z0-9_-])/g, group: 0 },
  { kind: "stripe-key", pattern: /(?<![A-Za-z0-9_])(?:sk|rk|whsec)_(?:live|test)_[A-Za-z0-9]{16,247}(?![A-Za-z0-9_])/g, group: 0 },
  { kind: "google-api-key", pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, group: 0 },
  { kind: "npm-token", pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g, group: 0 },
  { kind: "jwt", pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{2,16384}\.[A-Za-z0-9_-]{0,8192}(?![A-Za-z0-9_-])/g, group: 0 },
  {
    kind: "basic-auth",
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9_-])(authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?basic[ \t]{1,8})${NOT_MARKER}([A-Za-z0-9+/]{4,4096}={0,2})`, "gi"),
    group: 2,
  },
  {
    kind: "bearer-token",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])((?:authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:bearer|token)|bearer)[ \t]{1,8})${NOT_MARKER}${NOT_REFERENCE}([A-Za-z0-9._~+/-]{16,4096}={0,2})`,
      "gi",
    ),
    group: 2,
  },
  {
    kind: "url-password",
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9+.-])([A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/?#@"'\[\]]{0,256}:)${NOT_MARKER}${NOT_REFERENCE}([^\s/?#@"']{1,256})(?=@)`, "g"),
    group: 2,
  },
  // Quoted values anywhere: `password = "hunter2"`, `"api_key": "…"`, `secret: 'x'`.
  {
    kind: "secret-assignment",
    pattern: new RegExp(String.raw`${KEY_START}(${SECRET_KEY}["']?[ \t]{0,8}[:=][ \t]{0,8}(["']))${NOT_MARKER}${NOT_REFERENCE}([^"'\r\n]{1,1024})(?=\2)`, "gi"),
    group: 3,
  },
  // Unquoted env/.npmrc/query/flag style with no space around `=`: `DB_PASSWORD=x`,
  // `//registry/:_authToken=x`, `?api_key=x&`, `--password=x`.
  {
    kind: "secret-assignment",
    pattern: new RegExp(String.raw`${KEY_START}(${SECRET_KEY}=)${NOT_MARKER}${NOT_REFERENCE}(?!["'])([^\s"'&;,]{1,1024})`, "gi"),
    group: 2,
  },
  // A whole line of YAML or INI: `password: hunter2`, `password = hunter2` (not `password: string;`,
  // not `password = getPassword()`).
  {
    kind: "secret-assignment",
    pattern: new RegExp(
      String.raw`(^[ \t]{0,64}(?:- )?${SECRET_KEY}(?::[ \t]{1,8}|[ \t]{0,8}=[ \t]{0,8}))${NOT_MARKER}${NOT_REFERENCE}(?!["'])${NOT_TYPE_WORD}([^\s;,(){}\[\]"']{1,1024})(?=[ \t]*\r?$)`,
      "gim",
    ),
    group: 2,
  },
];

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]{1,16} ){0,4})PRIVATE KEY( BLOCK)?-----/g;
const PEM_BODY_LIMIT = 65_536;

/** Length of the body of an unterminated block: base64, headers, whitespace, escaped newlines. */
function unterminatedBodyLength(text: string, start: number): number {
  let index = start;
  const stop = Math.min(text.length, start + PEM_BODY_LIMIT);
  while (index < stop) {
    const char = text.charCodeAt(index);
    const isBody =
      (char >= 48 && char <= 57) || (char >= 65 && char <= 90) || (char >= 97 && char <= 122) || "+/=:,- \t\r\n".includes(text[index] as string);
    if (isBody) index += 1;
    else if (char === 92 && (text[index + 1] === "n" || text[index + 1] === "r")) index += 2;
    else break;
  }
  return index - start;
}

function redactPrivateKeys(text: string, counts: Map<RedactionKind, number>): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let output = "";
  let cursor = 0;
  for (;;) {
    PEM_BEGIN.lastIndex = cursor;
    const begin = PEM_BEGIN.exec(text);
    if (begin === null) break;
    const endMarker = `-----END ${begin[1] ?? ""}PRIVATE KEY${begin[2] ?? ""}-----`;
    const bodyStart = begin.index + begin[0].length;
    const end = text.indexOf(endMarker, bodyStart);
    // A block without its END marker (a truncated key) is still key material: its body goes too.
    const stop = end >= 0 ? end + endMarker.length : bodyStart + unterminatedBodyLength(text, bodyStart);
    output += text.slice(cursor, begin.index) + redactionMarker("private-key");
    counts.set("private-key", (counts.get("private-key") ?? 0) + 1);
    cursor = stop;
  }
  return output + text.slice(cursor);
}

function applyRule(text: string, rule: PatternRule, counts: Map<RedactionKind, number>): string {
  rule.pattern.lastIndex = 0;
  return text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    counts.set(rule.kind, (counts.get(rule.kind) ?? 0) + 1);
    if (rule.group === 0) return redactionMarker(rule.kind);
    const groups = args.slice(1, -2) as (string | undefined)[];
    const secret = groups[rule.group - 1] ?? "";
    // The secret is the last captured part of the match; everything before it is kept.
    return match.slice(0, match.length - secret.length) + redactionMarker(rule.kind);
  });
}

/** Redacts every recognised secret in `text`. Idempotent: redacting the output changes nothing. */
export function redactSecrets(text: string): RedactionResult {
  const counts = new Map<RedactionKind, number>();
  let output = redactPrivateKeys(text, counts);
  for (const rule of RULES) output = applyRule(output, rule, counts);
  const result: RedactionCounts = {};
  for (const kind of REDACTION_KINDS) {
    const count = counts.get(kind);
    if (count !== undefined) result[kind] = count;
  }
  return { text: output, counts: result };
}

/** Sums per-kind counts (for a record made of several redacted texts). */
export function addRedactionCounts(left: RedactionCounts, right: RedactionCounts): RedactionCounts {
  const result: RedactionCounts = {};
  for (const kind of REDACTION_KINDS) {
    const total = (left[kind] ?? 0) + (right[kind] ?? 0);
    if (total > 0) result[kind] = total;
  }
  return result;
}
