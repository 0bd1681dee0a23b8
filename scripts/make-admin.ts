/**
 * `npm run admin -- <email>`: makes an existing account an admin, from the command line of the
 * machine that holds the database (DATA_DIR), e.g. to appoint the first admin of a new site.
 */
import path from 'node:path';
import { closeDb, migrateDb, openDb } from '../db/client';
import { EnvError, loadEnv } from '../server/env';
import { promoteToAdmin } from '../server/services/users';

const email = process.argv[2]?.trim();
if (!email || process.argv.length > 3) {
  console.error('Usage: npm run admin -- <email>');
  process.exit(2);
}

let env;
try {
  env = loadEnv();
} catch (e) {
  if (e instanceof EnvError) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}

const file = path.join(path.resolve(env.DATA_DIR), 'recensera.sqlite');
const db = openDb(file);
let code = 0;
try {
  migrateDb(db);
  const result = promoteToAdmin(db, email);
  const lines = {
    promoted: `${email} is now an admin.`,
    alreadyAdmin: `${email} is already an admin.`,
    unknown: `No account with the e-mail ${email} in ${file}. Register it first.`,
    banned: `${email} is banned; a banned user cannot be made admin. Unban the account first.`,
  } as const;
  if (result === 'promoted' || result === 'alreadyAdmin') console.log(lines[result]);
  else {
    console.error(lines[result]);
    code = 1;
  }
} finally {
  closeDb(db);
}
process.exit(code);
