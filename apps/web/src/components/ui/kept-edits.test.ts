import { afterEach, describe, expect, it } from 'vitest';
import { KEPT_EDITS_LIFETIME_MS, keepEdits, takeKeptEdits, withoutSecrets } from './kept-edits.ts';

afterEach(() => sessionStorage.clear());

describe('kept edits', () => {
  it('are gone once their time is up', () => {
    keepEdits('u-editor', '/news?post=new', { post: { title: 'Bozza' } }, 1_000);

    expect(takeKeptEdits('u-editor', '/news?post=new', 'post', 1_000 + KEPT_EDITS_LIFETIME_MS + 1)).toBeUndefined();
    expect(sessionStorage.length).toBe(0);
  });

  it('are handed out within their time, form by form', () => {
    keepEdits('u-editor', '/programs?program=7', { program: { name: 'Punti' }, 'serviceEmail:welcome': { subjectIt: 'Ciao' } }, 1_000);

    expect(takeKeptEdits('u-editor', '/programs?program=7', 'program', 2_000)).toEqual({ name: 'Punti' });
    expect(takeKeptEdits('u-editor', '/programs?program=7', 'program', 2_000)).toBeUndefined();
    expect(takeKeptEdits('u-editor', '/programs?program=7', 'serviceEmail:welcome', 2_000)).toEqual({ subjectIt: 'Ciao' });
    expect(sessionStorage.length).toBe(0);
  });

  it('leave out passwords, secrets and tokens at any depth', () => {
    expect(withoutSecrets({ title: 'T', password: 'p', nested: { apiKeySecret: 's', refreshToken: 'r', city: 'Milano' }, list: [{ newPassword: 'x', n: 1 }] })).toEqual({
      title: 'T',
      nested: { city: 'Milano' },
      list: [{ n: 1 }],
    });
  });
});
