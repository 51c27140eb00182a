import { describe, expect, it } from 'vitest';
import {
  codiceFiscaleCheckCharacter,
  formatPhoneForReading,
  isProvince,
  isValidCodiceFiscale,
  isValidPartitaIva,
  isValidPersonalCodiceFiscale,
  isValidPostalCode,
  isValidSdiCode,
  PROVINCES,
  toE164,
} from './italian.ts';
import { cardNumberFor, isValidCardNumber, luhnCheckDigit } from './customers.ts';
import { createMerchantSchema } from './merchants.ts';
import { message } from './messages.ts';
import { createProgramSchema } from './programs.ts';
import { issueMessage } from './validation.ts';

describe('Partita IVA', () => {
  it.each(['00743110157', '00488410010', '07643520567', '00159560366', '04107060966'])('accepts the real number %s', (value) => {
    expect(isValidPartitaIva(value)).toBe(true);
  });

  it.each([
    ['00743110158', 'a wrong check digit'],
    ['00743110151', 'another wrong check digit'],
    ['0074311015', '10 digits'],
    ['007431101570', '12 digits'],
    ['0074311015A', 'a letter'],
    ['00000000000', 'all zeros'],
  ])('refuses %s (%s)', (value) => {
    expect(isValidPartitaIva(value)).toBe(false);
  });
});

describe('Codice Fiscale', () => {
  it('computes the check character of the classic example', () => {
    expect(codiceFiscaleCheckCharacter('RSSMRA85T10A562')).toBe('S');
  });

  it.each(['RSSMRA85T10A562S', 'rssmra85t10a562s', 'MRTMTT91D08F205J'])('accepts %s', (value) => {
    expect(isValidPersonalCodiceFiscale(value)).toBe(true);
  });

  it('accepts omocodia: digits replaced by letters, with the check character recomputed', () => {
    // 5 → R in the last digit position; the check character becomes E.
    expect(isValidPersonalCodiceFiscale('MRTMTT91D08F20RE')).toBe(true);
    // All seven digit positions replaced.
    const first15 = 'RSSMRAURTMLARPQ';
    expect(isValidPersonalCodiceFiscale(`${first15}${codiceFiscaleCheckCharacter(first15)}`)).toBe(true);
  });

  it.each([
    ['RSSMRA85T10A562T', 'a wrong check character'],
    ['MRTMTT91D08F20RG', 'omocodia with a wrong check character'],
    ['RSSMRA85Z10A562S', 'no month Z'],
    ['RSSMRA85T32A562S', 'day 32'],
    ['RSSMRA85T10A562', '15 characters'],
    ['RSSMRA85T10A56AS', 'a letter that is not an omocodia one (A)'],
  ])('refuses %s (%s)', (value) => {
    expect(isValidPersonalCodiceFiscale(value)).toBe(false);
  });

  it("accepts a company's 11-digit code by the Partita IVA rule", () => {
    expect(isValidCodiceFiscale('00743110157')).toBe(true);
    expect(isValidCodiceFiscale('00743110158')).toBe(false);
  });
});

describe('SDI, CAP, province, phone', () => {
  it('checks SDI codes of 7 letters or digits', () => {
    expect(isValidSdiCode('M5UXCR1')).toBe(true);
    expect(isValidSdiCode('0000000')).toBe(true);
    expect(isValidSdiCode('M5UXCR')).toBe(false);
    expect(isValidSdiCode('M5UXC-1')).toBe(false);
  });

  it('checks CAPs of 5 digits', () => {
    expect(isValidPostalCode('20121')).toBe(true);
    expect(isValidPostalCode('2012')).toBe(false);
    expect(isValidPostalCode('2012A')).toBe(false);
  });

  it('knows the official sigle and nothing else', () => {
    expect(PROVINCES).toHaveLength(111);
    expect(isProvince('MI')).toBe(true);
    expect(isProvince('su')).toBe(true);
    expect(isProvince('XX')).toBe(false);
    expect(isProvince('MIL')).toBe(false);
  });

  it('writes phone numbers as E.164 with Italy as the default country', () => {
    expect(toE164('347 123 4567')).toBe('+393471234567');
    expect(toE164('02 1234567')).toBe('+39021234567');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('123')).toBeNull();
  });

  it('writes stored numbers for reading: Italian ones in the national format, foreign ones with their country code', () => {
    expect(formatPhoneForReading('+393331234567')).toBe('333 123 4567');
    expect(formatPhoneForReading('+390212345678')).toBe('02 1234 5678');
    expect(formatPhoneForReading('+442079460958')).toBe('+44 20 7946 0958');
    expect(formatPhoneForReading('+41446681800')).toBe('+41 44 668 18 00');
    expect(formatPhoneForReading('not a number')).toBe('not a number');
  });
});

