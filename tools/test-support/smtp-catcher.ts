import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime, { type Email } from 'postal-mime';

/**
 * Test support, one copy for the API's tests and the browser journeys: a real SMTP server on a free
 * loopback port that keeps every message it receives, parsed, so that a test can read the e-mails the
 * API sends through nodemailer.
 */
export type SmtpCatcher = {
  url: string;
  messages: Email[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitFor(match: (email: Email) => boolean, timeoutMs?: number): Promise<Email>;
  /** The first message (already received or still to come) addressed to `to`. */
  waitForMessageTo(to: string, timeoutMs?: number): Promise<Email>;
  close(): Promise<void>;
};

/**
 * The token of an e-mail's link to `page` (`http://app.example.test/auth/reset-password`, or a path
 * alone where the origin does not matter): throws, naming the page, when the text has no such link.
 */
export function linkTokenIn(text: string | undefined, page: string): string {
  const escaped = page.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}\\?token=([^\\s"'<>]+)`).exec(text ?? '');
  if (!match?.[1]) throw new Error(`no ${page} link in: ${text}`);
  return decodeURIComponent(match[1]);
}

const isAddressedTo = (email: Email, to: string) =>
  (email.to ?? []).some((recipient) => recipient.address?.toLowerCase() === to.toLowerCase());

export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const messages: Email[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks))
          .then((email) => {
            messages.push(email);
            for (const wake of waiters) wake();
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const waitFor = (match: (email: Email) => boolean, timeoutMs = 10_000, what = 'matching'): Promise<Email> =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = messages.find(match);
        if (!found) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`No ${what} e-mail arrived within ${timeoutMs} ms (received: ${messages.length})`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor: (match, timeoutMs) => waitFor(match, timeoutMs),
    waitForMessageTo: (to, timeoutMs = 15_000) => waitFor((email) => isAddressedTo(email, to), timeoutMs, `addressed to ${to}`),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
