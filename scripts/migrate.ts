import { loadConfig } from '../lib/config.js';
import { openToolDatabase } from './local/database.js';
import { migrateLatest } from '../db/knex.js';
import { setLogRole } from '../lib/logger.js';

setLogRole('migrate');

const { db, close } = await openToolDatabase(loadConfig(), 'migrate');
try {
  console.log(JSON.stringify({ applied: await migrateLatest(db) }));
} finally {
  await close();
}
