// Small edits of each line of a YAML text that reach the corners of YAML (indicators, quotes,
// comments, numbers, odd spaces), for tests that hold a fast frontmatter reader equal to `yaml`.
// Each line gets every insert after its `: ` (or at its start) and at its end, and is removed,
// indented by two and by one space, and repeated; `keepEvery` keeps every n-th edit so the kept
// kind shifts from line to line and each kind still reaches every part of some record, quickly.
export function yamlLineEdits(text: string, inserts: readonly string[], keepEvery: number): string[] {
  // Edits per line are a multiple of keepEvery: the same kinds would be kept on every line.
  if ((inserts.length * 2 + 4) % keepEvery === 0) throw new Error(`keepEvery ${keepEvery} divides the ${inserts.length * 2 + 4} edits per line`);
  const lines = text.split("\n");
  const out: string[] = [];
  lines.forEach((line, index) => {
    const colon = line.indexOf(": ");
    for (const insert of inserts) {
      const edited = [...lines];
      edited[index] = colon === -1 ? insert + line : line.slice(0, colon + 2) + insert + line.slice(colon + 2);
      out.push(edited.join("\n"));
      const appended = [...lines];
      appended[index] = line + insert;
      out.push(appended.join("\n"));
    }
    out.push(lines.filter((_, position) => position !== index).join("\n"));
    out.push([...lines.slice(0, index), `  ${line}`, ...lines.slice(index + 1)].join("\n"));
    out.push([...lines.slice(0, index), ` ${line}`, ...lines.slice(index + 1)].join("\n"));
    out.push([...lines.slice(0, index + 1), line, ...lines.slice(index + 1)].join("\n"));
  });
  return out.filter((_, position) => position % keepEvery === 0);
}
