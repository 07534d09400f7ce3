// The detail of a receipt, a guard entry or an Observer entry as a Markdown document, for the
// Receipts view's "Open in Editor": the same facts the view's detail pane shows, read at editor
// width, with the exact canonical text in a fenced block and an indented copy for reading. Pure
// (no vscode): the labels come in localized, the caller shows the text read-only.
import type { GuardReceiptDetail, ObserverReceiptDetail, ReceiptDetail, ReceiptLink } from "../server/protocol/messages";
import { reviewStatusText, type ReceiptsStrings } from "../server/protocol/webviewMessages";

/** Labels only the document uses (the rest are the view's own, ReceiptsStrings). */
export interface DetailDocumentStrings {
  /** "{0}" = line, "{1}" = kind: the title of a guard entry's document. */
  readonly reviewTitle: string;
  /** "{0}" = line, "{1}" = kind or entry type: the title of an Observer entry's document. */
  readonly observerTitle: string;
  /** Heading of the indented copy of the canonical JSON. */
  readonly formatted: string;
  readonly formattedHint: string;
}

export interface DetailDocument {
  /** The editor tab's title (also the document's name, without its extension). */
  readonly title: string;
  readonly markdown: string;
}

function fill(template: string, ...args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/gu, (match, index: string) => {
    const value = args[Number(index)];
    return value === undefined ? match : String(value);
  });
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/gu) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/** Data as an inline code span that no backtick, newline or Markdown sign in it can break. */
export function codeSpan(value: string): string {
  // Control characters (a newline would end the span's paragraph) are shown escaped, as JSON does.
  const shown = /[\u0000-\u001f\u007f]/u.test(value) ? JSON.stringify(value).slice(1, -1) : value;
  if (shown === "") return "` `";
  const fence = "`".repeat(longestBacktickRun(shown) + 1);
  // A space on each side keeps a backtick at either end from joining the fence (CommonMark strips one).
  const pad = shown.startsWith("`") || shown.endsWith("`") ? " " : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** Text as a fenced code block whose fence is longer than any backtick run inside it. */
export function codeBlock(text: string, language: string): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

/**
 * A title fit for a heading and a file name: data in it (an Observer kind is free text) loses its
 * control characters and path separators.
 */
export function documentTitle(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/gu, " ").replace(/[/\\]/gu, "-").trim();
}

/** The canonical JSON indented for reading, or null when it does not parse (then only the exact text is shown). */
function indented(canonicalJson: string): string | null {
  try {
    return JSON.stringify(JSON.parse(canonicalJson) as unknown, null, 2);
  } catch {
    return null;
  }
}

type Fact = readonly [label: string, value: string, code: boolean];

class Builder {
  private readonly blocks: string[] = [];

  heading(level: 1 | 2 | 3, text: string): this {
    this.blocks.push(`${"#".repeat(level)} ${text}`);
    return this;
  }

  facts(facts: readonly Fact[]): this {
    this.blocks.push(facts.map(([label, value, code]) => `- **${label}:** ${code ? codeSpan(value) : value}`).join("\n"));
    return this;
  }

  paragraph(text: string): this {
    this.blocks.push(text);
    return this;
  }

  bullets(lines: readonly string[]): this {
    this.blocks.push(lines.map((line) => `- ${line}`).join("\n"));
    return this;
  }

  code(text: string, language: string): this {
    this.blocks.push(codeBlock(text, language));
    return this;
  }

  /** The exact canonical text under `title` with its hint, then an indented copy for reading. */
  canonical(title: string, hint: string, text: string, labels: DetailDocumentStrings): this {
    this.heading(2, title).paragraph(hint).code(text, "json");
    const pretty = indented(text);
    if (pretty !== null && pretty !== text) this.heading(3, labels.formatted).paragraph(labels.formattedHint).code(pretty, "json");
    return this;
  }

  text(): string {
    return `${this.blocks.join("\n\n")}\n`;
  }
}

function linkLine(link: ReceiptLink, strings: ReceiptsStrings): string {
  if (link.ordinal === null || link.kind === null) return `${codeSpan(link.eventSha256)} — ${strings.linkUnresolved}`;
  return `${codeSpan(`#${link.ordinal}`)} ${codeSpan(link.kind)} · ${codeSpan(link.eventSha256)}`;
}

