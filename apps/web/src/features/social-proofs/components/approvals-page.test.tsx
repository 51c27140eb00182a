import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DecideSocialProofs, DecideSocialProofsResult, SocialProof } from '@sf/contract/social-proofs';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { ApprovalsPage } from './approvals-page.tsx';

const admin = { role: 'admin' as const, timeZone: 'Europe/Rome' };
const PROGRAM_ID = '00000000-0000-4000-8000-000000000002';

function proof(overrides: Partial<SocialProof> = {}): SocialProof {
  return {
    id: 7,
    customerId: '00000000-0000-4000-8000-0000000000c1',
    customerName: 'Giulia Bianchi',
    customerStatus: 'active',
    cardNumber: '8012345678903',
    programId: '00000000-0000-4000-8000-000000000002',
    programName: 'Circuito Centro',
    merchantId: null,
    merchantName: null,
    kind: 'review',
    url: 'https://maps.example.com/recensione/123',
    imageId: null,
    imageUrl: null,
    note: null,
    channel: 'app',
    submittedBy: 'app',
    status: 'pending',
    reason: null,
    points: null,
    entryId: null,
    decidedBy: null,
    decidedByName: null,
    decidedAt: null,
    createdAt: '2026-11-20T09:30:00.000Z',
    ...overrides,
  };
}

const second = proof({ id: 8, customerId: '00000000-0000-4000-8000-0000000000c2', customerName: 'Marco Verdi', kind: 'share', url: 'https://social.example.org/post/9' });

function renderPage(items: SocialProof[], answer: (body: DecideSocialProofs) => DecideSocialProofsResult, route = '/approvals', language: 'it' | 'en' = 'it') {
  const seen: URLSearchParams[] = [];
  const decisions: DecideSocialProofs[] = [];
  server.use(
    http.get('/api/admin/social-proofs', ({ request }) => {
      seen.push(new URL(request.url).searchParams);
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
    }),
    http.post('/api/admin/social-proofs/decisions', async ({ request }) => {
      const body = (await request.json()) as DecideSocialProofs;
      decisions.push(body);
      return HttpResponse.json(answer(body));
    }),
  );
  renderWithProviders(
    <ApprovalsPage programOptions={[{ value: PROGRAM_ID, label: 'Circuito Centro' }]} merchantOptions={[]} customerHref={(id) => `/customers/${id}`} />,
    { route, user: admin, language },
  );
  return { seen, decisions };
}

const decided = (body: DecideSocialProofs): DecideSocialProofsResult => ({
  items: body.ids.map((id) => ({ id, outcome: 'decided', proof: null, message: null })),
});

