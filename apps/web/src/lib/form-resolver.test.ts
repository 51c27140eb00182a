import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractResolver } from './form-resolver.ts';

const schema = z.strictObject({ email: z.email(), displayName: z.string().min(1) });
const resolver = contractResolver<{ email: string; displayName: string }>(async () => schema);
const values = { email: 'bad', displayName: '' };
const options = (names?: string[]) => ({ names, fields: {}, shouldUseNativeValidation: false, criteriaMode: 'firstError' as const }) as never;

describe('contractResolver during a press', () => {
  it("holds a field's own check (a blur) until the press ends, so the pressed submit button does not move away", async () => {
    // Loaded when the form is created, long before anyone presses its button.
    await import('./form-validation.ts');
    window.dispatchEvent(new Event('pointerdown'));
    let isDone = false;
    const blur = Promise.resolve(resolver(values, undefined, options(['email']))).then((result) => {
      isDone = true;
      return result;
    });
    // The submit's check names every field at once, press or not.
    const submit = await resolver(values, undefined, options());
    expect(Object.keys(submit.errors).sort()).toEqual(['displayName', 'email']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isDone).toBe(false);
    window.dispatchEvent(new Event('pointerup'));
    expect(Object.keys((await blur).errors)).toContain('email');
    expect(isDone).toBe(true);
  });

  it('checks a field at once when nothing is pressed', async () => {
    const result = await resolver(values, undefined, options(['email']));
    expect(result.errors).toHaveProperty('email');
  });
});
