import {
  AUTH_RETRY_HEADER,
  AUTH_TOKEN_HEADER,
  CSRF_COOKIE,
  CSRF_COOKIE_HOST,
  CSRF_HEADER,
} from '@sf/contract/app-info';
import type { TokenResponse } from '@sf/contract/auth';
import { ApiError } from './api-error.ts';
import { currentLanguage, hasText, translate } from './texts.ts';
import { decodeJwtClaims } from './jwt.ts';
import { notifyError } from './notify.ts';
import { currentAuthToken, currentRefreshToken, sessionStore } from './session.ts';

/**
 * The one place where the app talks HTTP to its API (S10, S11, S17): token header, forgery-protection
 * header, a single shared token refresh with one retry per request, and error toasts.
 */
export const API_BASE = '/api';

type ParamValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, ParamValue | readonly ParamValue[]>;

export type RequestOptions = {
  params?: QueryParams;
  signal?: AbortSignal;
  /** No toast for this call: the caller shows the failure itself (it is still logged). */
  isSilent?: boolean;
  /** Error codes the caller shows in its own form (e.g. the news editor's `version_conflict`): no toast for those. */
  inlineCodes?: readonly string[];
  /** Extra request headers, e.g. the ledger's `Idempotency-Key` (sent again unchanged on the retry after a refresh). */
  headers?: Record<string, string>;
};

type InternalOptions = RequestOptions & {
  method: string;
  body?: unknown;
  /** Sends the current token as this query parameter too, re-read on a retry (S4 user-by-token). */
  tokenParam?: string;
  /** The Accept header; JSON unless a file is wanted. */
  accept?: string;
};

function buildUrl(path: string, params: QueryParams | undefined, tokenParam: string | undefined, token: string | null): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) if (item !== undefined && item !== null && item !== '') search.append(key, String(item));
  }
  if (tokenParam && token) search.set(tokenParam, token);
  const query = search.toString();
  return `${API_BASE}${path.startsWith('/') ? path : `/${path}`}${query ? `?${query}` : ''}`;
}

function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

let csrfPriming: Promise<void> | null = null;

/** Over https the cookie carries the `__Host-` prefix; on plain http://localhost it cannot. */
function readCsrfCookie(): string | null {
  return readCookie(CSRF_COOKIE_HOST) ?? readCookie(CSRF_COOKIE);
}

