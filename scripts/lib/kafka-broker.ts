// The project's own Kafka: a single-node KRaft broker (broker and controller in one JVM) run
// from the official Apache Kafka jars. Maven resolves the jars from Maven Central once into a
// cache outside the repo (KAFKA_CACHE_DIR, default ~/.cache/webpush-campaigns/kafka-3.9.1), so
// fresh clones and throwaway test brokers reuse them. Used when KAFKA_BROKERS is not set: by the
// stack (persistent data) and by the test run (throwaway data).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { access, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fixRequestQueue } from '@webpush/shared/kafkajs-request-queue.js';
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { freePort } from '@webpush/shared/ports.js';
import { stopWithThisProcess } from './exit-reaper.js';
import { ROOT } from './local-env.js';

export const KAFKA_VERSION = '3.9.1';

const POM = path.join(ROOT, 'tools/kafka/pom.xml');
const READY_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 20_000;
const LOG_TAIL_LINES = 40;

export interface RunningKafka {
  /** Bootstrap address list for clients, e.g. "127.0.0.1:39092". */
  readonly brokers: string;
  /** The broker JVM's process id. */
  readonly pid: number;
  /** The broker's own log (log4j), useful when something goes wrong. */
  readonly logFile: string;
  stop(): Promise<void>;
}

export interface StartKafkaOptions {
  dataDir: string;
  persistent: boolean;
  port?: number;
  log?: (line: string) => void;
  heapMb?: number;
}

export class KafkaBootstrapError extends Error {}

/** Where the resolved jars live; shared by every clone and run on this machine. */
export function kafkaCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.KAFKA_CACHE_DIR || path.join(os.homedir(), '.cache', 'webpush-campaigns', `kafka-${KAFKA_VERSION}`));
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function exists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}

/** Runs a command to completion and returns its output; ENOENT becomes a clear "install X" error. */
function run(cmd: string, args: string[], opts: { cwd?: string; missing: string }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(cmd, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      reject(new KafkaBootstrapError(`${opts.missing} (${(err as Error).message})`));
      return;
    }
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.once('error', (err: NodeJS.ErrnoException) => {
      reject(err.code === 'ENOENT' ? new KafkaBootstrapError(opts.missing) : err);
    });
    child.once('close', (code) => resolve({ code, output }));
  });
}

