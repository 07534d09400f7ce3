// Builds Pi session files (JSON Lines) for tests: a `session` header, then entries chained by
// id/parentId the way Pi appends them (each new entry's parent is the current leaf), with
// helpers for developer.runtime entries, ordinary messages, branching and raw (broken) lines.
let sessionCounter = 0;

export class PiSessionBuilder {
  private readonly lines: string[] = [];
  private counter = 0;
  leaf: string | null = null;

  constructor(options: { version?: number | null; id?: string } = {}) {
    sessionCounter += 1;
    const header: Record<string, unknown> = {
      type: "session",
      id: options.id ?? `session-${sessionCounter}`,
      timestamp: "2030-01-01T00:00:00.000Z",
      cwd: "/work/project",
    };
    if (options.version !== null) header.version = options.version ?? 3;
    this.lines.push(JSON.stringify(header));
  }

  /** Appends an entry under `parentId` (default: the current leaf) and makes it the leaf. */
  entry(fields: Record<string, unknown>, parentId: string | null = this.leaf): string {
    this.counter += 1;
    const id = `e${String(this.counter).padStart(4, "0")}`;
    this.lines.push(JSON.stringify({ ...fields, id, parentId, timestamp: "2030-01-01T00:00:00.000Z" }));
    this.leaf = id;
    return id;
  }

  message(role: "user" | "assistant", text: string, parentId?: string | null): string {
    return this.entry({ type: "message", message: { role, content: [{ type: "text", text }] } }, parentId);
  }

  developer(envelope: unknown, parentId?: string | null): string {
    return this.entry({ type: "custom", customType: "developer.runtime", data: envelope }, parentId);
  }

  custom(customType: string, data: unknown): string {
    return this.entry({ type: "custom", customType, data });
  }

  /** A line exactly as given (for malformed input). */
  raw(text: string): void {
    this.lines.push(text);
  }

  text(): string {
    return `${this.lines.join("\n")}\n`;
  }

  /** Line number (one-based) the next line will have. */
  get nextLine(): number {
    return this.lines.length + 1;
  }
}
