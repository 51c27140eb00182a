/** A page of an admin list (docs/product.md F). */
export type ListPage<Item> = { items: Item[]; total: number };

/** The most a list answers per page (packages/contract list-query). */
const LARGEST_PAGE = 100;

/**
 * Every item of a list, page after page, for the choices of a select (merchants of a circuit, programs):
 * a picker that showed only the first 100 would hide the rest. Stops at `limit` items, which the
 * caller picks well above what such a list holds.
 */
export async function fetchAllPages<Item>(
  getPage: (query: Record<string, string>, signal?: AbortSignal) => Promise<ListPage<Item>>,
  query: Record<string, string>,
  options: { signal?: AbortSignal; limit?: number } = {},
): Promise<Item[]> {
  const limit = options.limit ?? 5_000;
  const items: Item[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await getPage({ ...query, page: String(page), pageSize: String(LARGEST_PAGE) }, options.signal);
    items.push(...answer.items);
    if (answer.items.length < LARGEST_PAGE || items.length >= answer.total || items.length >= limit) return items.slice(0, limit);
  }
}
