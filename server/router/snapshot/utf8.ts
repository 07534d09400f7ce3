// Strict UTF-8 decoding: file names and manifests that are not UTF-8 are reported, never guessed at
// (a lossy decode would give a path that does not exist or a manifest with invented characters).
const strict = new TextDecoder("utf-8", { fatal: true });
const lossy = new TextDecoder("utf-8");

/** The text, or null when the bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return strict.decode(bytes);
  } catch {
    return null;
  }
}

/** A printable stand-in for bytes that are not UTF-8 (U+FFFD for each bad sequence), for messages. */
export function describeBytes(bytes: Uint8Array): string {
  return lossy.decode(bytes);
}
