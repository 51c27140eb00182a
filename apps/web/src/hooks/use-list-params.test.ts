import { act, render, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useDrawerParam } from './use-drawer-param.ts';
import { listDefaults, parseListParams, toApiQuery, useListParams, writeListParams } from './use-list-params.ts';

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

describe('writes to the URL before the page renders again', () => {
  /** A list's filter row and its page, each with its own hook, and a drawer of the same page. */
  function renderListPage(route: string) {
    const hooks = {} as { filters: ReturnType<typeof useListParams<typeof schema>>; page: ReturnType<typeof useListParams<typeof schema>>; drawer: ReturnType<typeof useDrawerParam> };
    function Page() {
      hooks.filters = useListParams(schema);
      hooks.page = useListParams(schema);
      hooks.drawer = useDrawerParam('customer');
      return null;
    }
    const router = createMemoryRouter([{ path: '*', element: createElement(Page) }], { initialEntries: [route] });
    render(createElement(RouterProvider, { router }));
    return { hooks, search: () => new URLSearchParams(router.state.location.search) };
  }

  it('keeps every one of them: two filters from two components, then a drawer, none lost to the last', async () => {
    const { hooks, search } = renderListPage('/customers?page=3&sort=name');
    act(() => {
      hooks.filters.update({ status: 'active' });
      hooks.page.update({ q: 'rossi' });
      hooks.drawer.open('new');
    });
    await waitFor(() => expect(Object.fromEntries(search())).toEqual({ sort: 'name', status: 'active', q: 'rossi', customer: 'new' }));
    // Once rendered, a write starts from the address again: closing the drawer keeps the filters.
    act(() => hooks.drawer.close());
    await waitFor(() => expect(Object.fromEntries(search())).toEqual({ sort: 'name', status: 'active', q: 'rossi' }));
  });
});
