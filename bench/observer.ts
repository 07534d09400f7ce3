// Observer figures for `npm run bench`: replaying a DOCKET_BENCH_OBSERVER_ENTRIES-entry
// (100,000 by default; 10,000 with --quick) Observer history kept as Docket ledger lines
// (`observer/v1`) — reading the lines (`readObserverLog`) and replaying them
// (`replayObservationSession`) — next to the ledger floor over the very same lines: parse,
// canonical JSON, SHA-256 of each; and the share of it that re-executes the Memo passes. CPU time
// (user + system) in this process, medians of interleaved rounds. Informational: no target is
// documented for it.
//
// The history is a realistic mix, every entry valid (the bench refuses to time a history with an
// issue): many Episodes, each opened with Observer on, several rounds of tool and assistant results
// read as SourceReads (half of them hydrated with standing inquiries), interpreted with their real
// context bases (some proposing an observer hypothesis), user hypotheses (most of them reviewed),
// then a Memo request over everything unrequested, answered by an applied and acknowledged Memo
// pass (creating the Episode's Memo, then keeping it; creating each user hypothesis, then keeping
// it), an occasional identical repeat, and Review & Save settling the Episode.
import { canonicalJson, sha256Hex, toJsonValue } from "../server/ledger/canonicalJson";
import { MemoHistoryReplay } from "../server/observer/memoHistory";
import { readObserverLog } from "../server/observer/observerLog";
import { replayObservationSession } from "../server/observer/observationSession";
import {
  candidatePayload,
  commitEntries,
  continuationPayload,
  digestOfEntry,
  fullReceipt,
  hydrationPayload,
  id,
  ledgerText,
  lifecycle,
  memoRequestDigest,
  modeOn,
  observation,
  opened,
  reviewPayload,
  semanticPayload,
  sha,
  sourceReadPayload,
  toolOrigin,
  userHypothesisPayload,
  userOrigin,
  type HostEntry,
  type HydrationSpec,
  type ReadSpec,
} from "../test/support/observerLog";
import { figure, measuredOf, type BenchFigure } from "./figure";
import { inProcessSample, interleavedRounds, samplesOf, type ProducerOptions } from "./runner";

const ROUNDS_PER_EPISODE = 40;
/** A Memo pass after every ROUNDS_PER_PASS rounds (ROUNDS_PER_EPISODE is a multiple of it). */
const ROUNDS_PER_PASS = 4;

/** Fresh typed ids: every entity of the history gets its own number. */
class Numbers {
  private next = 1;
  take(): number {
    const value = this.next;
    this.next += 1;
    return value;
  }
}

interface EpisodeMemo {
  readonly memoId: string;
  readonly revisionId: string;
}

interface EpisodeState {
  readonly episodeId: string;
  memo: EpisodeMemo | null;
  /** Working hypotheses created by this Episode's passes: [inquiry id, current wording]. */
  readonly hypotheses: [string, string][];
}

/** The Memo scope of this Episode over the working sources of its unconsumed observations. */
function scopeFor(episode: EpisodeState, revisionId: string | null, sources: readonly { sourceId: string; readId: string; readDigest: string }[]): Record<string, unknown> {
  const sorted = [...sources].sort((left, right) => (left.sourceId < right.sourceId ? -1 : 1));
  const sourceIds = sorted.map((source) => source.sourceId);
  const basisRecords = sorted.map((source) => ({ recordId: source.sourceId, path: `session:observer/${source.readId}`, sha256: source.readDigest }));
  const basisDigest = sha(
    JSON.stringify({
      revisionId,
      episodeId: episode.episodeId,
      relatedInquiryIds: [],
      workingMemos: episode.memo === null ? [] : [[episode.memo.memoId, episode.memo.revisionId]],
      durableMemos: [],
      existingRecordIds: sourceIds,
      sourceIds,
      basisRecords,
      hypotheses: [...episode.hypotheses].sort((left, right) => (left[0] < right[0] ? -1 : 1)),
    }),
  );
  return {
    observer_memo_scope: "observer.memo-scope/v1",
    episode_id: episode.episodeId,
    episode_language: "en",
    related_inquiry_ids: [],
    durable_memos: [],
    durable_hypotheses: [],
    existing_record_ids: sourceIds,
    source_ids: sourceIds,
    basis_records: basisRecords.map((record) => ({ record_id: record.recordId, path: record.path, sha256: record.sha256 })),
    basis_digest: basisDigest,
  };
}

interface Pending {
  readonly entry: HostEntry;
  readonly observationId: string;
}

