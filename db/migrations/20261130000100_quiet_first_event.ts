import type { Knex } from 'knex';

/**
 * A mailing's first event (step 0, `paid`) is written with the mailing itself: no API process can
 * hold a copy of a mailing that did not exist, so its insertion announces nothing. Every later
 * event, and any update or deletion, is still announced on `shipment_changed`. One NOTIFY less per
 * mailing created (and none for bulk inserts of new mailings).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER shipment_events_changed ON shipment_events;
    CREATE TRIGGER shipment_events_changed AFTER UPDATE OR DELETE ON shipment_events
      FOR EACH ROW EXECUTE FUNCTION notify_shipment_changed('shipment_id');
    CREATE TRIGGER shipment_events_added AFTER INSERT ON shipment_events
      FOR EACH ROW WHEN (NEW.step > 0) EXECUTE FUNCTION notify_shipment_changed('shipment_id');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER shipment_events_added ON shipment_events;
    DROP TRIGGER shipment_events_changed ON shipment_events;
    CREATE TRIGGER shipment_events_changed AFTER INSERT OR UPDATE OR DELETE ON shipment_events
      FOR EACH ROW EXECUTE FUNCTION notify_shipment_changed('shipment_id');
  `);
}
