import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_STORAGE_KEY } from '@sf/contract/app-info';
import { fakeIdToken, testUser } from '../testing/test-utils.tsx';
import { server } from '../testing/msw-server.ts';
import { apiClient } from './api-client.ts';
import { download, filenameFromDisposition } from './download.ts';
import { ApiError } from './api-error.ts';
import { toastModule } from './notify.ts';
import { readStoredSession, sessionStore, writeStoredSession } from './session.ts';

const oldToken = fakeIdToken({ sub: 'u1', role: 'admin', email: 'admin@demo.test', name: 'Ada' });
const newToken = fakeIdToken({ sub: 'u1', role: 'admin', email: 'admin@demo.test', name: 'Ada', iat: 1 });

function signInAsAdmin(): void {
  const tokens = { authToken: oldToken, refreshToken: 'refresh-old' };
  writeStoredSession(tokens);
  sessionStore.signIn(testUser({ role: 'admin' }), tokens, { isNew: false });
}

function tokenAnswer(idToken: string, refreshToken = 'refresh-new') {
  return HttpResponse.json({ access_token: idToken, id_token: idToken, refresh_token: refreshToken, expires_in: 900, token_type: 'Bearer' });
}

const expired = () => HttpResponse.json({ error: { code: 'token_expired', message: 'expired', requestId: 'r1' } }, { status: 401 });

/** Toasts are raised a microtask later (notify.ts); give any stray one the chance to appear. */
const flushToasts = () => new Promise((resolve) => setTimeout(resolve, 20));

