import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';

/**
 * `npm run till -- <command> …` — a small command-line till for the integration API, so that a
 * newcomer can watch points flow into the back-office (README "A till on the command line").
 *
 *   npm run till -- purchase <card> <euro> [--program <id>] [--receipt <n>] [--idempotency-key <k>]
 *   npm run till -- card <card>
 *   npm run till -- check <voucher code>
 *   npm run till -- use <voucher code> [--idempotency-key <k>]
 *   npm run till -- redeem <scanned card> <reward id>
 *
 * <card> is the number alone or what a scanner reads from the card's QR code or barcode,
 * `<number>-<code>`, passed on verbatim; a redemption needs the latter (decision record 030).
 * The key comes from --key or TILL_API_KEY (create one in Pagine → Chiavi API); the server from --url
 * or TILL_URL (default http://localhost:3000). Answers are printed in Italian; the exit code is 0 on
 * success, 1 when the API refused, 2 on a usage error.
 */
const USAGE = `Uso: npm run till -- <comando> [argomenti] [--key sfk_…] [--url http://localhost:3000]

  purchase <tessera> <importo €> [--program <id>] [--receipt <n>] [--idempotency-key <k>]
                               registra un acquisto (es. purchase 2790000000018 24,50)
  card <tessera>               legge saldo, timbri, livello, punti in scadenza e premi vicini
  check <codice buono>         verifica un buono
  use <codice buono> [--idempotency-key <k>]
                               usa un buono (una volta sola; ripetuto con la stessa chiave, la stessa risposta)
  redeem <tessera letta> <id premio>
                               riscatta un premio ed emette il buono: serve ciò che il lettore legge
                               dal QR o dal codice a barre della tessera, numero-codice
                               (es. redeem 2790000000018-K7PXM2QD9W <id premio>)

<tessera> è il numero, oppure ciò che il lettore legge dalla tessera (numero-codice), così com'è.
La chiave si crea in Pagine → Chiavi API; si passa con --key o con TILL_API_KEY.`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    key: { type: 'string' },
    url: { type: 'string' },
    program: { type: 'string' },
    receipt: { type: 'string' },
    'idempotency-key': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

function usage(problem?: string): never {
  if (problem) console.error(`${problem}\n`);
  console.error(USAGE);
  process.exit(2);
}

const [command, ...args] = positionals;
if (values.help || !command) usage();
const key = values.key ?? process.env['TILL_API_KEY'];
if (!key) usage('Manca la chiave API: --key sfk_… oppure TILL_API_KEY.');
const base = (values.url ?? process.env['TILL_URL'] ?? 'http://localhost:3000').replace(/\/+$/, '');

type Answer = { status: number; body: Record<string, unknown> };

