// Which database errors are worth trying again: a lost or refused connection, Postgres
// restarting or shutting down, a serialization failure or deadlock, a full connection table.
// Anything else (a constraint, a syntax error, a bug) fails the same way every time.

// SQLSTATE classes: 08 connection exception, 40 transaction rollback, 53 insufficient
// resources, 57 operator intervention (admin_shutdown 57P01, crash_shutdown 57P02,
// cannot_connect_now 57P03, query_canceled 57014).
const TRANSIENT_CLASSES = new Set(['08', '40', '53', '57']);
const SQLSTATE = /^[0-9A-Z]{5}$/;

export function isTransientDbError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError || err instanceof SyntaxError) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && SQLSTATE.test(code)) return TRANSIENT_CLASSES.has(code.slice(0, 2));
  // A socket error (ECONNREFUSED, ECONNRESET, …) or pg's own without a code: "Connection
  // terminated unexpectedly", "timeout exceeded when trying to connect", a client that is "not
  // queryable" after its connection failed.
  return true;
}