export function receiptDocument(detail: ReceiptDetail, strings: ReceiptsStrings, labels: DetailDocumentStrings): DetailDocument {
  const row = detail.receipt;
  const title = documentTitle(fill(strings.detailTitle, row.ordinal, row.kind));
  const doc = new Builder().heading(1, title).facts([
    [strings.detailEventId, row.eventId, true],
    [strings.detailWorkScopeId, row.workScopeId, true],
    [strings.detailOccurredAt, row.occurredAt, false],
    [strings.detailScopeSequence, String(row.scopeSequence), false],
    [strings.detailStoredIndex, String(row.storedIndex), false],
    [strings.detailEventSha256, row.eventSha256, true],
    [strings.detailReceiptSha256, row.receiptSha256, true],
  ]);
  doc.heading(2, strings.detailCausalRefs);
  if (detail.causalRefs.length === 0) doc.paragraph(strings.detailNoCausalRefs);
  else doc.bullets(detail.causalRefs.map((link) => linkLine(link, strings)));
  doc.heading(2, strings.detailPreviousScopeEvent);
  if (detail.previousScopeEvent === null) doc.paragraph(strings.detailNoPreviousScopeEvent);
  else doc.bullets([linkLine(detail.previousScopeEvent, strings)]);
  doc.heading(2, strings.detailWrittenBy);
  const provenance = detail.provenance;
  if (provenance === null) {
    doc.paragraph(strings.detailWriterUnknown);
  } else {
    const actor = provenance.actor;
    const who = [actor.client ?? actor.kind, actor.session].filter((part): part is string => part !== null).join(" · ");
    doc.paragraph(codeSpan(`${actor.kind}: ${who}`));
    if (provenance.nominations.length > 0) doc.heading(3, strings.detailNominations).bullets(provenance.nominations.map(codeSpan));
  }
  doc.heading(2, strings.detailSummary);
  if (Object.keys(row.summary).length === 0) doc.paragraph(strings.detailSummaryEmpty);
  else doc.code(JSON.stringify(row.summary, null, 2), "json");
  doc.canonical(strings.detailCanonicalJson, strings.detailCanonicalJsonHint, detail.canonicalJson, labels);
  return { title, markdown: doc.text() };
}

function chainFacts(stream: string, line: number, lineSha256: string, previous: string | null, strings: ReceiptsStrings): Fact[] {
  return [
    [strings.detailStream, stream, true],
    [strings.detailLine, String(line), false],
    [strings.detailLineSha256, lineSha256, true],
    previous === null ? [strings.detailPreviousLineSha256, strings.detailNoPreviousLine, false] : [strings.detailPreviousLineSha256, previous, true],
  ];
}

export function reviewDocument(detail: GuardReceiptDetail, strings: ReceiptsStrings, labels: DetailDocumentStrings): DetailDocument {
  const row = detail.receipt;
  const title = documentTitle(fill(labels.reviewTitle, row.line, row.kind));
  const status = reviewStatusText(row.status, strings);
  const facts: Fact[] = [[strings.detailReview, row.reviewId, true]];
  if (row.workScopeId !== null) facts.push([strings.detailWorkScopeId, row.workScopeId, true]);
  if (status !== null) facts.push([strings.detailStatus, status, false]);
  facts.push([strings.detailAt, row.at, false], ...chainFacts(detail.stream, row.line, row.lineSha256, detail.previousLineSha256, strings));
  const doc = new Builder().heading(1, title).facts(facts).heading(2, strings.detailRelated);
  const related = detail.related;
  if (related === null) doc.paragraph(row.kind === "review-opened" ? strings.detailNoRelated : "—");
  else doc.bullets([`${codeSpan(`${strings.columnLine} ${related.line}`)} ${codeSpan(related.kind)} · ${codeSpan(related.lineSha256)}`]);
  doc.canonical(strings.detailEntryJson, strings.detailEntryJsonHint, detail.canonicalJson, labels);
  doc.heading(2, strings.detailLineHashInput).paragraph(strings.detailLineHashInputHint).code(detail.lineHashInput, "json");
  return { title, markdown: doc.text() };
}

export function observerDocument(detail: ObserverReceiptDetail, strings: ReceiptsStrings, labels: DetailDocumentStrings): DetailDocument {
  const entry = detail.receipt;
  const shortType = entry.customType.startsWith("observer.") ? entry.customType.slice("observer.".length) : entry.customType;
  const title = documentTitle(fill(labels.observerTitle, entry.line, entry.kind ?? shortType));
  const facts: Fact[] = [[strings.detailEntryType, entry.customType, true]];
  if (entry.kind !== null) facts.push([strings.columnKind, entry.kind, true]);
  if (entry.episodeId !== null) facts.push([strings.detailEpisode, entry.episodeId, true]);
  if (entry.id !== null) facts.push([fill(strings.detailEntryId, entry.id.field), entry.id.value, true]);
  if (entry.at !== null) facts.push([fill(strings.detailEntryTime, entry.at.field), entry.at.value, true]);
  facts.push(...chainFacts(detail.stream, entry.line, entry.lineSha256, detail.previousLineSha256, strings));
  const doc = new Builder().heading(1, title).facts(facts);
  doc.canonical(strings.detailEntryJson, strings.detailEntryJsonHint, detail.canonicalJson, labels);
  doc.heading(2, strings.detailLineHashInput).paragraph(strings.detailLineHashInputHint).code(detail.lineHashInput, "json");
  return { title, markdown: doc.text() };
}
