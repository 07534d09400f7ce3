// Docket's own secret rules: the formats and shapes the maintained rule set (secretlintRules.ts)
// does not cover or covers too narrowly for redaction — Azure keys and SAS signatures, GitLab's
// other token prefixes, key-anchored AWS secrets in every shape, credentials in URLs, headers and
// command-line flags, and values assigned to secret keys in env, YAML, INI, JSON, .netrc and SQL.
// Every rule runs over decoded text (never over JSON-encoded text) and reports spans; redaction.ts
// merges them with the other rules' spans.
//
// Every pattern is linear on hostile input: each starts with a negative look-behind over its own
// character class (a long run of token characters offers one start, not one per character), on a
// fixed prefix or at a line start, and every repetition has an upper bound. PEM blocks and YAML
// block scalars are scanned with indexOf and line walks instead of lazy multi-line patterns.
import { looksRandom } from "./entropyRule";
import { mayMatch } from "./ruleGate";
import { isNonSecretValue, isSecretKeyName, isSecretLookingKeyName, SECRET_KEY_ANCHOR, SECRET_KEY_SOURCE, SECRET_NAME_ANCHOR } from "./secretKeys";
import type { RedactionKind, SpanSink } from "./redactionKinds";

interface PatternRule {
  readonly kind: RedactionKind;
  /** Global, with indices (`d`), so each group's position is known. */
  readonly pattern: RegExp;
  /**
   * Found in every text the pattern matches (all of them; ruleGate.ts): literal parts of the
   * pattern every match contains, with the pattern's own case rules.
   */
  readonly anchors: readonly RegExp[];
  /** Groups that may hold the secret, first defined wins; 0 = the whole match. */
  readonly groups: readonly number[];
  /** Rejects a candidate secret that is not one (a reference, a type word, code). */
  readonly accept?: (secret: string) => boolean;
  /** Trailing whitespace is not part of a value that runs to the end of a line. */
  readonly trimEnd?: boolean;
  /**
   * The group holding the name the value is assigned to, when the pattern takes any name: a secret
   * key makes it `kind`, a secret-looking one makes a random-looking value high-entropy.
   */
  readonly nameGroup?: number;
}

/** The kind a value assigned to `name` is redacted as, or undefined when it is no secret. */
function assignedKind(name: string, value: string, kind: RedactionKind): RedactionKind | undefined {
  if (isSecretKeyName(name)) return kind;
  return isSecretLookingKeyName(name) && looksRandom(value.trim()) ? "high-entropy-assignment" : undefined;
}

/** Any name a value can be assigned to; rules that take it decide in code (assignedKind). */
const ANY_NAME = String.raw`([A-Za-z_][A-Za-z0-9_.-]{0,127})`;

const KEY_START = String.raw`(?<![A-Za-z0-9_.-])`;
const KEY = SECRET_KEY_SOURCE;
/** Never re-redact a marker: keeps redaction idempotent. */
const NOT_MARKER = String.raw`(?!\[REDACTED:)`;
/** An optional quote around a key, plain or escaped once more (`\"password\"`). */
const KEY_QUOTE = String.raw`(?:\\?["'])?`;
/** Not a reference to a secret (`${TOKEN}`, `$(cat …)`, `$TOKEN`, `%TOKEN%`, `<token>`, `{{ x }}`); `%40…` is an encoded value. */
const NOT_REFERENCE = String.raw`(?!\$[A-Z_{(]|%[A-Za-z_]\w{0,63}%|<[A-Za-z]|\{\{)`;
const ASSIGN = String.raw`[ \t]{0,8}(?::=|=>|[:=])[ \t]{0,8}`;
// A backslash that starts an escape (`\n`, `\"`) ends an unquoted value: in escaped text (a JSON
// string printed as is) it is the end of the line or of the string. The decoded view of that text
// is redacted as well, so the value is not lost; any other backslash belongs to the value.
const BARE_VALUE_CHAR = String.raw`(?:[^\s"'\x60&\\]|\\(?![nrt"'\\/]))`;
const LINE_VALUE_CHAR = String.raw`(?:[^\r\n\\]|\\(?![nr"]))`;

