// Records the Notebook tests build on: the six-record baseline fixture (observer.md §7.2), its
// ids, and generators for the records a proposal creates or updates.
import path from "node:path";
import { repoRoot } from "./repoRoot";

export const BASELINE = path.join(repoRoot(), "test", "fixtures", "notebook", "notebooks", "valid", "baseline");
export const EXTERNAL_SOURCE = path.join(repoRoot(), "test", "fixtures", "notebook", "records", "valid", "external-source.md");

export const SOURCE_ONE = "source-00000000-0000-4000-8000-000000000001";
export const SOURCE_NEW = "source-00000000-0000-4000-8000-000000000010";
export const MEMO_ONE = "memo-00000000-0000-4000-8000-000000000004";
export const ZETTEL_NEW = "zettel-00000000-0000-4000-8000-000000000007";

/** A mature zettel promoted from the baseline's memo, citing `sourceId`. */
export function promotedZettel(sourceId = SOURCE_ONE): string {
  return `---
observer_schema: observer-record/v1
observer_type: zettel
observer_status: mature
id: ${ZETTEL_NEW}
title: Promoted observation
lang: en
created: "2026-07-27T11:00:00Z"
modified: "2026-07-27T11:00:00Z"
tags: []
aliases: []
sources:
  - record: ${sourceId}
    role: supports
lineage:
  - type: promoted_from
    target: ${MEMO_ONE}
relations: []
---
# Promoted observation

This thought is mature enough for durable re-entry.
`;
}

/** An external-material source record; `extraFrontmatter` lines are custom keys kept as written. */
export function sourceMarkdown(id: string, title: string, body: string, extraFrontmatter: readonly string[] = []): string {
  return [
    "---",
    "observer_schema: observer-record/v1",
    "observer_type: source",
    "observer_status: available",
    `id: ${id}`,
    `title: ${title}`,
    "lang: en",
    'created: "2026-03-02T09:00:00Z"',
    'modified: "2026-03-02T09:30:00Z"',
    "tags: []",
    "aliases: []",
    "sources: []",
    "lineage: []",
    "relations: []",
    "source_kind: external-material",
    "external:",
    "  uri: https://example.test/handbook",
    ...extraFrontmatter,
    "---",
    `# ${title}`,
    "",
    body,
    "",
  ].join("\n");
}
