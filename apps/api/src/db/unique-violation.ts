/**
 * PostgreSQL's unique violation (SQLSTATE 23505), as node-postgres or PGlite raise it, possibly wrapped
 * by Drizzle (`cause`). With `constraint`, only a violation of that index: a twin request that passed
 * the same check at the same time, caught by the index (one copy for every module: issue 26).
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const cause = ((error as { cause?: unknown })?.cause ?? error) as { code?: string; constraint?: string } | undefined;
  if (cause?.code !== '23505') return false;
  // PGlite may not name the constraint; the caller's statement then touched only the one index.
  return constraint === undefined || cause.constraint === undefined || cause.constraint === constraint;
}