async function call(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(`${base}/api/integration/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'accept-language': 'it', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    console.error(`Server non raggiungibile su ${base}: ${(error as Error).message}`);
    process.exit(1);
  }
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

function failIfRefused(answer: Answer): void {
  if (answer.status < 400) return;
  const error = answer.body['error'] as { code?: string; message?: string; fields?: { field: string; message: string }[] } | undefined;
  console.error(`Rifiutato (${answer.status} ${error?.code ?? ''}): ${error?.message ?? ''}`);
  for (const field of error?.fields ?? []) console.error(`  - ${field.field}: ${field.message}`);
  process.exit(1);
}

const euro = (cents: number) => new Intl.NumberFormat('it-IT', { style: 'currency', currency: 'EUR' }).format(cents / 100);
const dateTime = (value: unknown) => (typeof value === 'string' ? new Date(value).toLocaleString('it-IT') : '—');

/** "24,50", "24.50" or "24" euro → cents, integer. */
function centsOf(text: string | undefined): number {
  if (!text || !/^\d+([.,]\d{1,2})?$/.test(text)) usage(`Importo non valido: ${text ?? '(mancante)'} — es. 24,50`);
  const [whole, fraction = ''] = text.replace(',', '.').split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

switch (command) {
  case 'purchase': {
    const [card, amount] = args;
    if (!card) usage('Manca il numero di tessera.');
    const amountCents = centsOf(amount);
    const idempotencyKey = values['idempotency-key'] ?? `till-${randomUUID()}`;
    const answer = await call(
      'POST',
      '/purchases',
      { cardNumber: card, amountCents, ...(values.program ? { programId: values.program } : {}), ...(values.receipt ? { receipt: values.receipt } : {}) },
      { 'idempotency-key': idempotencyKey },
    );
    failIfRefused(answer);
    const b = answer.body;
    const gained = Number(b['points']) > 0 ? `+${b['points']} punti` : `+${b['stamps']} timbri`;
    console.log(`Acquisto di ${euro(amountCents)} registrato sulla tessera ${b['cardNumber']}: ${gained}.`);
    console.log(`Saldo: ${b['balance']} punti, ${b['stampsBalance']} timbri${b['tier'] ? `, livello ${b['tier']}` : ''}. Movimento n. ${b['entryId']}.`);
    console.log(`Idempotency-Key: ${idempotencyKey} (ripetendola non si registra due volte).`);
    break;
  }
  case 'card': {
    const [card] = args;
    if (!card) usage('Manca il numero di tessera.');
    const answer = await call('GET', `/cards/${encodeURIComponent(card)}`);
    failIfRefused(answer);
    const b = answer.body as {
      cardNumber: string;
      initials: string;
      status: string;
      memberships: { programName: string; programType: string; balance: number; stamps: number; stampsRequired: number | null; tier: string | null; expiring: { points: number; expiresOn: string }[] }[];
      rewardsWithinReach: { name: string; isAffordable: boolean; missing: number; costPoints: number | null; costStamps: number | null }[];
    };
    console.log(`Tessera ${b.cardNumber} — titolare ${b.initials} (${b.status})`);
    if (b.memberships.length === 0) console.log('  Nessun programma di questo esercente.');
    for (const m of b.memberships) {
      const figure = m.programType === 'stamps' ? `${m.stamps}/${m.stampsRequired ?? '?'} timbri` : `${m.balance} punti`;
      console.log(`  ${m.programName}: ${figure}${m.tier ? `, livello ${m.tier}` : ''}`);
      for (const lot of m.expiring) console.log(`    ${lot.points} punti scadono il ${new Date(`${lot.expiresOn}T12:00:00Z`).toLocaleDateString('it-IT')}`);
    }
    for (const reward of b.rewardsWithinReach) {
      console.log(`  Premio «${reward.name}»: ${reward.isAffordable ? 'già riscattabile' : `mancano ${reward.missing}`}`);
    }
    break;
  }
  case 'check':
  case 'use': {
    const [code] = args;
    if (!code) usage('Manca il codice del buono.');
    const answer =
      command === 'check' ? await call('GET', `/vouchers/${encodeURIComponent(code)}`) : await call('POST', `/vouchers/${encodeURIComponent(code)}/use`, undefined, { 'idempotency-key': values['idempotency-key'] ?? `till-${randomUUID()}` });
    failIfRefused(answer);
    const b = answer.body as { code: string; status: string; usable: boolean; reason: string | null; reward: { name: string }; usedAt: string | null; validUntil: string | null };
    if (command === 'use') {
      console.log(`Buono ${b.code} usato: «${b.reward.name}» (${dateTime(b.usedAt)}).`);
    } else {
      console.log(`Buono ${b.code} — «${b.reward.name}» — stato ${b.status}${b.validUntil ? `, valido fino al ${dateTime(b.validUntil)}` : ''}.`);
      console.log(b.usable ? 'Utilizzabile qui, ora.' : `Non utilizzabile: ${b.reason}.`);
    }
    break;
  }
  case 'redeem': {
    const [card, rewardId] = args;
    if (!card || !rewardId) usage('Servono la tessera letta (numero-codice) e l\'id del premio.');
    if (!/^\d{13}-[A-Za-z0-9]{10}$/.test(card)) {
      usage('Per riscattare serve la tessera letta dal QR o dal codice a barre: numero-codice (es. 2790000000018-K7PXM2QD9W).');
    }
    const answer = await call('POST', '/redemptions', { cardNumber: card, rewardId }, { 'idempotency-key': values['idempotency-key'] ?? `till-${randomUUID()}` });
    failIfRefused(answer);
    const b = answer.body as { points: number; stamps: number; balance: number; voucher: { code: string; validUntil: string | null } };
    console.log(`Premio riscattato: buono ${b.voucher.code}${b.voucher.validUntil ? ` (valido fino al ${dateTime(b.voucher.validUntil)})` : ''}.`);
    console.log(`Scalati ${-b.points || -b.stamps}; saldo ${b.balance} punti.`);
    break;
  }
  default:
    usage(`Comando sconosciuto: ${command}`);
}
