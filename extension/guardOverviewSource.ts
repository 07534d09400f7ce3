// The guard overview the extension shows (Work view's Reviews section, Stop messages, the mode
// setting): asked for when the backend becomes ready and on every `docket/guard/changed`; a reply
// older than the latest request is dropped, never shown. Null while the backend cannot answer.
import * as vscode from "vscode";
import type { GuardOverview } from "../server/protocol/messages";

export class GuardOverviewSource implements vscode.Disposable {
  private value: GuardOverview | null = null;
  private generation = 0;
  private readonly emitter = new vscode.EventEmitter<GuardOverview | null>();
  readonly onDidChange = this.emitter.event;

  /** @param load asks the backend; rejects while it is down or has no folder. */
  constructor(
    private readonly load: () => Promise<GuardOverview>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get current(): GuardOverview | null {
    return this.value;
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    let next: GuardOverview | null;
    try {
      next = await this.load();
    } catch (error) {
      this.log.debug("docket/guard/overview failed", error);
      next = null;
    }
    if (generation !== this.generation) return;
    this.value = next;
    this.emitter.fire(next);
  }

  /** The backend stopped: nothing it said before may still be true. */
  clear(): void {
    this.generation += 1;
    if (this.value === null) return;
    this.value = null;
    this.emitter.fire(null);
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
