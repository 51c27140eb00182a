import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const a = await PGlite.create();
console.log((await a.query("select name from pg_available_extensions where name='pg_trgm'")).rows);
try { await a.exec('create extension pg_trgm'); console.log('created without loading'); } catch (e) { console.log('fails', e.message); }
const b = await PGlite.create({ extensions: { pg_trgm } });
console.log((await b.query("select name from pg_available_extensions where name='pg_trgm'")).rows);
await b.exec('create extension if not exists pg_trgm; create table t(x text); create index on t using gin (x gin_trgm_ops);');
const c = await b.clone(); console.log((await c.query("select extname from pg_extension")).rows);
