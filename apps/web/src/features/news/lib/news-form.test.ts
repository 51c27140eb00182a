import { describe, expect, it } from 'vitest';
import { newsPost } from '../testing/news-fixtures.ts';
import { emptyNewsForm, newsFormFromPost, newsFormResolver, toCreateBody, toUpdateBody } from './news-form.ts';
import { instantToWallClock, wallClockToInstant } from '../../../lib/time-zone.ts';

describe('news form model', () => {
  it('reads a wall-clock time in the user\'s zone, not the browser\'s', () => {
    expect(wallClockToInstant('2099-01-10 09:00:00', 'Europe/Rome')).toBe('2099-01-10T08:00:00.000Z');
    expect(wallClockToInstant('2099-07-10 09:00:00', 'Europe/Rome')).toBe('2099-07-10T07:00:00.000Z');
    expect(wallClockToInstant('2099-01-10 09:00:00', 'America/New_York')).toBe('2099-01-10T14:00:00.000Z');
    expect(instantToWallClock('2099-01-10T08:00:00.000Z', 'Europe/Rome')).toBe('2099-01-10 09:00:00');
  });

  it('turns a scheduled form into the instant the API expects', () => {
    const values = { ...emptyNewsForm(), title: '  Festa  ', publishMode: 'schedule' as const, publishAt: '2099-12-31 23:30:00' };
    expect(toCreateBody(values, 'schedule', 'Europe/Rome')).toMatchObject({
      title: 'Festa',
      status: 'scheduled',
      publishAt: '2099-12-31T22:30:00.000Z',
    });
  });

  it('sends only the changed fields and the version in an update', () => {
    const post = newsPost({ version: 5 });
    const values = { ...newsFormFromPost(post, 'Europe/Rome'), title: 'Nuovo titolo' };
    expect(toUpdateBody(values, { title: true }, 'keep', post.version, 'Europe/Rome')).toEqual({ version: 5, title: 'Nuovo titolo' });
    expect(toUpdateBody({ ...values, coverImageUrl: null }, { coverImageUrl: true }, 'publish', 5, 'Europe/Rome')).toEqual({
      version: 5,
      coverImageId: null,
      status: 'published',
      publishAt: null,
    });
  });

  it('reports the contract\'s rules with the S12 texts of the chosen language', async () => {
    const tooLong = { ...emptyNewsForm(), title: 'x'.repeat(201), summary: 'y'.repeat(501) };
    const it = await newsFormResolver('it')(tooLong, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(it.errors.title?.message).toBe('La lunghezza massima di Titolo è 200');
    expect(it.errors.summary?.message).toBe('La lunghezza massima di Sommario è 500');
    const en = await newsFormResolver('en')({ ...emptyNewsForm(), title: '   ' }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(en.errors.title?.message).toBe('Title is required');
    const ok = await newsFormResolver('en')({ ...emptyNewsForm(), title: 'Fine' }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(ok.errors).toEqual({});
  });
});
