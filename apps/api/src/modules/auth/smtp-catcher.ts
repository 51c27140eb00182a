import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import PostalMime, { type Email } from 'postal-mime';

/**
 * Test support: a real SMTP server on a free loopback port that keeps every message it receives,
 * parsed, so that identity tests can read the e-mails the API sends through nodemailer.
 */
export type SmtpCatcher = {
  url: string;
  messages: Email[];
  /** Resolves with the first message (already received or still to come) that matches. */
  waitFor(match: (email: Email) => boolean, timeoutMs?: number): Promise<Email>;
  close(): Promise<void>;
};

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
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('no matching e-mail arrived'));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
