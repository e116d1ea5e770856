// Preloaded into a service (NODE_OPTIONS=--import …) when `npm run bench -- --profile`: Node 20
// refuses --cpu-prof in NODE_OPTIONS, so the main thread's profiles are taken with the inspector
// and written when the process exits. Output, in $BENCH_PROFILE_DIR:
//   <entry>.<pid>.cpuprofile   where the main thread spends its time;
//   <entry>.<pid>.heapprofile  where it allocates: sampled allocations, the ones already collected
//     included (Node's --heap-prof keeps only what is still live at exit, which says nothing
//     about the garbage collector's work per push).
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
  session.post('HeapProfiler.startSampling', { samplingInterval: 32 * 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  let written = false;
  process.on('exit', () => {
    if (written) return;
    written = true;
    const entry = (process.argv[1] ?? 'node').split('/').slice(-3).join('_').replace(/\.ts$/, '');
    // A same-thread session answers synchronously, so this works inside 'exit'.
    session.post('Profiler.stop', (err, res) => {
      if (!err && res) writeFileSync(path.join(dir, `${entry}.${process.pid}.cpuprofile`), JSON.stringify(res.profile));
    });
    session.post('HeapProfiler.stopSampling', (err, res) => {
      if (!err && res) writeFileSync(path.join(dir, `${entry}.${process.pid}.heapprofile`), JSON.stringify(res.profile));
    });
  });
}
