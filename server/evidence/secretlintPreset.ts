// The maintained rule set itself, secretlint's recommended preset, behind a module of its own:
// the hook's evidence bundle leaves this module to a sibling bundle (scripts/build.mjs), which
// redaction loads only for a text one of the preset's rules may flag (secretlintRules.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const rules: unknown = (require("@secretlint/secretlint-rule-preset-recommend") as { readonly rules?: unknown }).rules;
