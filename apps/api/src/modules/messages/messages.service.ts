import mjml2html from 'mjml';
import sanitizeHtml from 'sanitize-html';
import type { Language } from '@sf/contract/app-info';
import type { CampaignPlaceholder } from '@sf/contract/campaigns';
import QRCode from 'qrcode';
import { nameForMail, type InlineImage } from '../../lib/mailer.ts';

/**
 * Our e-mails' HTML comes from MJML (responsive tables that Outlook and Gmail render alike) and always
 * travels with a plain-text part. MJML costs ~10–20 ms per document, so a campaign's document is
 * rendered once with markers in place of the per-recipient values, and each recipient's copy is a
 * string replacement (escaped): 100,000 recipients cost one render.
 */
export type RenderedTemplate = { subject: string; html: string; text: string; attachments?: InlineImage[] };

/** Per-recipient values; `{{nome}}` in a campaign's subject or body is the first name. */
export type RecipientValues = { firstName: string; unsubscribeUrl: string };

const NAME_MARK = '%%SF_NOME%%';
const UNSUBSCRIBE_MARK = '%%SF_UNSUBSCRIBE%%';

const FOOTER = {
  it: {
    why: 'Ricevi questa e-mail perché hai dato il consenso alle comunicazioni promozionali.',
    unsubscribe: 'Non ricevere più queste e-mail',
  },
  en: {
    why: 'You receive this e-mail because you agreed to receive promotional messages.',
    unsubscribe: 'Stop receiving these e-mails',
  },
} as const;

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Each placeholder a campaign may use (CAMPAIGN_PLACEHOLDERS, which the contract's schemas allow on
 * save) → its marker: typed by that list, so a name added there without a value here does not compile.
 */
const PLACEHOLDER_MARKS: Record<CampaignPlaceholder, string> = { nome: NAME_MARK };

/** `{{nome}}` (and `{{ nome }}`) → the marker. */
const markPlaceholders = (value: string) =>
  Object.entries(PLACEHOLDER_MARKS).reduce((text, [name, mark]) => text.replace(new RegExp(`\\{\\{\\s*${name}\\s*\\}\\}`, 'gi'), mark), value);

/** Sanitised rich text as plain text: paragraphs and list items on their own lines, links as "text (address)". */
export function richTextToPlain(html: string): string {
  const withBreaks = html
    .replace(/<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, (_m, href: string, label: string) => `${label} (${href})`)
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '\n• ')
    .replace(/<\/(p|h2|h3|h4|blockquote|pre|ul|ol)>/gi, '\n\n')
    .replace(/<hr\s*\/?>/gi, '\n----\n');
  const text = sanitizeHtml(withBreaks, { allowedTags: [], allowedAttributes: {} })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  return text
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The head every e-mail of ours shares: its title, the inbox's preview line when there is one, our type. */
function documentHead(subject: string, preheader = ''): string {
  return `<mj-head>
    <mj-title>${escapeHtml(subject)}</mj-title>
    ${preheader ? `<mj-preview>${escapeHtml(preheader)}</mj-preview>` : ''}
    <mj-attributes>
      <mj-all font-family="Helvetica, Arial, sans-serif" />
      <mj-text font-size="15px" line-height="1.5" color="#1f2933" />
    </mj-attributes>
  </mj-head>`;
}

/**
 * A campaign's document, once: the subject line, the preheader (the inbox's preview line), the body
 * (already sanitised against the news editor's allow-list), and the footer with the unsubscribe link.
 */
