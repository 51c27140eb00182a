import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { cardNumberFor, REFERRAL_ALPHABET, type ConsentChannel, type ConsentPurpose } from '@sf/contract/customers';
import { isValidPartitaIva } from '@sf/contract/italian';
import type { MerchantCategory } from '@sf/contract/merchants';
import { NO_BONUSES, type Bonuses } from '@sf/contract/programs';
import type { Database } from './client.ts';
import { merchants, programMerchants, programs } from './schema.ts';

/**
 * Demo anagrafiche for `npm start` (not for the tests' seed, which stays cheap): about 25 merchants
 * of different categories and provinces, 3 programs (a points circuit, a stamp card at a bar, one at
 * a hairdresser) and about 3,000 customers with mixed consents and some referrals. Deterministic (a
 * seeded generator) and written in a few multi-row inserts.
 */

/** mulberry32: a tiny deterministic generator, so that every fresh start shows the same people. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

/** A real-looking Partita IVA: ten digits and the check digit that makes it valid. */
function partitaIva(random: ReturnType<typeof generator>): string {
  const body = `0${String(random.int(100_000_000, 999_999_999))}`;
  for (let digit = 0; digit <= 9; digit += 1) {
    if (isValidPartitaIva(`${body}${digit}`)) return `${body}${digit}`;
  }
  throw new Error('unreachable: one check digit always fits');
}

const PLACES = [
  { city: 'Milano', province: 'MI', cap: '20121', prefix: '02' },
  { city: 'Roma', province: 'RM', cap: '00186', prefix: '06' },
  { city: 'Torino', province: 'TO', cap: '10123', prefix: '011' },
  { city: 'Bologna', province: 'BO', cap: '40121', prefix: '051' },
  { city: 'Firenze', province: 'FI', cap: '50122', prefix: '055' },
  { city: 'Napoli', province: 'NA', cap: '80133', prefix: '081' },
  { city: 'Bari', province: 'BA', cap: '70121', prefix: '080' },
  { city: 'Palermo', province: 'PA', cap: '90133', prefix: '091' },
  { city: 'Verona', province: 'VR', cap: '37121', prefix: '045' },
  { city: 'Cagliari', province: 'CA', cap: '09124', prefix: '070' },
] as const;

const MERCHANTS: { sign: string; legal: string; category: MerchantCategory }[] = [
  { sign: 'Bar Centrale', legal: 'Bar Centrale S.r.l.', category: 'bar' },
  { sign: 'Salone Lucia', legal: 'Lucia Parrucchieri di Lucia Ferri', category: 'hairdresser' },
  { sign: 'Caffè Duomo', legal: 'Caffè Duomo S.n.c.', category: 'bar' },
  { sign: 'Trattoria da Gino', legal: 'Trattoria Gino S.r.l.', category: 'restaurant' },
  { sign: 'Pizzeria Vesuvio', legal: 'Vesuvio S.a.s.', category: 'pizzeria' },
  { sign: 'Forno Antico', legal: 'Forno Antico di Bruno Greco', category: 'bakery' },
  { sign: 'Alimentari Rossi', legal: 'Rossi Alimentari S.r.l.', category: 'grocery' },
  { sign: 'Beauty Lab', legal: 'Beauty Lab S.r.l.s.', category: 'beauty' },
  { sign: 'Moda Elena', legal: 'Elena Moda S.r.l.', category: 'clothing' },
  { sign: 'Scarpe & Co', legal: 'Calzature Conti S.n.c.', category: 'shoes' },
  { sign: 'Libreria Pagina', legal: 'Pagina S.r.l.', category: 'bookshop' },
  { sign: 'Farmacia San Marco', legal: 'Farmacia San Marco del Dott. Galli', category: 'pharmacy' },
  { sign: 'Palestra Energy', legal: 'Energy ASD', category: 'gym' },
  { sign: 'Fiori di Anna', legal: 'Anna Fiori di Anna Costa', category: 'florist' },
  { sign: 'Ottica Vista', legal: 'Ottica Vista S.r.l.', category: 'optician' },
  { sign: 'Bar Sport', legal: 'Bar Sport di Marco Riva', category: 'bar' },
  { sign: 'Osteria del Ponte', legal: 'Osteria del Ponte S.r.l.', category: 'restaurant' },
  { sign: 'Pasticceria Dolce Vita', legal: 'Dolce Vita S.n.c.', category: 'bakery' },
  { sign: 'Barbiere Tony', legal: 'Tony Barber di Antonio Russo', category: 'hairdresser' },
  { sign: 'Market Sole', legal: 'Sole Market S.r.l.', category: 'grocery' },
  { sign: 'Gelateria Polo', legal: 'Polo Gelati S.a.s.', category: 'other' },
  { sign: 'Enoteca Bacco', legal: 'Bacco Vini S.r.l.', category: 'grocery' },
  { sign: 'Estetica Rosa', legal: 'Estetica Rosa di Rosa Marino', category: 'beauty' },
  { sign: 'Sport Point', legal: 'Sport Point S.p.A.', category: 'clothing' },
  { sign: 'Pizzeria Bella Napoli', legal: 'Bella Napoli S.r.l.', category: 'pizzeria' },
];

