// Which names hold secrets. One vocabulary serves the text rules (`DB_PASSWORD=…`, `"api_key": …`)
// and structured fields (`{"password": …}` in tool arguments or output), so a credential is
// recognised by its name the same way whether it arrives as text or as a JSON field.
//
// Two strengths: a *secret key* ends with a word that always names a credential (password, token,
// api_key…) and its value is redacted whatever it looks like; a *secret-looking key* merely mentions
// one (SESSION_SALT, stripeKey, x-signature) and its value is redacted only when it looks random
// (entropyRule.ts).

/**
 * Regular-expression source of a secret key: the name must END with the keyword, so `max_tokens`,
 * `password_hash` or `GITHUB_TOKEN_FILE` are not secret keys. Case-insensitive; its repetitions are
 * bounded so a long identifier costs a bounded scan.
 */
export const SECRET_KEY_SOURCE = String.raw`(?:[A-Za-z0-9_.-]{0,64}?(?:password|passwd|passphrase|secret|secret[_-]?key|api[_-]?key|apikey|access[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|id[_-]?token|session[_-]?token|client[_-]?secret|private[_-]?key|(?:encryption|signing|master|session|app|license)[_-]?key|token|credentials?|[_.-]auth|[_.-]pass|[_.-]pwd)|auth)`;

const SECRET_KEY = new RegExp(`^${SECRET_KEY_SOURCE}$`, "i");

/**
 * Found in every text that holds a secret key (a necessary condition, not a test of one): each
 * keyword of SECRET_KEY_SOURCE contains one of these words, with the same case-insensitivity.
 * The secret rules skip a text without it (ruleGate.ts).
 */
export const SECRET_KEY_ANCHOR = /pass|secret|key|token|credential|auth|pwd/i;

/** A field name whose value is a credential whatever it looks like (`password`, `GITHUB_TOKEN`, `_authToken`). */
export function isSecretKeyName(name: string): boolean {
  return name.length <= 128 && SECRET_KEY.test(name);
}

// Words that make a name look secret-related, and endings that say the value is a description of
// a secret (its file, length, algorithm…), not the secret itself.
const SECRET_WORD = /(?:key|secret|token|auth|cred|passw|passphrase|pwd|salt|signature|sig$|private|session|cookie|seed|cipher|encrypt|signing|bearer|jwt|hmac|otp|license|apikey)/i;
const DESCRIPTOR_ENDING =
  /(?:ids?|names?|files?|paths?|dirs?|urls?|uris?|hosts?|types?|kinds?|length|len|size|count|ttl|timeout|expiry|expires?|expiration|version|format|mode|enabled|prefix|suffix|headers?|fields?|hash|sha\d*|digest|checksum|fingerprint|algorithm|alg|method|provider|policy|scopes?|endpoint|issuer|audience|region|location|env|var|ref|arn)$/i;
const NOT_SECRET_WORD = /(?:public|primary|foreign|sort|partition|cache|idempoten|routing|lookup|index|unique|composite|hotkey|keyboard|keyframe|keyword|monkey|donkey|turkey|author(?!i[sz]))/i;

/**
 * Found in every name that is a secret key or a secret-looking one: SECRET_KEY_ANCHOR's words and
 * SECRET_WORD's, each shortened to a part every alternative holds (`sig` for `signature`,
 * `signing` and `sig$`). A rule that takes any name and lets the name decide needs it in its text.
 */
export const SECRET_NAME_ANCHOR = /key|secret|token|auth|cred|pass|pwd|salt|sig|private|session|cookie|seed|cipher|encrypt|bearer|jwt|hmac|otp|license/i;

/** A name that mentions a secret without saying it holds one: its value counts only if it looks random. */
export function isSecretLookingKeyName(name: string): boolean {
  if (name.length === 0 || name.length > 128) return false;
  return SECRET_WORD.test(name) && !DESCRIPTOR_ENDING.test(name) && !NOT_SECRET_WORD.test(name);
}

// A value that names where a secret is, not the secret: `$VAR`, `${VAR}`, `$(command)`, `%VAR%`,
// `<placeholder>`, `{{ x }}`, `[REDACTED:…]`. A variable is upper-case (`$ecret1` is a password).
const REFERENCE = /^(?:\$[A-Z_{(]|%[A-Za-z_][A-Za-z0-9_]*%|<[^<>]{1,128}>$|\{\{|\[REDACTED:)/;
// Values that a typed declaration or a config switch puts where a secret could be: the whole value
// is the word, maybe with type syntax around it (`string;`, `string | null`, `str,`).
const PLAIN_WORD =
  /^(?:string|number|boolean|bool|any|unknown|object|never|str|int|bytes|none|null|nil|undefined|true|false|yes|no|on|off|required|optional|~|-|\*+)(?:\[\])?(?:[ \t]*\|[ \t]*[A-Za-z_][\w<>\[\]]*)*[ \t]*[;,?]?$/i;

/** A value that is not itself a secret: empty, a reference, a type word or a switch. */
export function isNonSecretValue(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length === 0 || REFERENCE.test(trimmed) || PLAIN_WORD.test(trimmed);
}
