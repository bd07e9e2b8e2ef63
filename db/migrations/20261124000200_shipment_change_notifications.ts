import type { Knex } from 'knex';

/**
 * API processes cache the mailings they serve (GET /v1/mailings/{id}); every change to a shipment,
 * its events or its proofs is announced on the `shipment_changed` channel (payload: the shipment
 * id) when it commits, so that each process drops its copy at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION notify_shipment_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- TG_ARGV[0] names the column that holds the shipment id.
      PERFORM pg_notify('shipment_changed', to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[0]);
      RETURN NULL;
    END $$;
    CREATE TRIGGER shipments_changed AFTER UPDATE OR DELETE ON shipments
      FOR EACH ROW EXECUTE FUNCTION notify_shipment_changed('id');
    CREATE TRIGGER shipment_events_changed AFTER INSERT OR UPDATE OR DELETE ON shipment_events
      FOR EACH ROW EXECUTE FUNCTION notify_shipment_changed('shipment_id');
    CREATE TRIGGER shipment_proofs_changed AFTER INSERT OR UPDATE OR DELETE ON shipment_proofs
      FOR EACH ROW EXECUTE FUNCTION notify_shipment_changed('shipment_id');
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER IF EXISTS shipment_proofs_changed ON shipment_proofs;
    DROP TRIGGER IF EXISTS shipment_events_changed ON shipment_events;
    DROP TRIGGER IF EXISTS shipments_changed ON shipments;
    DROP FUNCTION IF EXISTS notify_shipment_changed();
  `);
}
