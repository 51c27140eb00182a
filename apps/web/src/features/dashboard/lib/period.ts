/** The dashboard's period presets and their URL form (`?period=7d`, or `?from=…&to=…` for a custom range). */
export const PERIOD_PRESETS = ['today', '7d', '30d', 'month', 'year'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];
export type PeriodChoice = PeriodPreset | 'custom';

export type DashboardFilters = {
  period: PeriodChoice;
  from: string;
  to: string;
  programId: string | undefined;
  merchantId: string | undefined;
};

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A record's id as the API writes it: read from the URL here, told from a person-readable number by Ultime modifiche. */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const pad = (value: number) => String(value).padStart(2, '0');
function dayOf(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return dayOf(new Date(y, m - 1, d + days));
}

/** The days a preset covers, up to today. */
export function presetRange(preset: PeriodPreset, today: string): { from: string; to: string } {
  switch (preset) {
    case 'today':
      return { from: today, to: today };
    case '7d':
      return { from: addDays(today, -6), to: today };
    case '30d':
      return { from: addDays(today, -29), to: today };
    case 'month':
      return { from: `${today.slice(0, 7)}-01`, to: today };
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}

/** Reads the filters from the URL; anything hand-edited and invalid falls back to the default. */
export function readFilters(search: URLSearchParams, today: string): DashboardFilters {
  const programId = search.get('programId') ?? '';
  const merchantId = search.get('merchantId') ?? '';
  const ids = { programId: UUID_RE.test(programId) ? programId : undefined, merchantId: UUID_RE.test(merchantId) ? merchantId : undefined };
  const from = search.get('from') ?? '';
  const to = search.get('to') ?? '';
  if (DAY_RE.test(from) && DAY_RE.test(to) && from <= to) return { period: 'custom', from, to, ...ids };
  const period = search.get('period');
  const preset = (PERIOD_PRESETS as readonly string[]).includes(period ?? '') ? (period as PeriodPreset) : '30d';
  return { period: preset, ...presetRange(preset, today), ...ids };
}

/** Writes the filters: a preset by name (the link stays "the last 7 days" tomorrow), a custom range by its days. */
export function writeFilters(search: URLSearchParams, filters: DashboardFilters): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const key of ['period', 'from', 'to', 'programId', 'merchantId']) next.delete(key);
  if (filters.period === 'custom') {
    next.set('from', filters.from);
    next.set('to', filters.to);
  } else if (filters.period !== '30d') {
    next.set('period', filters.period);
  }
  if (filters.programId) next.set('programId', filters.programId);
  if (filters.merchantId) next.set('merchantId', filters.merchantId);
  return next;
}
