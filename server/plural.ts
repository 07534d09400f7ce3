// English-only output (CLI, MCP summaries, Router explanations) counts things in one place, so
// "1 record" / "2 records" never falls back to "record(s)". The extension's localized text uses
// Intl.PluralRules with the display language instead; this helper is for English that is data.

/** "1 finding" / "3 findings"; irregular nouns pass their plural ("hypothesis", "hypotheses"). */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/** The verb agreeing with a count: `agree(n, "was", "were")`. */
export function agree(count: number, singular: string, plural: string): string {
  return count === 1 ? singular : plural;
}