function javaBinary(): string {
  return process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

function javaMissing(): string {
  return (
    `Java (17 or newer) is needed to run the project's own Kafka ${KAFKA_VERSION} broker and was not found` +
    ` (looked for ${process.env.JAVA_HOME ? '$JAVA_HOME/bin/java' : '`java` on PATH'}).` +
    ' Install a JDK/JRE (e.g. `apt-get install openjdk-17-jre-headless`, `brew install openjdk@17`)' +
    ' or set KAFKA_BROKERS to an existing Kafka broker.'
  );
}

/** Checks Java is there and recent enough; returns its version banner (identifies the JVM build). */
async function checkJava(): Promise<string> {
  const { code, output } = await run(javaBinary(), ['-version'], { missing: javaMissing() });
  const m = /version "(\d+)(?:\.(\d+))?/.exec(output);
  if (code !== 0 || !m) throw new KafkaBootstrapError(`${javaMissing()}\n\`java -version\` said: ${output.trim()}`);
  const major = m[1] === '1' ? Number(m[2]) : Number(m[1]);
  if (major < 11) {
    throw new KafkaBootstrapError(`Kafka ${KAFKA_VERSION} needs Java 11 or newer (17 recommended); found Java ${major}. Install a newer JDK/JRE or set KAFKA_BROKERS.`);
  }
  return output.trim();
}

/**
 * Resolves the broker's jars into <cache>/libs-<pom hash> once. Maven fills a private folder that
 * is renamed into place only after it succeeded: the rename is atomic, so the folder exists only
 * complete, a changed pom resolves into a folder of its own, and processes resolving at once
 * (parallel test runs) never remove or half-read each other's jars; the first rename wins.
 */
export async function resolveKafkaJars(log: (line: string) => void = () => {}): Promise<string> {
  const cache = kafkaCacheDir();
  const pomHash = createHash('sha256').update(await readFile(POM)).digest('hex').slice(0, 16);
  const libs = path.join(cache, `libs-${pomHash}`);
  if (await exists(libs)) return libs;

  log(`kafka: resolving Kafka ${KAFKA_VERSION} jars with Maven (first run only)… into ${cache}`);
  await mkdir(cache, { recursive: true });
  // Interrupted downloads, and the jars of other poms once a day has passed (a broker of an older
  // checkout may still be running on them until then).
  await removeStale(cache, (f) => f.startsWith('libs.partial-'), 60 * 60_000);
  await removeStale(cache, (f) => (f.startsWith('libs-') && f !== path.basename(libs)) || f === 'libs' || f === 'resolved.json', 24 * 60 * 60_000);
  const started = Date.now();
  const partial = path.join(cache, `libs.partial-${process.pid}-${randomBytes(3).toString('hex')}`);
  try {
    const { code, output } = await run('mvn', ['-q', '-B', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${partial}`], {
      cwd: ROOT,
      missing:
        `Maven (\`mvn\`) is needed once to download the Kafka ${KAFKA_VERSION} jars from Maven Central and was not found on PATH.` +
        ' Install it (e.g. `apt-get install maven`, `brew install maven`) or set KAFKA_BROKERS to an existing Kafka broker.',
    });
    if (code !== 0) {
      throw new KafkaBootstrapError(`Maven could not resolve the Kafka ${KAFKA_VERSION} jars (exit ${code}):\n${output.trim().split('\n').slice(-30).join('\n')}`);
    }
    const jars = (await readdir(partial)).filter((f) => f.endsWith('.jar'));
    if (!jars.some((f) => f.startsWith('kafka_2.13-'))) throw new KafkaBootstrapError(`Maven finished but ${partial} holds no kafka_2.13 jar`);
    try {
      await rename(partial, libs);
    } catch (err) {
      // Another process renamed its folder first; its jars are as good as ours.
      if (!(await exists(libs))) throw err;
    }
    log(`kafka: resolved ${jars.length} jars in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return libs;
  } finally {
    await rm(partial, { recursive: true, force: true });
  }
}

/**
 * A class-data-sharing archive of the broker's classes (JDK 13+ dynamic CDS) cuts JVM start-up
 * by seconds. It is recorded by the first broker that exits cleanly and then reused; it is keyed
 * by the JVM build and the jar set, and the JVM ignores it by itself if they ever disagree.
 */
async function cdsArchive(libs: string, javaBanner: string): Promise<{ flags: string[]; commit(): Promise<void> }> {
  const dir = path.join(kafkaCacheDir(), 'cds');
  const jars = (await readdir(libs)).sort().join('\n');
  const key = createHash('sha256').update(javaBanner).update('\0').update(jars).digest('hex').slice(0, 16);
  const archive = path.join(dir, `kafka-${key}.jsa`);
  if (await exists(archive)) return { flags: [`-XX:SharedArchiveFile=${archive}`, '-Xlog:cds=off', '-Xlog:cds+dynamic=off'], commit: async () => {} };
  await mkdir(dir, { recursive: true });
  const tmp = `${archive}.${process.pid}-${randomBytes(3).toString('hex')}.tmp`;
  // Leftovers of a recording that never got committed (its Node process died first).
  await removeStale(dir, (f) => f.endsWith('.tmp'), 10 * 60_000);
  return {
    flags: [`-XX:ArchiveClassesAtExit=${tmp}`, '-Xlog:cds=off', '-Xlog:cds+dynamic=off'],
    commit: async () => {
      if (!(await exists(tmp))) return;
      if (await exists(archive)) await rm(tmp, { force: true });
      else await rename(tmp, archive).catch(() => rm(tmp, { force: true }));
    },
  };
}

/** Removes leftovers of processes that died midway (old enough not to be in use). */
async function removeStale(dir: string, match: (name: string) => boolean, olderThanMs: number): Promise<void> {
  for (const f of await readdir(dir).catch(() => [] as string[])) {
    if (!match(f)) continue;
    const p = path.join(dir, f);
    const mtime = await stat(p).then((s) => s.mtimeMs, () => Date.now());
    if (Date.now() - mtime > olderThanMs) await rm(p, { recursive: true, force: true });
  }
}

function clusterId(): string {
  // A Kafka Uuid in its base64url form; a leading '-' would be read as a command-line option.
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-') && !id.startsWith('_')) return id;
  }
}

function serverProperties(o: { port: number; controllerPort: number; logDir: string; persistent: boolean }): string {
  const props: Record<string, string | number | boolean> = {
    'node.id': 1,
    'process.roles': 'broker,controller',
    listeners: `PLAINTEXT://127.0.0.1:${o.port},CONTROLLER://127.0.0.1:${o.controllerPort}`,
    'advertised.listeners': `PLAINTEXT://127.0.0.1:${o.port}`,
    'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'controller.quorum.voters': `1@127.0.0.1:${o.controllerPort}`,
    'log.dirs': o.logDir,
    // One node: every internal topic has one replica, and topics exist only when created
    // explicitly with their partition counts.
    'offsets.topic.replication.factor': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'default.replication.factor': 1,
    'min.insync.replicas': 1,
    'auto.create.topics.enable': false,
    'num.partitions': 1,
    // Consumers join at once instead of waiting for more members that will not come.
    'group.initial.rebalance.delay.ms': 0,
    // Light: fewer internal partitions (each one is files and threads' work), small segments
    // and indexes, a small compaction buffer (the default takes 128 MiB of heap).
    'offsets.topic.num.partitions': 8,
    'transaction.state.log.num.partitions': 4,
    'log.segment.bytes': 16 * 1024 * 1024,
    'log.index.size.max.bytes': 1024 * 1024,
    'offsets.topic.segment.bytes': 16 * 1024 * 1024,
    'log.cleaner.dedupe.buffer.size': 8 * 1024 * 1024,
    'log.cleaner.threads': 1,
    'num.network.threads': 2,
    'num.io.threads': 4,
    'num.recovery.threads.per.data.dir': 1,
    'background.threads': 4,
    'log.retention.hours': o.persistent ? 72 : 24,
    'log.retention.check.interval.ms': 60_000,
    'metadata.log.segment.bytes': 8 * 1024 * 1024,
    'metadata.max.retention.bytes': 32 * 1024 * 1024,
    'auto.leader.rebalance.enable': false,
    'delete.topic.enable': true,
  };
  return Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n';
}

function log4jProperties(file: string): string {
  return [
    'log4j.rootLogger=INFO, file',
    'log4j.appender.file=org.apache.log4j.RollingFileAppender',
    `log4j.appender.file.File=${file}`,
    'log4j.appender.file.MaxFileSize=10MB',
    'log4j.appender.file.MaxBackupIndex=2',
    'log4j.appender.file.layout=org.apache.log4j.PatternLayout',
    'log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n',
    'log4j.logger.kafka.request.logger=WARN',
    'log4j.logger.kafka.authorizer.logger=WARN',
    'log4j.logger.state.change.logger=WARN',
    'log4j.logger.org.apache.kafka.common.utils.AppInfoParser=WARN',
    '',
  ].join('\n');
}

/** The log's first errors (the cause, usually) and its last entries, without multi-line dumps. */
async function logExcerpt(file: string, lines = LOG_TAIL_LINES): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const entries = text.split('\n').filter((l) => l.trim() !== '' && !/^\s/.test(l));
  const errors = entries.filter((l) => /\] (ERROR|FATAL) /.test(l) || /Exception|Error:/.test(l)).slice(0, 10);
  const last = entries.slice(-lines).filter((l) => !errors.includes(l));
  return [...errors, ...(errors.length > 0 && last.length > 0 ? ['…'] : []), ...last].join('\n');
}

function quietAdmin(brokers: string): Admin {
  fixRequestQueue(); // no idle timer loop per connection; another kafkajs runs as released
  return new Kafka({
    clientId: 'webpush-kafka-bootstrap',
    brokers: brokers.split(','),
    connectionTimeout: 1000,
    requestTimeout: 3000,
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
  }).admin();
}

async function answers(brokers: string): Promise<boolean> {
  const admin = quietAdmin(brokers);
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

async function formatStorage(o: { java: string; jvmFlags: string[]; libs: string; propsFile: string; cwd: string }): Promise<void> {
  const { code, output } = await run(
    o.java,
    [...o.jvmFlags, '-cp', path.join(o.libs, '*'), 'kafka.tools.StorageTool', 'format', '-t', clusterId(), '-c', o.propsFile, '--ignore-formatted'],
    { cwd: o.cwd, missing: javaMissing() },
  );
  if (code !== 0) throw new KafkaBootstrapError(`formatting the Kafka storage failed (exit ${code}):\n${output.trim()}`);
}

/** Starts a single-node KRaft broker and waits until it answers. */
export async function startKafka(opts: StartKafkaOptions): Promise<RunningKafka> {
  const log = opts.log ?? (() => {});
  const javaBanner = await checkJava();
  const libs = await resolveKafkaJars(log);
  const dataDir = path.resolve(opts.dataDir);
  if (!opts.persistent) await rm(dataDir, { recursive: true, force: true });
  const logDir = path.join(dataDir, 'data');
  const logsDir = path.join(dataDir, 'logs');
  await mkdir(logsDir, { recursive: true });
  const propsFile = path.join(dataDir, 'server.properties');
  const log4jFile = path.join(dataDir, 'log4j.properties');
  const serverLog = path.join(logsDir, 'server.log');
  const jvmOut = path.join(logsDir, 'jvm.out');
  await writeFile(log4jFile, log4jProperties(serverLog));

  const cds = await cdsArchive(libs, javaBanner);
  const heapMb = opts.heapMb ?? 512;
  const commonFlags = [
    `-Dlog4j.configuration=${new URL(`file://${log4jFile}`).href}`,
    `-Dkafka.logs.dir=${logsDir}`,
    '-Djava.awt.headless=true',
    // A throwaway broker lives for one test run: the quick compiler starts it seconds sooner.
    ...(opts.persistent ? [] : ['-XX:TieredStopAtLevel=1']),
  ];

  // Ports picked here can be taken by someone else before the JVM binds them: retry once then.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port ?? (await freePort());
    const controllerPort = await freePort();
    await writeFile(propsFile, serverProperties({ port, controllerPort, logDir, persistent: opts.persistent }));
    if (!existsSync(path.join(logDir, 'meta.properties'))) {
      await formatStorage({ java: javaBinary(), jvmFlags: [...commonFlags, ...cds.flags.filter((f) => !f.startsWith('-XX:ArchiveClassesAtExit'))], libs, propsFile, cwd: dataDir });
    }
    const brokers = `127.0.0.1:${port}`;
    const started = Date.now();
    const child = spawnBroker({
      args: [
        `-Xmx${heapMb}m`,
        '-XX:+UseG1GC',
        '-XX:MaxGCPauseMillis=20',
        '-XX:InitiatingHeapOccupancyPercent=35',
        '-XX:+ExplicitGCInvokesConcurrent',
        ...commonFlags,
        ...cds.flags,
        '-cp',
        path.join(libs, '*'),
        'kafka.Kafka',
        propsFile,
      ],
      cwd: dataDir,
      outFile: jvmOut,
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? -1 : null))));
    let exitCode: number | null | undefined;
    void exited.then((c) => (exitCode = c));
    stopWithThisProcess(child);

    let ready = false;
    while (Date.now() - started < READY_TIMEOUT_MS && exitCode === undefined) {
      if (await answers(brokers)) {
        ready = true;
        break;
      }
      await sleep(200);
    }
    if (ready) {
      log(`kafka: broker ${KAFKA_VERSION} answering on ${brokers} (pid ${child.pid}, data ${dataDir}, log ${serverLog})`);
      let stopping: Promise<void> | undefined;
      return {
        brokers,
        pid: child.pid!,
        logFile: serverLog,
        stop: () =>
          (stopping ??= (async () => {
            await terminate(child, exited);
            await cds.commit();
            if (!opts.persistent) await rm(dataDir, { recursive: true, force: true });
          })()),
      };
    }

    const died = exitCode !== undefined;
    if (!died) await terminate(child, exited);
    const logs = `${await logExcerpt(jvmOut, 15)}\n${await logExcerpt(serverLog, 20)}`.trim();
    if (died && opts.port === undefined && attempt < 2 && /Address already in use/i.test(logs)) {
      log(`kafka: port taken while starting, retrying with other ports`);
      continue;
    }
    // A throwaway dir goes; the excerpt below carries what it had to say.
    if (!opts.persistent) await rm(dataDir, { recursive: true, force: true });
    throw new KafkaBootstrapError(
      (died
        ? `the Kafka broker exited (code ${exitCode}) before it answered on ${brokers}`
        : `the Kafka broker did not answer on ${brokers} within ${READY_TIMEOUT_MS / 1000} s`) +
        `; from its log${opts.persistent ? ` (${serverLog})` : ''}:\n${logs}`,
    );
  }
}

