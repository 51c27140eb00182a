/**
 * What a form held when the session ended by force (a refused token refresh, S10): kept in this tab's
 * `sessionStorage` under the user's uid and the page address, so that signing in again as the same
 * user and coming back to the same page puts it back. Nothing outlives the tab, another user never
 * gets it, it is removed once offered or after KEPT_EDITS_LIFETIME_MS, and passwords and secrets are
 * never written (`withoutSecrets`).
 */

const KEY_PREFIX = 'sf-kept-edits:';

/** Long enough to sign in again or ask an admin to re-enable the account; short enough not to linger. */
export const KEPT_EDITS_LIFETIME_MS = 30 * 60 * 1000;

type KeptEntry = { keptAt: number; forms: Record<string, unknown> };

/** Field names that hold a password, a secret or a token: never written to storage, whatever the form. */
const SECRET_FIELD = /password|secret|token|apikey/i;

export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !SECRET_FIELD.test(name))
      .map(([name, field]) => [name, withoutSecrets(field)]),
  );
}

const keyOf = (uid: string, address: string) => `${KEY_PREFIX}${uid}:${address}`;

/** Writes the values of the forms with edits at `address` for `uid` (form name → values). */
export function keepEdits(uid: string, address: string, forms: Record<string, unknown>, now: number = Date.now()): void {
  if (Object.keys(forms).length === 0) return;
  const entry: KeptEntry = { keptAt: now, forms: withoutSecrets(forms) as Record<string, unknown> };
  try {
    sessionStorage.setItem(keyOf(uid, address), JSON.stringify(entry));
  } catch {
    // Storage unavailable or full: the edits are lost as they were before.
  }
}

/** Removes what is past its time or belongs to another user, so that nothing waits there for the next one. */
function dropStale(uid: string, now: number): void {
  const ownPrefix = `${KEY_PREFIX}${uid}:`;
  for (const key of Object.keys(sessionStorage)) {
    if (!key.startsWith(KEY_PREFIX)) continue;
    const entry = readEntry(key);
    if (!key.startsWith(ownPrefix) || !entry || now - entry.keptAt > KEPT_EDITS_LIFETIME_MS || now < entry.keptAt) sessionStorage.removeItem(key);
  }
}

function readEntry(key: string): KeptEntry | null {
  try {
    const parsed = JSON.parse(sessionStorage.getItem(key) ?? 'null') as Partial<KeptEntry> | null;
    return typeof parsed?.keptAt === 'number' && parsed.forms && typeof parsed.forms === 'object' ? (parsed as KeptEntry) : null;
  } catch {
    return null;
  }
}

/** The kept values of form `name` at `address` for `uid`, removed as they are handed out; undefined when none. */
export function takeKeptEdits(uid: string, address: string, name: string, now: number = Date.now()): unknown {
  try {
    dropStale(uid, now);
    const key = keyOf(uid, address);
    const entry = readEntry(key);
    if (!entry || !(name in entry.forms)) return undefined;
    const { [name]: values, ...others } = entry.forms;
    if (Object.keys(others).length === 0) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify({ ...entry, forms: others }));
    return values;
  } catch {
    return undefined;
  }
}