describe('card numbers', () => {
  it('issues 13 digits with a Luhn check digit that catches a typo', () => {
    expect(luhnCheckDigit('7992739871')).toBe(3);
    const card = cardNumberFor(42);
    expect(card).toMatch(/^279000000042\d$/);
    expect(isValidCardNumber(card)).toBe(true);
    const typo = `${card.slice(0, 11)}${(Number(card[11]) + 1) % 10}${card[12]}`;
    expect(isValidCardNumber(typo)).toBe(false);
  });
});

describe('the merchant form rules', () => {
  const valid = {
    legalName: 'Bar Centrale srl',
    vatNumber: '00743110157',
    category: 'bar',
    address: { street: 'Via Roma 1', city: 'Milano', province: 'mi', postalCode: '20121' },
  };

  it('normalises the province and the phone', () => {
    const parsed = createMerchantSchema.parse({ ...valid, phone: '347 1234567' });
    expect(parsed.address.province).toBe('MI');
    expect(parsed.phone).toBe('+393471234567');
  });

  it('needs a PEC for the SDI code 0000000', () => {
    const result = createMerchantSchema.safeParse({ ...valid, sdiCode: '0000000' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['pec']);
    expect(createMerchantSchema.safeParse({ ...valid, sdiCode: '0000000', pec: 'bar@pec.it' }).success).toBe(true);
  });

  it('names the field in Italian with the right agreement, and in English', () => {
    expect(message('invalid', 'it', { field: 'vatNumber' })).toBe('Partita IVA non è valida');
    expect(message('invalid', 'it', { field: 'taxCode' })).toBe('Codice fiscale non è valido');
    expect(message('invalid', 'en', { field: 'vatNumber' })).toBe('VAT number is not valid');
    expect(message('required', 'it', { field: 'merchantIds' })).toBe('Esercenti sono obbligatori');
    expect(message('invalid', 'it', { field: 'communication' })).toBe('Comunicazioni non sono valide');
    expect(message('required', 'en', { field: 'merchantIds' })).toBe('Merchants are required');
    expect(message('required', 'it', { field: 'email' })).toBe('Email è obbligatoria');
    expect(message('notFound', 'it', { field: 'campaign' })).toBe('Campagna richiesta non trovata');
    expect(message('notFound', 'it', { field: 'customer' })).toBe('Cliente richiesto non trovato');
  });

  it('says a blank field is required, and an empty list wants one, not that they are invalid', () => {
    const texts = (schema: typeof createMerchantSchema | typeof createProgramSchema, body: object, options?: { reportInput: true }) =>
      Object.fromEntries(schema.safeParse(body, options).error!.issues.map((issue) => [issue.path.join('.'), issueMessage(issue, 'it')]));
    const blankAddress = { street: 'Via Roma 1', city: 'Milano', province: '', postalCode: '' };
    // As the forms ask (the input reported): blank fields are required, whatever their format rule.
    expect(texts(createMerchantSchema, { ...valid, vatNumber: '', address: blankAddress }, { reportInput: true })).toEqual({
      vatNumber: 'Partita IVA è obbligatoria',
      'address.province': 'Provincia è obbligatoria',
      'address.postalCode': 'CAP è obbligatorio',
    });
    // A typed value that breaks the rule still reads "not valid".
    expect(texts(createMerchantSchema, { ...valid, vatNumber: '01234567890' }, { reportInput: true })).toEqual({ vatNumber: 'Partita IVA non è valida' });
    // An empty list, with the input (a form) or without (the API's answer).
    const program = { name: 'Tessera', type: 'points', pointsPerEuro: 1, merchantIds: [] };
    expect(texts(createProgramSchema, program, { reportInput: true })).toEqual({ merchantIds: 'Esercenti sono obbligatori' });
    expect(texts(createProgramSchema, program)).toEqual({ merchantIds: 'Esercenti sono obbligatori' });
  });
});
