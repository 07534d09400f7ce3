// Secret redaction: every kind with a real-looking (fake) credential, near misses that must be
// kept, properties (idempotent, the secret never survives) and linear time on hostile input.
// Credentials are assembled at run time so the source itself holds no scannable secret.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { REDACTION_KINDS, redactSecrets, type RedactionKind } from "../../server/evidence/redaction";

const j = (...parts: string[]): string => parts.join("");
const alnum36 = "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
/** `length` characters cycling through `alphabet` with a stride, so the text is mixed but fixed. */
const fake = (alphabet: string, length: number, stride = 7): string => Array.from({ length }, (_, index) => alphabet[(index * stride + 3) % alphabet.length]).join("");
const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const HEX = "0123456789abcdef";
const gcpKeyFile = JSON.stringify({
  type: "service_account",
  project_id: "demo",
  private_key_id: fake(HEX, 40),
  private_key: j("-----BEGIN ", "PRIVATE KEY-----\n", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n", fake(ALNUM, 64), "\n-----END ", "PRIVATE KEY-----\n"),
  client_email: "svc@demo.iam.gserviceaccount.com",
});
/** 1Password service-account tokens are `ops_` + base64 of a JSON object. */
const onePasswordToken = (() => {
  let json = JSON.stringify({ email: "svc@1passwordserviceaccounts.example", secretKey: fake(ALNUM, 40), srpX: fake(HEX, 64) });
  while (Buffer.byteLength(json) % 3 !== 1) json = json.replace("{", "{ ");
  return j("ops_", Buffer.from(json).toString("base64"));
})();

/** [kind, text, secret that must disappear] */
const CASES: ReadonlyArray<readonly [RedactionKind, string, string]> = [
  ["aws-access-key-id", `aws_access_key_id = ${j("AKIA", "IOSFODNN7EXAMPLE")}`, j("AKIA", "IOSFODNN7EXAMPLE")],
  ["aws-access-key-id", `"AccessKeyId": "${j("ASIA", "Y34FZKBOKMUTVV7A")}"`, j("ASIA", "Y34FZKBOKMUTVV7A")],
  ["aws-secret-access-key", `aws_secret_access_key = ${j("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYEXAMPLEKEY")}`, j("wJalrXUtnFEMI/K7MDENG/", "bPxRfiCYEXAMPLEKEY")],
  ["aws-secret-access-key", `AWS_SECRET_ACCESS_KEY=${j("je7MtGbClwBF/2Zp9Utk/", "h3yCo8nvbEXAMPLEKEY")}`, j("je7MtGbClwBF/2Zp9Utk/", "h3yCo8nvbEXAMPLEKEY")],
  ["github-token", `token: ${j("ghp_", alnum36)}`, j("ghp_", alnum36)],
  ["github-token", `git clone https://${j("gho_", alnum36)}@github.com/o/r`, j("gho_", alnum36)],
  ["github-token", j("export GH=", "github_pat_", "11ABCDEFG0aBcDeFgHiJkL_", "mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567"), j("github_pat_", "11ABCDEFG0aBcDeFgHiJkL_", "mNoPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01234567")],
  ["openai-api-key", `OPENAI_API_KEY is ${j("sk-proj-", "Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0nOp3rSt6vWx9zA2")}`, j("sk-proj-", "Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jKl0nOp3rSt6vWx9zA2")],
  ["openai-api-key", `key ${j("sk-", "T3BlbkFJ8aB2cD4eF6gH8iJ0kL2mN4oP6qR8sT0uV2wX4yZ6")}`, j("sk-", "T3BlbkFJ8aB2cD4eF6gH8iJ0kL2mN4oP6qR8sT0uV2wX4yZ6")],
  ["anthropic-api-key", `x-api-key: ${j("sk-ant-api03-", "aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wX5yZ6-_AA")}`, j("sk-ant-api03-", "aB1cD2eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3aB4cD5eF6gH7iJ8kL9mN0oP1qR2sT3uV4wX5yZ6-_AA")],
  ["slack-token", `SLACK ${j("xoxb-", "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx")}`, j("xoxb-", "123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx")],
  ["slack-token", `user ${j("xoxp-", "2222222222-3333333333-4444444444-abcdef0123456789")}`, j("xoxp-", "2222222222-3333333333-4444444444-abcdef0123456789")],
  ["slack-webhook", `curl ${j("https://hooks.slack.com/services/", "T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX")}`, "XXXXXXXXXXXXXXXXXXXXXXXX"],
  ["stripe-key", `stripe ${j("sk_live_", "4eC39HqLyjWDarjtT1zdp7dc")}`, j("sk_live_", "4eC39HqLyjWDarjtT1zdp7dc")],
  ["stripe-key", `restricted ${j("rk_live_", "51H8s9aLkJ2pQ0wErTyUiOpAs")}`, j("rk_live_", "51H8s9aLkJ2pQ0wErTyUiOpAs")],
  ["google-api-key", `maps?key=${j("AIza", "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY")}&v=3`, j("AIza", "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY")],
  ["npm-token", `npm ${j("npm_", alnum36)}`, j("npm_", alnum36)],
  [
    "jwt",
    `cookie=${j("eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", ".", "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ", ".", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c")}`,
    "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
  ],
  ["private-key", `${j("-----BEGIN RSA ", "PRIVATE KEY-----")}\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK\n${j("-----END RSA ", "PRIVATE KEY-----")}`, "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun"],
  ["private-key", `${j("-----BEGIN EC ", "PRIVATE KEY-----")}\nMHcCAQEEIBYr7bBoFz4mV7mYmRkN0+Rj5rY2yJ3yW0JmCwB9c9GRoAoGCCqGSM49\n${j("-----END EC ", "PRIVATE KEY-----")}`, "MHcCAQEEIBYr7bBoFz4mV7mYmRkN0+Rj5rY2yJ3yW0JmCwB9c9GRoAoGCCqGSM49"],
  ["private-key", `${j("-----BEGIN OPENSSH ", "PRIVATE KEY-----")}\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n${j("-----END OPENSSH ", "PRIVATE KEY-----")}`, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"],
  ["private-key", `{"key":"${j("-----BEGIN ", "PRIVATE KEY-----")}\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\\n${j("-----END ", "PRIVATE KEY-----")}\\n"}`, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"],
  ["private-key", `truncated: ${j("-----BEGIN ", "PRIVATE KEY-----")}\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj`, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj"],
  ["bearer-token", "curl -H 'Authorization: Bearer abcdef0123456789ABCDEF0123456789.xyz' https://api.example.com", "abcdef0123456789ABCDEF0123456789.xyz"],
  ["basic-auth", "Authorization: Basic dXNlcm5hbWU6cGFzc3dvcmQ=", "dXNlcm5hbWU6cGFzc3dvcmQ="],
  ["url-password", "DATABASE_URL is postgres://admin:s3cr3tP4ssw0rd@db.example.com:5432/app", "s3cr3tP4ssw0rd"],
  ["url-password", "remote https://deploy:Tr0ub4dor-3@git.example.com/r.git", "Tr0ub4dor-3"],
  ["url-password", "REDIS_URL=redis://:p4ssw0rdXYZ@localhost:6379", "p4ssw0rdXYZ"],
  ["secret-assignment", "DB_PASSWORD=hunter2hunter2\nDB_USER=app", "hunter2hunter2"],
  ["secret-assignment", "//registry.npmjs.org/:_authToken=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"],
  ["secret-assignment", 'config = { "api_key": "live-1234-abcd-5678" }', "live-1234-abcd-5678"],
  ["secret-assignment", "services:\n  db:\n    POSTGRES_PASSWORD: correct-horse-battery\n", "correct-horse-battery"],
  ["secret-assignment", "[pypi]\nusername = me\npassword = pypi-AgEIcHlwaS5vcmc\n", "pypi-AgEIcHlwaS5vcmc"],
  ["secret-assignment", "GET /v1/items?api_key=q7w8e9r0t1y2&limit=5", "q7w8e9r0t1y2"],
  ["secret-assignment", "mysql --password=Sup3rS3cret! -u root", "Sup3rS3cret!"],
  ["secret-assignment", "export CLIENT_SECRET='a very secret phrase'", "a very secret phrase"],
  ["gcp-service-account-key", gcpKeyFile, fake(ALNUM, 64)],
  ["gitlab-token", `GITLAB_TOKEN is ${j("glpat-", fake(ALNUM, 20))}`, j("glpat-", fake(ALNUM, 20))],
  ["sendgrid-api-key", `key ${j("SG.", fake(ALNUM, 22), ".", fake(ALNUM, 43, 11))}`, j("SG.", fake(ALNUM, 22))],
  ["azure-storage-key", `DefaultEndpointsProtocol=https;AccountName=demo;${j("AccountKey=", fake(ALNUM, 86), "==")};EndpointSuffix=core.windows.net`, fake(ALNUM, 86)],
  ["azure-sas-signature", `https://demo.blob.core.windows.net/c/f?sv=2022-11-02&sp=r&${j("sig=", fake(ALNUM, 43), "%3D")}`, fake(ALNUM, 43)],
  ["shopify-token", `shop ${j("shpat_", fake(HEX, 32))}`, j("shpat_", fake(HEX, 32))],
  ["grafana-token", `grafana ${j("glsa_", fake(ALNUM, 32), "_", fake(HEX, 8))}`, fake(ALNUM, 32)],
  ["groq-api-key", `groq ${j("gsk_", fake(ALNUM, 52))}`, fake(ALNUM, 52)],
  ["huggingface-token", `hf ${j("hf_", fake("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 34))}`, fake("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 34)],
  ["linear-api-key", `linear ${j("lin_api_", fake(ALNUM, 40))}`, fake(ALNUM, 40)],
  ["notion-token", `notion ${j("ntn_", fake("0123456789", 11), fake(ALNUM, 35))}`, fake(ALNUM, 35)],
  ["onepassword-token", `OP_SERVICE_ACCOUNT ${onePasswordToken}`, onePasswordToken.slice(4)],
  ["vault-token", `vault ${j("hvs.", fake(ALNUM, 95))}`, fake(ALNUM, 95)],
  ["vercel-token", `vercel ${j("vcp_", fake(ALNUM, 24))}`, fake(ALNUM, 24)],
  ["databricks-token", `databricks ${j("dapi", fake(HEX, 32))}`, j("dapi", fake(HEX, 32))],
  ["docker-token", `docker ${j("dckr_pat_", fake(ALNUM, 27))}`, fake(ALNUM, 27)],
  ["figma-token", `figma ${j("figd_", fake(ALNUM, 40))}`, fake(ALNUM, 40)],
  ["provider-token", `digitalocean ${j("dop_v1_", fake(HEX, 64))}`, fake(HEX, 64)],
  ["high-entropy-assignment", `SESSION_SALT=${fake(ALNUM, 24, 13)}`, fake(ALNUM, 24, 13)],
];

test("every kind is redacted with a marker naming it, counted, and the secret is gone", () => {
  const covered = new Set<RedactionKind>();
  for (const [kind, text, secret] of CASES) {
    const result = redactSecrets(text);
    assert.ok(!result.text.includes(secret), `${kind}: the secret survived in ${result.text}`);
    assert.ok(result.text.includes(`[REDACTED:${kind}]`), `${kind}: no marker in ${result.text}`);
    assert.ok((result.counts[kind] ?? 0) >= 1, `${kind}: not counted (${JSON.stringify(result.counts)})`);
    covered.add(kind);
  }
  assert.deepEqual([...covered].sort(), [...REDACTION_KINDS].sort());
});

test("redaction keeps the text around a secret and counts each occurrence", () => {
  const token = j("ghp_", alnum36);
  const result = redactSecrets(`first ${token} then ${token}; DB_PASSWORD=x1 and done`);
  assert.equal(result.text, "first [REDACTED:github-token] then [REDACTED:github-token]; DB_PASSWORD=[REDACTED:secret-assignment] and done");
  assert.deepEqual(result.counts, { "github-token": 2, "secret-assignment": 1 });
  const header = redactSecrets(`Authorization: Bearer ${token}`);
  assert.equal(header.text, "Authorization: Bearer [REDACTED:github-token]");
  assert.deepEqual(header.counts, { "github-token": 1 });
});

const NEAR_MISSES: readonly string[] = [
  "sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)",
  "id 123e4567-e89b-12d3-a456-426614174000",
  "aGVsbG8gd29ybGQsIHRoaXMgaXMgbm90IGEgc2VjcmV0IGF0IGFsbA==",
  "max_tokens=4096 temperature=0.2",
  "password_hash = bcrypt(password)",
  "const password = getPassword();",
  "interface Login {\n  password: string;\n  token: string | null;\n}",
  "pip install sk-learn-contrib-imbalanced-learn",
  "risk-assessment-framework-2024-final-report-v12",
  "git@github.com:org/repo.git and https://github.com/org/repo.git",
  "https://example.com:8443/path?x=1",
  "PWD=/home/user/project OLDPWD=/home/user",
  "curl -H \"Authorization: Bearer ${TOKEN}\" https://api.example.com",
  "password: ${DB_PASSWORD}",
  "AKIA is a prefix; eyJ starts JSON in base64; ghp_short",
  "the bearer of this letter",
  "token_count=12 tokenizer=bpe GITHUB_TOKEN_FILE=/run/secrets/gh",
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
];

test("near misses are kept verbatim", () => {
  for (const text of NEAR_MISSES) {
    const result = redactSecrets(text);
    assert.equal(result.text, text);
    assert.deepEqual(result.counts, {});
  }
});

const body = (length: number, chars = "A-Za-z0-9") => fc.stringMatching(new RegExp(`^[${chars}]{${length}}$`));
const secrets: fc.Arbitrary<{ readonly text: string; readonly secret: string }> = fc.oneof(
  body(36).map((value) => ({ text: `ghp_${value}`, secret: `ghp_${value}` })),
  body(16, "A-Z0-9").map((value) => ({ text: `AKIA${value}`, secret: `AKIA${value}` })),
  body(35, "A-Za-z0-9_-").map((value) => ({ text: `AIza${value}`, secret: `AIza${value}` })),
  body(24).map((value) => ({ text: `sk_live_${value}`, secret: `sk_live_${value}` })),
  body(40).map((value) => ({ text: `sk-proj-${value}9`, secret: `sk-proj-${value}9` })),
  body(40, "A-Za-z0-9_-").map((value) => ({ text: `sk-ant-api03-${value}`, secret: `sk-ant-api03-${value}` })),
  body(30, "A-Za-z0-9").map((value) => ({ text: `xoxb-${value}`, secret: `xoxb-${value}` })),
  body(20).map((value) => ({ text: `API_TOKEN=${value}`, secret: value })),
  body(20).map((value) => ({ text: `password: "${value}"`, secret: value })),
  body(20).map((value) => ({ text: `https://user:${value}@host.example`, secret: value })),
  body(32).map((value) => ({ text: `Authorization: Bearer ${value}`, secret: value })),
  fc.tuple(body(20, "A-Za-z0-9_-"), body(20, "A-Za-z0-9_-")).map(([a, b]) => ({ text: `eyJ${a}.eyJ${b}.${b}`, secret: `eyJ${a}.eyJ${b}` })),
  body(64, "A-Za-z0-9+/").map((value) => ({ text: `-----BEGIN PRIVATE KEY-----\n${value}\n-----END PRIVATE KEY-----`, secret: value })),
);
const filler = fc.string({ maxLength: 40 });
const separator = fc.constantFrom(" ", "\n", "\t", "; ", " | ");

test("property: the secret never survives and redaction is idempotent", () => {
  fc.assert(
    fc.property(filler, separator, secrets, separator, filler, (before, left, { text, secret }, right, after) => {
      const input = `${before}${left}${text}${right}${after}`;
      fc.pre(!before.includes(secret) && !after.includes(secret));
      const once = redactSecrets(input);
      assert.ok(!once.text.includes(secret), `secret survived: ${JSON.stringify(once.text)}`);
      const twice = redactSecrets(once.text);
      assert.equal(twice.text, once.text);
      assert.deepEqual(twice.counts, {});
    }),
    { numRuns: 400 },
  );
});

test("property: redaction is idempotent on arbitrary text", () => {
  const tokens = fc.constantFrom("password=", "token: ", "Bearer ", "://u:", "@", "sk-", "AKIA", "eyJ", ".", "'", '"', "\n", " ", "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "[REDACTED:jwt]");
  const text = fc.array(fc.oneof(tokens, fc.string({ maxLength: 12 }), body(20)), { maxLength: 30 }).map((parts) => parts.join(""));
  fc.assert(
    fc.property(text, (input) => {
      const once = redactSecrets(input).text;
      assert.equal(redactSecrets(once).text, once);
    }),
    { numRuns: 500 },
  );
});

function timeOf(text: string): number {
  const started = process.hrtime.bigint();
  redactSecrets(text);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

test("redacting 1 MiB stays linear on hostile input (a ratio to ordinary text, not a wall clock)", () => {
  const MiB = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(MiB / unit.length)).slice(0, MiB);
  const ordinary = fill("The quick brown fox jumps over the lazy dog 0123 abc.\n");
  timeOf(ordinary); // warm-up
  const baseline = Math.max(1, Math.min(timeOf(ordinary), timeOf(ordinary)));
  const hostile = ["a", "a.", "eyJ", "eyJaaaaaaaaa.", "sk-", "-----BEGIN RSA PRIVATE KEY-----", "password", "password=", "password: ", 'password="', "https://", "x://a:", "Authorization: Bearer ", "AKIA", "  password:  ", "secret_access_key=", "token = '", "-"];
  for (const unit of hostile) {
    const ratio = timeOf(fill(unit)) / baseline;
    // A quadratic pattern would take thousands of times longer; linear ones stay within a few.
    assert.ok(ratio < 60, `${JSON.stringify(unit)} took ${ratio.toFixed(1)}× the time of ordinary text`);
  }
});
