// The environment every Git child process of Docket runs with. Git must answer about the
// repository Docket names (by `-C` or its working folder), in English (failures are classified by
// their text), and never wait on a person (a credential prompt, an editor, a pager) nor take
// index.lock under an agent's own Git run.

/** Variables that would point Git at another repository, index, object store or notes ref. */
export const GIT_REPOSITORY_VARIABLES: readonly string[] = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_COMMON_DIR",
  "GIT_PREFIX",
  "GIT_NOTES_REF",
  "GIT_NOTES_DISPLAY_REF",
];

export interface GitEnvironmentOptions {
  /** Keep the repository variables (a Git hook's process: Git named its repository that way). */
  readonly keepRepository?: boolean;
  /** Variables set on top (e.g. GIT_NO_REPLACE_OBJECTS for the audit). */
  readonly extra?: Readonly<Record<string, string>>;
}

export function gitEnvironment(options: GitEnvironmentOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  const removed = options.keepRepository === true ? ["GIT_NOTES_REF", "GIT_NOTES_DISPLAY_REF"] : GIT_REPOSITORY_VARIABLES;
  for (const name of removed) delete env[name];
  // A diff program named by the environment would run on whatever Git is asked to diff.
  delete env.GIT_EXTERNAL_DIFF;
  env.LC_ALL = "C";
  env.LANGUAGE = "C";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.GIT_EDITOR = "true";
  env.GIT_PAGER = "cat";
  return { ...env, ...options.extra };
}
