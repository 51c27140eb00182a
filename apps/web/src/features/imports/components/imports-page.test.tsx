import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { ImportDetail } from '@sf/contract/imports';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/test-utils.tsx';
import { ImportsPage } from './imports-page.tsx';

const admin = { role: 'admin' as const, timeZone: 'Europe/Rome' };
const IMPORT_ID = '00000000-0000-4000-8000-0000000000f1';
const PROGRAM_ID = '00000000-0000-4000-8000-000000000002';
const programs = [{ value: PROGRAM_ID, label: 'Circuito Centro' }];

function detail(overrides: Partial<ImportDetail> = {}): ImportDetail {
  return {
    id: IMPORT_ID,
    kind: 'customers',
    status: 'validated',
    fileName: 'clienti.csv',
    sizeBytes: 240,
    dialect: { delimiter: ';', hasBom: true, decimal: ',', dateFormat: 'dd/MM/yyyy' },
    mapping: {},
    totalRows: 4,
    validRows: 2,
    errorRows: 2,
    processedRows: 0,
    importedRows: 0,
    skippedRows: 0,
    progress: 0,
    report: null,
    createdBy: 'admin@demo.test',
    createdByName: 'Giulia Rossi',
    createdAt: '2026-11-20T09:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    errors: [
      { row: 3, column: 'Data di nascita', code: 'invalid', message: 'Data di nascita non è valida' },
      { row: 5, column: 'Provincia', code: 'invalid', message: 'Provincia non è valida' },
    ],
    ...overrides,
  };
}

/** The list (empty unless told), the import's detail as `current()` says, its start and cancel. */
function answer(current: () => ImportDetail, items: ImportDetail[] = []) {
  const seen: URLSearchParams[] = [];
  const changes: string[] = [];
  server.use(
    http.get('/api/admin/imports', ({ request }) => {
      seen.push(new URL(request.url).searchParams);
      return HttpResponse.json({ items, total: items.length, page: 1, pageSize: 25 });
    }),
    http.get(`/api/admin/imports/${IMPORT_ID}`, () => HttpResponse.json(current())),
    http.post(`/api/admin/imports/${IMPORT_ID}/:action`, ({ params }) => {
      changes.push(String(params['action']));
      return HttpResponse.json(current());
    }),
  );
  return { seen, changes };
}

type Upload = { fields: Record<string, string>; hasFile: boolean };

/**
 * The multipart body as sent. Under jsdom, msw's `request.formData()` cannot run (undici builds the
 * parts with jsdom's File, then refuses them) and the file part goes out as an empty "blob": the
 * fields are checked here, the file's name and content by the browser journey (e2e/privacy-import.spec.ts).
 */
function readMultipart(body: string, contentType: string): Upload {
  const boundary = /boundary=(.+)$/.exec(contentType)![1]!;
  const upload: Upload = { fields: {}, hasFile: false };
  for (const part of body.split(`--${boundary}`).slice(1, -1)) {
    const [head = '', ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    const name = /name="([^"]+)"/.exec(head)![1]!;
    if (/filename="/.test(head)) upload.hasFile = name === 'file';
    else upload.fields[name] = value;
  }
  return upload;
}

function answerUpload(answerWith: ImportDetail) {
  const uploads: Upload[] = [];
  server.use(
    http.post('/api/admin/imports', async ({ request }) => {
      uploads.push(readMultipart(await request.text(), request.headers.get('content-type') ?? ''));
      return HttpResponse.json(answerWith, { status: 201 });
    }),
  );
  return uploads;
}

function renderPage(route: string) {
  return renderWithProviders(<ImportsPage programOptions={programs} />, { route, user: admin });
}

/** Mantine's FileInput is a button that opens the file input it hides. */
const fileInput = (wizard: HTMLElement) => wizard.querySelector<HTMLInputElement>('input[type="file"]')!;

const csv = (lines: string[]) => new File([`\uFEFF${lines.join('\r\n')}\r\n`], 'clienti.csv', { type: 'text/csv' });

