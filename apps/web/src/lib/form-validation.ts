import type { z } from 'zod';
import type { Language } from '@sf/contract/app-info';
import { message } from '@sf/contract/messages';
import { issueField, issueMessage } from '@sf/contract/validation';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/**
 * Validates form values with a contract schema and words every problem exactly as the API would
 * (S12, `issueMessage`). An empty field reads "<field> is required" rather than "not valid".
 * Loaded on demand by form-resolver.ts: it brings zod, which the sign-in page's first load leaves out.
 */
export function validateWithSchema(schema: z.ZodType, values: unknown, language: Language): { data: unknown; issues: { path: string; type: string; message: string }[] } {
  const result = schema.safeParse(values, { reportInput: true });
  if (result.success) return { data: result.data, issues: [] };
  const issues = [];
  for (const issue of result.error.issues) {
    const dotted = issueField(issue);
    if (!dotted) continue;
    const hasKey = typeof (issue as { params?: Record<string, unknown> }).params?.['messageKey'] === 'string';
    const field = dotted.split('.').at(-1) ?? dotted;
    const text = !hasKey && 'input' in issue && isEmpty(issue.input) ? message('required', language, { field }) : issueMessage(issue, language);
    issues.push({ path: dotted, type: issue.code, message: text });
  }
  return { data: undefined, issues };
}
