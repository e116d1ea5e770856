// Imported before the real worker so that this listener runs first for every chunk.
import { parentPort } from 'node:worker_threads';

parentPort!.on('message', (msg: { payload: string }) => {
  if (msg.payload === 'crash') process.exit(3);
});