/** Builds at least `count` valid entries (Episodes until there are enough); the caller cuts to `count`. */
export function observerHistory(count: number): HostEntry[] {
  const numbers = new Numbers();
  const entries: HostEntry[] = [];
  let revision: string | null = null;
  const standing = [id("inquiry-", 900_001), id("inquiry-", 900_002), id("inquiry-", 900_003)];
  for (let episodeNumber = 1; entries.length < count; episodeNumber += 1) {
    const episode: EpisodeState = { episodeId: `episode-bench-${episodeNumber}`, memo: null, hypotheses: [] };
    const episodeId = episode.episodeId;
    entries.push(opened(episodeId, "en"), modeOn());
    let lastRequest = "";
    let unrequested: Pending[] = [];
    let sources: { sourceId: string; readId: string; readDigest: string }[] = [];
    let created: Record<string, unknown>[] = [];
    let cited: Record<string, unknown> | null = null;
    for (let round = 1; round <= ROUNDS_PER_EPISODE; round += 1) {
      // Two readings per round: a tool result (two candidates) and an assistant result.
      for (let reading = 0; reading < 2; reading += 1) {
        const n = numbers.take();
        const candidates = Array.from({ length: reading === 0 ? 2 : 1 }, (_, k) => ({
          id: id("candidate-", numbers.take()),
          text: `Result ${n}.${k}: the parser spends most of its time re-tokenising unchanged regions of file ${n % 97}.`,
        }));
        for (const [k, candidate] of candidates.entries()) {
          const origin = reading === 0 ? toolOrigin(`call-${n}-${k}`, k === 0 ? "read" : "grep") : { kind: "assistant-result", turn_index: n };
          entries.push(observation(candidatePayload({ id: candidate.id, origin, text: candidate.text, episodeId })));
        }
        const hydrated = (n + round) % 2 === 0;
        const spec: ReadSpec = {
          readId: id("source-read-", n),
          candidates,
          sourceId: id("source-", n),
          summary: `The reading ${n} reports that incremental re-tokenising bounds the parse cost by the edited region.`,
          claims: [
            { text: `Claim ${n}: unchanged regions are reused.`, locator: `section ${n % 7}` },
            { text: `Claim ${n}: the cost is linear in the edit.`, locator: null },
          ],
          indexDigest: sha(`standing-index-${episodeNumber}`),
          indexInquiryIds: hydrated ? standing : [],
          episodeId,
        };
        const read = observation(sourceReadPayload(spec));
        entries.push(read);
        let hydration: HydrationSpec | null = null;
        if (hydrated) {
          hydration = { hydrationId: id("hydration-", n), readId: spec.readId, indexDigest: spec.indexDigest, inquiryIds: standing.slice(0, 1 + (n % 3)), contextDigest: sha(`context-${n}`) };
          entries.push(observation(hydrationPayload(hydration, episodeId)));
        }
        const observationId = id("observation-", n);
        const proposes = n % 5 === 0;
        const semantic = observation(
          semanticPayload({
            observationId,
            read: spec,
            hydration,
            episodeId,
            stance: proposes ? "refines" : "supports",
            movement: proposes ? "independent-new-hypothesis" : "repeated-support",
            hypothesis: proposes ? { inquiry_id: id("inquiry-", n), original: `Re-tokenising cost follows edit size (${n}).` } : null,
          }),
        );
        entries.push(semantic);
        // A retried append: the identical event again, which replay ignores.
        if (n % 11 === 0) entries.push(semantic);
        unrequested.push({ entry: semantic, observationId });
        sources.push({ sourceId: spec.sourceId, readId: spec.readId, readDigest: digestOfEntry(read) });
        cited ??= { evidence_id: id("evidence-", n), kind: "source-claim", source_id: spec.sourceId, summary: `Claim ${n}: unchanged regions are reused.` };
      }
      // Every other round the user states a hypothesis; most are reviewed.
      if (round % 2 === 0) {
        const n = numbers.take();
        const candidateId = id("candidate-", n);
        const observationId = id("observation-", n);
        const inquiryId = id("inquiry-", n);
        const original = `Users notice the parse delay only above a threshold (${n}).`;
        entries.push(observation(candidatePayload({ id: candidateId, origin: userOrigin(), text: `I think the delay only matters above a threshold (${n}).`, episodeId })));
        const hypothesis = observation(userHypothesisPayload({ observationId, candidateId, inquiryId, original, episodeId }));
        entries.push(hypothesis);
        if (n % 4 !== 0) entries.push(observation(reviewPayload(observationId, "mixed", episodeId)));
        unrequested.push({ entry: hypothesis, observationId });
        created.push({ kind: "create", hypothesis: { inquiry_id: inquiryId, episode_id: episodeId, origin: "user", original, current: original, revision_reason: null, evidence_ids: [] } });
      }
      if (round % ROUNDS_PER_PASS !== 0) continue;
      // The Memo request over everything unrequested, then its pass, applied and acknowledged.
      const requestId = id("memo-request-", numbers.take());
      const members = [...unrequested].sort((left, right) => (left.observationId < right.observationId ? -1 : 1));
      entries.push(
        observation({
          observer_observation: "observer-observation/v1",
          kind: "memo-requested",
          episode_id: episodeId,
          request_id: requestId,
          base_memo_revision_id: revision,
          observation_ids: members.map((member) => member.observationId),
          request_digest: memoRequestDigest(episodeId, revision, members.map((member) => member.entry)),
        }),
      );
      lastRequest = requestId;
      const passNumber = numbers.take();
      const passId = id("memo-pass-", passNumber);
      const nextRevision = id("memo-working-revision-", passNumber);
      const scope = scopeFor(episode, revision, sources);
      const memoOutcomes: Record<string, unknown>[] =
        episode.memo === null
          ? [
              {
                kind: "create",
                memo: {
                  memo_id: id("memo-", passNumber),
                  episode_id: episodeId,
                  title: `Parse cost in Episode ${episodeNumber}`,
                  lang: "en",
                  content: `What the readings of Episode ${episodeNumber} show about re-tokenising.`,
                  inquiry_ids: [],
                  hypothesis_id: null,
                  evidence_ids: [cited?.evidence_id as string],
                  reason: "From the readings.",
                },
              },
            ]
          : [{ kind: "keep-incubating", memo_id: episode.memo.memoId }];
      const pass = {
        observer_memo_pass: "observer.prepared-memo-pass/v1",
        pass_id: passId,
        episode_id: episodeId,
        base_revision_id: revision,
        basis_digest: scope.basis_digest,
        related_inquiry_ids: [],
        instruction_id: requestId,
        evidence: cited === null ? [] : [cited],
        hypothesis_outcomes: [...episode.hypotheses.map(([inquiryId]) => ({ kind: "keep", inquiry_id: inquiryId })), ...created],
        memo_outcomes: memoOutcomes,
      };
      const receipt = fullReceipt(passId, nextRevision, id("memo-receipt-", passNumber), { episodeMemos: 1, created: episode.memo === null ? 1 : 0, kept: episode.memo === null ? 0 : 1 });
      entries.push(...commitEntries(pass, scope, receipt));
      if (episode.memo === null) episode.memo = { memoId: id("memo-", passNumber), revisionId: nextRevision };
      for (const outcome of created) {
        const hypothesis = outcome.hypothesis as { inquiry_id: string; current: string };
        episode.hypotheses.push([hypothesis.inquiry_id, hypothesis.current]);
      }
      revision = nextRevision;
      unrequested = [];
      sources = [];
      created = [];
      cited = null;
    }
    const proposal = `proposal-${episodeNumber}`;
    entries.push(
      observation(continuationPayload(lastRequest, episodeId)),
      lifecycle({ kind: "save-proposed", proposalId: proposal, summary: `Save Episode ${episodeNumber}'s Memo.` }),
      lifecycle({ kind: "save-committed", proposalId: proposal, receipt: { receiptId: `receipt-${episodeNumber}`, status: "validated", recordIds: [] } }),
    );
  }
  return entries;
}

