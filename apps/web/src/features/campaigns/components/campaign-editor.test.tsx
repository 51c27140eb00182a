import type { CampaignStatus } from '@sf/contract/campaigns';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import type { Ref } from 'react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { campaign } from '../testing/campaign-fixtures.ts';
import { CampaignEditor } from './campaign-editor.tsx';

const admin = { role: 'admin' as const };
const renderRichText = () => null;

/** The audience answer: three customers without filters, one for the tier "Oro"; records every query. */
function answerAudience() {
  const seen: Record<string, string>[] = [];
  server.use(
    http.get('/api/admin/campaigns/audience', ({ request }) => {
      const query = Object.fromEntries(new URL(request.url).searchParams);
      seen.push(query);
      const people = [
        { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', firstName: 'Anna', lastName: 'Rossi', email: 'anna@example.it' },
        { id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', firstName: 'Bruno', lastName: 'Verdi', email: 'bruno@example.it' },
        { id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', firstName: 'Carla', lastName: 'Bianchi', email: 'carla@example.it' },
      ];
      const reached = query['tier'] === 'Oro' ? people.slice(0, 1) : people;
      return HttpResponse.json({ count: reached.length, sample: reached });
    }),
  );
  return seen;
}

/** Two programs with their tiers' names, as the route composes them from the programs feature. */
const programs = [
  { value: '11111111-1111-4111-8111-111111111111', label: 'Punti Bar Centrale', tiers: ['Argento', 'Oro'] },
  { value: '22222222-2222-4222-8222-222222222222', label: 'Timbri Salone', tiers: ['Bronzo'] },
];

/**
 * The draft's save and send, as the editor makes them before sending: answers the draft `then` as it
 * stands after; returns each send's body as it was sent.
 */
function answerSend(then: CampaignStatus): unknown[] {
  document.cookie = 'XSRF-TOKEN=t; path=/';
  answerAudience();
  const sent: unknown[] = [];
  const draft = campaign({ status: 'draft' });
  server.use(
    http.patch(`/api/admin/campaigns/${draft.id}`, async ({ request }) => HttpResponse.json({ ...draft, ...((await request.json()) as object), version: 2 })),
    http.post(`/api/admin/campaigns/${draft.id}/send`, async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({ ...draft, status: then });
    }),
  );
  return sent;
}

const renderEditor = (status: CampaignStatus | null) =>
  renderWithProviders(
    <CampaignEditor
      campaign={status === null ? null : campaign({ status, ...(status === 'scheduled' ? { scheduledAt: '2026-12-01T09:00:00.000Z' } : {}) })}
      programOptions={programs}
      merchantOptions={[]}
      renderRichText={renderRichText}
      onCreated={() => undefined}
    />,
    { user: admin },
  );

describe('CampaignEditor', () => {
  it('counts the audience live as the filters change, with a sample of who it reaches', async () => {
    const user = userEvent.setup();
    const seen = answerAudience();
    renderEditor(null);

    await waitFor(() => expect(screen.getByTestId('audience-count')).toHaveTextContent('3'));
    expect(screen.getByTestId('audience-sample')).toHaveTextContent('Carla Bianchi · carla@example.it');

    // The tier is a choice of the programs' tiers (every program's while none is chosen), not free text.
    await user.click(screen.getByLabelText('Livello', { selector: 'input' }));
    expect(screen.getAllByRole('option', { hidden: true }).map((option) => option.textContent)).toEqual(['Argento', 'Bronzo', 'Oro']);
    await user.click(await screen.findByRole('option', { name: 'Oro', hidden: true }));
    await waitFor(() => expect(screen.getByTestId('audience-count')).toHaveTextContent('1'));
    expect(seen.at(-1)).toEqual({ tier: 'Oro' });
    expect(screen.getByTestId('audience-sample')).not.toHaveTextContent('Carla');
    // Debounced: no query for anything but the settled choice.
    expect(seen.filter((query) => query['tier'] !== undefined && query['tier'] !== 'Oro')).toHaveLength(0);
  });

  it('keeps the inactive days typed, 0 or above the maximum, and says beside it what is wrong; a save is refused there', async () => {
    const user = userEvent.setup();
    const seen = answerAudience();
    const saved: unknown[] = [];
    const draft = campaign({ status: 'draft' });
    server.use(
      http.patch(`/api/admin/campaigns/${draft.id}`, async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json(draft);
      }),
    );
    renderEditor('draft');
    const days = screen.getByRole('textbox', { name: 'Senza acquisti da (giorni)' });
    await user.type(days, '0');
    await user.tab();
    // It used to become "no filter" without a word.
    expect(days).toHaveValue('0');
    expect(screen.getByText('Senza acquisti da (giorni) deve essere almeno 1')).toBeInTheDocument();
    expect(screen.getByTestId('audience-count')).toHaveTextContent('—');
    await user.clear(days);
    await user.type(days, '5000');
    await user.tab();
    // It used to become 3650 on blur.
    expect(days).toHaveValue('5000');
    expect(screen.getByText('Senza acquisti da (giorni) deve essere al massimo 3.650')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Salva bozza' }));
    await waitFor(() => expect(days).toHaveFocus());
    expect(saved).toEqual([]);
    // The API is never asked about a filter it would refuse.
    expect(seen.filter((query) => query['inactiveDays'] !== undefined)).toEqual([]);
    await user.clear(days);
    await user.type(days, '30');
    expect(screen.queryByText(/Senza acquisti da \(giorni\) deve/)).toBeNull();
    await waitFor(() => expect(seen.at(-1)).toEqual({ inactiveDays: '30' }));
  });

  it('says what is wrong with the inactive days in English too', async () => {
    const user = userEvent.setup();
    answerAudience();
    renderWithProviders(<CampaignEditor campaign={null} programOptions={programs} merchantOptions={[]} renderRichText={renderRichText} onCreated={() => undefined} />, { user: admin, language: 'en' });
    const days = screen.getByRole('textbox', { name: 'No purchase for (days)' });
    await user.type(days, '0');
    await user.tab();
    expect(days).toHaveValue('0');
    expect(screen.getByText('No purchase for (days) must be at least 1')).toBeInTheDocument();
  });

  it("offers the chosen program's tiers only", async () => {
    const user = userEvent.setup();
    answerAudience();
    renderEditor(null);
    await user.click(screen.getByLabelText('Programma', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Timbri Salone', hidden: true }));
    await user.click(screen.getByLabelText('Livello', { selector: 'input' }));
    expect(screen.getAllByRole('option', { hidden: true }).map((option) => option.textContent)).toEqual(['Bronzo']);
  });

  it('names the fields a new campaign needs, in the words of every form, and sends nothing', async () => {
    answerAudience();
    const posted: unknown[] = [];
    server.use(
      http.post('/api/admin/campaigns', async ({ request }) => {
        posted.push(await request.json());
        return HttpResponse.json({ error: { code: 'internal', message: 'x', requestId: 'r' } }, { status: 500 });
      }),
    );
    renderEditor(null);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Salva bozza' }));
    expect(await screen.findByText('Nome è obbligatorio')).toBeInTheDocument();
    expect(screen.getByText('Oggetto è obbligatorio')).toBeInTheDocument();
    // The focus goes to the first of them, so the browser brings it into view: the button sits at the
    // drawer's bottom, the texts at its top.
    expect(screen.getByRole('textbox', { name: /Nome/ })).toHaveFocus();
    expect(posted).toEqual([]);
  });

  it('asks before sending, with how many it reaches, and sends only once confirmed', async () => {
    const sent = answerSend('sending');
    const user = userEvent.setup();
    renderEditor('draft');
    await user.click(screen.getByRole('button', { name: 'Invia ora' }));
    const ask = await screen.findByRole('dialog', { name: 'Inviare la campagna adesso?' });
    expect(ask).toHaveTextContent('«Caffè di novembre» parte adesso per 3 clienti.');
    await user.click(within(ask).getByRole('button', { name: 'Indietro' }));
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Invia ora' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Inviare la campagna adesso?' })).getByRole('button', { name: 'Invia adesso' }));
    await waitFor(() => expect(sent).toEqual([{}]));
  });

  it('schedules at the time typed on the user’s clock (their profile’s zone), said before it is sent', async () => {
    const sent = answerSend('scheduled');
    const user = userEvent.setup();
    // Today is fixed (the clock alone, not the timers), so the day picked is in the future and its offset known.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T10:00:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    renderEditor('draft');
    expect(screen.getByText('Fuso orario: Europe/Rome')).toBeInTheDocument();
    // Picked in the calendar, in Italian: next month's 20th at 10:00.
    await user.click(await screen.findByRole('button', { name: 'Invia il' }));
    const picker = await screen.findByRole('dialog');
    await user.click(within(picker).getByRole('button', { name: 'Mese successivo' }));
    await user.click(within(picker).getByRole('button', { name: '20 dicembre 2026' }));
    await user.type(within(picker).getByRole('spinbutton', { name: 'Ore' }), '10');
    await user.type(within(picker).getByRole('spinbutton', { name: 'Minuti' }), '00');
    await user.click(within(picker).getByRole('button', { name: 'Conferma data e ora' }));
    expect(screen.getByRole('button', { name: 'Invia il' })).toHaveTextContent('20/12/2026 10:00');
    await user.click(screen.getByRole('button', { name: 'Programma' }));
    const ask = await screen.findByRole('dialog', { name: "Programmare l'invio?" });
    expect(ask).toHaveTextContent('«Caffè di novembre» partirà il 20/12/2026, 10:00.');
    await user.click(within(ask).getByRole('button', { name: 'Programma' }));
    // 10:00 in Rome, whatever the browser's zone (the test runner's is UTC).
    await waitFor(() => expect(sent).toEqual([{ scheduledAt: '2026-12-20T09:00:00.000Z' }]));
  });

  it('refuses a time already gone today, on the field, rather than moving it to now', async () => {
    const sent = answerSend('scheduled');
    const user = userEvent.setup();
    // 01:45 in Rome; the operator picks today at 01:10.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T00:45:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    renderEditor('draft');
    await user.click(await screen.findByRole('button', { name: 'Invia il' }));
    const picker = await screen.findByRole('dialog');
    await user.click(within(picker).getByRole('button', { name: '27 novembre 2026' }));
    await user.type(within(picker).getByRole('spinbutton', { name: 'Ore' }), '01');
    await user.type(within(picker).getByRole('spinbutton', { name: 'Minuti' }), '10');
    await user.click(within(picker).getByRole('button', { name: 'Conferma data e ora' }));
    // Kept as picked, not clamped to the present by the calendar.
    expect(screen.getByRole('button', { name: 'Invia il' })).toHaveTextContent('27/11/2026 01:10');
    await user.click(screen.getByRole('button', { name: 'Programma' }));
    expect(await screen.findByText('Invia il: scegli un momento futuro')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Invia il' })).toHaveFocus();
    expect(screen.queryByRole('dialog', { name: "Programmare l'invio?" })).toBeNull();
    expect(sent).toEqual([]);
  });

  it("says on the field when the API refuses the time (it passed while the operator confirmed)", async () => {
    answerSend('scheduled');
    const draft = campaign({ status: 'draft' });
    server.use(
      http.post(`/api/admin/campaigns/${draft.id}/send`, () =>
        HttpResponse.json(
          { error: { code: 'validation', message: 'Invia il: scegli un momento futuro', fields: [{ field: 'scheduledAt', message: 'Invia il: scegli un momento futuro' }], requestId: 'r' } },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T10:00:00Z') });
    onTestFinished(() => void vi.useRealTimers());
    renderEditor('draft');
    await user.click(await screen.findByRole('button', { name: 'Invia il' }));
    const picker = await screen.findByRole('dialog');
    await user.click(within(picker).getByRole('button', { name: '28 novembre 2026' }));
    await user.type(within(picker).getByRole('spinbutton', { name: 'Ore' }), '10');
    await user.type(within(picker).getByRole('spinbutton', { name: 'Minuti' }), '00');
    await user.click(within(picker).getByRole('button', { name: 'Conferma data e ora' }));
    await user.click(screen.getByRole('button', { name: 'Programma' }));
    await user.click(within(await screen.findByRole('dialog', { name: "Programmare l'invio?" })).getByRole('button', { name: 'Programma' }));
    expect(await screen.findByText('Invia il: scegli un momento futuro')).toBeInTheDocument();
  });

  it('sends no campaign without its text: says so on the field and asks nothing', async () => {
    answerAudience();
    const sent: unknown[] = [];
    const draft = campaign({ status: 'draft', body: '<p></p>' });
    server.use(
      http.post(`/api/admin/campaigns/${draft.id}/send`, async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(draft);
      }),
    );
    renderWithProviders(
      <CampaignEditor campaign={draft} programOptions={programs} merchantOptions={[]} renderRichText={({ error, onChange, focusRef }) => (
          <>
            <textarea aria-label="Testo" ref={focusRef as Ref<HTMLTextAreaElement>} onChange={(event) => onChange(`<p>${event.currentTarget.value}</p>`)} />
            {error ? <p>{error}</p> : null}
          </>
        )} onCreated={() => undefined} />,
      { user: admin },
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Invia ora' }));
    expect(await screen.findByText('Testo è obbligatorio')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Testo' })).toHaveFocus();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([]);
    // Gone as soon as there is text.
    await user.type(screen.getByRole('textbox', { name: 'Testo' }), 'Ciao');
    expect(screen.queryByText('Testo è obbligatorio')).toBeNull();
  });

  it('refuses a placeholder the campaign cannot fill in, under its field, in the user’s language, and saves nothing', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    answerAudience();
    const draft = campaign({ status: 'draft' });
    const patches: unknown[] = [];
    server.use(
      http.patch(`/api/admin/campaigns/${draft.id}`, async ({ request }) => {
        patches.push(await request.json());
        return HttpResponse.json({ ...draft, version: 2 });
      }),
    );
    renderWithProviders(
      <CampaignEditor campaign={draft} programOptions={programs} merchantOptions={[]} renderRichText={({ label, error, onChange }) => (
          <>
            <textarea aria-label={label} aria-describedby="body-error" onChange={(event) => onChange(`<p>${event.currentTarget.value}</p>`)} />
            {error ? <p id="body-error">{error}</p> : null}
          </>
        )} onCreated={() => undefined} />,
      { user: admin },
    );
    const user = userEvent.setup();
    const subject = screen.getByRole('textbox', { name: /^Oggetto/ });
    await user.clear(subject);
    await user.click(subject);
    await user.paste('Ciao {{firstName}}');
    await user.click(screen.getByRole('textbox', { name: 'Testo' }));
    await user.paste('Il tuo saldo: {{saldo}}');
    await user.click(screen.getByRole('button', { name: 'Salva bozza' }));

    const subjectError = await screen.findByText('Oggetto: il segnaposto {{firstName}} non esiste (si possono usare {{nome}})');
    expect(subject).toHaveAttribute('aria-invalid', 'true');
    expect(subject.getAttribute('aria-describedby')?.split(' ')).toContain(subjectError.id);
    expect(screen.getByRole('textbox', { name: 'Testo' })).toHaveAccessibleDescription('Testo: il segnaposto {{saldo}} non esiste (si possono usare {{nome}})');
    expect(patches).toEqual([]);

    // Written as the campaign can fill it in, it goes.
    await user.clear(subject);
    await user.paste('Ciao {{nome}}');
    await user.clear(screen.getByRole('textbox', { name: 'Testo' }));
    await user.paste('Ciao {{ nome }}');
    await user.click(screen.getByRole('button', { name: 'Salva bozza' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({ subject: 'Ciao {{nome}}', body: '<p>Ciao {{ nome }}</p>' });
  });

  it('after an edit conflict, reloads the draft keeping the subject typed and the name changed meanwhile, and saves on the fresh version', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    answerAudience();
    const opened = campaign({ status: 'draft' });
    const stored = { ...opened, name: 'Caffè di dicembre', version: 2 };
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get(`/api/admin/campaigns/${opened.id}`, () => HttpResponse.json(stored)),
      http.patch(`/api/admin/campaigns/${opened.id}`, async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        patches.push(body);
        if (body.version !== stored.version) {
          return HttpResponse.json({ error: { code: 'version_conflict', message: 'Qualcun altro ha modificato questo dato nel frattempo: ricaricalo e applica di nuovo le modifiche', requestId: 'r' } }, { status: 409 });
        }
        return HttpResponse.json({ ...stored, ...body, version: 3 });
      }),
    );
    renderWithProviders(<CampaignEditor campaign={opened} programOptions={programs} merchantOptions={[]} renderRichText={renderRichText} onCreated={() => undefined} />, { user: admin });
    const user = userEvent.setup();
    const subject = screen.getByRole('textbox', { name: /^Oggetto/ });
    await user.clear(subject);
    await user.type(subject, 'Un caffè per te');
    await user.click(screen.getByRole('button', { name: 'Salva bozza' }));
    await user.click(within(await screen.findByRole('alert', { name: 'Modifica in conflitto' })).getByRole('button', { name: 'Ricarica e riapplica le mie modifiche' }));

    expect(await screen.findByRole('status', { name: 'Dati ricaricati, con le tue modifiche riapplicate' })).toHaveTextContent('ora «Caffè di dicembre»');
    expect(screen.getByRole('textbox', { name: /^Nome/ })).toHaveValue('Caffè di dicembre');
    expect(screen.getByRole('textbox', { name: /^Oggetto/ })).toHaveValue('Un caffè per te');
    await user.click(screen.getByRole('button', { name: 'Salva bozza' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toMatchObject({ name: 'Caffè di dicembre', subject: 'Un caffè per te', version: 2 });
  });

  it('offers save, test, send and schedule on a draft, and no cancel', async () => {
    answerAudience();
    renderEditor('draft');
    for (const name of ['Salva bozza', 'Invia una prova a me', 'Invia ora', 'Programma']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    // Scheduling needs a time first.
    expect(screen.getByRole('button', { name: 'Programma' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: "Annulla l'invio" })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Nome/ })).toBeEnabled();
  });

  it.each(['scheduled', 'sending'] as const)('offers only the cancel on a %s campaign, read-only, without a live count', async (status) => {
    const seen = answerAudience();
    renderEditor(status);
    expect(screen.getByRole('button', { name: "Annulla l'invio" })).toBeInTheDocument();
    for (const name of ['Salva bozza', 'Invia una prova a me', 'Invia ora', 'Programma']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    // Read-only, not disabled: the sent campaign's texts stay legible.
    expect(screen.getByRole('textbox', { name: /Nome/ })).toHaveAttribute('readonly');
    expect(screen.queryByTestId('audience-count')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(seen).toHaveLength(0);
  });

  it.each(['sent', 'cancelled'] as const)('offers no action on a %s campaign, only its report', (status) => {
    answerAudience();
    renderEditor(status);
    for (const name of ['Salva bozza', 'Invia una prova a me', 'Invia ora', 'Programma', "Annulla l'invio"]) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.getByLabelText('Resoconto')).toBeInTheDocument();
  });

  it('offers no action to a role that may only read', () => {
    answerAudience();
    renderWithProviders(<CampaignEditor campaign={campaign()} programOptions={[]} merchantOptions={[]} renderRichText={renderRichText} onCreated={() => undefined} />, {
      user: { role: 'editor' },
    });
    expect(screen.queryByRole('button', { name: 'Invia ora' })).not.toBeInTheDocument();
  });
});
