/**
 * `npm run admin -- <email>`: makes an account an admin from the command line of the machine
 * that holds the database (DATA_DIR), e.g. to appoint the first admin of a new site. An address
 * without an account gets a confirmed admin account and a one-time link to choose its password.
 * Bundled into dist/server/cli-admin.js, so it runs in the production image too
 * (`docker exec <container> npm run admin -- you@example.se`).
 */
import path from 'node:path';
import { closeDb, migrateDb, openDb } from '../../db/client';
import { loadEnvOrExit } from '../env';
import { existingDataDir } from './support/cli';
import { appointAdmin } from '../services/accounts/users';

const email = process.argv[2]?.trim();
if (!email || process.argv.length > 3 || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
  console.error('Usage: npm run admin -- <email>');
  process.exit(2);
}

const env = loadEnvOrExit();
const file = path.join(existingDataDir(env.DATA_DIR), 'recensera.sqlite');
const db = openDb(file);
let code = 0;
try {
  migrateDb(db);
  const appointed = appointAdmin(db, email);
  switch (appointed.result) {
    case 'promoted':
      console.log(`${email} is now an admin.`);
      break;
    case 'alreadyAdmin':
      console.log(`${email} is already an admin.`);
      break;
    case 'created':
    case 'claimed':
      console.log(
        appointed.result === 'created'
          ? `Created a confirmed admin account for ${email}.`
          : `${email} was registered but never confirmed: its password, sessions and pending links are removed, and it is now a confirmed admin account.`,
      );
      console.log('Open this link within one hour to choose its password (it works once):');
      console.log(`${env.PUBLIC_URL}/reset-password?token=${encodeURIComponent(appointed.setPasswordToken)}`);
      break;
    case 'banned':
      console.error(`${email} is banned; a banned user cannot be made admin. Unban the account first.`);
      code = 1;
      break;
  }
} finally {
  closeDb(db);
}
process.exit(code);
