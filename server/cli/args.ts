// The command line's one argument reader and usage error, shared by every `docket` subcommand
// (the lazily loaded ones too: this file has no imports, so it costs them nothing to load).
const USAGE_ERROR: unique symbol = Symbol.for("docket.cli.usage-error");

export class UsageError extends Error {
  /**
   * Each command runs from its own bundle (scripts/build.mjs), each with its own copy of this
   * class; the registered brand lets the dispatcher recognise a usage error thrown by any of them.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [USAGE_ERROR]?: unknown })[USAGE_ERROR] === true;
  }

  readonly [USAGE_ERROR] = true;

  constructor(
    message: string,
    readonly code = "docket.usage",
  ) {
    super(message);
    this.name = "UsageError";
  }
}

export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly flags: ReadonlyMap<string, string | true>;
}

/** `--name value`, `--name=value` for value flags, bare `--name` for boolean flags, `--` ends options; anything else is a usage error. */
export function parseArgs(args: readonly string[], valueFlags: readonly string[], booleanFlags: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index] as string;
    if (arg === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/su, 2) as [string, string | undefined];
    if (valueFlags.includes(name)) {
      const value = inline ?? args[index + 1];
      if (value === undefined || (inline === undefined && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
      if (inline === undefined) index += 1;
      flags.set(name, value);
    } else if (booleanFlags.includes(name) && inline === undefined) {
      flags.set(name, true);
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return { positionals, flags };
}

export function stringFlag(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.flags.get(name);
  return typeof value === "string" ? value : undefined;
}
