import { describe, expect, it } from 'vitest';
import { fetchAllPages, type ListPage } from './all-pages.ts';

/** A list of `total` numbered items served 100 per page, recording the pages asked for. */
function fakeList(total: number) {
  const asked: string[] = [];
  const getPage = async (query: Record<string, string>): Promise<ListPage<number>> => {
    asked.push(query['page']!);
    const start = (Number(query['page']) - 1) * Number(query['pageSize']);
    const items = Array.from({ length: Math.max(0, Math.min(Number(query['pageSize']), total - start)) }, (_, index) => start + index);
    return { items, total };
  };
  return { getPage, asked };
}

describe('fetchAllPages', () => {
  it('reads page after page until the total, keeping the caller\'s filters', async () => {
    const list = fakeList(250);
    const seen: Record<string, string>[] = [];
    const items = await fetchAllPages(async (query) => (seen.push(query), list.getPage(query)), { sort: 'legalName', status: 'active' });
    expect(items).toHaveLength(250);
    expect(items.at(-1)).toBe(249);
    expect(list.asked).toEqual(['1', '2', '3']);
    expect(seen[0]).toMatchObject({ sort: 'legalName', status: 'active', pageSize: '100' });
  });

  it('asks once for a short list and stops at the limit for a huge one', async () => {
    const short = fakeList(7);
    expect(await fetchAllPages(short.getPage, {})).toHaveLength(7);
    expect(short.asked).toEqual(['1']);
    const huge = fakeList(1_000_000);
    expect(await fetchAllPages(huge.getPage, {}, { limit: 300 })).toHaveLength(300);
    expect(huge.asked).toEqual(['1', '2', '3']);
  });
});
