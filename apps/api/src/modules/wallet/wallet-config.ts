import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import type { Env } from '../../config/env.ts';

/**
 * The wallet's settings, read and checked once at start (issue 27, decision record 033). Each wallet
 * is either fully configured or absent (its endpoints answer 503 wallet_not_configured); a setting
 * that is present but wrong — a file missing, a certificate that does not parse, a key that does not
 * fit the certificate, a service account without its key — stops the start with a message naming it.
 */
export type AppleWallet = {
  passTypeId: string;
  teamId: string;
  certPem: string;
  keyPem: string;
  keyPassphrase: string | undefined;
  wwdrPem: string;
  apnsUrl: string;
  /** Extra authorities to trust for APNS_URL (a local stand-in in tests). */
  apnsCa: string | undefined;
};

export type GoogleWallet = {
  issuerId: string;
  clientEmail: string;
  privateKey: KeyObject;
  apiUrl: string;
  tokenUrl: string;
};

export type WalletConfig = { apple: AppleWallet | null; google: GoogleWallet | null };

export const APPLE_SETTINGS = ['APPLE_PASS_TYPE_ID', 'APPLE_TEAM_ID', 'APPLE_PASS_CERT', 'APPLE_PASS_KEY', 'APPLE_WWDR_CERT'] as const;
export const GOOGLE_SETTINGS = ['GOOGLE_WALLET_ISSUER_ID', 'GOOGLE_WALLET_SERVICE_ACCOUNT'] as const;

class WalletConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid wallet configuration (docs/operations.md, "The card in the customer's phone"):\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.name = 'WalletConfigError';
  }
}

function readText(setting: string, file: string, problems: string[]): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    problems.push(`${setting}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    return null;
  }
}

function certificateOf(setting: string, pem: string, problems: string[]): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    problems.push(`${setting}: not a PEM certificate`);
    return null;
  }
}

function loadApple(env: Env, problems: string[]): AppleWallet | null {
  const missing = APPLE_SETTINGS.filter((name) => !env[name]);
  if (missing.length === APPLE_SETTINGS.length) return null;
  if (missing.length > 0) {
    problems.push(`${missing.join(', ')}: needed with the other Apple Wallet settings (set all of ${APPLE_SETTINGS.join(', ')}, or none)`);
    return null;
  }
  const certPem = readText('APPLE_PASS_CERT', env.APPLE_PASS_CERT!, problems);
  const keyPem = readText('APPLE_PASS_KEY', env.APPLE_PASS_KEY!, problems);
  const wwdrPem = readText('APPLE_WWDR_CERT', env.APPLE_WWDR_CERT!, problems);
  const apnsCa = env.APNS_CA ? readText('APNS_CA', env.APNS_CA, problems) : null;
  if (certPem === null || keyPem === null || wwdrPem === null) return null;
  const certificate = certificateOf('APPLE_PASS_CERT', certPem, problems);
  certificateOf('APPLE_WWDR_CERT', wwdrPem, problems);
  let key: KeyObject | null = null;
  try {
    key = createPrivateKey({ key: keyPem, ...(env.APPLE_PASS_KEY_PASSPHRASE ? { passphrase: env.APPLE_PASS_KEY_PASSPHRASE } : {}) });
  } catch {
    problems.push('APPLE_PASS_KEY: not a PEM private key, or APPLE_PASS_KEY_PASSPHRASE does not open it');
  }
  if (certificate && key && !certificate.checkPrivateKey(key)) problems.push('APPLE_PASS_KEY: is not the key of APPLE_PASS_CERT');
  if (certificate && Date.parse(certificate.validTo) < Date.now()) problems.push(`APPLE_PASS_CERT: expired on ${certificate.validTo}`);
  return {
    passTypeId: env.APPLE_PASS_TYPE_ID!,
    teamId: env.APPLE_TEAM_ID!,
    certPem,
    keyPem,
    keyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE || undefined,
    wwdrPem,
    apnsUrl: env.APNS_URL,
    apnsCa: apnsCa ?? undefined,
  };
}

function loadGoogle(env: Env, problems: string[]): GoogleWallet | null {
  const missing = GOOGLE_SETTINGS.filter((name) => !env[name]);
  if (missing.length === GOOGLE_SETTINGS.length) return null;
  if (missing.length > 0) {
    problems.push(`${missing.join(', ')}: needed with the other Google Wallet setting (set both ${GOOGLE_SETTINGS.join(' and ')}, or neither)`);
    return null;
  }
  const text = readText('GOOGLE_WALLET_SERVICE_ACCOUNT', env.GOOGLE_WALLET_SERVICE_ACCOUNT!, problems);
  if (text === null) return null;
  let account: { client_email?: unknown; private_key?: unknown };
  try {
    account = JSON.parse(text) as typeof account;
  } catch {
    problems.push('GOOGLE_WALLET_SERVICE_ACCOUNT: not a JSON file (the service account key downloaded from Google Cloud)');
    return null;
  }
  if (typeof account.client_email !== 'string' || typeof account.private_key !== 'string') {
    problems.push('GOOGLE_WALLET_SERVICE_ACCOUNT: lacks client_email or private_key (a service account key file has both)');
    return null;
  }
  try {
    return {
      issuerId: env.GOOGLE_WALLET_ISSUER_ID!,
      clientEmail: account.client_email,
      privateKey: createPrivateKey(account.private_key),
      apiUrl: env.GOOGLE_WALLET_API_URL.replace(/\/$/, ''),
      tokenUrl: env.GOOGLE_OAUTH_TOKEN_URL,
    };
  } catch {
    problems.push('GOOGLE_WALLET_SERVICE_ACCOUNT: its private_key is not a PEM private key');
    return null;
  }
}

/** Throws (stopping the start) when a wallet's settings are present but unusable. */
export function loadWalletConfig(env: Env): WalletConfig {
  const problems: string[] = [];
  const apple = loadApple(env, problems);
  const google = loadGoogle(env, problems);
  if (problems.length > 0) throw new WalletConfigError(problems);
  return { apple, google };
}
