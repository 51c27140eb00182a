import { z } from 'zod';
import { auditEntrySchema } from './audit.ts';
import { newsPostSchema } from './news.ts';

export const dashboardSchema = z.object({
  postsByStatus: z.object({
    draft: z.number().int(),
    scheduled: z.number().int(),
    published: z.number().int(),
    archived: z.number().int(),
  }),
  nextScheduled: z.array(newsPostSchema.pick({ id: true, title: true, publishAt: true, author: true })),
  latestChanges: z.array(auditEntrySchema.omit({ before: true, after: true })),
});
export type Dashboard = z.infer<typeof dashboardSchema>;
