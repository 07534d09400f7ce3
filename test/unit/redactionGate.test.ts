// The secret rules' gate (server/evidence/ruleGate.ts) is sound: with it, every rule finds exactly
// the spans it finds without it, on every fixture secret of the corpus (test/fixtures/secrets/) in
// every shape and escaping, and on generated texts that embed them at random places, in random
// surroundings, escaped for JSON once or twice, with `\u` escapes and with their case changed.
// Each rule source is compared on its own (a span one rule lost cannot hide behind another's), on
// the text and on each of its decoded views, and so are the public redactions built on them. The
// anchors' vocabulary and secretlint's preset version are pinned here too.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { docketSecretSpans } from "../../server/evidence/docketRules";
import { entropySpans } from "../../server/evidence/entropyRule";
import { escapedViews } from "../../server/evidence/escapedViews";
import { redactBounded, redactSecrets, secretCandidates } from "../../server/evidence/redaction";
import type { SpanSink } from "../../server/evidence/redactionKinds";
import { setRuleGateForTests } from "../../server/evidence/ruleGate";
import { isSecretKeyName, isSecretLookingKeyName, SECRET_KEY_ANCHOR, SECRET_KEY_SOURCE, SECRET_NAME_ANCHOR } from "../../server/evidence/secretKeys";
import { ANCHORED_PRESET_VERSION, RULE_ANCHORS, secretlintSpans } from "../../server/evidence/secretlintRules";
import { redactedCanonicalJson } from "../../server/evidence/structuredRedaction";
import { toolResultContent } from "../../server/evidence/toolContent";
import { ENCODINGS, expandTemplate, loadSecretCorpus, renderSample, seededRandom } from "../fixtures/secrets/corpus";

const corpus = loadSecretCorpus();
const DETECTORS: ReadonlyArray<readonly [string, (text: string, sink: SpanSink) => void]> = [
  ["docket", docketSecretSpans],
  ["secretlint", secretlintSpans],
  ["entropy", entropySpans],
];

/** `run` with the gate on and off (always left on). */
function bothWays<T>(run: () => T): { readonly gated: T; readonly ungated: T } {
  setRuleGateForTests(true);
  const gated = run();
  setRuleGateForTests(false);
  try {
    return { gated, ungated: run() };
  } finally {
    setRuleGateForTests(true);
  }
}

function spans(detector: (text: string, sink: SpanSink) => void, text: string): Array<readonly [number, number, string]> {
  const found: Array<readonly [number, number, string]> = [];
  detector(text, (start, end, kind) => found.push([start, end, kind]));
  return found;
}

const label = (text: string): string => JSON.stringify(text.slice(0, 120));

/** Gated and ungated agree: per rule source on the text and its views, and for every public redaction. */
function assertSameBothWays(text: string): void {
  for (const view of [text, ...escapedViews(text).map((decoded) => decoded.text)]) {
    for (const [name, detector] of DETECTORS) {
      const { gated, ungated } = bothWays(() => spans(detector, view));
      assert.deepEqual(gated, ungated, `${name} rules, ${label(view)}`);
    }
  }
  const whole = bothWays(() => redactSecrets(text));
  assert.deepEqual(whole.gated, whole.ungated, `redactSecrets ${label(text)}`);
  const keep = Math.floor(text.length / 2);
  const bounded = bothWays(() => redactBounded(text, keep));
  assert.deepEqual(bounded.gated, bounded.ungated, `redactBounded ${label(text)}`);
  const fields = text.split(/(?<=[\n,;])/);
  const candidates = bothWays(() => [...secretCandidates(fields)]);
  assert.deepEqual(candidates.gated, candidates.ungated, `secretCandidates ${label(text)}`);
}

/** A JSON document whose base64 form starts `ey` and ends `fQ==` (the 1Password service-account token's body). */
function onePasswordToken(random: () => number): string {
  let json = JSON.stringify({ signInAddress: "my.1password.com", email: expandTemplate("{a:12}@example.com", random), secretKey: expandTemplate("A3-{A:6}-{A:6}-{A:5}-{A:5}-{A:5}-{A:5}", random), deviceUuid: expandTemplate("{a:26}", random) });
  while (json.length % 3 !== 1) json = `${json.slice(0, -1)} }`;
  return `ops_${Buffer.from(json).toString("base64")}`;
}

