// The real encryption worker, except that a chunk whose payload is "crash" kills the thread
// before it can answer — how the pool meets an out-of-memory or native crash.
import './crash-on-demand.js';
import '../../../src/push/encrypt-worker.js';
