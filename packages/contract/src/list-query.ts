import { z } from 'zod';
import { BOUNDS } from './validation.ts';
import { pagingQuerySchema, sortOrderSchema } from './common.ts';

/**
 * The list parameters every admin list shares (docs/product.md F): `page`, `pageSize`, `sort`, `order`,
 * `q`, plus the list's own filters. A new list is a declaration: its sort fields, defaults and filters.
 */
export function listQuerySchema<
  const Sort extends readonly [string, ...string[]],
  Filters extends z.ZodRawShape = Record<never, never>,
>(options: { sort: Sort; defaultSort: Sort[number]; defaultOrder?: 'asc' | 'desc'; filters?: Filters }) {
  return pagingQuerySchema.extend({
    q: z.string().trim().max(BOUNDS.searchMax).optional(),
    sort: z.enum(options.sort).default(options.defaultSort as never) as unknown as z.ZodDefault<
      z.ZodEnum<{ [K in Sort[number]]: K }>
    >,
    order: sortOrderSchema.default(options.defaultOrder ?? 'asc'),
    ...(options.filters ?? ({} as Filters)),
  });
}

/** The export of a list takes the same filters, search and sort, without paging. */
export function exportQuerySchema<Shape extends z.ZodRawShape & { page: z.ZodType; pageSize: z.ZodType }>(
  list: z.ZodObject<Shape>,
) {
  return list.omit({ page: true, pageSize: true } as never) as unknown as z.ZodObject<Omit<Shape, 'page' | 'pageSize'>>;
}

/**
 * A page of a list. `totalIsCapped` is true when the list counts at most a cap (large lists: a count
 * over a million rows would cost more than the page itself); `total` is then "at least".
 */
export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
    totalIsCapped: z.boolean().optional(),
  });
}

/** A yes/no filter in a query string: `true` / `false` (anything else is a 400 naming the field). */
export const queryBooleanSchema = z.enum(['true', 'false']).transform((value) => value === 'true');

/** The uuid path parameter of the loyalty resources. */
export const uuidParamSchema = z.object({ id: z.uuid() });