// A line value that is code, not a secret: a call, an index, a member of a well-known object, an
// arrow function (`password: getPassword(),` in an object literal). Only the whole-line rule needs
// this: quoted values are literals, and `KEY=value` without spaces is not how code assigns.
const CODE = /^(?:[A-Za-z_$][\w$.]*\s?\(.*\)[;,]?$|[A-Za-z_$][\w$.]*\[|(?:this|self|process|os|env|config|settings|options|opts|args|params|props|req|request|ctx|context|window|document)\.|new\s|await\s|function\b)|=>/;
function isValue(secret: string): boolean {
  return !isNonSecretValue(secret);
}
function isLineValue(secret: string): boolean {
  // A YAML block scalar header (`password: |`) is handled by the block scanner.
  return isValue(secret) && !CODE.test(secret) && !/^[|>][-+0-9]*\s*(?:#.*)?$/.test(secret);
}

const RULES: readonly PatternRule[] = [
  { kind: "aws-access-key-id", pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AGPA|ANPA|ANVA|AIPA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/dg, anchors: [/A(?:KIA|SIA|BIA|CCA|IDA|ROA|GPA|NPA|NVA|IPA|3T)/], groups: [0] },
  {
    kind: "aws-secret-access-key",
    // `aws_secret_access_key = …`, `"SecretAccessKey": "…"`, `aws configure set aws_secret_access_key …`.
    pattern: /(?<![A-Za-z0-9_.-])(?:aws[_-]?)?secret[_-]?access[_-]?key(?:\\?["'])?(?:[ \t]{0,8}(?::|=>|=)[ \t\r\n]{0,8}(?:\\?["'])?|[ \t]{1,8})([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    anchors: [/secret[_-]?access[_-]?key/i],
    groups: [1],
  },
  { kind: "github-token", pattern: /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,251})(?![A-Za-z0-9_])/dg, anchors: [/gh[pousr]_|github_pat_/], groups: [0] },
  {
    kind: "gitlab-token",
    // Personal, deploy, runner, pipeline-trigger, OAuth, CI-build, incoming-mail, SCIM, feature-flag
    // and agent tokens, and runner registration tokens.
    pattern: /(?<![A-Za-z0-9_-])(?:gl(?:pat|dt|rt|ptt|oas|cbt|imt|soat|ffct|agent|ft)-[A-Za-z0-9_-](?:[A-Za-z0-9_.-]{18,254})[A-Za-z0-9_-]|GR1348941[A-Za-z0-9_-]{20,64})(?![A-Za-z0-9_-])/dg,
    anchors: [/gl(?:pat|dt|rt|ptt|oas|cbt|imt|soat|ffct|agent|ft)-|GR1348941/],
    groups: [0],
  },
  { kind: "anthropic-api-key", pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,512}(?![A-Za-z0-9_-])/dg, anchors: [/sk-ant-/], groups: [0] },
  // OpenAI keys are long and contain digits; `sk-learn-contrib-…` words are kept.
  { kind: "openai-api-key", pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?=[A-Za-z_-]{0,520}[0-9])(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{32,512}(?![A-Za-z0-9_-])/dg, anchors: [/sk-/], groups: [0] },
  { kind: "slack-webhook", pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{16,256}/dg, anchors: [/https:\/\/hooks\.slack\.com\//], groups: [0] },
  { kind: "slack-token", pattern: /(?<![A-Za-z0-9_-])(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,512}(?![A-Za-z0-9_-])/dg, anchors: [/xox[abposr]-|xapp-/], groups: [0] },
  { kind: "stripe-key", pattern: /(?<![A-Za-z0-9_])(?:sk|rk|whsec)_(?:live|test)_[A-Za-z0-9]{16,247}(?![A-Za-z0-9_])/dg, anchors: [/(?:sk|rk|whsec)_(?:live|test)_/], groups: [0] },
  { kind: "google-api-key", pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/dg, anchors: [/AIza/], groups: [0] },
  { kind: "npm-token", pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/dg, anchors: [/npm_/], groups: [0] },
  { kind: "sendgrid-api-key", pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{32,64}(?![A-Za-z0-9_-])/dg, anchors: [/SG\./], groups: [0] },
  {
    kind: "azure-storage-key",
    // Storage, Service Bus and Event Hubs connection strings: `AccountKey=…;`, `SharedAccessKey=…`.
    pattern: /(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)[ \t]{0,4}=[ \t]{0,4}([A-Za-z0-9+/]{20,512}={0,2})/dgi,
    anchors: [/AccountKey|SharedAccessKey/i],
    groups: [1],
  },
  // A SAS token's signature (`…&sig=…`), URL-encoded base64.
  { kind: "azure-sas-signature", pattern: /(?<![A-Za-z0-9_.-])sig=([A-Za-z0-9%+/=_-]{16,512})/dg, anchors: [/sig=/], groups: [1] },
  {
    kind: "private-key",
    // A PEM private key that was base64-encoded once more (kubeconfig `client-key-data`, Kubernetes
    // TLS secrets): "-----BEGIN" encodes to `LS0tLS1CRUdJTi`; the decoded prefix is checked below.
    pattern: /(?<![A-Za-z0-9+/])LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,131072}={0,2}/dg,
    anchors: [/LS0tLS1CRUdJTi/],
    groups: [0],
    accept: (secret) => Buffer.from(secret.slice(0, 80), "base64").toString("latin1").includes("PRIVATE KEY"),
  },
  {
    kind: "provider-token",
    // Prefixed tokens of providers the maintained rule set does not know: PyPI, DigitalOcean,
    // Atlassian, Postman, Doppler, Supabase, New Relic.
    pattern: /(?<![A-Za-z0-9_-])(?:pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1024}|do[por]_v1_[a-f0-9]{64}|ATATT3[A-Za-z0-9_=-]{100,512}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]{40,48}|sbp_[a-f0-9]{40}|NRAK-[A-Z0-9]{27})(?![A-Za-z0-9_-])/dg,
    anchors: [/pypi-AgEIcHlwaS5vcmc|do[por]_v1_|ATATT3|PMAK-|dp\.(?:pt|st|sa|ct)\.|sbp_|NRAK-/],
    groups: [0],
  },
  { kind: "jwt", pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,8192}\.eyJ[A-Za-z0-9_-]{2,16384}\.[A-Za-z0-9_-]{0,8192}(?![A-Za-z0-9_-])/dg, anchors: [/eyJ/], groups: [0] },
  {
    kind: "basic-auth",
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9_-])authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?basic[ \t]{1,8}${NOT_MARKER}([A-Za-z0-9+/]{4,4096}={0,2})`, "dgi"),
    anchors: [/authorization/i],
    groups: [1],
  },
  {
    kind: "basic-auth",
    // `curl -u user:password`, `--user user:password`: the password after the first colon.
    pattern: new RegExp(String.raw`(?<![^\s])(?:-u|--user)[ \t]{1,8}["']?[^\s:"']{1,256}:${NOT_MARKER}${NOT_REFERENCE}([^\s"']{1,256})`, "dg"),
    anchors: [/-u/],
    groups: [1],
  },
  {
    kind: "bearer-token",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])(?:authorization["']?[ \t]{0,8}[:=][ \t]{0,8}["']?(?:bearer|token)|bearer)[ \t]{1,8}${NOT_MARKER}${NOT_REFERENCE}([A-Za-z0-9._~+/-]{16,4096}={0,2})`,
      "dgi",
    ),
    anchors: [/authorization|bearer/i],
    groups: [1],
  },
  {
    kind: "url-password",
    // The user is kept: `scheme://user:password@host`.
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{0,31}://[^\s:/?#@"'\[\]]{0,256}:${NOT_MARKER}${NOT_REFERENCE}([^\s/?#@"']{1,256})(?=@)`, "dg"),
    anchors: [/:\/\//],
    groups: [1],
  },
  // Quoted values anywhere: `password = "hunter2"`, `"api_key": "…"`, `secret: 'x'`, `PASS := "x"`.
  // A double-quoted value may hold escapes (`\"`) and span lines; single quotes hold none.
  {
    kind: "secret-assignment",
    pattern: new RegExp(String.raw`${KEY_START}${KEY}${KEY_QUOTE}${ASSIGN}"${NOT_MARKER}((?:[^"\\]|\\[\s\S]){1,1024})"`, "dgi"),
    anchors: [SECRET_KEY_ANCHOR, /[:=]/],
    groups: [1],
    accept: isValue,
  },
  {
    kind: "secret-assignment",
    pattern: new RegExp(String.raw`${KEY_START}${KEY}${KEY_QUOTE}${ASSIGN}'${NOT_MARKER}([^']{1,1024})'`, "dgi"),
    anchors: [SECRET_KEY_ANCHOR, /[:=]/],
    groups: [1],
    accept: isValue,
  },
  // SQL: `ALTER USER app PASSWORD 'x'`, `IDENTIFIED BY 'x'`.
  { kind: "secret-assignment", pattern: /(?<![A-Za-z0-9_])(?:password|identified[ \t]{1,8}by)[ \t]{1,8}(?:'([^'\r\n]{1,256})'|"([^"\r\n]{1,256})")/dgi, anchors: [/password|identified/i], groups: [1, 2], accept: isValue },
  // Unquoted env/.npmrc/query/flag style with no space around `=`: `DB_PASSWORD=x`,
  // `//registry/:_authToken=x`, `?api_key=x&`, `--password=x`.
  {
    kind: "secret-assignment",
    pattern: new RegExp(String.raw`${KEY_START}${KEY}=${NOT_MARKER}(?!["'\s=>])(${BARE_VALUE_CHAR}{1,1024})`, "dgi"),
    anchors: [SECRET_KEY_ANCHOR, /=/],
    groups: [1],
    accept: isValue,
  },
  // A whole line of YAML, INI or env: `password: correct horse`, `password = x`, `export TOKEN=a&b`.
  // The value runs to the end of the line.
  {
    kind: "secret-assignment",
    pattern: new RegExp(
      String.raw`^[ \t]{0,64}(?:- |export[ \t]{1,8}|set[ \t]{1,8})?["']?${KEY}["']?(?:[ \t]{0,8}:[ \t]{1,8}|[ \t]{0,8}:?=[ \t]{0,8})${NOT_MARKER}(?!["'\s=>])(${LINE_VALUE_CHAR}{1,1024})`,
      "dgim",
    ),
    anchors: [SECRET_KEY_ANCHOR, /[:=]/],
    groups: [1],
    accept: isLineValue,
    trimEnd: true,
  },
  // Kubernetes / Compose env lists: `- name: DB_PASSWORD` then `value: x` on the next line.
  {
    kind: "secret-assignment",
    pattern: new RegExp(
      String.raw`^[ \t]{0,64}(?:- )?name:[ \t]{1,8}["']?${ANY_NAME}["']?[ \t]{0,8}\r?\n[ \t]{0,64}value:[ \t]{1,8}${NOT_MARKER}(?:"([^"\r\n]{1,1024})"|'([^'\r\n]{1,1024})'|([^\s"'][^\r\n]{0,1023}))`,
      "dgim",
    ),
    anchors: [/name:/i, /value:/i, SECRET_NAME_ANCHOR],
    groups: [2, 3, 4],
    nameGroup: 1,
    accept: isLineValue,
    trimEnd: true,
  },
  // The same as JSON: `{"name": "DB_PASSWORD", "value": "x"}` (ECS task definitions, Kubernetes JSON).
  {
    kind: "secret-assignment",
    pattern: new RegExp(String.raw`"(?:name|Name|key|Key)"[ \t]{0,8}:[ \t]{0,8}"${ANY_NAME}"[ \t]{0,8},[\s]{0,64}"(?:value|Value)"[ \t]{0,8}:[ \t]{0,8}"${NOT_MARKER}((?:[^"\\]|\\[\s\S]){1,1024})"`, "dg"),
    anchors: [/"(?:name|Name|key|Key)"/, /"(?:value|Value)"/, SECRET_NAME_ANCHOR],
    groups: [2],
    nameGroup: 1,
    accept: isValue,
  },
  // .netrc: `machine h login u password p`, or `password p` alone on its line.
  { kind: "secret-assignment", pattern: /(?<![A-Za-z0-9_])login[ \t]{1,8}[^\s]{1,256}[ \t]{1,8}password[ \t]{1,8}([^\s]{1,256})/dg, anchors: [/login/, /password/], groups: [1], accept: isValue },
  { kind: "secret-assignment", pattern: /^[ \t]{0,64}(?:password|passwd)[ \t]{1,8}([^\s]{1,256})[ \t]*\r?$/dgim, anchors: [/password|passwd/i], groups: [1], accept: isValue },
  // Long flags with the value after a space: `--password hunter2`, `--api-key "x y"`.
  {
    kind: "secret-assignment",
    pattern: /(?<![^\s])--?[A-Za-z0-9-]{0,32}(?:password|passwd|passphrase|secret|token|api-?key|access-key|private-key|client-secret)[ \t]{1,8}(?![-$%<{\[])(?:"([^"\r\n]{1,1024})"|'([^'\r\n]{1,1024})'|([^\s"'\x60]{1,1024}))/dgi,
    anchors: [/password|passwd|passphrase|secret|token|api-?key|access-key|private-key|client-secret/i],
    groups: [1, 2, 3],
    accept: isValue,
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

function privateKeySpans(text: string, sink: SpanSink): void {
  if (!text.includes("PRIVATE KEY")) return;
  let cursor = 0;
  for (;;) {
    PEM_BEGIN.lastIndex = cursor;
    const begin = PEM_BEGIN.exec(text);
    if (begin === null) return;
    const endMarker = `-----END ${begin[1] ?? ""}PRIVATE KEY${begin[2] ?? ""}-----`;
    const bodyStart = begin.index + begin[0].length;
    const end = text.indexOf(endMarker, bodyStart);
    // A block without its END marker (a truncated key) is still key material: its body goes too.
    const stop = end >= 0 ? end + endMarker.length : bodyStart + unterminatedBodyLength(text, bodyStart);
    sink(begin.index, stop, "private-key");
    cursor = stop;
  }
}

// A YAML block scalar under a secret key: `password: |` (or `>-`, `|2`…) and the more-indented
// lines that follow it are the value.
const BLOCK_HEADER = new RegExp(String.raw`^([ \t]{0,64})(?:- )?["']?${ANY_NAME}["']?:[ \t]{0,8}[|>][-+0-9]{0,2}[ \t]*(?:#[^\r\n]{0,256})?\r?$`, "gim");
const BLOCK_LINES_LIMIT = 512;
/** The header's indicator, and the name it keeps only when it is a secret key or a secret-looking one. */
const BLOCK_ANCHORS = [/[|>]/, SECRET_NAME_ANCHOR];

function indentOf(line: string): number {
  let width = 0;
  while (width < line.length && (line[width] === " " || line[width] === "\t")) width += 1;
  return width;
}

function blockScalarSpans(text: string, sink: SpanSink): void {
  if (!mayMatch(text, BLOCK_ANCHORS)) return;
  BLOCK_HEADER.lastIndex = 0;
  for (let header = BLOCK_HEADER.exec(text); header !== null; header = BLOCK_HEADER.exec(text)) {
    const name = header[2] ?? "";
    if (!isSecretKeyName(name) && !isSecretLookingKeyName(name)) continue;
    const keyIndent = (header[1] ?? "").length;
    let position = header.index + header[0].length;
    if (text[position] === "\n") position += 1;
    const start = position;
    let end = start;
    for (let lines = 0; lines < BLOCK_LINES_LIMIT && position < text.length; lines += 1) {
      const newline = text.indexOf("\n", position);
      const lineEnd = newline < 0 ? text.length : newline;
      const line = text.slice(position, lineEnd);
      if (line.trim().length > 0 && indentOf(line) <= keyIndent) break;
      if (line.trim().length > 0) end = lineEnd;
      position = newline < 0 ? text.length : newline + 1;
    }
    if (end > start) {
      const first = start + indentOf(text.slice(start, Math.min(end, start + 256)));
      const kind = assignedKind(name, text.slice(first, Math.min(end, first + 1_024)).replace(/\s+/g, ""), "secret-assignment");
      if (kind !== undefined) sink(first, end, kind);
    }
    BLOCK_HEADER.lastIndex = Math.max(BLOCK_HEADER.lastIndex, end);
  }
}

/**
 * Where a value that ran to the end of its line really ends: without trailing whitespace, and
 * without the closing quote and brackets of a JSON string it sits in (`hunter2"}` in the decoded
 * view of `{"cmd":"password: hunter2"}`).
 */
function trimmedEnd(text: string, start: number, end: number): number {
  let stop = end;
  while (stop > start && /\s/.test(text[stop - 1] as string)) stop -= 1;
  const closing = /(["'])[\s,;}\])]{0,16}$/.exec(text.slice(Math.max(start, stop - 17), stop));
  if (closing !== null) {
    const quote = closing[1] as string;
    const quoteAt = stop - closing[0].length;
    if (quoteAt > start && !text.slice(start, quoteAt).includes(quote)) stop = quoteAt;
  }
  return stop;
}

function patternSpans(text: string, rule: PatternRule, sink: SpanSink): void {
  if (!mayMatch(text, rule.anchors)) return;
  rule.pattern.lastIndex = 0;
  for (const match of text.matchAll(rule.pattern)) {
    const group = rule.groups.find((index) => match[index] !== undefined);
    const range = group === undefined ? undefined : match.indices?.[group];
    if (group === undefined || range === undefined) continue;
    const [start, rawEnd] = range;
    const end = rule.trimEnd === true ? trimmedEnd(text, start, rawEnd) : rawEnd;
    if (end <= start) continue;
    const secret = text.slice(start, end);
    if (rule.accept !== undefined && !rule.accept(secret)) continue;
    const kind = rule.nameGroup === undefined ? rule.kind : assignedKind(match[rule.nameGroup] ?? "", secret, rule.kind);
    if (kind !== undefined) sink(start, end, kind);
  }
}

/** Every span Docket's own rules find in `text`. */
export function docketSecretSpans(text: string, sink: SpanSink): void {
  privateKeySpans(text, sink);
  blockScalarSpans(text, sink);
  for (const rule of RULES) patternSpans(text, rule, sink);
}
