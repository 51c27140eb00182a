import { parseArgs } from 'node:util';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadEnv } from '../config/env.ts';
import { openDatabaseFromEnv, type DatabaseHandle } from '../db/client.ts';
import { prepareDataDir } from '../lib/data-dir.ts';
import { CliError, createAdmin, grantRole, listAccounts, revokeRole, setStatus, type CliFirebase } from './staff-commands.ts';
import { createFirebaseAdmin } from '../identity/firebase/firebase-admin.ts';

export const STAFF_CLI_HELP = `Staff accounts of the back-office, for operators.

Usage: npm run staff -- <command> [options]

Commands:
  create-admin --email E [--name "First Last"] [--password P]
                 Create an admin account. Without --password a strong one is generated and printed once
                 (better: a password given on the command line stays in the shell history).
  grant --email E --role admin|editor|member
                 Give an account a role (admin and editor may sign in to the back-office).
  revoke --email E
                 Take the role away (the account stays, but may not sign in).
  disable --email E
                 Disable an account: it cannot sign in and its sessions end at once.
  enable --email E
                 Enable a disabled account again.
  list           List every account with its role and status.

Options:
  -h, --help     Show this help.

Database: DATABASE_URL when set, otherwise the embedded PostgreSQL under DATA_DIR (default ./data,\nrelative to the directory npm is run from, the same as for npm start).
The embedded database belongs to ONE process at a time: stop a running server that uses the same
DATA_DIR before running this command (a server on DATABASE_URL may stay up).
Every change is written to the audit log with the actor "cli".
With AUTH_PROVIDER=firebase (and its FIREBASE_* settings) the role is also written to the Firebase user's
"role" custom claim; grant/revoke/disable/enable link an account to the Firebase user with its e-mail
(or import that user), and create-admin creates the Firebase user with the password.`;

export type CliIo = { out(line: string): void; err(line: string): void };

/**
 * Runs one CLI command and returns the process exit code. The database is opened (and migrated) only
 * when a command needs it; tests pass their own handle and call this in-process.
 */
export async function runStaffCli(
  argv: string[],
  io: CliIo,
  options: {
    openDb?: () => Promise<DatabaseHandle>;
    now?: () => Date;
    /** The Firebase Admin SDK when Firebase is the provider; by default from AUTH_PROVIDER and its settings. */
    firebase?: () => CliFirebase;
  } = {},
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        email: { type: 'string' },
        name: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${STAFF_CLI_HELP}`);
    return 1;
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help || command === 'help') {
    io.out(STAFF_CLI_HELP);
    return 0;
  }
  const known = ['create-admin', 'grant', 'revoke', 'disable', 'enable', 'list'];
  if (!command || !known.includes(command) || extra.length > 0) {
    io.err(`${command ? `Unknown command or extra argument: ${[command, ...extra].join(' ')}` : 'No command given'}\n\n${STAFF_CLI_HELP}`);
    return 1;
  }

  const now = options.now ?? (() => new Date());
  let database: DatabaseHandle | undefined;
  let firebase: CliFirebase = null;
  try {
    firebase = (options.firebase ?? configuredFirebase)();
    database = await (options.openDb ?? openConfiguredDatabase)();
    const db = database.db;
    switch (command) {
      case 'create-admin': {
        const created = await createAdmin(db, values, now(), firebase);
        io.out(`Created admin ${created.email}`);
        if (created.generatedPassword) io.out(`Password (shown once, store it safely): ${created.generatedPassword}`);
        break;
      }
      case 'grant': {
        const account = await grantRole(db, values, now(), firebase);
        io.out(`${account.email} now has the role ${account.role}`);
        break;
      }
      case 'revoke': {
        const account = await revokeRole(db, values, now(), firebase);
        io.out(`${account.email} has no role now`);
        break;
      }
      case 'disable':
      case 'enable': {
        const account = await setStatus(db, values, command === 'disable' ? 'disabled' : 'active', now(), firebase);
        io.out(`${account.email} is ${account.status}`);
        break;
      }
      case 'list': {
        const accounts = await listAccounts(db);
        for (const account of accounts) {
          io.out([account.email, account.role ?? '-', account.status, account.displayName].join('\t'));
        }
        io.out(`${accounts.length} account(s)`);
        break;
      }
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`Error: ${error.message}`);
      return 1;
    }
    io.err(`Unexpected error: ${(error as Error).message}`);
    return 1;
  } finally {
    // Only a database we opened ourselves is ours to close.
    if (database && !options.openDb) await database.close();
    if (firebase && !options.firebase) await firebase.close();
  }
}

function configuredFirebase(): CliFirebase {
  const env = loadEnv();
  return env.AUTH_PROVIDER === 'firebase' ? createFirebaseAdmin(env) : null;
}

async function openConfiguredDatabase(): Promise<DatabaseHandle> {
  const env = loadEnv();
  await prepareDataDir(env.dataDir);
  const database = await openDatabaseFromEnv(env, { poolSize: 2 });
  await database.migrate();
  return database;
}

const isEntryPoint = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  runStaffCli(process.argv.slice(2), { out: (line) => console.log(line), err: (line) => console.error(line) })
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