let show: ReturnType<typeof vi.spyOn>;
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  const { notifications } = await toastModule();
  show = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  signInAsAdmin();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('token refresh (S10)', () => {
  it.each([401, 403])('makes exactly one refresh call for five concurrent %i answers and retries each request once with the new token and the marker', async (status) => {
    let refreshCalls = 0;
    const seen: { id: string; token: string | null; retry: string | null }[] = [];
    server.use(
      http.post('/api/auth/token', async ({ request }) => {
        refreshCalls += 1;
        expect(await request.json()).toEqual({ grant_type: 'refresh_token', refresh_token: 'refresh-old' });
        await new Promise((resolve) => setTimeout(resolve, 20));
        return tokenAnswer(newToken);
      }),
      http.get('/api/items/:id', ({ request, params }) => {
        const token = request.headers.get('X-Auth-Token');
        seen.push({ id: String(params.id), token, retry: request.headers.get('X-Auth-Retry') });
        if (token === oldToken) return HttpResponse.json({ error: { code: 'forbidden', message: 'no', requestId: 'r' } }, { status });
        return HttpResponse.json({ id: params.id });
      }),
    );

    const answers = await Promise.all(['1', '2', '3', '4', '5'].map((id) => apiClient.get<{ id: string }>(`/items/${id}`)));

    expect(answers.map((a) => a.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(refreshCalls).toBe(1);
    const retries = seen.filter((s) => s.token === newToken);
    expect(retries).toHaveLength(5);
    expect(retries.every((s) => s.retry === '1')).toBe(true);
    expect(seen.filter((s) => s.token === oldToken).every((s) => s.retry === null)).toBe(true);
    for (const id of ['1', '2', '3', '4', '5']) expect(seen.filter((s) => s.id === id)).toHaveLength(2);
    expect(readStoredSession()).toMatchObject({ authToken: newToken, refreshToken: 'refresh-new' });
    await flushToasts();
    expect(show).not.toHaveBeenCalled();
  });

  it('does not refresh again when the retried request fails again', async () => {
    let refreshCalls = 0;
    let calls = 0;
    server.use(
      http.post('/api/auth/token', () => {
        refreshCalls += 1;
        return tokenAnswer(newToken);
      }),
      http.get('/api/stubborn', () => {
        calls += 1;
        return HttpResponse.json({ error: { code: 'forbidden', message: 'not allowed', requestId: 'r' } }, { status: 403 });
      }),
    );

    await expect(apiClient.get('/stubborn')).rejects.toMatchObject({ status: 403, code: 'forbidden' });

    expect(refreshCalls).toBe(1);
    expect(calls).toBe(2);
    expect(sessionStore.getState().status).toBe('signed-in');
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    expect(consoleError).toHaveBeenCalled();
  });

  it('signs the user out with one "session expired" toast when the refresh fails, and rethrows', async () => {
    server.use(
      http.post('/api/auth/token', () => HttpResponse.json({ error: { code: 'invalid_grant', message: 'revoked', requestId: 'r' } }, { status: 400 })),
      http.get('/api/items/:id', expired),
    );

    const results = await Promise.allSettled([apiClient.get('/items/1'), apiClient.get('/items/2'), apiClient.get('/items/3')]);

    expect(results.every((r) => r.status === 'rejected' && r.reason instanceof ApiError)).toBe(true);
    expect(sessionStore.getState()).toEqual({ status: 'signed-out', reason: 'expired' });
    expect(localStorage.getItem(SESSION_STORAGE_KEY)).toBeNull();
    await vi.waitFor(() => expect(show).toHaveBeenCalledTimes(1));
    await flushToasts();
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]?.[0]).toMatchObject({ message: 'La sessione è scaduta. Accedi di nuovo.' });
  });

  it('applies the role of the new token at once', async () => {
    const demoted = fakeIdToken({ sub: 'u1', role: 'editor', email: 'admin@demo.test', name: 'Ada' });
    server.use(
      http.post('/api/auth/token', () => tokenAnswer(demoted)),
      http.get('/api/thing', ({ request }) => (request.headers.get('X-Auth-Token') === demoted ? HttpResponse.json({ ok: true }) : expired())),
    );

    await apiClient.get('/thing');

    const state = sessionStore.getState();
    expect(state.status === 'signed-in' && state.user.role).toBe('editor');
    expect(state.status === 'signed-in' && state.user.token).toBe(demoted);
  });

  it('never refreshes for an identity endpoint', async () => {
    let refreshCalls = 0;
    server.use(
      http.post('/api/auth/token', () => {
        refreshCalls += 1;
        return tokenAnswer(newToken);
      }),
      http.post('/api/auth/login', () => HttpResponse.json({ error: { code: 'invalid_credentials', message: 'no', requestId: 'r' } }, { status: 401 })),
    );
    document.cookie = 'XSRF-TOKEN=abc; path=/';

    await expect(apiClient.post('/auth/login', { email: 'a@b.it', password: 'x' }, { isSilent: true })).rejects.toMatchObject({ code: 'invalid_credentials' });
    expect(refreshCalls).toBe(0);
  });
});

