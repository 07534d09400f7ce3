// How a person names a Notebook folder (observer.md §5.1): `/abs` as is, `./x` or `x` against the
// working directory, `~` or `~/x` against the home directory. `~user` is refused rather than guessed:
// expanding another account's home would silently pick a folder the person did not type.
import path from "node:path";

export type NotebookPathKind = "absolute" | "home-relative" | "cwd-relative";

export type NotebookPathCode = "notebook.path-empty" | "notebook.path-unsupported";

export type NotebookPathResolution =
  | { readonly ok: true; readonly path: string; readonly kind: NotebookPathKind }
  | { readonly ok: false; readonly code: NotebookPathCode; readonly message: string };

export function resolveNotebookPath(input: string, cwd: string, home: string): NotebookPathResolution {
  const value = input.trim();
  if (value.length === 0) return { ok: false, code: "notebook.path-empty", message: "Give the Notebook folder's path." };
  if (value === "~") return { ok: true, path: path.resolve(home), kind: "home-relative" };
  if (value.startsWith("~/")) return { ok: true, path: path.resolve(home, value.slice(2)), kind: "home-relative" };
  if (value.startsWith("~")) {
    return {
      ok: false,
      code: "notebook.path-unsupported",
      message: `${value}: only ~ and ~/… are expanded (to your own home folder); ~user paths are not. Give an absolute path instead.`,
    };
  }
  return { ok: true, path: path.resolve(cwd, value), kind: path.isAbsolute(value) ? "absolute" : "cwd-relative" };
}

export function describeNotebookPathKind(kind: NotebookPathKind): string {
  switch (kind) {
    case "absolute":
      return "absolute path";
    case "home-relative":
      return "relative to your home folder (~)";
    case "cwd-relative":
      return "relative to the current directory";
  }
}