/** Shapes of the preset's rules the corpus has no format for (the service-account JSON, legacy keys, URIs, batch tokens), with the kind each is flagged as. */
function presetOnlySamples(random: () => number): Array<readonly [string, string]> {
  const pem = `-----BEGIN PRIVATE KEY-----\n${expandTemplate("MIIE{b:60}", random)}\n${expandTemplate("{b:64}", random)}\n-----END PRIVATE KEY-----\n`;
  const keyId = expandTemplate("{h:40}", random);
  return [
    ["onepassword-token", onePasswordToken(random)],
    ["gcp-service-account-key", JSON.stringify({ type: "service_account", project_id: "p", private_key_id: keyId, private_key: pem, client_email: "a@p.iam.gserviceaccount.com" }, null, 2)],
    ["gcp-service-account-key", ` \n${JSON.stringify({ private_key_id: keyId, private_key: pem })}\n`],
    ["npm-token", expandTemplate("https://{x:40}:x-oauth-basic@github.com/team/repo.git", random)],
    ["grafana-token", expandTemplate("glc_{b:48}", random)],
    ["vault-token", expandTemplate("hvb.{u:150}", random)],
    ["vault-token", expandTemplate("hvr.{u:95}", random)],
    ["openai-api-key", expandTemplate("sk-{x:20}T3BlbkFJ{x:20}", random)],
    ["url-password", expandTemplate("mongodb+srv://admin:{x:16}@cluster0.example.mongodb.net/db?retryWrites=true", random)],
    ["url-password", expandTemplate("jdbc:mysql://root:{x:12}@localhost:3306/app", random)],
    ["url-password", expandTemplate("ftp://user_{a:4}:{x:10}@files.example.com/pub", random)],
  ];
}

test("secretlint's preset is the version the anchors were read from, and every scanner rule has anchors", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const presetPackage = require("@secretlint/secretlint-rule-preset-recommend/package.json") as { version: string };
  assert.equal(presetPackage.version, ANCHORED_PRESET_VERSION, "a new preset version: read RULE_ANCHORS again from its rules, then move ANCHORED_PRESET_VERSION");
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const preset = require("@secretlint/secretlint-rule-preset-recommend") as { rules: Array<{ meta: { id: string; type?: string } }> };
  const scanners = preset.rules.filter((rule) => rule.meta.type === "scanner" && rule.meta.id !== "@secretlint/secretlint-rule-filter-comments").map((rule) => rule.meta.id);
  assert.ok(scanners.length >= 20);
  assert.deepEqual(scanners.filter((id) => RULE_ANCHORS[id] === undefined), [], "scanner rules without anchors");
  for (const anchors of Object.values(RULE_ANCHORS)) for (const anchor of anchors) assert.ok(!anchor.global && !anchor.sticky, `${anchor} keeps state between tests`);
});

test("property: every secret key and secret-looking name holds the anchors the rules gate on", () => {
  const SECRET_KEY = new RegExp(SECRET_KEY_SOURCE, "i");
  const words = fc.constantFrom(
    "password", "PASSWD", "passphrase", "Secret", "api_key", "apiKey", "ACCESS-TOKEN", "auth", "_auth", ".pass", "-pwd", "credentials", "token", "salt", "Signature", "sig", "signing",
    "private", "session", "cookie", "seed", "cipher", "encrypt", "bearer", "JWT", "hmac", "otp", "license", "key", "db", "user", "name", "_", "-", ".", "id", "file", "x",
  );
  const name = fc.array(fc.oneof(words, fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 6 }).map((parts) => parts.join(""));
  fc.assert(
    fc.property(name, (candidate) => {
      if (isSecretKeyName(candidate) || isSecretLookingKeyName(candidate)) assert.ok(SECRET_NAME_ANCHOR.test(candidate), candidate);
      if (SECRET_KEY.test(candidate)) assert.ok(SECRET_KEY_ANCHOR.test(candidate), candidate);
    }),
    { numRuns: 2_000 },
  );
});