describe('Importazioni', { timeout: 30_000 }, () => {
  it('lists the imports with their status and progress, filtered as the URL says', async () => {
    const { seen } = answer(detail, [detail({ status: 'running', progress: 40, importedRows: 1 })]);
    renderPage('/imports?status=running');
    const row = (await screen.findByRole('link', { name: 'clienti.csv' })).closest('tr')!;
    expect(within(row).getByText('In corso')).toBeInTheDocument();
    expect(within(row).getByText('40%')).toBeInTheDocument();
    // Who uploaded it, by name (the e-mail on hover).
    expect(within(row).getByText('Giulia Rossi')).toHaveAttribute('title', 'admin@demo.test');
    expect(Object.fromEntries(seen.at(-1)!)).toMatchObject({ status: 'running', sort: 'createdAt', order: 'desc' });
  });

  it('says why an import it cannot open is not shown, in the drawer, instead of loading for ever', async () => {
    server.use(
      http.get('/api/admin/imports', () => HttpResponse.json({ items: [], total: 0, page: 1, pageSize: 25 })),
      http.get('/api/admin/imports/00000000-0000-4000-8000-0000000000aa', () => HttpResponse.json({ error: { code: 'not_found', message: 'Importazione richiesta non trovata', requestId: 'r' } }, { status: 404 })),
    );
    renderPage('/imports?import=00000000-0000-4000-8000-0000000000aa');
    const drawer = await screen.findByRole('dialog', { name: 'Importazione' });
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent("Importazione non trovataNessuna importazione a questo indirizzo: il link è sbagliato o l'importazione non c'è più.");
    expect(alert).not.toHaveTextContent('Importazione richiesta non trovata');
  });

  it('reads an Italian Excel file, proposes its columns, and checks it only once the required fields are mapped', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answer(detail);
    const uploads = answerUpload(detail());
    const { router } = renderPage('/imports?import=new');
    const wizard = await screen.findByRole('dialog', { name: 'Nuova importazione' });
    // Its title is the drawer's own heading, as in every drawer: not a heading inside it.
    expect(within(wizard).getByRole('heading', { name: 'Nuova importazione' }).querySelector('h1, h2, h3')).toBeNull();
    const check = within(wizard).getByRole('button', { name: 'Verifica il file' });
    expect(check).toBeDisabled();
    await user.upload(fileInput(wizard), csv(['Nome;Cognome;E-mail;Prov', 'Giada;Rossi;giada@example.it;BO']));
    expect(await within(wizard).findByText('Separatore riconosciuto: punto e virgola · 4 colonne')).toBeInTheDocument();
    expect(within(wizard).getByLabelText('Colonna per Nome', { selector: 'input' })).toHaveValue('Nome');
    expect(within(wizard).getByLabelText('Colonna per Email', { selector: 'input' })).toHaveValue('E-mail');
    expect(within(wizard).getByLabelText('Colonna per Provincia', { selector: 'input' })).toHaveValue('Prov');
    expect(within(wizard).getByText('Giada')).toBeInTheDocument();

    await user.click(within(wizard).getByLabelText('Colonna per Cognome', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '— non importare —', hidden: true }));
    expect(within(wizard).getByText('Obbligatorio')).toBeInTheDocument();
    expect(check).toBeDisabled();
    await user.click(within(wizard).getByLabelText('Colonna per Cognome', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Cognome', hidden: true }));
    expect(check).toBeEnabled();

    await user.click(check);
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(uploads[0]!.fields).toEqual({
      kind: 'customers',
      dryRun: 'true',
      mapping: JSON.stringify({ firstName: 'Nome', lastName: 'Cognome', email: 'E-mail', province: 'Prov' }),
    });
    expect(uploads[0]!.hasFile).toBe(true);
    // The check's result replaces the wizard in the same drawer.
    await waitFor(() => expect(router.state.location.search).toBe(`?import=${IMPORT_ID}`));
    expect(await screen.findByRole('dialog', { name: 'Importazione' })).toBeInTheDocument();
  });

  it('says a file of one column in the singular (“1 colonna”)', async () => {
    const user = userEvent.setup();
    answer(detail);
    renderPage('/imports?import=new');
    const wizard = await screen.findByRole('dialog', { name: 'Nuova importazione' });
    await user.upload(fileInput(wizard), csv(['Nome', 'Giada']));
    expect(await within(wizard).findByText(/· 1 colonna$/)).toBeInTheDocument();
  });

  it('asks for the program of opening balances when the file has no program column', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answer(() => detail({ kind: 'balances' }));
    const uploads = answerUpload(detail({ kind: 'balances' }));
    renderPage('/imports?import=new');
    const wizard = await screen.findByRole('dialog', { name: 'Nuova importazione' });
    await user.click(within(wizard).getByText('Saldi iniziali'));
    await user.upload(fileInput(wizard), csv(['Tessera;Punti', '8012345678903;120']));
    const program = await within(wizard).findByLabelText('Programma per tutte le righe', { selector: 'input' });
    expect(within(wizard).getByText('Obbligatorio')).toBeInTheDocument();
    expect(within(wizard).getByRole('button', { name: 'Verifica il file' })).toBeDisabled();
    await user.click(program);
    await user.click(await screen.findByRole('option', { name: 'Circuito Centro', hidden: true }));
    await user.click(within(wizard).getByRole('button', { name: 'Verifica il file' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(uploads[0]!.fields).toEqual({ kind: 'balances', dryRun: 'true', mapping: JSON.stringify({ cardNumber: 'Tessera', points: 'Punti' }), programId: PROGRAM_ID });
  });

  it('sends the welcome of imported customers only with the program they join, chosen in the wizard', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    answer(detail);
    const uploads = answerUpload(detail());
    renderPage('/imports?import=new');
    const wizard = await screen.findByRole('dialog', { name: 'Nuova importazione' });
    await user.upload(fileInput(wizard), csv(['Nome;Cognome;E-mail', 'Giada;Rossi;giada@example.it']));
    const program = await within(wizard).findByLabelText('Programma a cui iscrivere i clienti', { selector: 'input' });
    const check = within(wizard).getByRole('button', { name: 'Verifica il file' });
    expect(check).toBeEnabled();
    await user.click(within(wizard).getByRole('checkbox', { name: /Invia il benvenuto/ }));
    expect(within(wizard).getByText('Scegli il programma: il benvenuto parte da lì')).toBeInTheDocument();
    expect(check).toBeDisabled();
    await user.click(program);
    await user.click(await screen.findByRole('option', { name: 'Circuito Centro', hidden: true }));
    await user.click(check);
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(uploads[0]!.fields).toMatchObject({ kind: 'customers', dryRun: 'true', programId: PROGRAM_ID, sendWelcome: 'true' });
  });

  it('shows the dry run with its row errors, starts the valid rows and follows the progress to the report', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let current = detail();
    const { changes } = answer(() => current);
    renderPage(`/imports?import=${IMPORT_ID}`);
    const drawer = await screen.findByRole('dialog', { name: 'Importazione' });
    expect(await within(drawer).findByText('4 righe')).toBeInTheDocument();
    expect(within(drawer).getByText('2 valide')).toBeInTheDocument();
    expect(within(drawer).getByText('2 con errori')).toBeInTheDocument();
    expect(within(drawer).getByText('Formato: Excel italiano (separatore punto e virgola)')).toBeInTheDocument();
    const errors = within(drawer).getByRole('table', { name: /Le righe con errori non vengono importate/ });
    expect(within(errors).getByRole('row', { name: '3 Data di nascita Data di nascita non è valida' })).toBeInTheDocument();
    expect(within(errors).getByRole('row', { name: '5 Provincia Provincia non è valida' })).toBeInTheDocument();
    expect(within(drawer).queryByRole('progressbar')).toBeNull();

    // Started: running at 50 %, then (at the next poll) done.
    current = detail({ status: 'running', progress: 50, processedRows: 2, importedRows: 1, startedAt: '2026-11-20T09:01:00.000Z' });
    await user.click(within(drawer).getByRole('button', { name: 'Importa 2 righe valide' }));
    await waitFor(() => expect(changes).toEqual(['start']));
    expect(await within(drawer).findByText('50% · 2 di 4 righe elaborate · 1 importata')).toBeInTheDocument();
    current = detail({ status: 'done', progress: 100, processedRows: 4, importedRows: 2, skippedRows: 2, report: { imported: 2, skipped: 2, errors: 2 } });
    expect(await within(drawer).findByText('Importazione completata')).toBeInTheDocument();
    expect(within(drawer).getByText('Importate: 2 · saltate: 2 · righe con errori: 2')).toBeInTheDocument();
    expect(within(drawer).getByRole('progressbar', { name: "Avanzamento dell'importazione" })).toHaveAttribute('aria-valuenow', '100');
    expect(within(drawer).queryByRole('button', { name: "Annulla l'importazione" })).toBeNull();
  });

  it('says one valid row in the singular, as the operator reads it (“1 valida”, not “1 valide”)', async () => {
    answer(() => detail({ totalRows: 2, validRows: 1, errorRows: 1 }));
    renderPage(`/imports?import=${IMPORT_ID}`);
    const drawer = await screen.findByRole('dialog', { name: 'Importazione' });
    expect(await within(drawer).findByText('1 valida')).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Importa 1 riga valida' })).toBeEnabled();
  });

  it('offers to resume an import that failed', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let current = detail({ status: 'failed', progress: 50, processedRows: 2, importedRows: 1 });
    const { changes } = answer(() => current);
    renderPage(`/imports?import=${IMPORT_ID}`);
    const drawer = await screen.findByRole('dialog', { name: 'Importazione' });
    expect(await within(drawer).findByText('Non riuscita')).toBeInTheDocument();
    current = detail({ status: 'done', progress: 100, processedRows: 4, importedRows: 2, report: { imported: 2, skipped: 2, errors: 2 } });
    await user.click(within(drawer).getByRole('button', { name: "Riprendi l'importazione" }));
    await waitFor(() => expect(changes).toEqual(['start']));
    expect(await within(drawer).findByText('Importazione completata')).toBeInTheDocument();
  });

  it('cancels a running import only after a confirmation: a cancelled import cannot be resumed', async () => {
    document.cookie = 'XSRF-TOKEN=t; path=/';
    const user = userEvent.setup();
    let current = detail({ status: 'running', progress: 50, processedRows: 2, importedRows: 1 });
    const { changes } = answer(() => current);
    renderPage(`/imports?import=${IMPORT_ID}`);
    const drawer = await screen.findByRole('dialog', { name: 'Importazione' });
    await user.click(await within(drawer).findByRole('button', { name: "Annulla l'importazione" }));
    let confirm = await screen.findByRole('dialog', { name: "Annullare l'importazione?" });
    expect(within(confirm).getByText(/non si può più avviare né riprendere/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Torna indietro' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Annullare l'importazione?" })).toBeNull());
    expect(changes).toEqual([]);

    current = detail({ status: 'cancelled', progress: 50, processedRows: 2, importedRows: 1, report: { imported: 1, skipped: 0, errors: 1 } });
    await user.click(within(drawer).getByRole('button', { name: "Annulla l'importazione" }));
    confirm = await screen.findByRole('dialog', { name: "Annullare l'importazione?" });
    await user.click(within(confirm).getByRole('button', { name: "Annulla l'importazione" }));
    await waitFor(() => expect(changes).toEqual(['cancel']));
    expect(await within(drawer).findByText('Importazione annullata')).toBeInTheDocument();
  });
});
