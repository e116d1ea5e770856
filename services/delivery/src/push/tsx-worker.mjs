// Starts a TypeScript worker under tsx. Node 20 workers ignore `execArgv: ['--import', 'tsx']`
// ("Unknown file extension .ts"), so the hooks are registered here, then the worker is loaded.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.tsxWorkerUrl);
