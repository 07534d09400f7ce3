// What a redaction is called, and which name wins when two rules claim overlapping text. The
// order below is that priority: a specific format (a GitHub token) names the marker rather than
// the shape around it (`token=…`, `Authorization: Bearer …`). docs/evidence.md lists every kind
// with the rule that finds it.

export const REDACTION_KINDS = [
  "gcp-service-account-key",
  "private-key",
  "aws-access-key-id",
  "aws-secret-access-key",
  "github-token",
  "gitlab-token",
  "anthropic-api-key",
  "openai-api-key",
  "slack-token",
  "slack-webhook",
  "stripe-key",
  "google-api-key",
  "npm-token",
  "sendgrid-api-key",
  "azure-storage-key",
  "azure-sas-signature",
  "shopify-token",
  "grafana-token",
  "groq-api-key",
  "huggingface-token",
  "linear-api-key",
  "notion-token",
  "onepassword-token",
  "vault-token",
  "vercel-token",
  "databricks-token",
  "docker-token",
  "figma-token",
  "provider-token",
  "jwt",
  "basic-auth",
  "bearer-token",
  "url-password",
  "secret-assignment",
  "high-entropy-assignment",
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

const PRIORITY = new Map<RedactionKind, number>(REDACTION_KINDS.map((kind, index) => [kind, index]));

/** Lower wins. */
export function kindPriority(kind: RedactionKind): number {
  return PRIORITY.get(kind) ?? REDACTION_KINDS.length;
}

/** A stretch of text [start, end) that holds a secret of `kind`. */
export interface SecretSpan {
  readonly start: number;
  readonly end: number;
  readonly kind: RedactionKind;
}

/** Collects the spans a rule finds; rules never see or build the redacted text. */
export type SpanSink = (start: number, end: number, kind: RedactionKind) => void;