const FIRST_NAMES = [
  'Giulia', 'Francesca', 'Sara', 'Martina', 'Chiara', 'Alessia', 'Elena', 'Valentina', 'Anna', 'Laura', 'Sofia',
  'Aurora', 'Giorgia', 'Federica', 'Silvia', 'Marco', 'Alessandro', 'Luca', 'Andrea', 'Matteo', 'Lorenzo',
  'Francesco', 'Davide', 'Simone', 'Federico', 'Riccardo', 'Giovanni', 'Stefano', 'Paolo', 'Antonio',
] as const;
const LAST_NAMES = [
  'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno',
  'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri',
  'Fontana', 'Santoro', 'Mariani', 'Rinaldi', 'Caruso', 'Ferrara', 'Galli', 'Martini', 'Leone', 'Longo',
  'Gentile', 'Martinelli', 'Vitale', 'Lombardo', 'Serra', 'Coppola', "D'Angelo", 'Marchetti', 'Parisi',
] as const;

export const DEMO_CUSTOMER_COUNT = 3000;
const DAY = 86_400_000;

/** Loads the demo anagrafiche into a database that has none; answers whether it did. */
export async function seedLoyaltyDemo(db: Database, options: { log?: FastifyBaseLogger; now?: Date } = {}): Promise<boolean> {
  const now = options.now ?? new Date();
  const random = generator(20_261_123);
  return db.transaction(async (tx) => {
    const existing = await tx.execute(sql`select exists (select 1 from merchants) as present`);
    if ((existing.rows[0] as { present: boolean }).present) return false;

    const merchantRows = await tx
      .insert(merchants)
      .values(
        MERCHANTS.map((merchant, index) => {
          const place = PLACES[index % PLACES.length] ?? PLACES[0];
          const slug = merchant.sign.toLowerCase().replace(/[^a-z]+/g, '');
          const sdiWithPec = index % 4 === 0;
          return {
            legalName: merchant.legal,
            signName: merchant.sign,
            vatNumber: partitaIva(random),
            taxCode: null,
            sdiCode: sdiWithPec ? '0000000' : `M5U${String(1000 + index)}`,
            pec: sdiWithPec ? `${slug}@pec.it` : null,
            category: merchant.category,
            street: `Via ${random.pick(['Roma', 'Garibaldi', 'Mazzini', 'Cavour', 'Dante', 'Verdi'])} ${random.int(1, 120)}`,
            city: place.city,
            province: place.province,
            postalCode: place.cap,
            phone: `+39${place.prefix}${String(random.int(1_000_000, 9_999_999)).slice(0, 10 - place.prefix.length)}`,
            email: `info@${slug}.it`,
            website: `https://www.${slug}.it`,
            social: (index % 3 === 0 ? { instagram: `https://www.instagram.com/${slug}` } : {}) as Record<string, string>,
            status: index === 23 ? ('suspended' as const) : index === 24 ? ('archived' as const) : ('active' as const),
            createdAt: new Date(now.getTime() - (540 - index * 7) * DAY),
            updatedAt: new Date(now.getTime() - (540 - index * 7) * DAY),
          };
        }),
      )
      .returning({ id: merchants.id, sign: merchants.signName });
    const merchantId = (sign: string) => merchantRows.find((row) => row.sign === sign)?.id ?? '';

    const bonuses: Bonuses = {
      referrer: { points: 100, capPerMonth: 5 },
      referee: { points: 50, capPerMonth: 1 },
      share: { points: 10, capPerMonth: 4 },
      review: { points: 25, capPerMonth: 2 },
      checkIn: { points: 5, capPerMonth: 8 },
      birthday: { points: 200, capPerMonth: 1 },
    };
    const created = new Date(now.getTime() - 548 * DAY);
    const programRows = await tx
      .insert(programs)
      .values([
        {
          name: 'Circuito Centro Storico',
          type: 'points' as const,
          status: 'active' as const,
          pointsPerEuro: 1.5,
          minSpendCents: 200,
          tiers: [
            { name: 'Bronzo', minPoints: 0, multiplier: 1 },
            { name: 'Argento', minPoints: 500, multiplier: 1.25 },
            { name: 'Oro', minPoints: 1500, multiplier: 1.5 },
          ],
          tierWindow: 'rolling12' as const,
          expiryPolicy: 'afterDays' as const,
          expiryDays: 365,
          bonuses,
          createdAt: created,
          updatedAt: created,
        },
        {
          name: 'Tessera Caffè Bar Centrale',
          type: 'stamps' as const,
          status: 'active' as const,
          stampsRequired: 10,
          maxStampsPerDay: 2,
          maxStampsPerTransaction: 1,
          tiers: [],
          expiryPolicy: 'never' as const,
          bonuses: NO_BONUSES,
          createdAt: created,
          updatedAt: created,
        },
        {
          name: 'Tessera Salone Lucia',
          type: 'stamps' as const,
          status: 'active' as const,
          stampsRequired: 8,
          maxStampsPerDay: 1,
          maxStampsPerTransaction: 1,
          tiers: [],
          expiryPolicy: 'endOfYear' as const,
          bonuses: { ...NO_BONUSES, birthday: { points: 1, capPerMonth: 1 } },
          createdAt: created,
          updatedAt: created,
        },
      ])
      .returning({ id: programs.id, name: programs.name });
    const [circuit, coffee, salon] = programRows;
    if (!circuit || !coffee || !salon) throw new Error('programs not inserted');
    const circuitMerchants = merchantRows.filter((row) => !['Salone Lucia', 'Bar Centrale'].includes(row.sign ?? '')).slice(0, 16);
    await tx.insert(programMerchants).values([
      ...circuitMerchants.map((row) => ({ programId: circuit.id, merchantId: row.id })),
      { programId: coffee.id, merchantId: merchantId('Bar Centrale') },
      { programId: salon.id, merchantId: merchantId('Salone Lucia') },
    ]);

    // Customers: written in batches; card numbers from the same sequence the API uses.
    const referralCodes = new Set<string>();
    const emails = new Set<string>();
    const people = Array.from({ length: DEMO_CUSTOMER_COUNT }, (_unused, index) => {
      const firstName = random.pick(FIRST_NAMES);
      const lastName = random.pick(LAST_NAMES);
      const place = random.pick(PLACES);
      const newCode = () => Array.from({ length: 8 }, () => random.pick(REFERRAL_ALPHABET.split(''))).join('');
      let code = newCode();
      while (referralCodes.has(code)) code = newCode();
      referralCodes.add(code);
      const base = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
      let email: string | null = random.chance(0.85) ? `${base}${index % 7 === 0 ? '' : index}@example.it` : null;
      if (email && emails.has(email)) email = `${base}.${index}@example.it`;
      if (email) emails.add(email);
      const joined = new Date(now.getTime() - random.int(1, 540) * DAY - random.int(0, DAY - 1));
      const birth = new Date(Date.UTC(random.int(1950, 2006), random.int(0, 11), random.int(1, 28)));
      return {
        firstName,
        lastName,
        email,
        phone: random.chance(0.7) ? `+393${random.int(20, 99)}${String(random.int(1_000_000, 9_999_999))}` : null,
        birthDate: random.chance(0.8) ? birth.toISOString().slice(0, 10) : null,
        city: place.city,
        province: place.province,
        // The demo's cards are numbered as cards issued before decision 030 were (279 + a counter):
        // they stand for the printed cards that keep working; new customers get random numbers.
        cardNumber: cardNumberFor(index + 1),
        referralCode: code,
        status: index % 97 === 0 ? ('blocked' as const) : ('active' as const),
        channel: random.pick(['counter', 'app', 'web'] as const),
        marketing: random.chance(0.55) ? (random.chance(0.1) ? ('withdrawn' as const) : ('granted' as const)) : ('none' as const),
        profiling: random.chance(0.25),
        createdAt: joined,
        updatedAt: joined,
      };
    });
    // One statement with the rows as one JSON parameter: far cheaper than thousands of bound values.
    const insertedRows = await tx.execute(sql`
      insert into customers (first_name, last_name, email, phone, birth_date, city, province, card_number, referral_code,
        status, service_consent, marketing_consent, profiling_consent, created_at, updated_at)
      select first_name, last_name, email, phone, birth_date, city, province, card_number, referral_code,
        status, true, marketing, profiling, created_at, created_at
      from json_to_recordset(${JSON.stringify(
        people.map((p) => ({
          first_name: p.firstName,
          last_name: p.lastName,
          email: p.email,
          phone: p.phone,
          birth_date: p.birthDate,
          city: p.city,
          province: p.province,
          card_number: p.cardNumber,
          referral_code: p.referralCode,
          status: p.status,
          marketing: p.marketing === 'granted',
          profiling: p.profiling,
          created_at: p.createdAt.toISOString(),
        })),
      )}::json) as r(first_name text, last_name text, email text, phone text, birth_date date, city text, province text,
        card_number text, referral_code text, status text, marketing boolean, profiling boolean, created_at timestamptz)
      returning id, card_number`);
    const idByCard = new Map((insertedRows.rows as { id: string; card_number: string }[]).map((row) => [row.card_number, row.id]));
    const inserted = people.map((person) => ({ ...person, id: idByCard.get(person.cardNumber) ?? '' }));

    // Some referrals: a later customer brought by an earlier one.
    const byAge = [...inserted].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const referrals: { id: string; referrer: string }[] = [];
    byAge.forEach((customer, index) => {
      if (index > 50 && random.chance(0.12)) referrals.push({ id: customer.id, referrer: byAge[random.int(0, index - 1)]?.id ?? '' });
    });
    if (referrals.length > 0) {
      const values = sql.join(
        referrals.map((r) => sql`(${r.id}::uuid, ${r.referrer}::uuid)`),
        sql`, `,
      );
      await tx.execute(sql`update customers c set referred_by = v.referrer from (values ${values}) as v(id, referrer) where c.id = v.id`);
    }

    // Consents: service for everyone at enrolment; marketing and profiling for some, a few withdrawn later.
    type Consent = { customerId: string; purpose: ConsentPurpose; granted: boolean; channel: ConsentChannel; noticeVersion: string; at: Date };
    const consents: Consent[] = [];
    for (const customer of inserted) {
      const { channel, createdAt: at } = customer;
      consents.push({ customerId: customer.id, purpose: 'service', granted: true, channel, noticeVersion: '2025-01', at });
      if (customer.marketing !== 'none') {
        consents.push({ customerId: customer.id, purpose: 'marketing', granted: true, channel, noticeVersion: '2025-01', at });
      }
      if (customer.marketing === 'withdrawn') {
        const later = new Date(Math.min(now.getTime() - DAY, at.getTime() + random.int(5, 200) * DAY));
        consents.push({ customerId: customer.id, purpose: 'marketing', granted: false, channel: 'app', noticeVersion: '2025-01', at: later });
      }
      if (customer.profiling) {
        consents.push({ customerId: customer.id, purpose: 'profiling', granted: true, channel, noticeVersion: '2025-01', at });
      }
    }
    await tx.execute(sql`
      insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at)
      select customer_id, purpose, granted, channel, notice_version, at
      from json_to_recordset(${JSON.stringify(
        consents.map((c) => ({
          customer_id: c.customerId,
          purpose: c.purpose,
          granted: c.granted,
          channel: c.channel,
          notice_version: c.noticeVersion,
          at: c.at.toISOString(),
        })),
      )}::json) as r(customer_id uuid, purpose text, granted boolean, channel text, notice_version text, at timestamptz)`);

    options.log?.info(
      { merchants: merchantRows.length, programs: programRows.length, customers: inserted.length, consents: consents.length },
      'demo loyalty anagrafiche loaded',
    );
    return true;
  });
}
