// Stage 1, TASK (router.md): what a person typed, as bounded data. The text is NFC-normalized so
// that "é" typed as one or two code points is the same task (and the same plan hash); every span
// in the plan indexes this normalized text. Bad input is a coded error naming what is wrong and
// where, and no plan is made.
import { DocketError } from "../errors";
import { ErrorCodes } from "../protocol/errorCodes";
import { MAX_TASK_LENGTH, type TaskStage } from "./planSchema";
import { tokenize } from "./tokens";

/**
 * NFC never shrinks text by more than this factor (a canonical decomposition is at most four code
 * points), so raw input longer than this cannot normalize to an acceptable task and is refused
 * before the normalizer spends time on it.
 */
const RAW_LENGTH_FACTOR = 16;

function invalid(message: string): DocketError {
  return new DocketError(ErrorCodes.taskInvalid, message);
}

function hex(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** "offset 12 (line 1, column 13)" for a UTF-16 offset of the text as typed. */
function where(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let index = 0; index < offset; index += 1) {
    if (text.charCodeAt(index) === 0x0a) {
      line += 1;
      lineStart = index + 1;
    }
  }
  return `offset ${offset} (line ${line}, column ${offset - lineStart + 1})`;
}

const CONTROL_NAMES: Readonly<Record<number, string>> = {
  0x00: "NUL",
  0x07: "bell",
  0x08: "backspace",
  0x0b: "vertical tab",
  0x0c: "form feed",
  0x0d: "carriage return",
  0x1b: "escape",
  0x7f: "delete",
};

function isControl(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
}

/** Control characters (C0 except tab and newline, DEL, C1) and lone surrogates, in the text as typed. */
function checkCharacters(raw: string): void {
  for (let index = 0; index < raw.length; index += 1) {
    const code = raw.charCodeAt(index);
    if (isControl(code)) {
      const name = CONTROL_NAMES[code];
      const label = name === undefined ? `control character ${hex(code)}` : `control character ${hex(code)} (${name})`;
      const hint = code === 0x0d ? " Use \\n line endings." : "";
      throw invalid(`The task contains a ${label} at ${where(raw, index)}; only newline and tab are allowed.${hint}`);
    }
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = raw.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        index += 1;
        continue;
      }
      throw invalid(`The task contains a lone high surrogate ${hex(code)} at ${where(raw, index)}; the text is not well-formed UTF-16.`);
    }
    if (code >= 0xdc00 && code <= 0xdfff) {
      throw invalid(`The task contains a lone low surrogate ${hex(code)} at ${where(raw, index)}; the text is not well-formed UTF-16.`);
    }
  }
}

/** Validates, normalizes and tokenizes a task. Throws DocketError(taskInvalid). */
export function parseTask(raw: unknown): TaskStage {
  if (typeof raw !== "string") throw invalid(`The task must be a string, not ${raw === null ? "null" : typeof raw}.`);
  if (raw.length > MAX_TASK_LENGTH * RAW_LENGTH_FACTOR) {
    throw invalid(`The task is ${raw.length} UTF-16 code units long; the limit is ${MAX_TASK_LENGTH} (after NFC normalization).`);
  }
  checkCharacters(raw);
  const text = raw.normalize("NFC");
  // Invisible format characters (zero-width space, BOM) do not make a blank task say anything.
  if (/^[\s\p{Cf}]*$/u.test(text)) {
    throw invalid(raw.length === 0 ? "The task is empty." : "The task is only whitespace or invisible characters; say what should be done.");
  }
  if (text.length > MAX_TASK_LENGTH) {
    throw invalid(`The task is ${text.length} UTF-16 code units long after NFC normalization; the limit is ${MAX_TASK_LENGTH} (over by ${text.length - MAX_TASK_LENGTH}).`);
  }
  return { text, tokens: tokenize(text) };
}