describe('forgery protection (S17)', () => {
  it('sends the cookie back as X-XSRF-TOKEN on mutating requests only', async () => {
    document.cookie = 'XSRF-TOKEN=cookie-value; path=/';
    const headers: Record<string, string | null> = {};
    const record = (method: string) => ({ request }: { request: Request }) => {
      headers[method] = request.headers.get('X-XSRF-TOKEN');
      return method === 'DELETE' ? new HttpResponse(null, { status: 204 }) : HttpResponse.json({ ok: true });
    };
    server.use(
      http.get('/api/things', record('GET')),
      http.post('/api/things', record('POST')),
      http.patch('/api/things', record('PATCH')),
      http.put('/api/things', record('PUT')),
      http.delete('/api/things', record('DELETE')),
    );

    await apiClient.get('/things');
    await apiClient.post('/things', { a: 1 });
    await apiClient.patch('/things', { a: 1 });
    await apiClient.put('/things', { a: 1 });
    expect(await apiClient.delete('/things')).toBeUndefined();

    expect(headers).toEqual({ GET: null, POST: 'cookie-value', PATCH: 'cookie-value', PUT: 'cookie-value', DELETE: 'cookie-value' });
  });

  it('fetches the cookie with a GET /api/healthz first when there is none yet', async () => {
    const order: string[] = [];
    let received: string | null = null;
    server.use(
      http.get('/api/healthz', () => {
        order.push('healthz');
        document.cookie = 'XSRF-TOKEN=fresh; path=/';
        return HttpResponse.json({ status: 'ok' });
      }),
      http.post('/api/things', ({ request }) => {
        order.push('post');
        received = request.headers.get('X-XSRF-TOKEN');
        return HttpResponse.json({ ok: true });
      }),
    );

    await apiClient.post('/things', {});

    expect(order).toEqual(['healthz', 'post']);
    expect(received).toBe('fresh');
  });

  it('prefers the __Host- cookie, and sends a mutation once more when it was refused with a fresh cookie', async () => {
    document.cookie = '__Host-XSRF-TOKEN=anonymous; path=/; secure';
    const received: (string | null)[] = [];
    server.use(
      http.post('/api/things', ({ request }) => {
        received.push(request.headers.get('X-XSRF-TOKEN'));
        if (received.length === 1) {
          // The server answers an unfitting token with 403 csrf and a cookie bound to the session.
          document.cookie = '__Host-XSRF-TOKEN=bound; path=/; secure';
          return HttpResponse.json({ error: { code: 'csrf', message: 'no', requestId: 'r' } }, { status: 403 });
        }
        return HttpResponse.json({ ok: true });
      }),
    );
    expect(await apiClient.post('/things', {})).toEqual({ ok: true });
    expect(received).toEqual(['anonymous', 'bound']);
    document.cookie = '__Host-XSRF-TOKEN=; path=/; secure; max-age=0';
  });

  it('puts the token header on every call and the query parameters in the URL', async () => {
    let url = '';
    let token: string | null = null;
    server.use(
      http.get('/api/search', ({ request }) => {
        url = request.url;
        token = request.headers.get('X-Auth-Token');
        return HttpResponse.json([]);
      }),
    );

    await apiClient.get('/search', { params: { page: 2, q: 'caffè', empty: '', none: undefined } });

    expect(new URL(url).search).toBe('?page=2&q=caff%C3%A8');
    expect(token).toBe(oldToken);
  });
});

describe('other errors (S11)', () => {
  it('shows a translated toast and logs, then rethrows the ApiError', async () => {
    server.use(http.get('/api/broken', () => HttpResponse.json({ error: { code: 'internal', message: 'boom', requestId: 'req-9' } }, { status: 500 })));

    const error = await apiClient.get('/broken').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, code: 'internal', requestId: 'req-9' });
    await vi.waitFor(() => expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: 'Si è verificato un errore sul server. Riprova più tardi.' })));
    expect(consoleError).toHaveBeenCalled();
  });

  it("shows the server's text for a failure it names (a mail server that does not answer), not a generic one", async () => {
    const text = "Il server di posta non risponde: l'e-mail non è stata inviata. Riprova più tardi";
    server.use(http.get('/api/mail', () => HttpResponse.json({ error: { code: 'mail_unavailable', message: text, requestId: 'r' } }, { status: 503 })));

    await expect(apiClient.get('/mail')).rejects.toMatchObject({ status: 503, code: 'mail_unavailable' });
    await vi.waitFor(() => expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: text })));
  });

  it('rethrows 400 validation and 409 conflict silently for the forms to show', async () => {
    document.cookie = 'XSRF-TOKEN=c; path=/';
    server.use(
      http.post('/api/form', () =>
        HttpResponse.json({ error: { code: 'validation', message: 'bad', fields: [{ field: 'title', message: 'Titolo è obbligatorio' }], requestId: 'r' } }, { status: 400 }),
      ),
      http.patch('/api/form', () => HttpResponse.json({ error: { code: 'conflict', message: 'changed', requestId: 'r' } }, { status: 409 })),
    );

    await expect(apiClient.post('/form', {})).rejects.toMatchObject({ code: 'validation', fields: [{ field: 'title', message: 'Titolo è obbligatorio' }] });
    await expect(apiClient.patch('/form', {})).rejects.toMatchObject({ code: 'conflict' });
    await flushToasts();
    expect(show).not.toHaveBeenCalled();
  });

  it('turns a network failure into an ApiError with code network', async () => {
    server.use(http.get('/api/down', () => HttpResponse.error()));

    await expect(apiClient.get('/down')).rejects.toMatchObject({ status: 0, code: 'network' });
    await vi.waitFor(() => expect(show).toHaveBeenCalledWith(expect.objectContaining({ message: expect.stringContaining('Il server non è raggiungibile') })));
  });
});

