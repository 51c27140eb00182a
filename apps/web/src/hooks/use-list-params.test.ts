import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listDefaults, parseListParams, toApiQuery, writeListParams } from './use-list-params.ts';

const schema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(25),
  sort: z.enum(['name', 'createdAt']).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  q: z.string().trim().max(20).optional(),
  status: z.enum(['active', 'blocked']).optional(),
});

describe('list parameters in the URL', () => {
  it('reads every field through the schema and falls back field by field on a bad value', () => {
    const params = parseListParams(schema, new URLSearchParams('page=3&pageSize=500&sort=name&order=sideways&q=%20rossi%20&status=gone'));
    expect(params).toEqual({ page: 3, pageSize: 25, sort: 'name', order: 'desc', q: 'rossi' });
  });

  it('writes only what differs from the defaults and keeps parameters that are not the list’s', () => {
    const next = writeListParams(schema, new URLSearchParams('post=7&page=4'), { ...listDefaults(schema), sort: 'name', status: 'active' });
    expect(next.toString()).toBe('post=7&sort=name&status=active');
  });

  it('sends every value to the API, defaults included, and can leave paging out for an export', () => {
    const params = { ...listDefaults(schema), q: 'rossi' };
    expect(toApiQuery(params)).toEqual({ page: '1', pageSize: '25', sort: 'createdAt', order: 'desc', q: 'rossi' });
    expect(toApiQuery(params, { isPagingLeftOut: true })).toEqual({ sort: 'createdAt', order: 'desc', q: 'rossi' });
  });
});
