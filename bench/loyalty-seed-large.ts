import pg from 'pg';

/**
 * Large loyalty data on a REAL PostgreSQL, set-based (INSERT … SELECT over generate_series), for the
 * benchmark: N customers, 50 merchants, a points circuit (every customer) and a stamps card (one in
 * five), and about E ledger entries over the last 18 months. The figures are consistent: stored
 * balances equal their entries (closed-form running balances), one FIFO lot per member holds the
 * balance, so `npm run ledger:verify` passes on it.
 *
 * For speed the load runs with foreign-key triggers off (session_replication_role = replica: every
 * generated row references rows made just before) and rebuilds the tables' secondary indexes after
 * the rows are in, as bulk loads usually do; the figures the triggers would have kept (the dashboard's
 * rollups, the members' day sums) are rebuilt at the end, members' tiers are their program's rule at
 * their latest movement, and each customer's consents have the history their current state comes
 * from. Then `ledger:verify`'s checks run on the result (timed; `--no-verify` skips them).
 */
export type LargeSeedOptions = { customers: number; entries: number; log?: (line: string) => void; verify?: boolean };

const FIRST_NAMES = ['Mario', 'Luca', 'Giulia', 'Francesca', 'Marco', 'Sara', 'Alessandro', 'Chiara', 'Andrea', 'Elena', 'Giuseppe', 'Anna', 'Paolo', 'Laura', 'Matteo', 'Martina', 'Davide', 'Valentina', 'Simone', 'Federica'];
const LAST_NAMES = ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Mancini', 'Costa', 'Giordano', 'Rizzo', 'Lombardi', 'Moretti', 'Barbieri', 'Fontana', 'Santoro', 'Mariani', 'Rinaldi', 'Caruso', 'Ferrara', 'Galli', 'Martini', 'Leone', 'Longo', 'Gentile', 'Martinelli', 'Vitale', 'Lombardo', 'Serra', 'Coppola', 'De Santis', "D'Angelo", 'Marchetti', 'Parisi', 'Villa', 'Conte', 'Ferraro', 'Ferri', 'Fabbri', 'Bianco', 'Marini', 'Grasso', 'Valentini'];

