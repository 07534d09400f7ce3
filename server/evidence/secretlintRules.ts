// The maintained rule set: every scanner rule of secretlint's recommended preset
// (@secretlint/secretlint-rule-preset-recommend), run over decoded text and turned into spans.
//
// The rules are driven through their public rule interface (`create(context).file(source)`), not
// through @secretlint/core's lintSource: core deduplicates its messages pairwise (quadratic — 16,000
// tokens in 650 KB took 15 s), is asynchronous, and would honour `secretlint-disable` comments
// through the preset's filter-comments rule, so any text could switch redaction off by saying so.
// That rule is therefore not run. Rules are given no file path, so none of them reads a file.
//
// Each rule has an anchor (ruleGate.ts): a text without it cannot be flagged by that rule, so the
// rule is not run on it, and a text without any anchor does not load the preset at all. The
// anchors are read from the preset's code at ANCHORED_PRESET_VERSION; under any other version every
// rule runs on every text until they are read again (test/unit/redactionGate.test.ts fails then).
import { version as presetVersion } from "@secretlint/secretlint-rule-preset-recommend/package.json";
import type { RedactionKind, SpanSink } from "./redactionKinds";
import { mayMatch } from "./ruleGate";

/** The part of secretlint's rule API the preset's scanner rules use. */
interface RuleMessage {
  readonly messageId: string;
  readonly data?: unknown;
}
interface RuleReport {
  readonly message: RuleMessage;
  readonly range: readonly [number, number];
}
interface RuleContext {
  readonly sharedOptions: Record<string, never>;
  createTranslator(messages: unknown): (messageId: string, data?: unknown) => RuleMessage & { readonly message: string };
  report(descriptor: RuleReport): void;
  ignore(descriptor: unknown): void;
}
interface RuleSource {
  readonly content: string;
  readonly ext: string;
  readonly contentType: "text";
}
interface RuleCreator {
  readonly meta: { readonly id: string; readonly type?: string };
  create(context: RuleContext, options: Record<string, never>): { file?(source: RuleSource): unknown };
}

/** Preset rules that are not secret scanners and must not run (see the header). */
const SKIPPED_RULES = new Set(["@secretlint/secretlint-rule-filter-comments"]);

const RULE_KINDS: Readonly<Record<string, RedactionKind>> = {
  "@secretlint/secretlint-rule-privatekey": "private-key",
  "@secretlint/secretlint-rule-gcp": "gcp-service-account-key",
  "@secretlint/secretlint-rule-github": "github-token",
  "@secretlint/secretlint-rule-gitlab": "gitlab-token",
  "@secretlint/secretlint-rule-anthropic": "anthropic-api-key",
  "@secretlint/secretlint-rule-openai": "openai-api-key",
  "@secretlint/secretlint-rule-npm": "npm-token",
  "@secretlint/secretlint-rule-sendgrid": "sendgrid-api-key",
  "@secretlint/secretlint-rule-shopify": "shopify-token",
  "@secretlint/secretlint-rule-grafana": "grafana-token",
  "@secretlint/secretlint-rule-groq": "groq-api-key",
  "@secretlint/secretlint-rule-huggingface": "huggingface-token",
  "@secretlint/secretlint-rule-linear": "linear-api-key",
  "@secretlint/secretlint-rule-notion": "notion-token",
  "@secretlint/secretlint-rule-1password": "onepassword-token",
  "@secretlint/secretlint-rule-hashicorp-vault": "vault-token",
  "@secretlint/secretlint-rule-vercel": "vercel-token",
  "@secretlint/secretlint-rule-databricks": "databricks-token",
  "@secretlint/secretlint-rule-docker": "docker-token",
  "@secretlint/secretlint-rule-figma": "figma-token",
};
const MESSAGE_KINDS: Readonly<Record<string, RedactionKind>> = {
  AWSSecretAccessKey: "aws-secret-access-key",
  AWSAccessKeyID: "aws-access-key-id",
  SLACK_TOKEN: "slack-token",
  IncomingWebhook: "slack-webhook",
};
/** The preset version whose rules RULE_ANCHORS describes. */
export const ANCHORED_PRESET_VERSION = "12.0.0";