test("every fixture secret, in every shape and escaping, is found the same with and without the gate", () => {
  const random = seededRandom(20261202);
  let tried = 0;
  for (const format of corpus.formats) {
    for (const shape of corpus.shapes) {
      for (const encoding of ENCODINGS) {
        const sample = renderSample(format, shape, encoding, random);
        if (sample === undefined) continue;
        tried += 1;
        assertSameBothWays(sample.text);
        assertSameBothWays(sample.value);
      }
    }
  }
  assert.ok(tried > 500, `only ${tried} samples`);
  for (let round = 0; round < 20; round += 1) {
    for (const [kind, sample] of presetOnlySamples(random)) {
      assert.ok(
        spans(secretlintSpans, sample).some((span) => span[2] === kind),
        `the preset flags ${label(sample)} as ${kind}`,
      );
      assertSameBothWays(sample);
      assertSameBothWays(JSON.stringify({ output: sample }));
    }
  }
});

/** Every character escaped as `\uXXXX` with probability about 1/4 (JSON's escape; the decoded views undo it). */
function unicodeEscaped(text: string, seed: number): string {
  const random = seededRandom(seed);
  return [...text].map((char) => (char.length === 1 && random() < 0.25 ? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}` : char)).join("");
}

const CASES = ["as is", "upper", "lower", "swapped"] as const;
function recased(text: string, how: (typeof CASES)[number]): string {
  if (how === "upper") return text.toUpperCase();
  if (how === "lower") return text.toLowerCase();
  if (how === "swapped") return [...text].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join("");
  return text;
}

const corpusSample = fc
  .tuple(fc.nat({ max: corpus.formats.length - 1 }), fc.nat({ max: corpus.shapes.length - 1 }), fc.constantFrom(...ENCODINGS), fc.integer(), fc.boolean())
  .map(([f, s, encoding, seed, valueOnly]) => {
    const format = corpus.formats[f];
    const shape = corpus.shapes[s];
    const sample = format === undefined || shape === undefined ? undefined : renderSample(format, shape, encoding, seededRandom(seed));
    return sample === undefined ? "" : valueOnly ? sample.value : sample.text;
  });
const sampleText = fc.oneof(
  { weight: 4, arbitrary: corpusSample },
  fc.tuple(fc.integer(), fc.nat()).map(([seed, index]) => {
    const samples = presetOnlySamples(seededRandom(seed));
    return (samples[index % samples.length] as readonly [string, string])[1];
  }),
);

/** Pieces of the rules' anchors and syntax, so generated texts sit right at the gate's edges. */
const pieces = fc.constantFrom(
  "password", "Password", "PASSWD", "passphrase", "secret", "api_key", "token", "auth", "credential", "pwd", "key", "salt", "sig=", "signature", "session", "cookie", "seed",
  "=", ":", ": ", " = ", ":=", "=>", '"', "'", "`", "\n", "\r\n", "\t", " ", "\\n", '\\"', "\\u0041", "\\u003a", "{", "}", "[", "]", ",", "@", "://", "https://", "mongodb://", "postgres://",
  "-u ", "--user ", "--password ", "--token ", "Authorization: ", "Bearer ", "basic ", "login ", "identified by ", "name: ", "value: ", "- name: ", '"name": ', '"value": ', "export ", "set ",
  "password: |\n  ", "-----BEGIN PRIVATE KEY-----\n", "-----END PRIVATE KEY-----", "PRIVATE KEY", "private_key_id", "LS0tLS1CRUdJTi", "eyJ", ".eyJ", "AKIA", "ASIA", "A3T", "AIza", "ghp_", "github_pat_",
  "glpat-", "gldt-", "GR1348941", "sk-", "sk-ant-", "sk-ant-api03-", "T3BlbkFJ", "xoxb-", "xapp-", "hooks.slack.com/services/", "sk_live_", "rk_test_", "whsec_live_", "npm_", "SG.", "AccountKey=",
  "SharedAccessKey=", "pypi-AgEIcHlwaS5vcmc", "dop_v1_", "ATATT3", "PMAK-", "dp.pt.", "sbp_", "NRAK-", "x-oauth-basic@github.com/", "gsk_", "hf_", "lin_api_", "ntn_", "shpat_", "glc_", "glsa_",
  "ops_ey", "hvs.", "hvb.", "vcp_", "dapi", "dckr_pat_", "figd_", "[REDACTED:jwt]",
);
const body = (length: number, chars: string) => fc.stringMatching(new RegExp(`^[${chars}]{${length}}$`));
const soup = fc
  .array(fc.oneof({ weight: 4, arbitrary: pieces }, { weight: 2, arbitrary: fc.string({ maxLength: 10 }) }, body(16, "A-Za-z0-9"), body(40, "A-Za-z0-9+/"), body(36, "A-Za-z0-9_-"), body(100, "A-Za-z0-9_-")), { maxLength: 24 })
  .map((parts) => parts.join(""));

test("property: fixture secrets at random places in random surroundings and encodings are found the same with and without the gate", () => {
  fc.assert(
    fc.property(
      fc.string({ maxLength: 60 }),
      sampleText,
      fc.nat(),
      fc.constantFrom("raw", "json", "json-twice", "unicode-escaped"),
      fc.constantFrom(...CASES),
      fc.integer(),
      (surroundings, sample, at, encoding, caseChange, seed) => {
        const cut = at % (surroundings.length + 1);
        const text = recased(surroundings.slice(0, cut) + sample + surroundings.slice(cut), caseChange);
        const encoded =
          encoding === "json" ? JSON.stringify({ output: text }) : encoding === "json-twice" ? JSON.stringify({ log: JSON.stringify({ output: text }) }) : encoding === "unicode-escaped" ? unicodeEscaped(text, seed) : text;
        assertSameBothWays(encoded);
      },
    ),
    { numRuns: 400 },
  );
});

test("property: texts made of the anchors' own pieces are found the same with and without the gate", () => {
  fc.assert(
    fc.property(soup, fc.constantFrom(...CASES), fc.boolean(), fc.integer(), (text, caseChange, escape, seed) => {
      const shaped = recased(text, caseChange);
      assertSameBothWays(escape ? unicodeEscaped(shaped, seed) : shaped);
    }),
    { numRuns: 600 },
  );
});

test("structured values and tool output are redacted the same with and without the gate", () => {
  const random = seededRandom(7);
  for (const format of corpus.formats) {
    const shape = corpus.shapes[Math.floor(random() * corpus.shapes.length)];
    if (shape === undefined) continue;
    const sample = renderSample(format, shape, "raw", random);
    if (sample === undefined) continue;
    const value = { command: sample.text, env: [{ name: format.name, value: sample.value }], nested: { [format.name]: sample.value, note: `see ${sample.value}` } };
    const structured = bothWays(() => redactedCanonicalJson(value, 4_096));
    assert.deepEqual(structured.gated, structured.ungated, `${format.kind} as fields`);
    const content = bothWays(() => toolResultContent({ stdout: sample.text, stderr: "", interrupted: false }));
    assert.deepEqual(content.gated, content.ungated, `${format.kind} as tool output`);
  }
});

test("the texts a plain capture meets pass no anchor, so no rule runs on them", () => {
  // What the gate is for (docs/performance.md): identifiers, paths and short outputs load nothing.
  for (const text of ["bench", "toolu_01ABCdef234", "Read", "file_path", "/tmp/docket-bench-x/hook-workspace/README.md", "# Bench\n\nRead 3.\n", "content", "filePath"]) {
    for (const anchors of Object.values(RULE_ANCHORS)) assert.ok(!anchors.every((anchor) => anchor.test(text)), `${label(text)} passes ${anchors.join(" ")}`);
    assert.ok(!SECRET_NAME_ANCHOR.test(text), text);
  }
});
