import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { readPem, type WalletFixtures } from './wallet-fixtures.ts';

/**
 * A local APNs for the wallet's tests: HTTP/2 over TLS with the test authority's server certificate,
 * and the checks Apple makes on a pass update — a client certificate from the authority whose subject
 * UID is the pass type id, `POST /3/device/<token>`, `apns-topic` = that pass type id. Each accepted
 * push is recorded; `gone` tokens answer 410 (Unregistered), as APNs does for a removed pass.
 */
export type ApnsStandIn = {
  url: string;
  pushes: { token: string; topic: string; body: string }[];
  refused: string[];
  gone: Set<string>;
  close(): Promise<void>;
};

export async function startApnsStandIn(wallet: WalletFixtures, port = 0): Promise<ApnsStandIn> {
  const pushes: ApnsStandIn['pushes'] = [];
  const refused: string[] = [];
  const gone = new Set<string>();
  const server = http2.createSecureServer({
    key: readPem(wallet.files.serverKey),
    cert: readPem(wallet.files.serverCert),
    ca: readPem(wallet.files.caCert),
    requestCert: true,
    rejectUnauthorized: true,
  });
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    let body = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => {
      const peer = (stream.session?.socket as TLSSocket | undefined)?.getPeerCertificate();
      const path = String(headers[':path']);
      const topic = String(headers['apns-topic'] ?? '');
      const token = /^\/3\/device\/([^/]+)$/.exec(path)?.[1];
      const answer = (status: number, reason?: string) => {
        stream.respond({ ':status': status, 'apns-id': '00000000-0000-0000-0000-000000000001' });
        stream.end(reason ? JSON.stringify({ reason }) : undefined);
      };
      if (headers[':method'] !== 'POST' || !token) return refused.push(`path ${path}`), answer(405, 'MethodNotAllowed');
      if (!peer || peer.subject?.UID !== wallet.passTypeId) return refused.push(`certificate ${peer?.subject?.UID}`), answer(403, 'BadCertificate');
      if (topic !== wallet.passTypeId) return refused.push(`topic ${topic}`), answer(400, 'TopicDisallowed');
      if (gone.has(token)) return answer(410, 'Unregistered');
      pushes.push({ token, topic, body });
      answer(200);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${address.port}`,
    pushes,
    refused,
    gone,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Open sessions would keep close() waiting.
        for (const session of sessions) session.destroy();
      }),
  };
}
