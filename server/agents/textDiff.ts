// A small line-based unified diff for `docket connect --dry-run`: host config files are short,
// so a plain LCS table is fast enough and keeps the output exact.
const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

function lines(text: string): string[] {
  if (text === "") return [];
  const parts = text.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}

type Op = { kind: " " | "-" | "+"; line: string; a: number; b: number };

function operations(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_CELLS) {
    return [...a.map((line, i) => ({ kind: "-" as const, line, a: i, b: 0 })), ...b.map((line, j) => ({ kind: "+" as const, line, a: a.length, b: j }))];
  }
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i * width + j] = a[i] === b[j] ? (table[(i + 1) * width + j + 1] as number) + 1 : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i] as string, a: i, b: j });
      i += 1;
      j += 1;
    } else if (i < a.length && (j === b.length || (table[(i + 1) * width + j] as number) >= (table[i * width + j + 1] as number))) {
      ops.push({ kind: "-", line: a[i] as string, a: i, b: j });
      i += 1;
    } else {
      ops.push({ kind: "+", line: b[j] as string, a: i, b: j });
      j += 1;
    }
  }
  return ops;
}

/** `diff -u`-style text between two file contents (without a trailing newline). */
export function unifiedDiff(before: string, after: string, fromLabel: string, toLabel: string): string {
  const a = lines(before);
  const b = lines(after);
  const ops = operations(a, b);
  const out = [`--- ${fromLabel}`, `+++ ${toLabel}`];
  let index = 0;
  while (index < ops.length) {
    while (index < ops.length && ops[index]?.kind === " ") index += 1;
    if (index >= ops.length) break;
    const start = Math.max(0, index - CONTEXT);
    let end = index;
    let quiet = 0;
    while (end < ops.length && quiet <= CONTEXT * 2) {
      quiet = ops[end]?.kind === " " ? quiet + 1 : 0;
      end += 1;
    }
    end = Math.min(ops.length, end - Math.max(0, quiet - CONTEXT));
    const hunk = ops.slice(start, end);
    const first = hunk[0] as Op;
    const aCount = hunk.filter((op) => op.kind !== "+").length;
    const bCount = hunk.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${aCount === 0 ? first.a : first.a + 1},${aCount} +${bCount === 0 ? first.b : first.b + 1},${bCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.line}`);
    index = end;
  }
  return out.join("\n");
}
