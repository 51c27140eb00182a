import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { changeLanguage } from '../../../lib/i18n.ts';
import { toastModule } from '../../../lib/notify.ts';
import { server } from '../../../testing/msw-server.ts';
import { queryClientProbe } from '../../../testing/query-client-probe.tsx';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { newsPage, newsPost, setCsrfCookie } from '../testing/news-fixtures.ts';
import { newsKeys } from '../api/get-news-posts.ts';
import { NewsPage } from './news-page.tsx';

const editor = { uid: 'u-editor', role: 'editor' as const, displayName: 'Eddie Editor', email: 'editor@demo.test' };

beforeEach(() => {
  setCsrfCookie();
  server.use(http.get('/api/admin/news', () => HttpResponse.json(newsPage([]))));
});

async function openDrawer(name: RegExp | string) {
  const drawer = await screen.findByRole('dialog', { name });
  // The form (with the rich-text editor) is a lazy chunk: wait until it has arrived.
  await within(drawer).findByRole('textbox', { name: /Titolo|Title/ }, { timeout: 10_000 });
  return drawer;
}

// Typing into a form with a rich-text editor is slow in jsdom, more so on a shared CI machine.
describe('News editor', { timeout: 20_000 }, () => {
  it('opens with the focus on the title, not on the ✕ (the form arrives after the drawer)', async () => {
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    const drawer = await openDrawer('Nuovo post');
    const title = within(drawer).getByRole('textbox', { name: /Titolo/ });
    await waitFor(() => expect(document.activeElement).toBe(title));
  });

  it('shows the S12 validation texts in Italian as the user types and on submit', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    const drawer = await openDrawer('Nuovo post');
    const title = within(drawer).getByRole('textbox', { name: /Titolo/ });

    await user.type(title, 'ab');
    await user.tab();
    expect(await within(drawer).findByText('La lunghezza minima di Titolo è 3')).toBeInTheDocument();

    await user.clear(title);
    await user.click(within(drawer).getByRole('button', { name: 'Salva bozza' }));
    expect(await within(drawer).findByText('Titolo è obbligatorio')).toBeInTheDocument();
    expect(title).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the same validation texts in English', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor, language: 'en' });
    const drawer = await openDrawer('New post');
    const title = within(drawer).getByRole('textbox', { name: /Title/ });

    await user.type(title, 'ab');
    await user.tab();
    expect(await within(drawer).findByText('Title minimum length is 3')).toBeInTheDocument();

    await user.clear(title);
    await user.click(within(drawer).getByRole('button', { name: 'Save draft' }));
    expect(await within(drawer).findByText('Title is required')).toBeInTheDocument();
  });

  it('switches the validation texts already on screen when the language changes', async () => {
    const user = userEvent.setup();
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    const drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'ab');
    await user.tab();
    expect(await within(drawer).findByText('La lunghezza minima di Titolo è 3')).toBeInTheDocument();

    await act(() => changeLanguage('en'));
    expect(await within(drawer).findByText('Title minimum length is 3')).toBeInTheDocument();
  });

  it('asks for confirmation before publishing and publishes only once confirmed', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/admin/news', async ({ request }) => {
        const body = await request.json();
        bodies.push(body);
        return HttpResponse.json(newsPost({ id: 41, title: 'Aperitivo gratis', status: 'published', publishAt: '2026-11-21T17:00:00.000Z', version: 1 }), { status: 201 });
      }),
      http.get('/api/admin/news/41', () => HttpResponse.json(newsPost({ id: 41, title: 'Aperitivo gratis', status: 'published', version: 1 }))),
    );
    const { router } = renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    const drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Aperitivo gratis');

    await user.click(within(drawer).getByRole('button', { name: 'Pubblica' }));
    const confirmDialog = await screen.findByRole('dialog', { name: 'Pubblicare questo post?' });
    expect(bodies).toHaveLength(0);

    // Cancelling sends nothing.
    await user.click(within(confirmDialog).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pubblicare questo post?' })).not.toBeInTheDocument());
    expect(bodies).toHaveLength(0);

    await user.click(within(drawer).getByRole('button', { name: 'Pubblica' }));
    const again = await screen.findByRole('dialog', { name: 'Pubblicare questo post?' });
    await user.click(within(again).getByRole('button', { name: 'Pubblica' }));

    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ title: 'Aperitivo gratis', status: 'published', publishAt: null, audience: 'everyone', pinned: false });
    // The drawer stays on the new post, addressed by its id.
    await waitFor(() => expect(router.state.location.search).toBe('?post=41'));
  });

  it('schedules a post at the chosen wall-clock time of the user\'s time zone', async () => {
    const user = userEvent.setup();
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/admin/news', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json(newsPost({ id: 42, status: 'scheduled', publishAt: '2099-01-10T08:00:00.000Z', version: 1 }), { status: 201 });
      }),
      http.get('/api/admin/news/42', () => HttpResponse.json(newsPost({ id: 42, status: 'scheduled', publishAt: '2099-01-10T08:00:00.000Z', version: 1 }))),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: { ...editor, timeZone: 'Europe/Rome' } });
    const drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Festa di capodanno');
    await user.click(within(drawer).getByRole('radio', { name: 'Programma per' }));
    expect(within(drawer).getByText('Fuso orario: Europe/Rome')).toBeInTheDocument();
    expect(await within(drawer).findByRole('button', { name: /Pubblica il/ })).toBeInTheDocument();

    // Tested at the form-model level too (news-form.test.ts); here the wall clock is the picker's default: the next hour.
    await user.click(within(drawer).getByRole('button', { name: 'Programma' }));
    const confirmDialog = await screen.findByRole('dialog', { name: 'Programmare questo post?' });
    await user.click(within(confirmDialog).getByRole('button', { name: 'Programma' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ status: 'scheduled' });
    const at = Date.parse(String(bodies[0]!.publishAt));
    expect(at).toBeGreaterThan(Date.now());
    expect(at - Date.now()).toBeLessThanOrEqual(60 * 60 * 1000);
  });

  it('creates one post when "Programma" and its confirmation are double-clicked', async () => {
    const user = userEvent.setup();
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/admin/news', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        await new Promise((resolve) => setTimeout(resolve, 50));
        return HttpResponse.json(newsPost({ id: 43, status: 'scheduled', publishAt: '2099-01-10T08:00:00.000Z', version: 1 }), { status: 201 });
      }),
      http.get('/api/admin/news/43', () => HttpResponse.json(newsPost({ id: 43, status: 'scheduled', publishAt: '2099-01-10T08:00:00.000Z', version: 1 }))),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: { ...editor, timeZone: 'Europe/Rome' } });
    const drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Doppio clic');
    await user.click(within(drawer).getByRole('radio', { name: 'Programma per' }));
    await user.dblClick(within(drawer).getByRole('button', { name: 'Programma' }));
    const confirmDialogs = await screen.findAllByRole('dialog', { name: 'Programmare questo post?' });
    expect(confirmDialogs).toHaveLength(1);
    await user.dblClick(within(confirmDialogs[0]!).getByRole('button', { name: 'Programma' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bodies).toHaveLength(1);
    expect(screen.queryByRole('dialog', { name: 'Programmare questo post?' })).toBeNull();
  });

  it('warns before closing the editor with unsaved changes, and closes without asking when nothing changed', async () => {
    const user = userEvent.setup();
    const { router } = renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    let drawer = await openDrawer('Nuovo post');

    await user.click(within(drawer).getByRole('button', { name: "Chiudi l'editor" }));
    await waitFor(() => expect(router.state.location.search).toBe(''));

    await router.navigate('/news?post=new');
    drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Bozza importante');
    await user.keyboard('{Escape}');
    const warning = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(warning).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Scartare le modifiche?' })).not.toBeInTheDocument());
    expect(router.state.location.search).toBe('?post=new');
    expect(within(drawer).getByRole('textbox', { name: /Titolo/ })).toHaveValue('Bozza importante');

    await user.click(within(drawer).getByRole('button', { name: "Chiudi l'editor" }));
    const again = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    await user.click(within(again).getByRole('button', { name: 'Scarta le modifiche' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('asks before the back button throws away unsaved changes', async () => {
    const user = userEvent.setup();
    const { router } = renderWithProviders(<NewsPage />, { route: '/news', user: editor });
    await router.navigate('/news?post=new', { state: { isEditorPushed: true } });
    const drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Da non perdere');

    void router.navigate(-1);
    const warning = await screen.findByRole('dialog', { name: 'Scartare le modifiche?' });
    expect(router.state.location.search).toBe('?post=new');
    await user.click(within(warning).getByRole('button', { name: 'Scarta le modifiche' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('shows one clear message, in the form, when someone else changed the post meanwhile (409), and reloads it keeping the changes typed', async () => {
    const user = userEvent.setup();
    const { notifications } = await toastModule();
    const show = vi.spyOn(notifications, 'show').mockImplementation(() => 'toast');
    onTestFinished(() => show.mockRestore());
    let current = newsPost({ version: 3 });
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get('/api/admin/news/7', () => HttpResponse.json(current)),
      http.get('/api/admin/news/7/history', () => HttpResponse.json({ items: [] })),
      // The API's own answer to a stale version (every module's).
      http.patch('/api/admin/news/7', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        if (body.version !== current.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo', requestId: 'r1' } }, { status: 409 });
        }
        current = { ...current, ...(body as Partial<typeof current>), version: current.version + 1 };
        return HttpResponse.json(current);
      }),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=7', user: editor });
    const drawer = await openDrawer('Modifica post');
    const title = await within(drawer).findByRole('textbox', { name: /Titolo/ });
    await user.clear(title);
    await user.type(title, 'Colazione gratis');
    current = newsPost({ version: 4, title: 'Colazione a 2 euro', summary: 'Solo il lunedì' });

    await user.click(within(drawer).getByRole('button', { name: 'Salva bozza' }));
    const alert = await within(drawer).findByRole('alert', { name: 'Modifica in conflitto' });
    expect(alert).toHaveTextContent('Qualcun altro ha modificato questo dato nel frattempo');
    expect(title).toHaveValue('Colazione gratis');
    // The form says it; a toast saying it again (in other words) would be noise. Toasts are raised a
    // microtask later (notify.ts): give a stray one the chance to appear.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(show).not.toHaveBeenCalled();

    await user.click(within(alert).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));
    const reloaded = await within(drawer).findByRole('status', { name: 'Dati ricaricati, con le tue modifiche riapplicate' });
    expect(reloaded).toHaveTextContent("resta il tuo valore (l'altra persona aveva scritto «Colazione a 2 euro»)");
    expect(reloaded).toHaveTextContent('ora «Solo il lunedì»');
    expect(title).toHaveValue('Colazione gratis');
    expect(within(drawer).queryByRole('alert', { name: 'Modifica in conflitto' })).not.toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Salva bozza' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toMatchObject({ title: 'Colazione gratis', version: 4 });
    expect(patches[1]).not.toHaveProperty('summary');
  });

  it('puts the server\'s field errors on the fields', async () => {
    const user = userEvent.setup();
    server.use(
      http.post('/api/admin/news', () =>
        HttpResponse.json(
          { error: { code: 'validation', message: 'Invalid', fields: [{ field: 'title', message: 'Titolo non è valido' }], requestId: 'r2' } },
          { status: 400 },
        ),
      ),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    const drawer = await openDrawer('Nuovo post');
    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Titolo strano');
    await user.click(within(drawer).getByRole('button', { name: 'Salva bozza' }));
    expect(await within(drawer).findByText('Titolo non è valido')).toBeInTheDocument();
  });

  it('uploads a cover as soon as it is picked, previews it and saves its id with the post', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const uploads: string[] = [];
    const bodies: Record<string, unknown>[] = [];
    server.use(
      http.post('/api/admin/news/cover', async ({ request }) => {
        // Read as text: jsdom's File and Node's multipart parser do not agree on what a File is.
        expect(request.headers.get('content-type')).toMatch(/^multipart\/form-data/);
        const raw = await request.text();
        // jsdom's File loses its name and bytes on the way through Node's fetch, so only the part is checked here.
        uploads.push(/name="file"/.test(raw) ? 'file part' : 'none');
        return HttpResponse.json({ id: 'cover-1', url: '/uploads/cover-1.png' }, { status: 201 });
      }),
      http.post('/api/admin/news', async ({ request }) => {
        bodies.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json(newsPost({ id: 43, coverImageUrl: '/uploads/cover-1.png', version: 1 }), { status: 201 });
      }),
      http.get('/api/admin/news/43', () => HttpResponse.json(newsPost({ id: 43, coverImageUrl: '/uploads/cover-1.png', version: 1 }))),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor });
    const drawer = await openDrawer('Nuovo post');
    const fileInput = () => drawer.querySelector<HTMLInputElement>('input[type="file"]')!;

    // Refused in the browser, before any upload: wrong type, then too large.
    await user.upload(fileInput(), new File(['%PDF'], 'volantino.pdf', { type: 'application/pdf' }));
    expect(await within(drawer).findByText(/Immagine di copertina non è valida/)).toBeInTheDocument();
    await user.upload(fileInput(), new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'enorme.png', { type: 'image/png' }));
    expect(await within(drawer).findByText(/Immagine di copertina è troppo grande/)).toBeInTheDocument();
    expect(uploads).toEqual([]);

    await user.upload(fileInput(), new File(['png-bytes'], 'copertina.png', { type: 'image/png' }));
    expect(await within(drawer).findByRole('img', { name: 'Immagine di copertina del post' })).toHaveAttribute('src', '/uploads/cover-1.png');
    expect(uploads).toEqual(['file part']);

    await user.type(within(drawer).getByRole('textbox', { name: /Titolo/ }), 'Con foto');
    await user.click(within(drawer).getByRole('button', { name: 'Salva bozza' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ title: 'Con foto', coverImageId: 'cover-1', status: 'draft' });
  });

  it('asks before unpublishing or archiving a published post and sends the action with its version', async () => {
    const user = userEvent.setup();
    const actions: unknown[] = [];
    let current = newsPost({ status: 'published', publishAt: '2026-11-20T10:00:00.000Z', version: 6 });
    server.use(
      http.get('/api/admin/news/7', () => HttpResponse.json(current)),
      http.post('/api/admin/news/7/actions', async ({ request }) => {
        const body = (await request.json()) as { action: string; version: number };
        actions.push(body);
        current = newsPost({ status: body.action === 'archive' ? 'archived' : 'draft', version: 7 });
        return HttpResponse.json(current);
      }),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=7', user: editor });
    const drawer = await openDrawer('Modifica post');
    await user.click(await within(drawer).findByRole('button', { name: 'Archivia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Archiviare questo post?' });
    await user.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Archiviare questo post?' })).not.toBeInTheDocument());
    expect(actions).toEqual([]);

    await user.click(within(drawer).getByRole('button', { name: 'Ritira' }));
    const unpublish = await screen.findByRole('dialog', { name: 'Ritirare questo post?' });
    await user.click(within(unpublish).getByRole('button', { name: 'Ritira' }));
    await waitFor(() => expect(actions).toEqual([{ action: 'unpublish', version: 6 }]));
    expect(await within(drawer).findByText('Bozza')).toBeInTheDocument();
  });

  it('shows who changed the post and when in the History tab', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('/api/admin/news/7', () => HttpResponse.json(newsPost())),
      http.get('/api/admin/news/7/history', () =>
        HttpResponse.json({
          items: [
            { id: 3, at: '2026-11-21T09:15:00.000Z', actorId: 'u-editor', actorEmail: 'editor@demo.test', action: 'news.update', entityType: 'news_post', entityId: '7', before: {}, after: {}, requestId: 'r3' },
            { id: 2, at: '2026-11-20T09:00:00.000Z', actorId: 'u-admin', actorEmail: 'admin@demo.test', action: 'news.create', entityType: 'news_post', entityId: '7', before: null, after: {}, requestId: 'r2' },
          ],
        }),
      ),
    );
    renderWithProviders(<NewsPage />, { route: '/news?post=7', user: editor });
    const drawer = await openDrawer('Modifica post');
    await user.click(await within(drawer).findByRole('tab', { name: 'Cronologia' }));
    expect(await within(drawer).findByText('Modificato')).toBeInTheDocument();
    expect(within(drawer).getByText('editor@demo.test')).toBeInTheDocument();
    expect(within(drawer).getByText('21/11/2026, 10:15')).toBeInTheDocument();
    expect(within(drawer).getByText('Creato')).toBeInTheDocument();
  });

  it('labels every toolbar button of the text editor', async () => {
    renderWithProviders(<NewsPage />, { route: '/news?post=new', user: editor, language: 'en' });
    const drawer = await openDrawer('New post');
    for (const name of ['Bold', 'Italic', 'Underline', 'Heading', 'Subheading', 'Bulleted list', 'Numbered list', 'Quote', 'Insert link', 'Remove link', 'Undo', 'Redo']) {
      expect(within(drawer).getByRole('button', { name })).toBeInTheDocument();
    }
    expect(within(drawer).getByRole('textbox', { name: 'Text' })).toBeInTheDocument();
  });

  it('titles the drawer of a post that is not there by the entity alone, not "Modifica post"', async () => {
    server.use(http.get('/api/admin/news/999', () => HttpResponse.json({ error: { code: 'not_found', message: 'Post richiesto non trovato', requestId: 'r' } }, { status: 404 })));
    renderWithProviders(<NewsPage />, { route: '/news?post=999', user: editor });
    const drawer = await screen.findByRole('dialog', { name: 'Post' });
    expect(await within(drawer).findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Modifica post' })).toBeNull();
  });

  it('says in words that there is no such post, and a failed server as such, not as a missing post', async () => {
    let serverFailures = 0;
    server.use(
      http.get('/api/admin/news/999', () => HttpResponse.json({ error: { code: 'not_found', message: 'Post richiesto non trovato', requestId: 'r' } }, { status: 404 })),
      http.get('/api/admin/news/998', () => {
        serverFailures += 1;
        return HttpResponse.json({ error: { code: 'internal', message: 'Errore interno', requestId: 'r' } }, { status: 500 });
      }),
    );
    const { router } = renderWithProviders(<NewsPage />, { route: '/news?post=999', user: editor });
    const drawer = await screen.findByRole('dialog', { name: 'Post' });
    expect(await within(drawer).findByRole('alert')).toHaveTextContent("Post non trovatoNessun post a questo indirizzo: il link è sbagliato o il post non c'è più.");
    await act(() => router.navigate('/news?post=998'));
    expect(await within(drawer).findByText('Si è verificato un errore sul server. Riprova più tardi.', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(within(drawer).queryByText(/non trovato/)).toBeNull();
    // A 5xx is tried again (lib/query-client.ts) before it shows: three tries in all.
    expect(serverFailures).toBe(3);
  });
});

describe('News editor, when a refetch fails', { timeout: 20_000 }, () => {
  it('keeps the post and the title being typed, and says the latest version could not be loaded, in English too', async () => {
    const user = userEvent.setup();
    let isFailing = false;
    server.use(
      http.get('/api/admin/news/7', () =>
        isFailing ? HttpResponse.json({ error: { code: 'internal', message: 'Errore interno', requestId: 'r' } }, { status: 500 }) : HttpResponse.json(newsPost({ version: 3 })),
      ),
      http.get('/api/admin/news/7/history', () => HttpResponse.json({ items: [] })),
    );
    const probe = queryClientProbe();
    renderWithProviders(
      <>
        <NewsPage />
        <probe.Probe />
      </>,
      { route: '/news?post=7', user: editor, language: 'en' },
    );
    const drawer = await openDrawer('Edit post');
    const title = within(drawer).getByRole('textbox', { name: /Title/ });
    await user.clear(title);
    await user.type(title, 'Free breakfast');

    isFailing = true;
    // A 5xx is tried again (lib/query-client.ts) before it shows.
    await probe.refetch(newsKeys.post(7));

    const notice = await within(drawer).findByRole('status', {}, { timeout: 10_000 });
    expect(notice).toHaveTextContent("Couldn't load the latest data");
    expect(notice).toHaveTextContent('Something went wrong on the server. Please try again later.');
    expect(within(drawer).getByRole('textbox', { name: /Title/ })).toHaveValue('Free breakfast');
    expect(screen.getByRole('dialog', { name: 'Edit post' })).toBe(drawer);
  });
});
