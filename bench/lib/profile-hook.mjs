// Preloaded into a service (NODE_OPTIONS=--import …) when `npm run bench -- --profile`: Node 20
// refuses --cpu-prof in NODE_OPTIONS, so the main thread's profile is taken with the inspector
// and written when the process exits. Output: $BENCH_PROFILE_DIR/<entry>.<pid>.cpuprofile.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
  let written = false;
  process.on('exit', () => {
    if (written) return;
    written = true;
    // A same-thread session answers synchronously, so this works inside 'exit'.
    session.post('Profiler.stop', (err, res) => {
      if (err || !res) return;
      const entry = (process.argv[1] ?? 'node').split('/').slice(-3).join('_').replace(/\.ts$/, '');
      writeFileSync(path.join(dir, `${entry}.${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
  });
}
