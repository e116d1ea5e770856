// Preloaded into the services by the bench (NODE_OPTIONS=--require …; Node 20 runs --require
// preloads in every worker thread too, --import ones only in some): each JavaScript thread leaves
// an empty file $BENCH_THREADS_DIR/<pid>.<tid>.<role>, so the bench can tell a process's threads
// apart in /proc (proc.ts threadRoleCpu), where Node 20 names them all "node". Role: main, worker
// (a `new Worker(...)` thread: it has a parentPort), or internal (Node's module-hooks thread).
'use strict';
const dir = process.env.BENCH_THREADS_DIR;
if (dir) {
  try {
    const { readlinkSync, writeFileSync } = require('node:fs');
    const path = require('node:path');
    const threads = require('node:worker_threads');
    // "<pid>/task/<tid>": the calling thread's own entry (a sync call runs on this thread).
    const tid = readlinkSync('/proc/thread-self').split('/').pop();
    const role = threads.isMainThread ? 'main' : threads.parentPort ? 'worker' : 'internal';
    writeFileSync(path.join(dir, `${process.pid}.${tid}.${role}`), '');
  } catch {
    // Not Linux, or the directory is gone: the bench then reports no split, nothing else changes.
  }
}
