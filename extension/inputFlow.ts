// Multi-step input for the palette operations: numbered input boxes and quick picks that keep
// their place when focus moves away, validate as the user types, and end the command silently
// when the user presses Escape (nothing is sent, so nothing is written).
import * as vscode from "vscode";

/** Thrown when the user dismisses a step; the command runner swallows it. */
export class InputCancelled extends Error {
  constructor() {
    super("input cancelled");
    this.name = "InputCancelled";
  }
}

/** Matches the backend's `OperationText` limit, so a value the box accepts is never refused for length. */
export const MAX_TEXT_LENGTH = 4000;

export interface Step {
  readonly title: string;
  readonly step: number;
  /** 0 for a preliminary choice that decides how many steps follow (shown without a count). */
  readonly totalSteps: number;
}

function stepTitle(step: Step): string {
  return step.totalSteps === 0 ? step.title : `${step.title} (${step.step}/${step.totalSteps})`;
}

function validateText(value: string, required: boolean): string | undefined {
  const trimmed = value.trim();
  if (required && trimmed.length === 0) return vscode.l10n.t("Enter a value, or press Escape to cancel.");
  if (trimmed.length > MAX_TEXT_LENGTH) return vscode.l10n.t("At most {0} characters.", MAX_TEXT_LENGTH);
  return undefined;
}

export async function askText(step: Step, prompt: string, options: { placeHolder?: string; value?: string } = {}): Promise<string> {
  const answer = await vscode.window.showInputBox({
    title: stepTitle(step),
    prompt,
    placeHolder: options.placeHolder,
    value: options.value,
    ignoreFocusOut: true,
    validateInput: (value) => validateText(value, true),
  });
  if (answer === undefined) throw new InputCancelled();
  return answer.trim();
}

/**
 * Collects a list one entry per box: each box adds an entry, an empty box finishes once `min`
 * entries exist. Entries are kept verbatim (trimmed), so they may contain any punctuation.
 */
export async function askList(step: Step, prompt: string, options: { min: number; max: number; placeHolder?: string; initial?: readonly string[] }): Promise<string[]> {
  const entries: string[] = [];
  while (entries.length < options.max) {
    const finishing = entries.length >= options.min;
    const answer = await vscode.window.showInputBox({
      title: stepTitle(step),
      // Entries typed before a refusal come back one per box, to confirm or change.
      value: options.initial?.[entries.length],
      prompt: finishing
        ? vscode.l10n.t("{0} — entry {1}. Leave empty and press Enter to finish.", prompt, entries.length + 1)
        : vscode.l10n.t("{0} — entry {1}.", prompt, entries.length + 1),
      placeHolder: options.placeHolder,
      ignoreFocusOut: true,
      validateInput: (value) => {
        const problem = validateText(value, !finishing);
        if (problem !== undefined) return problem;
        return entries.includes(value.trim()) ? vscode.l10n.t("This entry is already in the list.") : undefined;
      },
    });
    if (answer === undefined) throw new InputCancelled();
    const trimmed = answer.trim();
    if (trimmed === "") break;
    entries.push(trimmed);
  }
  return entries;
}

export async function pickOne<T extends vscode.QuickPickItem>(step: Step, placeHolder: string, items: readonly T[]): Promise<T> {
  const picked = await vscode.window.showQuickPick(items, {
    title: stepTitle(step),
    placeHolder,
    ignoreFocusOut: true,
    // Labels and descriptions only: details are long sentences that would match almost any word.
    matchOnDescription: true,
  });
  if (picked === undefined) throw new InputCancelled();
  return picked;
}
