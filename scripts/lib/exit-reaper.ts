// Child processes that must not outlive the process that started them (a broker, the services,
// a push simulator): each still running is sent SIGTERM when this process exits — at the end of
// its event loop, at process.exit(), after an uncaught error — in case its owner never got to
// stop it. Its owner's own stop() stays the normal way; this is the floor under it.
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
let hooked = false;

export function stopWithThisProcess(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const c of running) {
      try {
        c.kill('SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}