describe('Approvazioni', { timeout: 30_000 }, () => {
  it('lists the queue pending first, with the action, the site of the link and what an approval gave', async () => {
    const capped = proof({ id: 5, customerName: 'Anna Neri', status: 'approved', points: 0, reason: 'Tetto mensile raggiunto', url: null });
    const { seen } = renderPage([proof(), capped], decided);
    const row = (await screen.findByRole('link', { name: 'Giulia Bianchi' })).closest('tr')!;
    expect(within(row).getByText('Recensione')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'maps.example.com' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(within(row).getByText('In attesa')).toBeInTheDocument();
    const done = screen.getByRole('link', { name: 'Anna Neri' }).closest('tr')!;
    expect(within(done).getByText('Approvata')).toBeInTheDocument();
    expect(within(done).getByText('0 punti')).toBeInTheDocument();
    expect(within(done).getByText('Tetto mensile raggiunto')).toBeInTheDocument();
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ sort: 'queue', order: 'asc' });
  });

  it('approves the one proof selected and, when it could not be, says only that: no success toast for none', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { decisions } = renderPage([proof(), second], (body) => ({
      items: [{ id: body.ids[0]!, outcome: 'failed', proof: null, message: 'Il programma non è attivo' }],
    }));
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona Condivisione di Marco Verdi' }));
    await user.click(screen.getByRole('button', { name: 'Approva (1)' }));
    await waitFor(() => expect(decisions).toEqual([{ ids: [8], decision: 'approve' }]));
    expect(await screen.findByText('Condivisione di Marco Verdi: Il programma non è attivo')).toBeInTheDocument();
    expect(screen.queryByText(/azion[ei] approvat[ae]/)).toBeNull();
    await waitFor(() => expect(screen.queryByRole('button', { name: /^Approva/ })).toBeNull());
  });

  it('says how many were approved and which could not be when only some were', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    renderPage([proof(), second], (body) => ({
      items: body.ids.map((id) =>
        id === 8 ? { id, outcome: 'failed' as const, proof: null, message: 'Il programma non è attivo' } : { id, outcome: 'decided' as const, proof: null, message: null },
      ),
    }));
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' }));
    await user.click(screen.getByRole('button', { name: 'Approva (2)' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Approvare 2 azioni?' })).getByRole('button', { name: 'Approva' }));
    expect(await screen.findByText('1 azione approvata')).toBeInTheDocument();
    expect(await screen.findByText('Condivisione di Marco Verdi: Il programma non è attivo')).toBeInTheDocument();
  });

  it('asks before approving several proofs: "Indietro" sends nothing, confirming sends their ids once', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { decisions } = renderPage([proof(), second], decided);
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' }));
    await user.click(screen.getByRole('button', { name: 'Approva (2)' }));
    let dialog = await screen.findByRole('dialog', { name: 'Approvare 2 azioni?' });
    expect(within(dialog).getByText('2 clienti ricevono subito il bonus previsto dal programma per ciascuna azione, entro il limite mensile.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Indietro' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Approvare 2 azioni?' })).toBeNull());
    expect(decisions).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Approva (2)' }));
    dialog = await screen.findByRole('dialog', { name: 'Approvare 2 azioni?' });
    await user.click(within(dialog).getByRole('button', { name: 'Approva' }));
    expect(await screen.findByText('2 azioni approvate')).toBeInTheDocument();
    expect(decisions).toEqual([{ ids: [7, 8], decision: 'approve' }]);
  });

  it('names the customer when the proofs to approve are all theirs', async () => {
    const user = userEvent.setup();
    renderPage([proof(), proof({ id: 9, kind: 'checkIn' })], decided);
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' }));
    await user.click(screen.getByRole('button', { name: 'Approva (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approvare 2 azioni?' });
    expect(within(dialog).getByText('Giulia Bianchi riceve subito il bonus previsto dal programma per ciascuna delle 2 azioni, entro il limite mensile.')).toBeInTheDocument();
  });

  it('rejects the whole page in one request, only with a reason', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    const { decisions } = renderPage([proof(), second], decided);
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona tutte le righe della pagina' }));
    await user.click(screen.getByRole('button', { name: 'Rifiuta (2)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rifiuta 2 azioni' });
    const confirm = within(dialog).getByRole('button', { name: 'Rifiuta' });
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), '   ');
    expect(confirm).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'Screenshot illeggibile');
    await user.click(confirm);
    await waitFor(() => expect(decisions).toEqual([{ ids: [7, 8], decision: 'reject', reason: 'Screenshot illeggibile' }]));
    expect(await screen.findByText('2 azioni rifiutate')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rifiuta 2 azioni' })).toBeNull());
  });

  it('does not offer a reason typed and cancelled for the next rejection: the customer reads it', async () => {
    const user = userEvent.setup();
    const { decisions } = renderPage([proof(), second], decided);
    await user.click(await screen.findByRole('checkbox', { name: 'Seleziona Recensione di Giulia Bianchi' }));
    await user.click(screen.getByRole('button', { name: 'Rifiuta (1)' }));
    let dialog = await screen.findByRole('dialog', { name: 'Rifiuta 1 azione' });
    await user.type(within(dialog).getByRole('textbox', { name: /Motivo/ }), 'Recensione di un altro locale');
    await user.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rifiuta 1 azione' })).toBeNull());

    await user.click(screen.getByRole('checkbox', { name: 'Seleziona Recensione di Giulia Bianchi' }));
    await user.click(screen.getByRole('checkbox', { name: 'Seleziona Condivisione di Marco Verdi' }));
    await user.click(screen.getByRole('button', { name: 'Rifiuta (1)' }));
    dialog = await screen.findByRole('dialog', { name: 'Rifiuta 1 azione' });
    expect(within(dialog).getByRole('textbox', { name: /Motivo/ })).toHaveValue('');
    expect(within(dialog).getByRole('button', { name: 'Rifiuta' })).toBeDisabled();
    expect(decisions).toEqual([]);
  });

  it('names an erased customer "Cliente cancellato" with their card, never a blank, in the row and in its checkbox', async () => {
    const closed = proof({
      id: 11,
      customerName: '',
      customerStatus: 'erased',
      cardNumber: '8099999999998',
      status: 'rejected',
      url: null,
      reason: 'Chiusa dalla cancellazione dei dati del cliente: nessun punto assegnato',
      decidedBy: 'privacy-erasure',
    });
    renderPage([closed, second], decided);
    const row = (await screen.findByRole('link', { name: 'Cliente cancellato · 8099999999998' })).closest('tr')!;
    expect(within(row).getByText('Rifiutata')).toBeInTheDocument();
    expect(within(row).getByText('Chiusa dalla cancellazione dei dati del cliente: nessun punto assegnato')).toBeInTheDocument();
    expect(within(row).getByRole('checkbox', { name: 'Seleziona Recensione di Cliente cancellato · 8099999999998' })).toBeInTheDocument();
  });

  it('names who decided a proof, the e-mail and time on hover, and an erasure in words', async () => {
    const byStaff = proof({ status: 'approved', points: 40, decidedBy: 'admin@demo.test', decidedByName: 'Giulia Rossi', decidedAt: '2026-11-21T10:15:00.000Z' });
    const byErasure = proof({ id: 12, customerName: '', customerStatus: 'erased', cardNumber: '8099999999998', status: 'rejected', decidedBy: 'privacy-erasure', decidedAt: '2026-11-22T10:15:00.000Z' });
    renderPage([byStaff, byErasure], decided);
    expect(await screen.findByText('Deciso da Giulia Rossi')).toHaveAttribute('title', expect.stringMatching(/^admin@demo\.test · 21\/11\/2026,\s11:15$/));
    expect(screen.getByText('Deciso dalla cancellazione dei dati del cliente')).toBeInTheDocument();
    expect(screen.queryByText(/privacy-erasure|admin@demo\.test/)).not.toBeInTheDocument();
  });

  it('names who decided a proof in English', async () => {
    const byStaff = proof({ status: 'approved', points: 40, decidedBy: 'admin@demo.test', decidedByName: 'Giulia Rossi', decidedAt: '2026-11-21T10:15:00.000Z' });
    const byErasure = proof({ id: 12, status: 'rejected', decidedBy: 'privacy-erasure', decidedAt: '2026-11-22T10:15:00.000Z' });
    renderPage([byStaff, byErasure], decided, '/approvals', 'en');
    expect(await screen.findByText('Decided by Giulia Rossi')).toBeInTheDocument();
    expect(screen.getByText("Decided by the erasure of the customer's data")).toBeInTheDocument();
  });

  it('names an erased customer "Erased customer" in English', async () => {
    renderPage([proof({ customerName: '', customerStatus: 'erased', cardNumber: '8099999999998' })], decided, '/approvals', 'en');
    expect(await screen.findByRole('link', { name: 'Erased customer · 8099999999998' })).toBeInTheDocument();
  });

  it('asks the API for the proofs the URL’s filters name, and shows those filters chosen', async () => {
    const rejected = proof({ status: 'rejected', kind: 'share', reason: 'Post privato', url: 'https://www.instagram.com/p/Cx9', imageId: '00000000-0000-4000-8000-0000000000e3', imageUrl: '/api/admin/social-proofs/7/image' });
    const { seen } = renderPage([rejected], decided, `/approvals?status=rejected&kind=share&programId=${PROGRAM_ID}&from=2026-11-01&to=2026-11-20`);
    const row = (await screen.findByRole('link', { name: 'Giulia Bianchi' })).closest('tr')!;
    // The screenshot's thumbnail opens the full image apart, without our page as its opener.
    const thumbnail = within(row).getByRole('img', { name: /Giulia Bianchi/ });
    expect(thumbnail.closest('a')).toHaveAttribute('href', '/api/admin/social-proofs/7/image');
    expect(thumbnail.closest('a')).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(within(row).getByText('Post privato')).toBeInTheDocument();
    // The site as people say it, the whole link on hover.
    expect(within(row).getByRole('link', { name: 'instagram.com' })).toHaveAttribute('title', 'https://www.instagram.com/p/Cx9');
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ status: 'rejected', kind: 'share', programId: PROGRAM_ID, from: '2026-11-01', to: '2026-11-20' });
    expect(screen.getByRole('combobox', { name: 'Stato' })).toHaveDisplayValue('Rifiutata');
    expect(screen.getByRole('combobox', { name: 'Azione' })).toHaveDisplayValue('Condivisione');
    expect(screen.getByRole('combobox', { name: 'Programma' })).toHaveDisplayValue('Circuito Centro');
  });
});
