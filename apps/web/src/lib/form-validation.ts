import type { z } from 'zod';
import type { Language } from '@sf/contract/app-info';
import { issueField, issueMessage } from '@sf/contract/validation';

/**
 * Validates form values with a contract schema and words every problem exactly as the API would
 * (S12, `issueMessage`). zod reports each input, so a blank field reads "<field> is required" rather
 * than "not valid". Loaded on demand by form-resolver.ts: it brings zod, which the sign-in page's first
 * load leaves out.
 */
export function validateWithSchema(schema: z.ZodType, values: unknown, language: Language): { data: unknown; issues: { path: string; type: string; message: string }[] } {
  const result = schema.safeParse(values, { reportInput: true });
  if (result.success) return { data: result.data, issues: [] };
  const issues = [];
  for (const issue of result.error.issues) {
    const dotted = issueField(issue);
    if (!dotted) continue;
    issues.push({ path: dotted, type: issue.code, message: issueMessage(issue, language) });
  }
  return { data: undefined, issues };
}

/**
 * A field's own check (on blur, `mode: 'onTouched'`) starts when the press on "Crea esercente" takes
 * the focus from the field. Its text appeared under the field before the button was released, moved
 * the button down, and the release landed beside it: no click, no submit, only that field's text
 * (QA: "errors in rounds"). Such a check waits for the press to end and its click to be dispatched
 * (a task after the release): the submit then checks, and names, every field. Here, not in
 * form-resolver.ts, so that the sign-in page's first load does not carry it; the resolver loads this
 * module as soon as a form is created.
 */
let isPressed = false;
let waiting: (() => void)[] = [];
if (typeof window !== 'undefined') {
  const release = () => {
    isPressed = false;
    setTimeout(() => {
      if (isPressed) return;
      const resumed = waiting;
      waiting = [];
      for (const resume of resumed) resume();
    }, 0);
  };
  window.addEventListener('pointerdown', () => (isPressed = true), true);
  window.addEventListener('pointerup', release, true);
  window.addEventListener('pointercancel', release, true);
  window.addEventListener('blur', release);
}

/** Resolves at once, or once the press under way has ended and its click has been dispatched. */
export function afterPress(): Promise<void> {
  return isPressed ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve();
}
