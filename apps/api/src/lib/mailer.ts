import path from 'node:path';
import { mkdir, writeFile } from 'node:fs/promises';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { ErrorTextKey } from '@sf/contract/error-texts';
import { AppError } from './errors.ts';

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (a campaign's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
  /** Inline images, each referenced in the HTML as `cid:<cid>` (a voucher's QR code). */
  attachments?: InlineImage[];
};

/** A picture carried in the message itself: Gmail blocks `data:` images, a CID part shows everywhere. */
export type InlineImage = { filename: string; content: Buffer; contentType: string; cid: string };

/** Longest name put in an e-mail. */
const MAIL_NAME_MAX = 40;

/**
 * A name as it may appear in our e-mails: a registrant chooses it, so it must not be able to carry a
 * sentence with a link (a phishing line in "our" e-mail). Letters, combining marks, spaces,
 * apostrophes and hyphens only — no dots, colons, slashes, @ or digits, so nothing in it can pass for
 * an address or a link — collapsed, and cut to 40 characters. Plain text in both parts (escaped in HTML).
 */
export function nameForMail(name: string): string {
  const letters = name.normalize('NFC').replace(/[^\p{L}\p{M}' -]/gu, ' ').replace(/\s+/g, ' ').trim();
  return [...letters].slice(0, MAIL_NAME_MAX).join('').trim();
}

export type Mailer = {
  send(message: MailMessage): Promise<void>;
  /** `smtp` when SMTP_URL is set, `outbox` otherwise (B4). */
  kind: 'smtp' | 'outbox';
  /** Closes the pooled SMTP connections (the app's onClose). */
  close?(): void;
};

/**
 * nodemailer's codes for a conversation that never took place or broke off: connection refused or
 * reset (`ESOCKET`, `ECONNECTION`), no answer in time (`ETIMEDOUT`), a host name that does not resolve
 * (`EDNS`), a TLS handshake that failed (`ETLS`). A server that answers and refuses the message has a
 * `responseCode` instead; 421 is a server saying it is not available now.
 */
const UNREACHABLE_CODES = new Set(['ESOCKET', 'ECONNECTION', 'ETIMEDOUT', 'EDNS', 'ETLS']);

/** Whether a send failed because the mail server could not be reached, rather than because it refused the message. */
export function isMailServerUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  if (responseCode === 421) return true;
  return responseCode === undefined && typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

/**
 * Sends a message the staff member waits for (a campaign's test, a card link, an invitation). A mail
 * server that cannot be reached is an outage, not a bug: logged as the handled failure it is and
 * answered 503 `mail_unavailable` ("Il server di posta non risponde…", or `text` where the caller has
 * more to say); anything else is thrown as it came. Messages nobody waits for go through the job
 * runner, which retries them (decisions 034, 035).
 */
export async function sendAwaitedMail(
  deps: { mailer: Mailer; log: FastifyBaseLogger },
  message: MailMessage,
  detail: { what: string; text?: ErrorTextKey },
): Promise<void> {
  try {
    await deps.mailer.send(message);
  } catch (error) {
    if (!isMailServerUnreachable(error)) throw error;
    deps.log.error({ err: error, mail: detail.what }, 'mail server unreachable: e-mail not sent');
    throw new AppError(503, 'mail_unavailable', detail.text ? { text: detail.text } : {});
  }
}

/**
 * Real SMTP through nodemailer when configured; otherwise every message is written to
 * `<DATA_DIR>/outbox/` as an .eml file plus its plain-text body as a .txt file (links whole), so the
 * reset flow works offline. The log names the file, never a link: reset and confirmation links grant
 * access, and logs are read by more people than the mailbox's owner.
 */
export function createMailer(options: {
  smtpUrl?: string | undefined;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    // Bounded waits: identity e-mails are sent after the reply, and closing the app waits for them, so a
    // mail server that stops answering must not hold a shutdown for nodemailer's default 10 minutes.
    // Pooled: a campaign sends thousands of messages, and a new connection per message managed ~9 a
    // second against a local SMTP server (108 a second pooled), below CAMPAIGN_RATE_PER_MINUTE's default.
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      pool: true,
      maxConnections: 2,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(options.dataDir, 'outbox');
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await stream.sendMail({ from: options.from, ...message });
      await mkdir(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[<>@]/g, '')}.eml`);
      await writeFile(file, info.message as Buffer);
      await writeFile(file.replace(/\.eml$/, '.txt'), `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`);
      options.log.info({ subject: message.subject, file }, 'e-mail written to the outbox');
    },
  };
}
