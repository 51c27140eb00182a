import { count, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { StaffProfile } from '@sf/contract/auth';
import type { Database } from './client.ts';
import { auditLog, newsPosts, users } from './schema.ts';
import { hashPassword } from '../identity/passwords.ts';

export const DEMO_PASSWORD = 'Demo-Password-2026';

type DemoUser = { email: string; role: 'admin' | 'editor' | 'member'; displayName: string; profile: StaffProfile };

/** The three demo staff users of S20, with the seed's profile fields. */
/** The demo's administrator: the staff member the demo's back-office movements were made by. */
export const DEMO_ADMIN_EMAIL = 'admin@demo.test';

export const DEMO_USERS: DemoUser[] = [
  {
    email: DEMO_ADMIN_EMAIL,
    role: 'admin',
    displayName: 'Giulia Rossi',
    profile: {
      firstName: 'Giulia',
      lastName: 'Rossi',
      fullname: 'Giulia Rossi',
      occupation: 'Responsabile programma fedeltà',
      companyName: 'Social Fidelity S.r.l.',
      phone: '+39 02 1234 5678',
      language: 'it',
      timeZone: 'Europe/Rome',
      website: 'https://social-fidelity.example',
      pic: '',
      communication: { email: true, sms: true, phone: false },
      address: { addressLine: 'Via Torino 12', city: 'Milano', state: 'MI', postCode: '20123' },
      socialNetworks: {
        linkedIn: 'https://linkedin.com/in/giulia-rossi-demo',
        facebook: '',
        twitter: '',
        instagram: 'https://instagram.com/socialfidelity.demo',
      },
    },
  },
  {
    email: 'editor@demo.test',
    role: 'editor',
    displayName: 'Marco Bianchi',
    profile: {
      firstName: 'Marco',
      lastName: 'Bianchi',
      fullname: 'Marco Bianchi',
      occupation: 'Redattore news',
      companyName: 'Social Fidelity S.r.l.',
      phone: '+39 06 9876 5432',
      language: 'it',
      timeZone: 'Europe/Rome',
      website: '',
      pic: '',
      communication: { email: true, sms: false, phone: false },
      address: { addressLine: 'Via del Corso 45', city: 'Roma', state: 'RM', postCode: '00186' },
      socialNetworks: { linkedIn: '', facebook: 'https://facebook.com/marco.bianchi.demo', twitter: '', instagram: '' },
    },
  },
  {
    email: 'member@demo.test',
    role: 'member',
    displayName: 'Luca Verdi',
    profile: {
      firstName: 'Luca',
      lastName: 'Verdi',
      fullname: 'Luca Verdi',
      occupation: 'Barista',
      companyName: 'Bar Centrale',
      phone: '+39 011 555 0101',
      language: 'en',
      timeZone: 'Europe/Rome',
      website: '',
      pic: '',
      communication: { email: false, sms: true, phone: true },
      address: { addressLine: 'Piazza Castello 3', city: 'Torino', state: 'TO', postCode: '10121' },
      socialNetworks: { linkedIn: '', facebook: '', twitter: 'https://x.com/luca_verdi_demo', instagram: '' },
    },
  },
];

const DAY = 86_400_000;

/** A dozen posts in every status, as an editor would have written them. */
function demoPosts(now: Date, adminId: string, editorId: string) {
  const at = (days: number) => new Date(now.getTime() + days * DAY);
  const p = (text: string) => `<p>${text}</p>`;
  return [
    { title: 'Benvenuti nel nuovo programma fedeltà', summary: 'Raccogli punti in tutti i negozi del circuito.', body: p('Da oggi ogni euro speso vale un punto. <strong>Scopri i premi</strong> nella sezione dedicata.'), status: 'published', publishAt: at(-30), pinned: true, authorId: adminId },
    { title: 'Doppi punti nel weekend', summary: 'Sabato e domenica i punti raddoppiano.', body: p('Approfitta dei <em>doppi punti</em> presso tutti gli esercenti aderenti.'), status: 'published', publishAt: at(-12), pinned: false, authorId: editorId },
    { title: 'Invita un amico, guadagnate entrambi', summary: '50 punti a te e 50 al tuo amico.', body: p("Condividi il tuo codice invito dall'app: quando il tuo amico fa il primo acquisto, ricevete entrambi 50 punti."), status: 'published', publishAt: at(-7), pinned: false, authorId: editorId },
    { title: 'Nuovo esercente: Parrucchiera Stella', summary: 'Timbri anche dal parrucchiere.', body: p('Ogni 10 timbri una piega in omaggio.'), status: 'published', publishAt: at(-3), pinned: false, authorId: editorId },
    { title: 'Recensioni premiate', summary: 'Lascia una recensione e ricevi 20 punti.', body: p('Le recensioni vengono verificate dal nostro staff entro 48 ore.'), status: 'published', publishAt: at(-1), pinned: false, authorId: adminId },
    { title: 'Saldi di fine anno', summary: 'Punti extra su tutti gli acquisti di dicembre.', body: p('Dal 1° al 31 dicembre il 20% di punti in più.'), status: 'scheduled', publishAt: at(5), pinned: false, authorId: editorId },
    { title: 'Buon compleanno da Social Fidelity', summary: 'Un bonus nel mese del tuo compleanno.', body: p('Completa il profilo con la data di nascita per ricevere il bonus.'), status: 'scheduled', publishAt: at(12), pinned: false, authorId: editorId },
    { title: 'Check-in settimanale', summary: 'Un timbro ogni settimana con il check-in.', body: p('Fai check-in nei locali aderenti una volta alla settimana.'), status: 'scheduled', publishAt: at(20), pinned: false, authorId: adminId },
    { title: 'Bozza: catalogo premi primavera', summary: 'Da completare con le foto dei premi.', body: p('Elenco provvisorio dei premi.'), status: 'draft', publishAt: null, pinned: false, authorId: editorId },
    { title: 'Bozza: sondaggio soddisfazione', summary: 'Domande per i clienti del circuito.', body: p('Quanto sei soddisfatto del programma?'), status: 'draft', publishAt: null, pinned: false, authorId: editorId },
    { title: 'Bozza: regolamento aggiornato', summary: 'Nuove regole di scadenza dei punti.', body: p("I punti scadono alla fine dell'anno successivo."), status: 'draft', publishAt: null, pinned: false, authorId: adminId },
    { title: 'Promozione estate 2026 (conclusa)', summary: 'La promozione estiva è terminata.', body: p('Grazie a tutti per la partecipazione!'), status: 'archived', publishAt: at(-120), pinned: false, authorId: adminId },
    { title: 'Manutenzione app completata', summary: "L'app è di nuovo disponibile.", body: p('La manutenzione programmata si è conclusa.'), status: 'archived', publishAt: at(-60), pinned: false, authorId: editorId },
  ] as const;
}

/**
 * Loads the demo data into an empty database (no staff account yet). Returns whether it did. Runs in
 * one transaction: a crash leaves either nothing or everything.
 */
export async function seedDemoData(db: Database, options: { log?: FastifyBaseLogger; now?: Date } = {}): Promise<boolean> {
  const [row] = await db.select({ total: count() }).from(users);
  if ((row?.total ?? 0) > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const now = options.now ?? new Date();
  await db.transaction(async (tx) => {
    // Two API processes starting on one empty database: only the first seeds.
    await tx.execute(sql`select pg_advisory_xact_lock(4242)`);
    const [again] = await tx.select({ total: count() }).from(users);
    if ((again?.total ?? 0) > 0) return;
    const inserted = await tx
      .insert(users)
      .values(DEMO_USERS.map((user) => ({ ...user, passwordHash })))
      .returning({ id: users.id, email: users.email });
    const idOf = (email: string) => inserted.find((user) => user.email === email)?.id ?? '';
    const posts = demoPosts(now, idOf('admin@demo.test'), idOf('editor@demo.test'));
    const created = await tx
      .insert(newsPosts)
      .values(
        posts.map((post, index) => ({
          ...post,
          createdAt: new Date(now.getTime() - (40 - index) * DAY),
          updatedAt: new Date(now.getTime() - (20 - index) * DAY),
        })),
      )
      .returning();
    // The demo's history: who wrote each post and when, so the dashboard and audit views have a past.
    await tx.insert(auditLog).values(
      created.map((post) => ({
        at: post.updatedAt,
        actorId: post.authorId,
        actorEmail: inserted.find((user) => user.id === post.authorId)?.email ?? null,
        action: 'news.create',
        entityType: 'news_post',
        entityId: String(post.id),
        after: { id: post.id, title: post.title, status: post.status },
      })),
    );
  });
  options.log?.info('demo data seeded');
  return true;
}