function spawnBroker(o: { args: string[]; cwd: string; outFile: string }): ChildProcess {
  // Output goes straight to a file: no pipes that would keep this process's event loop busy
  // or fill up unread.
  const fd = openSync(o.outFile, 'a');
  try {
    const child = spawn(javaBinary(), o.args, { cwd: o.cwd, stdio: ['ignore', fd, fd] });
    child.unref();
    return child;
  } finally {
    closeSync(fd);
  }
}

/** Waits for `p` at most `ms`; the timer never outlives the wait (it would hold the process). */
async function within<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

async function terminate(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  if ((await within(exited, STOP_TIMEOUT_MS)) === 'timeout') {
    child.kill('SIGKILL');
    await within(exited, 5000);
  }
}

/**
 * Creates the topics that are missing, with their partition counts, and waits until every
 * partition has a leader. Existing topics are kept; one with fewer partitions than asked for
 * is grown (Kafka cannot shrink a topic).
 */
export async function ensureTopics(brokers: string, topics: { topic: string; numPartitions: number }[]): Promise<void> {
  fixRequestQueue();
  const admin = new Kafka({
    clientId: 'webpush-kafka-topics',
    brokers: brokers.split(','),
    connectionTimeout: 3000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 2000 },
    // Partitions without a leader yet are logged as errors while we wait for exactly that;
    // real failures are thrown.
    logLevel: logLevel.NOTHING,
  }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t.topic));
    if (missing.length > 0) {
      // Resolves false when another process created them meanwhile; that is fine too.
      await admin.createTopics({
        topics: missing.map((t) => ({ topic: t.topic, numPartitions: t.numPartitions, replicationFactor: 1 })),
        waitForLeaders: false,
      });
    }
    const names = topics.map((t) => t.topic);
    const kept = topics.filter((t) => existing.has(t.topic));
    const before = kept.length > 0 ? (await admin.fetchTopicMetadata({ topics: kept.map((t) => t.topic) })).topics : [];
    const grow = kept.filter((t) => {
      const m = before.find((x) => x.name === t.topic);
      return m !== undefined && m.partitions.length < t.numPartitions;
    });
    if (grow.length > 0) await admin.createPartitions({ topicPartitions: grow.map((t) => ({ topic: t.topic, count: t.numPartitions })) });
    const deadline = Date.now() + 30_000;
    for (;;) {
      const meta = await admin.fetchTopicMetadata({ topics: names }).catch(() => undefined);
      const ready =
        meta !== undefined &&
        topics.every((t) => {
          const m = meta.topics.find((x) => x.name === t.topic);
          return m !== undefined && m.partitions.length >= t.numPartitions && m.partitions.every((p) => p.leader >= 0);
        });
      if (ready) return;
      if (Date.now() > deadline) throw new KafkaBootstrapError(`topics ${names.join(', ')} have no leaders on ${brokers} after 30 s`);
      await sleep(100);
    }
  } finally {
    await admin.disconnect();
  }
}
