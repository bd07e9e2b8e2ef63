import type { Db } from '../../db/knex.js';
import type { Config } from '../../lib/config.js';
import { Ar24Client } from '../partners/ar24.js';
import { Ar24Provider, type Ar24Records } from './ar24.js';
import type { ElectronicProvider } from './electronic-provider.js';
import { LreSimulator } from './simulator.js';

/**
 * The electronic registered letter provider LRE_PROVIDER names; AR24's ids of a mailing are kept
 * where `records` says (the mailing's row: activities/index.ts).
 */
export function electronicProvider(db: Db, config: Config, records: Ar24Records): ElectronicProvider {
  const setting = config.lreProvider;
  if (setting.kind === 'ar24') return new Ar24Provider(new Ar24Client(setting.ar24), records);
  return new LreSimulator(db, { stepDelayMs: config.operatorStepDelayMs });
}
