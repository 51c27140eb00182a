import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

// PLACEHOLDER — being written now; replaced before the first commit.
export const authRoutes: FastifyPluginAsyncZod = async () => {};
