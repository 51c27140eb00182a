import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * A throwaway wallet world for tests (issue 27): a stand-in for Apple's WWDR authority, a Pass Type ID
 * certificate it signed (subject UID = the pass type id, as Apple's are), a TLS certificate for a
 * local APNs stand-in signed by the same authority, and a Google service account key. Made with the
 * openssl CLI in a temporary folder; `remove()` deletes it.
 */
export type WalletFixtures = {
  dir: string;
  passTypeId: string;
  teamId: string;
  issuerId: string;
  files: { caCert: string; passCert: string; passKey: string; serverCert: string; serverKey: string; serviceAccount: string };
  serviceAccount: { client_email: string; private_key: string; public_key: string };
  env(extra?: Record<string, string>): Record<string, string>;
  remove(): void;
};

function openssl(cwd: string, args: string[]) {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

export function createWalletFixtures(options: { passphrase?: string } = {}): WalletFixtures {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-wallet-'));
  const passTypeId = 'pass.test.socialfidelity';
  const teamId = 'TEAM123456';
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=Test WWDR/O=Test/C=IT',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  const passKeyArgs = options.passphrase ? ['-passout', `pass:${options.passphrase}`] : ['-nodes'];
  openssl(dir, ['req', '-newkey', 'rsa:2048', ...passKeyArgs, '-keyout', 'pass.key', '-out', 'pass.csr', '-subj', `/UID=${passTypeId}/CN=Pass Type ID: ${passTypeId}/OU=${teamId}/O=Test/C=IT`]);
  writeFileSync(path.join(dir, 'pass.ext'), 'keyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n');
  openssl(dir, ['x509', '-req', '-in', 'pass.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'pass.pem', '-days', '2', '-extfile', 'pass.ext']);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(dir, ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'server.ext']);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccount = {
    type: 'service_account',
    client_email: 'wallet@test-project.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
  writeFileSync(path.join(dir, 'service-account.json'), JSON.stringify(serviceAccount));
  const files = {
    caCert: path.join(dir, 'ca.pem'),
    passCert: path.join(dir, 'pass.pem'),
    passKey: path.join(dir, 'pass.key'),
    serverCert: path.join(dir, 'server.pem'),
    serverKey: path.join(dir, 'server.key'),
    serviceAccount: path.join(dir, 'service-account.json'),
  };
  const issuerId = '3388000000022222222';
  return {
    dir,
    passTypeId,
    teamId,
    issuerId,
    files,
    serviceAccount,
    env(extra = {}) {
      return {
        APPLE_PASS_TYPE_ID: passTypeId,
        APPLE_TEAM_ID: teamId,
        APPLE_PASS_CERT: files.passCert,
        APPLE_PASS_KEY: files.passKey,
        ...(options.passphrase ? { APPLE_PASS_KEY_PASSPHRASE: options.passphrase } : {}),
        APPLE_WWDR_CERT: files.caCert,
        APNS_CA: files.caCert,
        GOOGLE_WALLET_ISSUER_ID: issuerId,
        GOOGLE_WALLET_SERVICE_ACCOUNT: files.serviceAccount,
        ...extra,
      };
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const readPem = (file: string) => readFileSync(file, 'utf8');

/** Unzips a .pkpass with the unzip CLI into a temporary folder: file name → bytes. */
export function unzipPass(bytes: Buffer): Map<string, Buffer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-pkpass-'));
  try {
    writeFileSync(path.join(dir, 'pass.pkpass'), bytes);
    execFileSync('unzip', ['-q', 'pass.pkpass', '-d', 'out'], { cwd: dir });
    return new Map(readdirSync(path.join(dir, 'out')).map((name) => [name, readFileSync(path.join(dir, 'out', name))]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl cms -verify` of the detached signature over manifest.json, trusting only the test authority. */
export function verifySignature(files: Map<string, Buffer>, caFile: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sf-pkpass-sig-'));
  try {
    writeFileSync(path.join(dir, 'signature'), files.get('signature')!);
    writeFileSync(path.join(dir, 'manifest.json'), files.get('manifest.json')!);
    return execFileSync('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', 'signature', '-content', 'manifest.json', '-CAfile', caFile, '-purpose', 'any', '-out', '/dev/null'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