describe('downloads (list exports)', () => {
  it('returns the file and the name the server gave it, with the token and the list query', async () => {
    const seen: { token: string | null; url: string }[] = [];
    server.use(
      http.get('/api/admin/customers/export.csv', ({ request }) => {
        seen.push({ token: request.headers.get('X-Auth-Token'), url: request.url });
        return new HttpResponse('\uFEFFNome;Cognome\r\nAda;Rossi\r\n', {
          headers: { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': `attachment; filename="clienti.csv"; filename*=UTF-8''clienti%202026.csv` },
        });
      }),
    );

    const file = await download('/admin/customers/export.csv', { params: { q: 'rossi', status: 'active' } });

    expect(file.filename).toBe('clienti 2026.csv');
    expect(await file.blob.text()).toContain('Ada;Rossi');
    expect(seen).toHaveLength(1);
    expect(seen[0]!.token).toBe(oldToken);
    expect(new URL(seen[0]!.url).search).toBe('?q=rossi&status=active');
  });

  it('refreshes an expired token once and retries the download with the marker', async () => {
    let refreshCalls = 0;
    const retries: (string | null)[] = [];
    server.use(
      http.post('/api/auth/token', () => {
        refreshCalls += 1;
        return tokenAnswer(newToken);
      }),
      http.get('/api/admin/merchants/export.csv', ({ request }) => {
        if (request.headers.get('X-Auth-Token') === oldToken) return expired();
        retries.push(request.headers.get('X-Auth-Retry'));
        return new HttpResponse('a;b\r\n', { headers: { 'Content-Type': 'text/csv' } });
      }),
    );

    const file = await download('/admin/merchants/export.csv');

    expect(refreshCalls).toBe(1);
    expect(retries).toEqual(['1']);
    // Without Content-Disposition the path's last part names the file.
    expect(file.filename).toBe('export.csv');
  });

  it('rejects with the API error and shows a toast when the export fails', async () => {
    server.use(http.get('/api/admin/ledger/export.csv', () => HttpResponse.json({ error: { code: 'internal', message: 'x', requestId: 'r' } }, { status: 500 })));

    await expect(download('/admin/ledger/export.csv')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() => expect(show).toHaveBeenCalled());
  });

  it('reads plain and RFC 5987 file names from Content-Disposition', () => {
    expect(filenameFromDisposition('attachment; filename="movimenti.csv"', 'x.csv')).toBe('movimenti.csv');
    expect(filenameFromDisposition('attachment; filename=esercenti.csv', 'x.csv')).toBe('esercenti.csv');
    expect(filenameFromDisposition("attachment; filename*=UTF-8''caff%C3%A8.csv", 'x.csv')).toBe('caffè.csv');
    expect(filenameFromDisposition(null, 'x.csv')).toBe('x.csv');
  });
});

describe('extra headers', () => {
  it('sends the same Idempotency-Key on the retry after a refresh', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const keys: (string | null)[] = [];
    server.use(
      http.post('/api/auth/token', () => tokenAnswer(newToken)),
      http.post('/api/admin/ledger', ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'));
        if (request.headers.get('X-Auth-Token') === oldToken) return expired();
        return HttpResponse.json({ ok: true }, { status: 201 });
      }),
    );
    await apiClient.post('/admin/ledger', { kind: 'purchase' }, { headers: { 'Idempotency-Key': 'key-12345678' } });
    expect(keys).toEqual(['key-12345678', 'key-12345678']);
  });
});