/** S17: the API sets the cookie on its answers; without one yet, a cheap GET fetches it first. */
async function csrfToken(): Promise<string | null> {
  const existing = readCsrfCookie();
  if (existing) return existing;
  csrfPriming ??= fetch(`${API_BASE}/healthz`, { credentials: 'same-origin' })
    .then(() => undefined, () => undefined)
    .finally(() => {
      csrfPriming = null;
    });
  await csrfPriming;
  return readCsrfCookie();
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** Identity endpoints answer 401/403 about the credentials they were given, not about an expired token. */
function isAuthEndpoint(path: string): boolean {
  return path === '/auth' || path.startsWith('/auth/') || path.startsWith('/auth?');
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  if (error && typeof error.code === 'string') {
    return new ApiError({
      status: response.status,
      code: error.code,
      message: typeof error.message === 'string' ? error.message : response.statusText,
      ...(Array.isArray(error.fields) ? { fields: error.fields as { field: string; message: string }[] } : {}),
      ...(typeof error.requestId === 'string' ? { requestId: error.requestId } : {}),
    });
  }
  return new ApiError({ status: response.status, code: `http_${response.status}`, message: response.statusText || `HTTP ${response.status}` });
}

async function send(path: string, options: InternalOptions, isRetry: boolean): Promise<Response> {
  const method = options.method.toUpperCase();
  const token = currentAuthToken();
  const headers = new Headers({ Accept: options.accept ?? 'application/json', 'Accept-Language': currentLanguage() });
  for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
  if (token) headers.set(AUTH_TOKEN_HEADER, token);
  if (isRetry) headers.set(AUTH_RETRY_HEADER, '1');
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) {
    body = options.body;
  } else if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(options.body);
  } else if (options.tokenParam) {
    // S4 names this header for the user-by-token lookup.
    headers.set('Content-Type', 'application/json');
  }
  if (!SAFE_METHODS.has(method)) {
    const csrf = await csrfToken();
    if (csrf) headers.set(CSRF_HEADER, csrf);
  }
  try {
    return await fetch(buildUrl(path, options.params, options.tokenParam, token), {
      method,
      headers,
      credentials: 'same-origin',
      ...(body !== undefined ? { body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError({ status: 0, code: 'network', message: cause instanceof Error ? cause.message : 'Network error' });
  }
}

let refreshing: Promise<void> | null = null;

async function refreshOnce(): Promise<void> {
  const refreshToken = currentRefreshToken();
  if (!refreshToken) throw new ApiError({ status: 401, code: 'invalid_grant', message: 'No refresh token' });
  const response = await send('/auth/token', { method: 'POST', body: { grant_type: 'refresh_token', refresh_token: refreshToken } }, false);
  if (!response.ok) throw await toApiError(response);
  const answer = (await response.json().catch(() => null)) as Partial<TokenResponse> | null;
  // Checked by hand rather than with the contract's zod schema: zod would weigh ~40 kB gzip on the sign-in page.
  if (typeof answer?.access_token !== 'string' || typeof answer.refresh_token !== 'string') {
    throw new ApiError({ status: response.status, code: 'invalid_grant', message: 'Malformed token answer' });
  }
  const { access_token: authToken, id_token: idToken, refresh_token: newRefreshToken } = answer;
  const claims = decodeJwtClaims(idToken || authToken) ?? {};
  sessionStore.applyRefresh(
    { authToken, refreshToken: newRefreshToken },
    {
      ...('role' in claims ? { role: (claims.role ?? null) as never } : {}),
      ...(typeof claims.email === 'string' ? { email: claims.email } : {}),
      ...(typeof claims.name === 'string' ? { displayName: claims.name } : {}),
    },
  );
}

/**
 * S10: every request that fails with 401/403 while a refresh is running waits for that same refresh;
 * a failed refresh signs the user out once, with one "session expired" toast.
 */
export function refreshSession(): Promise<void> {
  refreshing ??= refreshOnce()
    .catch((error: unknown) => {
      console.error('Token refresh failed', error);
      if (sessionStore.getState().status !== 'signed-out') {
        sessionStore.signOut('expired');
        notifyError(translate('common:errors.sessionExpired'));
      }
      throw error;
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/**
 * Failures the app words itself, because it acts on them (a session to renew, a page to reload, a
 * server that did not answer or failed): the server's text would not say what to do here.
 */
const APP_WORDED_CODES = new Set(['network', 'unauthenticated', 'token_expired', 'invalid_token', 'invalid_grant', 'csrf', 'rate_limited', 'internal', 'unavailable']);

/**
 * A meaningful, translated text for any failure (S11), for toasts and inline alerts alike. A refusal
 * is worded once, by the API, in the reader's language (Accept-Language; issue 26): the app shows the
 * server's text and keeps its own only for the failures above and for answers without a text.
 */
export function describeApiError(error: unknown): string {
  if (!(error instanceof ApiError)) return translate('common:errors.internal');
  const key = `common:errors.${error.code}`;
  if (APP_WORDED_CODES.has(error.code) && hasText(key)) return translate(key);
  // An answer that was not the API's JSON (a proxy's page) carries only its status line. A 5xx with a
  // code of its own says what failed ("Il server di posta non risponde…"): shown, not a generic text.
  if (error.message && !error.code.startsWith('http_')) return error.message;
  if (hasText(key)) return translate(key);
  if (error.status >= 500) return translate('common:errors.internal');
  return translate('common:errors.unknown', { status: error.status });
}

/**
 * S11: the caller still gets the error; forms show `validation`/`conflict` inline, and the codes the
 * call names in `inlineCodes`; everything else is a toast.
 */
function report(error: ApiError, options: InternalOptions): void {
  const isInline =
    (error.status === 400 && error.code === 'validation') ||
    (error.status === 409 && (error.code === 'conflict' || error.code === 'already_used')) ||
    (options.inlineCodes?.includes(error.code) ?? false);
  if (isInline) return;
  console.error(`API ${options.method} failed`, error);
  if (!options.isSilent) notifyError(describeApiError(error));
}

/** Sends with the S10 refresh and S11 reporting; resolves with the successful response itself. */
async function exchange(path: string, options: InternalOptions): Promise<Response> {
  let response: Response;
  try {
    response = await send(path, options, false);
    // The token is bound to the session: a refusal comes with a fresh cookie bound to this one (e.g.
    // after a sign-in in another tab), so the request is sent once more with it.
    if (response.status === 403 && !SAFE_METHODS.has(options.method.toUpperCase())) {
      const refusal = await toApiError(response.clone());
      if (refusal.code === 'csrf') response = await send(path, options, false);
    }
    const isRefreshable = (response.status === 401 || response.status === 403) && !isAuthEndpoint(path);
    if (isRefreshable) {
      const original = await toApiError(response);
      // A forgery-protection refusal is not about the token; a new token would not help.
      if (original.code === 'csrf') throw original;
      try {
        await refreshSession();
      } catch {
        throw original;
      }
      response = await send(path, options, true);
    }
    if (!response.ok) throw await toApiError(response);
  } catch (error) {
    if (error instanceof ApiError) {
      // A refresh failure was already reported as "session expired".
      if (!((error.status === 401 || error.status === 403) && sessionStore.getState().status === 'signed-out' && !isAuthEndpoint(path))) {
        report(error, options);
      }
    }
    throw error;
  }
  return response;
}

async function request<T>(path: string, options: InternalOptions): Promise<T> {
  const response = await exchange(path, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const apiClient = {
  get<T>(path: string, options: RequestOptions & { tokenParam?: string } = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'GET' });
  },
  post<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'POST', body });
  },
  patch<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'PATCH', body });
  },
  put<T>(path: string, body: unknown, options: RequestOptions = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'PUT', body });
  },
  delete<T>(path: string, options: RequestOptions = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'DELETE' });
  },
  upload<T>(path: string, formData: FormData, options: RequestOptions = {}): Promise<T> {
    return request<T>(path, { ...options, method: 'POST', body: formData });
  },
  /**
   * The successful response itself (token, refresh and error handling as any call), for what is not
   * JSON: `lib/download.ts` reads files through it.
   */
  raw(path: string, options: RequestOptions & { accept?: string } = {}): Promise<Response> {
    return exchange(path, { ...options, method: 'GET' });
  },
};
