import QRCode from 'qrcode';
import type { Language } from '@sf/contract/app-info';
import { rewardsReadyOf } from '@sf/contract/ledger';

/**
 * The customer's card page (`APP_URL/c/<token>`, issue 27): server-rendered HTML, no JavaScript, one
 * inline style sheet and the card's QR code as inline SVG, so that it opens on any phone in one
 * request (well under 20 KiB on the wire; the logo is a separate, cached image). Italian by default,
 * English when the browser asks for it. A 40-character voucher code, a long name or program name break
 * inside the 390 px of a phone (`overflow-wrap:anywhere`) instead of widening the page past its screen.
 */
export type CardPageData = {
  language: Language;
  programName: string;
  programType: 'points' | 'stamps';
  balance: number;
  stamps: number;
  stampsRequired: number | null;
  tier: string | null;
  firstName: string;
  cardNumber: string;
  barcodeMessage: string;
  backgroundColor: string | null;
  foregroundColor: string | null;
  logoUrl: string | null;
  terms: string | null;
  expiring: { points: number; expiresOn: string }[];
  vouchers: { code: string; name: string; validUntil: string | null }[];
  appleUrl: string | null;
  googleUrl: string | null;
};

const words = {
  it: {
    title: 'La tua tessera',
    hello: 'Ciao',
    points: 'Punti',
    stamps: 'Timbri',
    tier: 'Livello',
    card: 'Numero tessera',
    show: 'Mostra questo codice alla cassa',
    rewardsReady: (count: number) => (count === 1 ? 'Hai un premio da ritirare: mostra la tessera alla cassa' : `Hai ${count} premi da ritirare: mostra la tessera alla cassa`),
    expiring: 'Punti in scadenza',
    expiringLine: (points: string, date: string) => `${points} punti scadono il ${date}`,
    vouchers: 'Buoni disponibili',
    until: 'valido fino al',
    apple: 'Aggiungi a Apple Wallet',
    google: 'Salva in Google Wallet',
    terms: 'Regolamento',
    notFoundTitle: 'Tessera non trovata',
    notFound: 'Questo link non è valido o non è più attivo. Chiedi un nuovo link al tuo esercente.',
  },
  en: {
    title: 'Your card',
    hello: 'Hello',
    points: 'Points',
    stamps: 'Stamps',
    tier: 'Tier',
    card: 'Card number',
    show: 'Show this code at the till',
    rewardsReady: (count: number) => (count === 1 ? 'You have a reward to collect: show your card at the till' : `You have ${count} rewards to collect: show your card at the till`),
    expiring: 'Points expiring',
    expiringLine: (points: string, date: string) => `${points} points expire on ${date}`,
    vouchers: 'Your vouchers',
    until: 'valid until',
    apple: 'Add to Apple Wallet',
    google: 'Save to Google Wallet',
    terms: 'Terms',
    notFoundTitle: 'Card not found',
    notFound: 'This link is not valid or no longer active. Ask your shop for a new link.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

const locale = (language: Language) => (language === 'it' ? 'it-IT' : 'en-GB');

function formatDate(date: string, language: Language): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale(language), { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, day ?? 1)),
  );
}

/** Four digits a group, as printed on the card: `2790 0000 0002 0`. */
const groupDigits = (cardNumber: string) => cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ');

