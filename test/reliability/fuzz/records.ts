// Notebook records and frontmatter: the real observer-record/v1 fixtures (valid and invalid) with
// text edits — YAML fragments (anchors, aliases, tags, flow collections, repeated keys, hundreds
// of repeated lines, deep nesting), Markdown fragments, line endings, bad bytes. Phase A never
// throws and answers with reference diagnostic codes; its YAML step gives exactly the first error
// yaml's own (quadratic) duplicate check gives; a notebook holding the record validates without a
// throw. Every fifth case also goes through `docket notebook propose` (the CLI entry, in process)
// as a proposal input file, itself mutated: a refusal is an exit code with a coded sentence or a
// coded usage error, never a crash.
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { parseDocument } from "yaml";
import { UsageError } from "../../../server/cli/args";
import { MAX_FRONTMATTER_BYTES, parseRecordMarkdown } from "../../../server/notebook/markdownProfile";
import { setupNotebook } from "../../../server/notebook/notebookStore";
import { runPropose } from "../../../server/notebook/proposalCli";
import { discardProposal, listPendingProposalIds } from "../../../server/notebook/proposalStore";
import { validateRecordSet } from "../../../server/notebook/recordSet";
import { parseStrictYaml } from "../../../server/yaml/strictDocument";
import { jsonMutation, jsonText, mutateJson, mutateText, nastyString, textMutation, type Json, type JsonMutation, type TextMutation } from "./mutate";
import { checkRejectionMessage, preview, violation, type FuzzSubTarget } from "./subTarget";

interface RecordCase {
  readonly source: number;
  readonly mutations: readonly TextMutation[];
  readonly bytes: "none" | "invalid-utf8" | "bom" | "nul";
  readonly propose: boolean;
  readonly inputMutations: readonly JsonMutation[];
}

const YAML_FRAGMENTS = fc.constantFrom(
  "\ntitle: Again",
  "\ncustom: &a {x: 1}\ncopy: *a",
  "\n<<: {x: 1}",
  "\nkey: !!binary aGk=",
  "\nkey: !custom x",
  "\n? [complex, key]\n: value",
  "\n1: x\n0x1: y",
  "\n.nan: x\n.nan: y",
  "\nflow: {a: 1, a: 2}",
  "\nlist: [",
  "\n  indented: wrong",
  "\n\tkey: tab",
  "\nobserver_extra: 1",
  "\nobserver_schema: observer-record/v2",
  "\nid: memo-not-a-uuid",
  "\ncreated: 2026-13-45T99:99:99Z",
  "\nlang: zz-ZZZZ-invalid",
  "\nsources: [{record: source-00000000-0000-4000-8000-000000000001, role: nope}]",
  `\nnested: ${"[".repeat(70)}${"]".repeat(70)}`,
  `\nwide: {${Array.from({ length: 400 }, (_, index) => `k${index}: ${index}`).join(", ")}}`,
  "\n---",
  "\n...",
  "\n%YAML 1.2",
  "\nkey: 'unterminated",
  "\nkey: \"\\uD800\"",
);

const MARKDOWN_FRAGMENTS = fc.constantFrom("\n# Second heading", "\n```\n# fenced\n```", "\n~~~~\n", "\n\n", "\n#NoSpace", "\n   # indented", "\n---\n", "\r\n");

