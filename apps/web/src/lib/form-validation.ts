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