function page(language: Language, title: string, style: string, body: string): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${style}</style></head><body>${body}</body></html>`;
}

const BASE_STYLE =
  'body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f3f4f6;color:#111827}main{max-width:26rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}' +
  '.card{border-radius:1rem;padding:1.25rem;background:var(--bg);color:var(--fg);box-shadow:0 4px 14px rgba(0,0,0,.15)}.head{display:flex;align-items:center;gap:.75rem}' +
  '.head img{width:3rem;height:3rem;border-radius:.5rem;object-fit:contain;background:#fff}h1{font-size:1.25rem;margin:0}.balance{font-size:2.5rem;font-weight:700;margin:.75rem 0 0}.ready{font-weight:600;margin:.25rem 0 .5rem}' +
  '.label{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;opacity:.85}.row{display:flex;justify-content:space-between;gap:1rem;margin-top:.5rem}' +
  '.qr{background:#fff;border-radius:.75rem;padding:.75rem;margin-top:1rem;text-align:center;color:#111827}.qr svg{width:100%;max-width:15rem;height:auto;display:block;margin:0 auto}' +
  '.num{font:600 1.1rem ui-monospace,Menlo,Consolas,monospace;letter-spacing:.08em}section{background:#fff;border-radius:.75rem;padding:1rem;margin-top:1rem}' +
  'h2{font-size:1rem;margin:0 0 .5rem}ul{margin:0;padding-left:1.1rem}.btn{display:block;text-align:center;padding:.8rem;border-radius:.6rem;margin-top:.75rem;' +
  'background:#000;color:#fff;text-decoration:none;font-weight:600}.btn.g{background:#fff;color:#1f2937;border:1px solid #d1d5db}.small{font-size:.85rem;color:#4b5563;white-space:pre-line}';

/** The page of a live card. */
export async function renderCardPage(data: CardPageData): Promise<string> {
  const t = words[data.language];
  const numbers = new Intl.NumberFormat(locale(data.language));
  const qr = await QRCode.toString(data.barcodeMessage, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  const isStamps = data.programType === 'stamps';
  const balance = isStamps ? `${data.stamps}/${data.stampsRequired ?? '?'}` : numbers.format(data.balance);
  const rewardsReady = rewardsReadyOf(data);
  const colours = `:root{--bg:${data.backgroundColor ?? '#1c3d5a'};--fg:${data.foregroundColor ?? '#ffffff'}}`;
  const expiring = data.expiring.length
    ? `<section><h2>${t.expiring}</h2><ul>${data.expiring
        .map((lot) => `<li>${escapeHtml(t.expiringLine(numbers.format(lot.points), formatDate(lot.expiresOn, data.language)))}</li>`)
        .join('')}</ul></section>`
    : '';
  const vouchers = data.vouchers.length
    ? `<section><h2>${t.vouchers}</h2><ul>${data.vouchers
        .map(
          (voucher) =>
            `<li>${escapeHtml(voucher.name)}: <span class="num">${escapeHtml(voucher.code)}</span>${voucher.validUntil ? ` (${t.until} ${formatDate(voucher.validUntil, data.language)})` : ''}</li>`,
        )
        .join('')}</ul></section>`
    : '';
  const buttons =
    (data.appleUrl ? `<a class="btn" href="${escapeHtml(data.appleUrl)}">${t.apple}</a>` : '') +
    (data.googleUrl ? `<a class="btn g" href="${escapeHtml(data.googleUrl)}">${t.google}</a>` : '');
  const body =
    `<main><div class="card"><div class="head">${data.logoUrl ? `<img src="${escapeHtml(data.logoUrl)}" alt="">` : ''}<div><div class="label">${t.title}</div>` +
    `<h1>${escapeHtml(data.programName)}</h1></div></div>` +
    `<div class="label" style="margin-top:1rem">${isStamps ? t.stamps : t.points}</div><p class="balance">${balance}</p>` +
    (rewardsReady > 0 ? `<p class="ready">${t.rewardsReady(rewardsReady)}</p>` : '') +
    `<div class="row"><div><div class="label">${t.hello}</div>${escapeHtml(data.firstName)}</div>${data.tier ? `<div><div class="label">${t.tier}</div>${escapeHtml(data.tier)}</div>` : ''}</div>` +
    `<div class="qr" role="img" aria-label="${escapeHtml(t.show)}">${qr}<div class="label">${t.card}</div><div class="num">${groupDigits(escapeHtml(data.cardNumber))}</div>` +
    `<div class="small">${t.show}</div></div></div>${buttons}${expiring}${vouchers}` +
    (data.terms ? `<section><h2>${t.terms}</h2><p class="small">${escapeHtml(data.terms)}</p></section>` : '') +
    '</main>';
  return page(data.language, `${t.title} · ${data.programName}`, colours + BASE_STYLE, body);
}

/** An unknown, replaced or revoked link: the same page whatever the reason. */
export function renderCardNotFound(language: Language): string {
  const t = words[language];
  return page(language, t.notFoundTitle, BASE_STYLE, `<main><section><h1>${t.notFoundTitle}</h1><p>${t.notFound}</p></section></main>`);
}
