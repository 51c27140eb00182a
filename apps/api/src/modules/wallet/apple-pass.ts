import { PKPass } from 'passkit-generator';
import { rewardsReadyOf } from '@sf/contract/ledger';
import type { AppleWallet } from './wallet-config.ts';
import { solidPng } from './solid-png.ts';

/**
 * Apple Wallet's `storeCard` pass for a membership (issue 27), built and signed by passkit-generator:
 * pass.json, the images, manifest.json (SHA-1 of every file) and the detached PKCS#7 `signature` made
 * with the Pass Type ID certificate and Apple's WWDR certificate. The texts are Italian: the pass is
 * made once for a customer of an Italian business (Wallet shows it in any phone language).
 */
export type PassContent = {
  serialNumber: string;
  authenticationToken: string;
  webServiceUrl: string;
  programName: string;
  programType: 'points' | 'stamps';
  balance: number;
  stamps: number;
  stampsRequired: number | null;
  tier: string | null;
  holderName: string;
  cardNumber: string;
  /** `<card number>-<code>` (decision record 030): what the till scans, never the bare number. */
  barcodeMessage: string;
  backgroundColor: string | null;
  foregroundColor: string | null;
  logo: string | null;
  terms: string | null;
  merchants: string[];
  cardPageUrl: string | null;
  isVoided: boolean;
};

const DEFAULT_BACKGROUND = '#1c3d5a';
const DEFAULT_FOREGROUND = '#ffffff';

const rgb = (color: string) => `rgb(${[1, 3, 5].map((index) => Number.parseInt(color.slice(index, index + 2), 16)).join(', ')})`;

/** "7/10" for a stamp card, the points otherwise: the pass's primary field. */
export function balanceText(content: Pick<PassContent, 'programType' | 'balance' | 'stamps' | 'stampsRequired'>): string | number {
  return content.programType === 'stamps' ? `${content.stamps}/${content.stampsRequired ?? '?'}` : content.balance;
}

/** "1 premio da ritirare", "2 premi da ritirare" for a full stamp card (on the pass and in Google Wallet), or null. */
export function rewardsReadyText(content: Pick<PassContent, 'programType' | 'stamps' | 'stampsRequired'>): string | null {
  const count = rewardsReadyOf(content);
  if (count === 0) return null;
  return count === 1 ? '1 premio da ritirare' : `${count} premi da ritirare`;
}

export function passJsonOf(apple: AppleWallet, content: PassContent): Record<string, unknown> {
  const background = content.backgroundColor ?? DEFAULT_BACKGROUND;
  const foreground = content.foregroundColor ?? DEFAULT_FOREGROUND;
  const rewardsReady = rewardsReadyText(content);
  const backFields = [
    ...(content.terms ? [{ key: 'terms', label: 'Regolamento', value: content.terms }] : []),
    ...(content.merchants.length > 0 ? [{ key: 'merchants', label: 'Esercenti', value: content.merchants.join('\n') }] : []),
    { key: 'cardNumber', label: 'Numero tessera', value: content.cardNumber },
    ...(content.cardPageUrl ? [{ key: 'cardPage', label: 'La tua tessera online', value: content.cardPageUrl }] : []),
  ];
  return {
    formatVersion: 1,
    passTypeIdentifier: apple.passTypeId,
    teamIdentifier: apple.teamId,
    serialNumber: content.serialNumber,
    authenticationToken: content.authenticationToken,
    webServiceURL: content.webServiceUrl,
    organizationName: content.programName,
    description: `Tessera ${content.programName}`,
    logoText: content.programName,
    backgroundColor: rgb(background),
    foregroundColor: rgb(foreground),
    labelColor: rgb(foreground),
    sharingProhibited: true,
    voided: content.isVoided,
    barcodes: [
      { format: 'PKBarcodeFormatQR', message: content.barcodeMessage, messageEncoding: 'iso-8859-1', altText: content.cardNumber },
      { format: 'PKBarcodeFormatCode128', message: content.barcodeMessage, messageEncoding: 'iso-8859-1', altText: content.cardNumber },
    ],
    storeCard: {
      headerFields: content.tier ? [{ key: 'tier', label: 'Livello', value: content.tier, changeMessage: 'Nuovo livello: %@' }] : [],
      primaryFields: [
        {
          key: 'balance',
          label: content.programType === 'stamps' ? 'Timbri' : 'Punti',
          value: balanceText(content),
          changeMessage: content.programType === 'stamps' ? 'Timbri: %@' : 'Saldo punti: %@',
        },
      ],
      secondaryFields: [{ key: 'holder', label: 'Titolare', value: content.holderName }],
      // A full card, in words: the stamps' own change message already tells the phone when they change.
      auxiliaryFields: rewardsReady ? [{ key: 'rewardsReady', label: 'Alla cassa', value: rewardsReady }] : [],
      backFields,
    },
  };
}

/** The signed `.pkpass` (a zip). */
export function buildApplePass(apple: AppleWallet, content: PassContent): Buffer {
  const background = content.backgroundColor ?? DEFAULT_BACKGROUND;
  const logo = content.logo ? Buffer.from(content.logo.slice(content.logo.indexOf(',') + 1), 'base64') : null;
  const icon = logo ?? solidPng(58, 58, background);
  const pass = new PKPass(
    {
      'pass.json': Buffer.from(JSON.stringify(passJsonOf(apple, content))),
      'icon.png': icon,
      ...(logo ? { 'logo.png': logo } : {}),
    },
    {
      wwdr: apple.wwdrPem,
      signerCert: apple.certPem,
      signerKey: apple.keyPem,
      ...(apple.keyPassphrase ? { signerKeyPassphrase: apple.keyPassphrase } : {}),
    },
  );
  return pass.getAsBuffer();
}
