// A pg pool that fails chosen statements: either throws before running them (as a dropped
// connection does, no SQLSTATE) or terminates the backend that would run them with
// pg_terminate_backend, so the statement fails on a connection Postgres itself closed — the
// transaction it belongs to is gone, the client is thrown away by the pool.
import type pg from 'pg';
import type { Pool } from '@webpush/shared/db.js';

export interface FaultyPool {
  /** Use where the code under test takes a Pool. */
  pool: Pool;
  /** The next `times` statements whose text matches `match` fail. */
  fail(match: RegExp, opts: { times: number; how: 'throw' | 'terminate' }): void;
  /** Failures injected so far. */
  readonly injected: number;
}

export function faultyPool(real: Pool): FaultyPool {
  const faults: { match: RegExp; left: number; how: 'throw' | 'terminate' }[] = [];
  let injected = 0;

  const due = (sql: unknown) => {
    const text = typeof sql === 'string' ? sql : ((sql as { text?: string })?.text ?? '');
    const f = faults.find((x) => x.left > 0 && x.match.test(text));
    if (!f) return undefined;
    f.left -= 1;
    injected += 1;
    return f.how;
  };

  const thrown = () => new Error('injected fault: Connection terminated unexpectedly');

  // The backend of `client` is terminated from another connection; the statement then fails.
  const terminate = async (client: pg.PoolClient) => {
    const pid = (client as unknown as { processID: number }).processID;
    await real.query('SELECT pg_terminate_backend($1)', [pid]);
    // Wait (bounded) until the backend is gone, so the statement cannot slip through first.
    for (let i = 0; i < 100; i++) {
      const { rows } = await real.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', [pid]);
      if (rows[0].n === 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  };

  const wrapClient = (client: pg.PoolClient): pg.PoolClient =>
    new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return async (sql: unknown, ...rest: unknown[]) => {
            const how = due(sql);
            if (how === 'throw') throw thrown();
            if (how === 'terminate') await terminate(target);
            return (target.query as (...a: unknown[]) => unknown)(sql, ...rest);
          };
        }
        const v = Reflect.get(target, prop, receiver);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });

  const pool = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return async (sql: unknown, ...rest: unknown[]) => {
          const how = due(sql);
          if (how === 'throw') throw thrown();
          if (how === 'terminate') {
            const client = await target.connect();
            client.on('error', () => {}); // the termination this very code causes
            let error: Error | undefined;
            try {
              await terminate(client);
              return await (client.query as (...a: unknown[]) => unknown)(sql, ...rest);
            } catch (err) {
              error = err as Error;
              throw err;
            } finally {
              client.release(error ?? true);
            }
          }
          return (target.query as (...a: unknown[]) => unknown)(sql, ...rest);
        };
      }
      if (prop === 'connect') return async () => wrapClient(await target.connect());
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as Pool;

  return {
    pool,
    fail(match, opts) {
      faults.push({ match, left: opts.times, how: opts.how });
    },
    get injected() {
      return injected;
    },
  };
}
