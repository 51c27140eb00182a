import { connect } from 'node:http2';
import type { AppleWallet } from './wallet-config.ts';

/**
 * The push that tells a device "a pass of yours changed" (Apple's PassKit update protocol): HTTP/2 to
 * APNs, the Pass Type ID certificate as TLS client certificate, `apns-topic` = the pass type id, an
 * empty JSON payload; the device then asks the web service which serials changed.
 * `sent`; `gone`: APNs says the token is dead (410, or 400 BadDeviceToken) — forget it. Anything else
 * (unreachable, 5xx, 429) throws, and the job is retried later with a growing delay.
 */
export async function pushPassUpdate(apple: AppleWallet, pushToken: string, timeoutMs = 10_000): Promise<'sent' | 'gone'> {
  const session = connect(apple.apnsUrl, {
    cert: apple.certPem,
    key: apple.keyPem,
    ...(apple.keyPassphrase ? { passphrase: apple.keyPassphrase } : {}),
    ...(apple.apnsCa ? { ca: apple.apnsCa } : {}),
  });
  try {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`APNs did not answer within ${timeoutMs} ms`)), timeoutMs);
      session.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      const request = session.request({
        ':method': 'POST',
        ':path': `/3/device/${encodeURIComponent(pushToken)}`,
        'apns-topic': apple.passTypeId,
        'content-type': 'application/json',
      });
      let status = 0;
      let body = '';
      request.setEncoding('utf8');
      request.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        clearTimeout(timer);
        resolve({ status, body });
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.end('{}');
    });
    if (status === 200) return 'sent';
    if (status === 410 || (status === 400 && body.includes('BadDeviceToken'))) return 'gone';
    throw new Error(`APNs answered ${status} ${body.slice(0, 200)}`);
  } finally {
    session.close();
  }
}
