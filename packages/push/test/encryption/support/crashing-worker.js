// @ts-check
// The real encryption worker, except that a chunk whose one shared plaintext is "crash" kills the
// thread before it can answer: how the pool meets an out-of-memory or native crash. Plain JS like
// the real one (workers get no loader). Static imports, so both listeners are in place before the
// first message is delivered.
import './crash-on-demand.js';
import '../../../src/encryption/worker.js';