/** The business time zone of the seeded figures (the app's default). */
const BENCH_TIME_ZONE = 'Europe/Rome';

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',')}]`;

async function withIndexesRebuilt(client: pg.ClientBase, tables: string[], work: () => Promise<void>, log: (line: string) => void) {
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes where tablename = any($1)
       and indexname not in (select conname from pg_constraint)`,
    [tables],
  );
  for (const index of rows) await client.query(`drop index "${index.indexname}"`);
  await work();
  const started = Date.now();
  for (const index of rows) await client.query(index.indexdef);
  log(`  rebuilt ${rows.length} indexes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

export async function seedLarge(url: string, options: LargeSeedOptions): Promise<{ customers: number; memberships: number; entries: number; seconds: number }> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const existing = await client.query<{ n: string }>('select count(*) as n from ledger_entries');
    if (Number(existing.rows[0]?.n ?? 0) > 0) throw new Error('the database already has ledger entries: use an empty one');
    // One instant for every generated time (each statement's now() differs): a member's latest
    // movement, computed with its memberships, must be exactly its last entry's time.
    const { rows: clock } = await client.query<{ base: Date }>('select now() as base');
    const base = clock[0]!.base;
    await client.query('set session_replication_role = replica');
    await client.query(`set maintenance_work_mem = '256MB'`);
    await client.query(`set work_mem = '64MB'`);
    await withIndexesRebuilt(client, ['customers', 'customer_consents', 'memberships', 'ledger_entries'], async () => {
      await client.query(`insert into merchants (legal_name, sign_name, vat_number, category, street, city, province, postal_code)
        select 'Esercente ' || i || ' S.r.l.', 'Negozio ' || i, lpad(i::text, 11, '0'),
          (array['bar','restaurant','hairdresser','clothing','grocery'])[1 + i % 5], 'Via Roma ' || i, 'Bologna', 'BO', '40121'
        from generate_series(1, 50) i`);
      await client.query(`insert into programs (name, type, status, points_per_euro, tiers, tier_window, expiry_policy, bonuses)
        values ('Circuito Bench', 'points', 'active', 1.00,
          '[{"name":"Base","minPoints":0,"multiplier":1},{"name":"Argento","minPoints":500,"multiplier":1.25},{"name":"Oro","minPoints":2000,"multiplier":1.5}]',
          'rolling12', 'never', '{}')`);
      await client.query(`insert into programs (name, type, status, stamps_required, max_stamps_per_day, bonuses)
        values ('Tessera Bench', 'stamps', 'active', 10, 3, '{}')`);
      await client.query(`insert into program_merchants (program_id, merchant_id) select p.id, m.id from programs p cross join merchants m`);

      // Card numbers as we issue them (contract's cardNumberFor: prefix, 9-digit sequence, Luhn check
      // digit), so a search by a whole card number takes the same path as in production. Sequences from
      // 100,000,001 stay clear of the demo data's.
      await client.query(
        `create function pg_temp.card_number(sequence bigint) returns text language sql immutable as $fn$
           select body || (10 - sum(case when (12 - p) % 2 = 0
                                         then (substr(body, p, 1)::int * 2) % 10 + (substr(body, p, 1)::int * 2) / 10
                                         else substr(body, p, 1)::int end) % 10) % 10
           from (select '279' || lpad(sequence::text, 9, '0') as body) b, generate_series(1, 12) p
           group by body
         $fn$`,
      );
      let at = Date.now();
      await client.query(
        `insert into customers (first_name, last_name, email, phone, card_number, referral_code, marketing_consent, service_consent, created_at, updated_at)
         select (${sqlArray(FIRST_NAMES)})[1 + i % 20], (${sqlArray(LAST_NAMES)})[1 + (i / 20) % 50],
           case when i % 5 <> 0 then 'cliente' || i || '@example.test' end,
           '+393' || lpad((i % 1000000000)::text, 9, '0'),
           pg_temp.card_number(100000000 + i), 'B' || upper(to_hex(i)), i % 3 = 0, true,
           $2::timestamptz - (i % 540) * interval '1 day', $2::timestamptz - (i % 540) * interval '1 day'
         from generate_series(1, $1::int) i`,
        [options.customers, base],
      );
      // The history the current consents come from (ledger:verify holds them to it): the service
      // consent of every card, a marketing consent for a third of them, given when they registered.
      await client.query(
        `insert into customer_consents (customer_id, purpose, granted, channel, notice_version, at)
         select id, 'service', true, 'import', 'bench', created_at from customers
         union all
         select id, 'marketing', true, 'import', 'bench', created_at from customers where marketing_consent`,
      );
      log(`  ${options.customers} customers and their consents in ${((Date.now() - at) / 1000).toFixed(1)} s`);

      at = Date.now();
      const { rows: planned } = await client.query<{ n: string }>(
        `select count(*) as n from customers c where true`,
      );
      const memberships = Number(planned[0]!.n) * 1.2;
      const average = Math.max(1, Math.round(options.entries / memberships));
      await client.query(`drop table if exists bench_plan`);
      await client.query(
        `create unlogged table bench_plan as
         with base as (
           select row_number() over () as idx, c.id as customer_id, c.created_at, p.id as program_id, p.type
           from customers c join programs p on p.type = 'points' or (p.type = 'stamps' and abs(hashtext(c.id::text)) % 5 = 0)),
         sized as (
           select *, (1 + (idx * 2654435761) % (2 * $1::int - 1))::int as k, (1 + idx % 30)::int as a from base)
         select *, gen_random_uuid() as membership_id, (sum(k) over (order by idx) - k)::bigint as off from sized`,
        [average],
      );
      log(`  plan in ${((Date.now() - at) / 1000).toFixed(1)} s`);

      at = Date.now();
      await client.query(
        `with m as (select array_agg(id order by id) as ids from merchants)
         insert into ledger_entries (id, membership_id, customer_id, program_id, merchant_id, kind, source, points, stamps,
           amount_cents, reason, balance_after, stamps_after, created_by_label, created_at)
         select p.off + j, p.membership_id, p.customer_id, p.program_id, m.ids[1 + (p.idx + j) % 50],
           case when p.type = 'points' and j % 6 = 0 then 'redeem' else 'earn' end,
           case when p.type = 'points' and j % 6 = 0 then 'manual' else 'purchase' end,
           case when p.type = 'points' then (case when j % 6 = 0 then -5 else p.a end) else 0 end,
           case when p.type = 'stamps' then 1 else 0 end,
           case when p.type = 'points' and j % 6 = 0 then null else p.a * 100 + (j * 37) % 100 end,
           case when p.type = 'points' and j % 6 = 0 then 'Premio ritirato' end,
           case when p.type = 'points' then p.a * (j - j / 6) - 5 * (j / 6) else 0 end,
           case when p.type = 'stamps' then j else 0 end,
           'bench',
           $1::timestamptz - interval '540 days' + ((j::float8 / (p.k + 1)) * 539 + (p.idx % 1000) / 2000.0) * interval '1 day'
         from bench_plan p cross join m cross join lateral generate_series(1, p.k) j`,
        [base],
      );
      await client.query(`select setval(pg_get_serial_sequence('ledger_entries', 'id'), (select max(id) from ledger_entries))`);
      log(`  ledger entries in ${((Date.now() - at) / 1000).toFixed(1)} s`);

      // Members as the service leaves them: the latest movement is the last entry (j = k), the tier the
      // program's rule over the points earned in its window then (migration 0023's functions), never
      // below the manual floor a tenth and a fifth of them have.
      at = Date.now();
      await client.query(
        `with last as (
           select p.membership_id, $1::timestamptz - interval '540 days' + ((p.k::float8 / (p.k + 1)) * 539 + (p.idx % 1000) / 2000.0) * interval '1 day' as at
           from bench_plan p),
         earned as (
           select e.membership_id, sum(e.points) as points
           from ledger_entries e join last l on l.membership_id = e.membership_id
           where e.kind = 'earn' and e.created_at >= ledger_tier_window_start('rolling12', l.at, $2)
           group by 1)
         insert into memberships (id, customer_id, program_id, balance, stamps, tier, tier_floor, joined_at, last_activity_at)
         select p.membership_id, p.customer_id, p.program_id,
           case when p.type = 'points' then p.a * (p.k - p.k / 6) - 5 * (p.k / 6) else 0 end,
           case when p.type = 'stamps' then p.k else 0 end,
           ledger_tier_for(r.tiers, coalesce(x.points, 0), f.floor),
           f.floor,
           $1::timestamptz - interval '541 days', l.at
         from bench_plan p
         join programs r on r.id = p.program_id
         join last l on l.membership_id = p.membership_id
         left join earned x on x.membership_id = p.membership_id
         cross join lateral (select case when p.type = 'points' then (case when p.idx % 10 = 0 then 'Oro' when p.idx % 10 < 3 then 'Argento' end) end as floor) f`,
        [base, BENCH_TIME_ZONE],
      );
      log(`  memberships in ${((Date.now() - at) / 1000).toFixed(1)} s`);

      at = Date.now();
      await client.query(
        `insert into ledger_lots (entry_id, membership_id, points, remaining, expires_on)
         select p.off + case when p.k % 6 = 0 then p.k - 1 else p.k end, p.membership_id,
           p.a * (p.k - p.k / 6) - 5 * (p.k / 6), p.a * (p.k - p.k / 6) - 5 * (p.k / 6), null
         from bench_plan p where p.type = 'points' and p.a * (p.k - p.k / 6) - 5 * (p.k / 6) > 0`,
      );
      log(`  lots in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    }, log);
    await client.query('drop table bench_plan');
    await client.query('set session_replication_role = origin');
    // The load ran with triggers off: the dashboard's rollups (decision 019) are rebuilt from the rows.
    let at = Date.now();
    await client.query('select dashboard_rollups_rebuild(dashboard_time_zone())');
    await client.query('select ledger_member_days_rebuild()');
    log(`  dashboard rollups and members' day sums rebuilt in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    // The answers a running platform keeps for its tills' retried requests (idempotency, docs/product.md
    // D): here one per tenth purchase (a platform keeps one per request; no purge yet). Without them the
    // table is empty when the API first prepares its write statements, and their generic plans, made
    // for an empty table, scan it whole on every write until autovacuum analyzes it again — the whole
    // write bench: ~0.3 ms of PostgreSQL per statement, three statements per purchase.
    at = Date.now();
    const answers = await client.query(
      `insert into idempotency_records (scope, key, request_hash, response_status, response_body, created_at)
       select 'admin-ledger', 'seed-' || id, 'seed', 201, '{}'::jsonb, created_at
       from ledger_entries where source = 'purchase' and id % 10 = 0`,
    );
    log(`  ${answers.rowCount} idempotency records in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    // A platform's tables have been vacuumed: their pages are marked all-visible, so the ledger's
    // index-only reads (a member's history) stay in the index, and autovacuum has nothing left to do.
    // Fresh from the load they are not: the first read of each page sets its hint bits, which with
    // PostgreSQL 18's default page checksums writes the whole page to the WAL after each checkpoint,
    // and autovacuum starts on every loaded table a minute later, on the same cores as the benchmark.
    at = Date.now();
    await client.query('vacuum (analyze)');
    log(`  vacuum and analyze in ${((Date.now() - at) / 1000).toFixed(1)} s`);
    if (options.verify !== false) {
      // The large seed is a bulk path like any other: every stored figure must equal its sources.
      log('  ledger:verify on the loaded data:');
      const { openDatabase } = await import('../apps/api/src/db/client.ts');
      const { runLedgerVerify } = await import('../apps/api/src/modules/ledger/ledger.verify.ts');
      const database = await openDatabase({ url, poolSize: 1 });
      try {
        const code = await runLedgerVerify(database.db, (line) => log(`    ${line}`), { timeZone: BENCH_TIME_ZONE, isTimed: true });
        if (code !== 0) throw new Error('ledger:verify failed on the large seed');
      } finally {
        await database.close();
      }
    }
    const counts = await client.query<{ customers: string; memberships: string; entries: string }>(
      `select (select count(*) from customers) as customers, (select count(*) from memberships) as memberships,
              (select count(*) from ledger_entries) as entries`,
    );
    const row = counts.rows[0]!;
    return {
      customers: Number(row.customers),
      memberships: Number(row.memberships),
      entries: Number(row.entries),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await client.end();
  }
}

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index < 0) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} needs a positive whole number`);
  return value;
}

/** `npm run db:seed:large -- --customers 1000000 --entries 10000000` on DATABASE_URL (real PostgreSQL). */
if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env['DATABASE_URL'];
  if (!url) {
    console.error('db:seed:large needs DATABASE_URL (a real PostgreSQL; PGlite is not meant for this size)');
    process.exit(2);
  }
  const { openDatabase } = await import('../apps/api/src/db/client.ts');
  const database = await openDatabase({ url, poolSize: 1 });
  await database.migrate();
  await database.close();
  const result = await seedLarge(url, {
    customers: argument('customers', 1_000_000),
    entries: argument('entries', 10_000_000),
    log: (line) => console.log(line),
    verify: !process.argv.includes('--no-verify'),
  });
  console.log(`seeded ${result.customers} customers, ${result.memberships} memberships, ${result.entries} entries in ${result.seconds.toFixed(1)} s`);
}
