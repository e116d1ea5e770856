// The database's size and the delivery schema's largest tables as gauges: what the size alerts
// (deploy/prometheus/alerts.yaml, PostgresDatabaseGrowing) and the operations doc's capacity
// figures read. Sampled at most once per scrape, from the catalog (no table is counted).
import type { Registry } from 'prom-client';
import type { Queryable } from '@webpush/shared/db.js';
import { sampledGauge } from '@webpush/shared/observability/metrics.js';
import { tableSizes } from './retention-store.js';

/** Tables reported by name: the largest, so a schema with many pieces does not make many series. */
const TABLES_REPORTED = 12;

export function databaseSizeGauges(registry: Registry, db: Queryable): void {
  let last: Promise<Awaited<ReturnType<typeof tableSizes>>> | undefined;
  let lastAt = 0;
  // One catalog read feeds both gauges of a scrape.
  const sizes = () => {
    if (!last || Date.now() - lastAt > 1000) {
      last = tableSizes(db);
      lastAt = Date.now();
    }
    return last;
  };
  sampledGauge(registry, { name: 'postgres_database_size_bytes', help: 'Size of the database on disk (pg_database_size).', timeoutMs: 3000 }, async () => [
    { value: (await sizes()).databaseBytes },
  ]);
  sampledGauge(
    registry,
    { name: 'postgres_table_size_bytes', help: "The delivery schema's largest tables, with indexes and TOAST (pg_total_relation_size).", labelNames: ['table'], timeoutMs: 3000 },
    async () => (await sizes()).tables.slice(0, TABLES_REPORTED).map((t) => ({ labels: { table: t.table }, value: t.bytes })),
  );
}
