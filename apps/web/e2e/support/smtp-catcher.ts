import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server on a free loopback port that keeps every message the API sends, parsed. */
export type SmtpCatcher = {
  url: string;
  /** The first message (already received or still to come) addressed to `to`. */
  waitForMessageTo(to: string, timeoutMs?: number): Promise<Email>;
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

  const isAddressedTo = (email: Email, to: string) => (email.to ?? []).some((recipient) => recipient.address?.toLowerCase() === to.toLowerCase());

  return {
    url: `smtp://127.0.0.1:${port}`,
    waitForMessageTo(to, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find((email) => isAddressedTo(email, to));
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No e-mail to ${to} arrived within ${timeoutMs} ms (received: ${messages.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