/**
 * A URI with a user and a password (`scheme://user:password@`): both URI rules report only when
 * their user and password groups matched, and each group's characters and length fit these.
 */
const URI_WITH_PASSWORD = /:\/\/[^:/\s]{1,256}:[^@/\s]{1,256}@/;

/**
 * Per rule, what every text it reports on contains (all of them), with the rule's case rules (a
 * case-insensitive anchor for a partly case-sensitive rule only says "maybe" more often). Only
 * the rule's scanning in this setting counts: no file path (the npm rule's `.npmrc` branch never
 * runs), the AWS rule without its ID scan (off by default), and the service-account rule only on
 * a JSON document (`{…}` once trimmed) whose decoded keys and `private_key` hold `private_key_id`
 * and "PRIVATE KEY" — in the raw text as they are, or written with a `\u` escape (JSON's other
 * escapes make no letter, digit, space or underscore).
 */
export const RULE_ANCHORS: Readonly<Record<string, readonly RegExp[]>> = {
  "@secretlint/secretlint-rule-aws": [/secret_?access_?key/i],
  "@secretlint/secretlint-rule-gcp": [/^\s*\{/, /\}\s*$/, /private_key_id|\\u/, /PRIVATE KEY|\\u/],
  "@secretlint/secretlint-rule-npm": [/x-oauth-basic@github|npm_/],
  "@secretlint/secretlint-rule-slack": [/xox[bpaor]-|xapp-|hooks\.slack\.com/i],
  "@secretlint/secretlint-rule-basicauth": [URI_WITH_PASSWORD],
  "@secretlint/secretlint-rule-openai": [/T3BlbkFJ/],
  "@secretlint/secretlint-rule-anthropic": [/sk-ant-api0/],
  "@secretlint/secretlint-rule-groq": [/gsk_/],
  "@secretlint/secretlint-rule-huggingface": [/hf_/],
  "@secretlint/secretlint-rule-linear": [/lin_api_/],
  "@secretlint/secretlint-rule-notion": [/ntn_/],
  "@secretlint/secretlint-rule-privatekey": [/PRIVATE KEY/],
  "@secretlint/secretlint-rule-sendgrid": [/SG\./],
  "@secretlint/secretlint-rule-shopify": [/shp(?:pa|ca|at|ss)_/],
  "@secretlint/secretlint-rule-github": [/gh[pousr]_|github_pat_/],
  "@secretlint/secretlint-rule-gitlab": [/glpat-/],
  "@secretlint/secretlint-rule-grafana": [/glc_|glsa_/],
  "@secretlint/secretlint-rule-1password": [/ops_ey/],
  "@secretlint/secretlint-rule-database-connection-string": [URI_WITH_PASSWORD],
  "@secretlint/secretlint-rule-hashicorp-vault": [/hv[sbr]\./],
  "@secretlint/secretlint-rule-vercel": [/vc[piark]_/],
  "@secretlint/secretlint-rule-databricks": [/dapi/],
  "@secretlint/secretlint-rule-docker": [/dckr_pat_/],
  "@secretlint/secretlint-rule-figma": [/figd_/],
};
const ANCHORED = presetVersion === ANCHORED_PRESET_VERSION;
const EVERY_RULE_ANCHORS = Object.values(RULE_ANCHORS);

/** Whether rule `id` may report on `text`: a rule without anchors, or under another preset version, always may. */
function ruleMayMatch(id: string, text: string): boolean {
  const anchors = RULE_ANCHORS[id];
  return !ANCHORED || anchors === undefined || mayMatch(text, anchors);
}

/** Rules that report a whole URI; only its password is the secret. */
const URI_RULES = new Set(["@secretlint/secretlint-rule-basicauth", "@secretlint/secretlint-rule-database-connection-string"]);

function kindOf(ruleId: string, messageId: string): RedactionKind {
  return MESSAGE_KINDS[messageId] ?? RULE_KINDS[ruleId] ?? "provider-token";
}

function isRuleCreator(value: unknown): value is RuleCreator {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { meta?: { id?: unknown; type?: unknown }; create?: unknown };
  return typeof candidate.create === "function" && typeof candidate.meta?.id === "string" && candidate.meta.type === "scanner";
}

interface LoadedRule {
  readonly id: string;
  readonly file: (source: RuleSource) => unknown;
}