export const recordsSubTarget: FuzzSubTarget<RecordCase> = {
  name: "records",
  runs: { short: 1_500, long: 100_000 },
  async prepare(context) {
    const fixtures = path.join(context.repoRoot, "test", "fixtures", "notebook");
    const sources = ["records/valid", "records/invalid", "notebooks/valid/baseline"].flatMap((folder) =>
      fs
        .readdirSync(path.join(fixtures, folder))
        .filter((name) => name.endsWith(".md"))
        .sort()
        .map((name) => fs.readFileSync(path.join(fixtures, folder, name), "utf8")),
    );
    const baseline = fs
      .readdirSync(path.join(fixtures, "notebooks", "valid", "baseline"))
      .sort()
      .map((name) => ({ path: `records/${name}`, bytes: fs.readFileSync(path.join(fixtures, "notebooks", "valid", "baseline", name)) }));
    const workspace = path.join(context.tmp, "workspace");
    fs.mkdirSync(workspace, { recursive: true });
    const setup = setupNotebook(path.join(workspace, "notebook"), "en");
    if (!setup.ok) throw new Error(`notebook setup failed: ${JSON.stringify(setup)}`);
    for (const file of baseline) fs.writeFileSync(path.join(setup.value.notebook.root, file.path), file.bytes);
    const inputFile = path.join(context.tmp, "proposal.json");

    const arbitrary = fc.record({
      source: fc.nat({ max: sources.length - 1 }),
      mutations: fc.array(textMutation(fc.oneof({ weight: 3, arbitrary: YAML_FRAGMENTS }, { weight: 1, arbitrary: MARKDOWN_FRAGMENTS }, { weight: 1, arbitrary: nastyString })), { maxLength: 4 }),
      bytes: fc.constantFrom("none" as const, "none" as const, "none" as const, "invalid-utf8" as const, "bom" as const, "nul" as const),
      propose: fc.nat({ max: 4 }).map((draw) => draw === 0),
      inputMutations: fc.oneof(fc.constant([] as JsonMutation[]), fc.array(jsonMutation, { minLength: 1, maxLength: 2 })),
    });

    const bytesOf = (value: RecordCase, text: string): Buffer => {
      const encoded = Buffer.from(text, "utf8");
      if (value.bytes === "invalid-utf8") return Buffer.concat([encoded.subarray(0, 40), Buffer.from([0xc3, 0x28]), encoded.subarray(40)]);
      if (value.bytes === "bom") return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), encoded]);
      if (value.bytes === "nul") return Buffer.concat([encoded.subarray(0, 10), Buffer.from([0]), encoded.subarray(10)]);
      return encoded;
    };

    const checkYamlAgainstReference = (text: string): void => {
      const lines = text.replace(/\r\n?/gu, "\n").split("\n");
      if (lines[0] !== "---") return;
      const closing = lines.indexOf("---", 1);
      if (closing === -1) return;
      const frontmatter = lines.slice(1, closing).join("\n");
      // The reference check is quadratic: compare on frontmatters small enough for it.
      if (frontmatter.length > 16_000 || Buffer.byteLength(frontmatter) > MAX_FRONTMATTER_BYTES) return;
      const options = { schema: "core", merge: false, prettyErrors: false, logLevel: "error" } as const;
      const strict = parseStrictYaml(frontmatter, options, { maxKeys: 1_000, maxDepth: 64 });
      if (!strict.ok) return;
      const reference = parseDocument(frontmatter, { ...options, uniqueKeys: true });
      const shown = (errors: readonly { code: string; message: string; pos: [number, number] }[]): string => {
        const first = errors[0];
        return first === undefined ? "none" : `${first.code} ${first.message} @${first.pos.join(",")}`;
      };
      if (shown(strict.document.errors) !== shown(reference.errors)) {
        violation(`the linear duplicate check disagrees with yaml's own: ${shown(strict.document.errors)} vs ${shown(reference.errors)}`);
      }
    };

    const propose = (value: RecordCase, markdown: string): void => {
      const valid: Json = { notebook: "notebook", records: [{ operation: "create", record_id: "memo-00000000-0000-4000-8000-00000000f000", markdown }] };
      const input = value.inputMutations.length === 0 ? valid : mutateJson(valid, value.inputMutations);
      fs.writeFileSync(inputFile, jsonText(input));
      const out: string[] = [];
      let exit: number;
      try {
        exit = runPropose([inputFile, "--workspace", workspace, "--json"], { stdout: (text) => out.push(text), stderr: (text) => out.push(text), cwd: workspace, home: workspace });
      } catch (error) {
        if (error instanceof UsageError && /^(docket|save-profile|notebook)\.[a-z-]+$/u.test(error.code)) {
          checkRejectionMessage(error.message, `docket notebook propose's ${error.code} refusal`);
          return;
        }
        throw error;
      }
      const text = out.join("");
      if (exit === 0) {
        for (const id of listPendingProposalIds(workspace)) discardProposal(workspace, id);
        return;
      }
      if (exit !== 1 && exit !== 2) violation(`docket notebook propose exited ${exit}`);
      if (!/\b(save\.[a-z-]+|notebook\.[a-z-]+|docket\.[a-z-]+)/u.test(text)) violation(`docket notebook propose refused (exit ${exit}) without a code: ${preview(text)}`);
    };

    return {
      arbitrary,
      describe: (value) => `source ${value.source}, mutations ${preview(value.mutations.map((mutation) => ("text" in mutation ? `${mutation.op} ${mutation.text.slice(0, 30)}` : mutation.op)))}, bytes ${value.bytes}`,
      check(value) {
        const text = mutateText(sources[value.source] as string, value.mutations);
        const bytes = bytesOf(value, text);
        const parsed = parseRecordMarkdown("records/fuzzed.md", bytes);
        if (!parsed.ok) {
          if (parsed.diagnostics.length === 0) violation("a refused record has no diagnostics");
          for (const diagnostic of parsed.diagnostics) {
            if (!/^(markdown|schema|record)\.[a-z0-9.-]+$/u.test(diagnostic.code)) violation(`a diagnostic without a reference code: ${preview(diagnostic)}`);
            checkRejectionMessage(diagnostic.message, `diagnostic ${diagnostic.code}`);
          }
        } else if (typeof parsed.record.recordId !== "string" || parsed.record.path !== "records/fuzzed.md") {
          violation(`an accepted record is malformed: ${preview(parsed.record)}`);
        }
        if (value.bytes === "none" || value.bytes === "bom") checkYamlAgainstReference(text);
        const notebook = validateRecordSet([...baseline, { path: "records/fuzzed.md", bytes }]);
        for (const diagnostic of notebook.diagnostics) {
          if (!/^(markdown|schema|record|graph)\.[a-z0-9.-]+$/u.test(diagnostic.code)) violation(`a notebook diagnostic without a reference code: ${preview(diagnostic)}`);
        }
        if (value.propose) propose(value, text);
      },
    };
  },
};

