import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { importSPKI, jwtVerify } from 'jose';
import type { WalletFixtures } from './wallet-fixtures.ts';

/**
 * A local Google for the wallet's tests: the OAuth token endpoint, which accepts only a JWT-bearer
 * assertion signed by the service account's key (checked with its public key) for the Wallet scope,
 * and the Wallet API's `PATCH loyaltyObject/<id>`, which needs that token and answers 404 for an
 * object no customer has saved. Every patch it accepts is recorded.
 */
export type GoogleStandIn = {
  baseUrl: string;
  tokenUrl: string;
  apiUrl: string;
  saved: Set<string>;
  patches: { id: string; body: Record<string, unknown> }[];
  refused: string[];
  close(): Promise<void>;
};

const ACCESS_TOKEN = 'ya29.test-access-token';

export async function startGoogleStandIn(wallet: WalletFixtures): Promise<GoogleStandIn> {
  const publicKey = await importSPKI(wallet.serviceAccount.public_key, 'RS256');
  const saved = new Set<string>();
  const patches: GoogleStandIn['patches'] = [];
  const refused: string[] = [];
  let tokenUrl = '';
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      void (async () => {
        const send = (status: number, json: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(json));
        };
        if (request.method === 'POST' && request.url === '/token') {
          const form = new URLSearchParams(body);
          try {
            if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') throw new Error('grant_type');
            const { payload } = await jwtVerify(form.get('assertion') ?? '', publicKey, { audience: tokenUrl, issuer: wallet.serviceAccount.client_email });
            if (payload['scope'] !== 'https://www.googleapis.com/auth/wallet_object.issuer') throw new Error('scope');
            return send(200, { access_token: ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' });
          } catch (error) {
            refused.push(`token: ${(error as Error).message}`);
            return send(400, { error: 'invalid_grant' });
          }
        }
        const match = /^\/walletobjects\/v1\/loyaltyObject\/([^/?]+)$/.exec(request.url ?? '');
        if (request.method === 'PATCH' && match) {
          if (request.headers.authorization !== `Bearer ${ACCESS_TOKEN}`) return refused.push('patch: token'), send(401, { error: { code: 401 } });
          const id = decodeURIComponent(match[1]!);
          if (!saved.has(id)) return send(404, { error: { code: 404 } });
          const object = JSON.parse(body) as Record<string, unknown>;
          patches.push({ id, body: object });
          return send(200, object);
        }
        refused.push(`${request.method} ${request.url}`);
        send(404, { error: { code: 404 } });
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenUrl = `${baseUrl}/token`;
  return {
    baseUrl,
    tokenUrl,
    apiUrl: `${baseUrl}/walletobjects/v1`,
    saved,
    patches,
    refused,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