let reports: Array<{ readonly ruleId: string; readonly report: RuleReport }> | null = null;
let loaded: readonly LoadedRule[] | undefined;

/** The preset's scanner rules, created once per process (the hook loads this on its slow path). */
function rules(): readonly LoadedRule[] {
  if (loaded !== undefined) return loaded;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const preset = require("./secretlintPreset") as { readonly rules?: unknown };
  const creators = Array.isArray(preset.rules) ? preset.rules.filter(isRuleCreator) : [];
  loaded = creators
    .filter((creator) => !SKIPPED_RULES.has(creator.meta.id))
    .flatMap((creator) => {
      const ruleId = creator.meta.id;
      const context: RuleContext = {
        sharedOptions: {},
        // Messages are never formatted: they would quote the secret.
        createTranslator: () => (messageId, data) => ({ message: "", messageId, data }),
        report: (report) => reports?.push({ ruleId, report }),
        ignore: () => undefined,
      };
      const handler = creator.create(context, {});
      return handler.file === undefined ? [] : [{ id: ruleId, file: handler.file.bind(handler) }];
    });
  return loaded;
}

/** Loads the rule set now (so its cost is paid, and measured, outside a capture). */
export function loadSecretlintRules(): number {
  return rules().length;
}

/** The strings a report names as its finding (the rules pass the secret as message data). */
function reportedValues(data: unknown): string[] {
  if (typeof data !== "object" || data === null) return [];
  return Object.values(data as Record<string, unknown>).filter((value): value is string => typeof value === "string" && value.length >= 8);
}

/**
 * The span a report really covers. Some rules report the start of the whole match with the length
 * of the secret (the AWS secret-key rule: the range starts at the key name and stops inside the
 * secret); when the range does not hold the value the report names, the value found at or after
 * the range start is used instead, so a secret is never half redacted.
 */
function secretRange(text: string, report: RuleReport): readonly [number, number] {
  const [start, end] = report.range;
  const covered = text.slice(start, end);
  for (const value of reportedValues(report.message.data)) {
    if (covered.includes(value)) continue;
    const found = text.slice(start, start + 1_024 + value.length).indexOf(value);
    if (found >= 0) return [start + found, start + found + value.length];
  }
  return [start, end];
}

/** The password inside `scheme://user:password@host…`, or undefined when the URI has none. */
function uriPassword(text: string, start: number, end: number): readonly [number, number] | undefined {
  const uri = text.slice(start, end);
  const authority = uri.indexOf("://") + 3;
  if (authority < 3) return undefined;
  const at = uri.indexOf("@", authority);
  const colon = uri.indexOf(":", authority);
  if (at < 0 || colon < 0 || colon > at || colon + 1 === at) return undefined;
  return [start + colon + 1, start + at];
}

/** Every span the maintained rule set finds in `text`. */
export function secretlintSpans(text: string, sink: SpanSink): void {
  // Under the anchored version every rule of the preset has an anchor (the gate test checks it).
  if (ANCHORED && !EVERY_RULE_ANCHORS.some((anchors) => mayMatch(text, anchors))) return;
  const trimmed = text.trim();
  // The service-account rule reads JSON documents only, and decides by the file extension.
  const source: RuleSource = { content: text, ext: trimmed.startsWith("{") && trimmed.endsWith("}") ? ".json" : "", contentType: "text" };
  const found: NonNullable<typeof reports> = [];
  reports = found;
  try {
    for (const rule of rules()) {
      if (!ruleMayMatch(rule.id, text)) continue;
      const result = rule.file(source);
      // A rule that works asynchronously (the PKCS#12 reader, which needs a file path) reports nothing here.
      if (result instanceof Promise) result.catch(() => undefined);
    }
  } finally {
    reports = null;
  }
  for (const { ruleId, report } of found) {
    const [start, end] = report.range;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && end <= text.length && start < end)) continue;
    if (URI_RULES.has(ruleId)) {
      const password = uriPassword(text, start, end);
      if (password !== undefined) sink(password[0], password[1], "url-password");
      continue;
    }
    const [from, to] = secretRange(text, report);
    sink(from, to, kindOf(ruleId, report.message.messageId));
  }
}
