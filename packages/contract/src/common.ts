import { z } from 'zod';
import { BOUNDS } from './validation.ts';

export const idParamSchema = z.object({ id: z.coerce.number().int().positive() });

export const sortOrderSchema = z.enum(['asc', 'desc']);

/** Paging parameters shared by every list: 1-based page, bounded page size. */
export const pagingQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(BOUNDS.pageSizeMax).default(25),
});

export const okResponseSchema = z.object({ ok: z.literal(true) });
