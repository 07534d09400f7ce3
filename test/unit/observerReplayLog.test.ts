// Reading Observer logs for `docket observer replay`: Pi sessions (header first, active branch,
// unreadable lines skipped as Pi skips them) and Docket ledger lines (`observer/v1`), with issue
// indices reported as zero-based lines of the file; the ledger stream's wrapper validation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeLedgerLine, encodeLedgerLine, LineFault } from "../../server/ledger/ledgerLine";
import { readObserverLog, ObserverLogError } from "../../server/observer/observerLog";
import { replayObserverLog } from "../../server/observer/observerCli";
import { candidatePayload, custom, id, ledgerText, modeOn, observation, opened, piSessionText, userOrigin, type HostEntry } from "../support/observerLog";

const candidate = observation(candidatePayload({ id: id("candidate-", 1), origin: userOrigin(), text: "a prompt" }));

test("a Pi session: the header is line 0, every later line counts, issues name their file line", () => {
  const message: HostEntry = { type: "message" };
  const text = piSessionText([opened(), message, candidate, modeOn(), candidate]);
  const report = replayObserverLog(readObserverLog(text));
  // line 3 is the candidate captured with Observer off
  assert.deepEqual(report.issues, [{ index: 3, code: "observation-session.scope", message: report.issues[0]?.message }]);
  assert.deepEqual(report.snapshot.candidates, [id("candidate-", 1)]);
  assert.equal(report.snapshot.mode, "on");
  assert.equal(report.snapshot.episodeStatus, "open");
  assert.equal(report.snapshot.episodeId, "episode-observer-1");
});

test("a Pi session is replayed along its active branch; unreadable lines are skipped as Pi skips them", () => {
  const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" });
  const line = (entry: HostEntry, entryId: string, parentId: string | null) => JSON.stringify({ ...entry, id: entryId, parentId });
  const text = [
    header,
    line(opened(), "a", null),
    line(modeOn(), "b", "a"),
    // an abandoned branch: captured, then Pi went back to "b"
    line(candidate, "c", "b"),
    "{not json",
    line(observation(candidatePayload({ id: id("candidate-", 2), origin: userOrigin(), text: "other" })), "d", "b"),
  ].join("\n");
  const log = readObserverLog(`${text}\n`);
  assert.equal(log.form, "pi-session");
  assert.deepEqual(log.lines, [1, 2, 5]);
  const report = replayObserverLog(log);
  assert.deepEqual(report.issues, []);
  assert.deepEqual(report.snapshot.candidates, [id("candidate-", 2)]);
});

test("linear (version 1) sessions replay in file order", () => {
  const header = JSON.stringify({ type: "session", id: "s" });
  const text = [header, JSON.stringify(opened()), JSON.stringify(modeOn()), JSON.stringify(candidate)].join("\n");
  const report = replayObserverLog(readObserverLog(text));
  assert.deepEqual(report.issues, []);
  assert.deepEqual(report.snapshot.candidates, [id("candidate-", 1)]);
});

test("Docket ledger lines: observer/v1 entries replay, lines of other streams keep their positions", () => {
  const text = ledgerText([opened(), candidate, modeOn(), candidate]);
  const log = readObserverLog(text);
  assert.equal(log.form, "ledger");
  const report = replayObserverLog(log);
  assert.deepEqual(
    report.issues.map((issue) => [issue.index, issue.code]),
    [[1, "observation-session.scope"]],
  );
  assert.deepEqual(report.snapshot.candidates, [id("candidate-", 1)]);
  // a foreign stream line in between
  const guard = encodeLedgerLine(0, null, "developer/v8", { anything: true }).text;
  const mixed = guard + ledgerText([opened(), modeOn(), candidate]);
  assert.deepEqual(replayObserverLog(readObserverLog(mixed)).snapshot.candidates, [id("candidate-", 1)]);
});

test("ledger lines that are not ledger lines, or observer/v1 entries with another wrapper, are log issues", () => {
  const text = `${ledgerText([opened()])}not json\n`;
  const report = replayObserverLog(readObserverLog(text));
  assert.deepEqual(
    report.issues.map((issue) => [issue.index, issue.code]),
    [[1, "observer-log.line"]],
  );
});

test("a file that is neither a Pi session nor ledger lines is refused; an empty one is an empty log", () => {
  assert.throws(() => readObserverLog('{"hello":1}\n'), ObserverLogError);
  assert.throws(() => readObserverLog("garbage\n"), ObserverLogError);
  const empty = replayObserverLog(readObserverLog("\n\n"));
  assert.deepEqual(empty.issues, []);
  assert.deepEqual(empty.snapshot, {
    mode: "off",
    episodeStatus: "empty",
    episodeId: null,
    candidates: [],
    sourceReads: [],
    hydrations: [],
    observations: [],
    userHypotheses: [],
    hypothesisReviews: [],
    memoRequests: [],
    pendingMemoRequest: null,
    consumedObservationIds: [],
    unconsumedObservationIds: [],
  });
});

test("the observer/v1 ledger stream: the wrapper is validated when the line is decoded", () => {
  const good = encodeLedgerLine(0, null, "observer/v1", { customType: "observer.lifecycle", data: { anything: "goes here" } });
  assert.equal(decodeLedgerLine(good.text.trimEnd(), 0, null).stream, "observer/v1");
  for (const entry of [{ customType: "observer.unknown", data: {} }, { customType: "observer.lifecycle" }, { customType: "observer.lifecycle", data: {}, extra: 1 }]) {
    const bad = encodeLedgerLine(0, null, "observer/v1", entry);
    assert.throws(
      () => decodeLedgerLine(bad.text.trimEnd(), 0, null),
      (error: unknown) => error instanceof LineFault && error.code === "ledger-line-invalid",
      JSON.stringify(entry),
    );
  }
  assert.equal(custom("observer.lifecycle", {}).type, "custom");
});
