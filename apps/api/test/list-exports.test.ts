import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext } from './helper.ts';

/** The existing lists (News, audit, staff) answer export.csv with their own filters, like the new ones. */
const ctx = await createTestContext();
let token = '';
beforeAll(async () => {
  token = await ctx.tokenFor('admin@demo.test');
});
afterAll(() => ctx.close());

async function csv(url: string, language = 'it') {
  const response = await ctx.request({ method: 'GET', url, token, headers: { 'accept-language': language } });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
  const body = response.rawPayload.toString('utf8');
  expect(body.charCodeAt(0)).toBe(0xfeff);
  return body.slice(1).trimEnd().split('\r\n');
}

describe('exports of the existing lists', () => {
  it('exports News with its status filter and sort, dates as dd/MM/yyyy HH:mm', async () => {
    const list = (await ctx.request({ method: 'GET', url: '/api/admin/news?status=published&sort=title&order=asc&pageSize=100', token })).json();
    const lines = await csv('/api/admin/news/export.csv?status=published&sort=title&order=asc');
    expect(lines[0]).toBe('Id;Titolo;Sommario;Stato;Data di pubblicazione;In evidenza;Autore;Modificato il');
    expect(lines).toHaveLength(list.total + 1);
    expect(lines.slice(1).map((line) => Number(line.split(';')[0]))).toEqual(list.items.map((post: { id: number }) => post.id));
    expect(lines[1]).toMatch(/;Pubblicato;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2};(sì|no);/);
    const english = await csv('/api/admin/news/export.csv?status=published', 'en');
    expect(english[0]).toBe('Id;Title;Summary;Status;Publish date;Pinned;Author;Updated at');
    expect(english[1]).toMatch(/;Published;.*;(yes|no);/);
  });

  it('exports the audit log with its entity filter, newest first', async () => {
    const lines = await csv('/api/admin/audit/export.csv?entity=news_post');
    expect(lines[0]).toBe('Data e ora;Utente;Azione;Entità;Id entità;Prima;Dopo;Richiesta');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => line.split(';')[3] === 'news_post')).toBe(true);
    const bad = await ctx.request({ method: 'GET', url: '/api/admin/audit/export.csv?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z', token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[0].field).toBe('to');
  });

  it('exports the staff with the role filter', async () => {
    const lines = await csv('/api/admin/staff/export.csv?role=editor');
    expect(lines).toEqual([expect.stringMatching(/^Email;Nome;Ruolo;Stato;Creato il$/), expect.stringMatching(/^editor@demo\.test;.*;Redattore;Attivo;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)]);
  });

  it('refuses the export to an editor where the list is admin-only', async () => {
    const editor = await ctx.tokenFor('editor@demo.test');
    const response = await ctx.request({ method: 'GET', url: '/api/admin/audit/export.csv', token: editor });
    expect(response.statusCode).toBe(403);
    expect((await ctx.request({ method: 'GET', url: '/api/admin/news/export.csv', token: editor })).statusCode).toBe(200);
  });
});