export async function renderCampaignTemplate(input: { subject: string; preheader: string; body: string; language: Language }): Promise<RenderedTemplate> {
  const footer = FOOTER[input.language];
  const body = markPlaceholders(input.body);
  const source = `<mjml lang="${input.language}">
  ${documentHead(input.subject, input.preheader)}
  <mj-body background-color="#f4f5f7">
    <mj-section background-color="#ffffff" padding="24px 16px">
      <mj-column>
        <mj-text>${body}</mj-text>
      </mj-column>
    </mj-section>
    <mj-section padding="12px 16px">
      <mj-column>
        <mj-text font-size="12px" color="#52606d" align="center">${escapeHtml(footer.why)}<br /><a href="${UNSUBSCRIBE_MARK}" style="color:#52606d">${escapeHtml(footer.unsubscribe)}</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const result = await mjml2html(source, { validationLevel: 'soft', minify: false });
  const text = `${richTextToPlain(body)}\n\n--\n${footer.why}\n${footer.unsubscribe}: ${UNSUBSCRIBE_MARK}\n`;
  return { subject: markPlaceholders(input.subject), html: result.html, text };
}

/** One recipient's copy: the markers replaced (escaped in HTML). */
export function personalise(template: RenderedTemplate, values: RecipientValues): RenderedTemplate {
  const name = nameForMail(values.firstName);
  return {
    subject: template.subject.replaceAll(NAME_MARK, name),
    html: template.html.replaceAll(NAME_MARK, escapeHtml(name)).replaceAll(UNSUBSCRIBE_MARK, escapeHtml(values.unsubscribeUrl)),
    text: template.text.replaceAll(NAME_MARK, name).replaceAll(UNSUBSCRIBE_MARK, values.unsubscribeUrl),
  };
}

/**
 * A campaign's subject as one recipient received it: `{{nome}}` replaced as `personalise` replaces it
 * (the customer page's "Messaggi" expands the stored template with the customer's name, so the log
 * keeps no name of its own and an erasure of the name reaches it too).
 */
export function personaliseSubject(subject: string, firstName: string): string {
  return markPlaceholders(subject).replaceAll(NAME_MARK, nameForMail(firstName));
}

/**
 * RFC 8058 one-click unsubscribe: mail providers show their own "unsubscribe" button and POST
 * `List-Unsubscribe=One-Click` to the address, without opening a page.
 */
export function unsubscribeHeaders(unsubscribeUrl: string): Record<string, string> {
  return { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' };
}

export function unsubscribeUrlFor(appUrl: string, token: string): string {
  return `${appUrl.replace(/\/+$/, '')}/u/${token}`;
}

// ---- Service e-mails (the welcome, a voucher, the birthday bonus, points expiring) ------------------

/** The content id of a voucher's QR code in its e-mail (`<img src="cid:…">`). */
export const VOUCHER_QR_CID = 'voucher-qr@social-fidelity';

const QR_ALT = {
  it: (code: string) => `Codice QR del buono ${code}`,
  en: (code: string) => `QR code of voucher ${code}`,
} as const;

/** A voucher code as a QR PNG, to scan at the till from the phone's screen. */
async function voucherQr(code: string): Promise<InlineImage> {
  const content = await QRCode.toBuffer(code, { type: 'png', margin: 1, width: 240, errorCorrectionLevel: 'M' });
  return { filename: 'buono-qr.png', content, contentType: 'image/png', cid: VOUCHER_QR_CID };
}

const SERVICE_FOOTER = {
  it: {
    why: 'Ricevi questa e-mail perché hai una tessera {{program}}: sono comunicazioni di servizio sulla tua tessera.',
    preferences: 'Le tue preferenze (promozioni e profilazione)',
  },
  en: {
    why: 'You receive this e-mail because you hold a {{program}} card: these are service messages about your card.',
    preferences: 'Your preferences (promotions and profiling)',
  },
} as const;

/** The look of a program's e-mails: its wallet colours and logo (issue 27). */
export type ProgramLook = { name: string; logoUrl: string | null; backgroundColor: string | null; foregroundColor: string | null };

const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** Plain text (already filled) as HTML paragraphs: escaped, blank lines between paragraphs, addresses as links. */
function plainToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0)
    .map(
      (paragraph) =>
        `<p style="margin:0 0 14px">${escapeHtml(paragraph)
          .replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`)
          .replace(/\n/g, '<br />')}</p>`,
    )
    .join('');
}

/**
 * One service message, rendered for one customer: the program's header (logo on its colour), the
 * text (plain, filled in already), the buttons (the card page, the wallets), and the footer with the
 * preferences page (`/u/<token>`, where the customer can also stop profiling). Plain text always.
 */
export async function renderServiceMessage(input: {
  language: Language;
  subject: string;
  body: string;
  look: ProgramLook;
  buttons: { label: string; url: string }[];
  preferencesUrl: string;
  /** A voucher's code: shown as a QR image under the text (an inline CID part; the text keeps the code). */
  voucherCode?: string;
}): Promise<RenderedTemplate> {
  const footer = SERVICE_FOOTER[input.language];
  const qr = input.voucherCode ? await voucherQr(input.voucherCode) : null;
  const qrImage = input.voucherCode
    ? `<mj-image src="cid:${VOUCHER_QR_CID}" alt="${escapeHtml(QR_ALT[input.language](input.voucherCode))}" width="180px" padding="8px 0 16px" />`
    : '';
  const background = input.look.backgroundColor && HEX_COLOUR.test(input.look.backgroundColor) ? input.look.backgroundColor : '#1c3d5a';
  const foreground = input.look.foregroundColor && HEX_COLOUR.test(input.look.foregroundColor) ? input.look.foregroundColor : '#ffffff';
  const why = footer.why.replace('{{program}}', input.look.name);
  const header = input.look.logoUrl
    ? `<mj-image src="${escapeHtml(input.look.logoUrl)}" alt="${escapeHtml(input.look.name)}" width="96px" padding="0" />`
    : `<mj-text align="center" font-size="20px" font-weight="bold" color="${foreground}">${escapeHtml(input.look.name)}</mj-text>`;
  const buttons = input.buttons
    .map(
      (button) =>
        `<mj-button href="${escapeHtml(button.url)}" background-color="${background}" color="${foreground}" border-radius="6px">${escapeHtml(button.label)}</mj-button>`,
    )
    .join('\n');
  const source = `<mjml lang="${input.language}">
  ${documentHead(input.subject)}
  <mj-body background-color="#f4f5f7">
    <mj-section background-color="${background}" padding="16px">
      <mj-column>${header}</mj-column>
    </mj-section>
    <mj-section background-color="#ffffff" padding="24px 16px">
      <mj-column>
        <mj-text>${plainToHtml(input.body)}</mj-text>
        ${qrImage}
        ${buttons}
      </mj-column>
    </mj-section>
    <mj-section padding="12px 16px">
      <mj-column>
        <mj-text font-size="12px" color="#52606d" align="center">${escapeHtml(why)}<br /><a href="${escapeHtml(input.preferencesUrl)}" style="color:#52606d">${escapeHtml(footer.preferences)}</a></mj-text>
      </mj-column>
    </mj-section>
  </mj-body>
</mjml>`;
  const result = await mjml2html(source, { validationLevel: 'soft', minify: false });
  const buttonLines = input.buttons.map((button) => `${button.label}: ${button.url}`).join('\n');
  const text = `${input.body.trim()}\n${buttonLines ? `\n${buttonLines}\n` : ''}\n--\n${why}\n${footer.preferences}: ${input.preferencesUrl}\n`;
  return { subject: input.subject, html: result.html, text, ...(qr ? { attachments: [qr] } : {}) };
}
