// Typed values become JSON payloads through one checked conversion, never a cast of `unknown`.
import { toJsonValue, type JsonValue } from "../../ledger/canonicalJson";

export function toJsonPayload(value: unknown): JsonValue {
  return toJsonValue(value);
}