export async function observerReplayFigures(options: ProducerOptions): Promise<BenchFigure[]> {
  if (!["observer.replay", "observer.replay.memoPasses"].some(options.wants)) return [];
  const entries = Number(process.env.DOCKET_BENCH_OBSERVER_ENTRIES ?? (options.quick ? 10_000 : 100_000));
  const plannedRounds = options.rounds ?? Number(process.env.DOCKET_BENCH_OBSERVER_RUNS ?? (options.quick ? 3 : 5));
  const text = ledgerText(observerHistory(entries).slice(0, entries));
  const lines = text.split("\n").slice(0, -1);
  const replay = (): void => {
    const log = readObserverLog(text);
    const snapshot = replayObservationSession(log.entries);
    if (log.problems.length > 0 || snapshot.issues.length > 0) throw new Error(`the generated history is not clean: ${JSON.stringify([...log.problems, ...snapshot.issues].slice(0, 3))}`);
  };
  const floor = (): void => {
    for (const line of lines) sha256Hex(canonicalJson(toJsonValue(JSON.parse(line))));
  };
  const parsed = readObserverLog(text).entries;
  // The share of replay that re-executes the Memo passes (the Memo history replay on its own).
  const memo = (): void => {
    const history = new MemoHistoryReplay();
    for (const entry of parsed) if (entry.custom) history.apply(entry);
  };
  // The warm-up round also checks that every entry is valid before anything is timed.
  const { samples, rounds } = interleavedRounds(
    [
      { name: "floor", measure: () => inProcessSample(floor) },
      { name: "replay", measure: () => inProcessSample(replay) },
      { name: "memo", measure: () => inProcessSample(memo) },
    ],
    { rounds: plannedRounds, warmUps: 1, budgetMs: options.budgetMs },
  );
  const floorMeasured = { label: "parse + canonical JSON + SHA-256 per line", measured: measuredOf(samplesOf(samples, "floor")) };
  const workload = `${entries.toLocaleString("en-US")} Observer entries (${(Buffer.byteLength(text) / 1_048_576).toFixed(0)} MB of ledger lines)`;
  return [
    figure({ id: "observer.replay", label: "Observer replay (read + replay)", workload, rounds, measured: measuredOf(samplesOf(samples, "replay")), floor: floorMeasured, basis: "cpu" }),
    figure({
      id: "observer.replay.memoPasses",
      label: "of which re-executing the Memo passes",
      workload,
      rounds,
      measured: measuredOf(samplesOf(samples, "memo")),
      basis: "cpu",
      note: "the Memo history replay alone, a part of observer.replay (no floor of its own)",
    }),
  ];
}
