// Faults of the infrastructure under a campaign (issue 11, docs/reliability.md), on a stack with
// a Postgres server and a Kafka broker of its own (the shared test servers must not be stopped):
// every service connection terminated with pg_terminate_backend, the Kafka broker killed -9 and
// restarted, Postgres stopped (fast shutdown) and started. Each prints lost / duplicated /
// ambiguous as counts of N and holds the platform to the same promises as the sending-path
// faults: lost = 0, duplicated ≤ ambiguous, counters equal to what the push service accepted,
// and a run that completes on its own within a bounded wait.
import { sleep } from '../e2e/support/harness.js';
import { startOwnServers, type OwnServers } from './support/own-servers.js';
import { DOWN_SEC, expectNoProblems, N, runScenario, startRig, terminateBackends, waitUntilQuiet, type Rig } from './support/faults.js';

describe('faults: the infrastructure (Postgres connections terminated, Kafka broker killed, Postgres restarted)', function () {
  this.timeout(600_000);
  let servers: OwnServers | undefined;
  let rig: Rig | undefined;

  before(async () => {
    servers = await startOwnServers('wp_faults_infra');
    rig = await startRig('faults_infra', { env: { KAFKA_BROKERS: servers.kafkaBrokers }, stack: { database: servers.database } });
  });

  after(async () => {
    await rig?.stop().catch((err) => console.log(`      stopping the stack: ${(err as Error).message}`));
    await servers?.close();
  });

  it("when every service's Postgres connection is terminated at 30 %, then the run completes on its own: nothing lost, counters right", async () => {
    const f = await runScenario(rig!, 'pg_terminate_backend', async (ctx) => {
      const at = await ctx.waitForProgress(0.3);
      const n = await terminateBackends(rig!, `application_name IN ('delivery', 'campaign')`);
      return `${n} backends of delivery and campaign terminated at ${at}/${N}`;
    });
    expectNoProblems(rig!, f);
  });

  it(`when the Kafka broker is killed with SIGKILL at 30 % and restarted ${DOWN_SEC} s later, then nothing is lost and the run completes`, async () => {
    const f = await runScenario(rig!, 'kill -9 Kafka broker', async (ctx) => {
      const at = await ctx.waitForProgress(0.3);
      servers!.killBroker();
      const from = Date.now();
      await sleep(DOWN_SEC * 1000);
      await servers!.startBroker();
      return `killed at ${at}/${N}, answering again after ${((Date.now() - from) / 1000).toFixed(1)} s`;
    });
    expectNoProblems(rig!, f);
  });

  it(`when Postgres is stopped at 30 % and started ${DOWN_SEC} s later, then nothing is lost, no row stays claimed and the counters catch up`, async () => {
    const f = await runScenario(rig!, 'Postgres stopped and started', async (ctx) => {
      const at = await ctx.waitForProgress(0.3);
      // At a moment when no delivery connection is inside a transaction (a claimed slice being
      // pushed): the process lives through the outage rather than crashing on a checked-out
      // connection, so what follows is its own retry of its own claims.
      const quiet = await waitUntilQuiet(rig!, 2000);
      const from = Date.now();
      await servers!.stopPostgres(); // SIGINT: a fast shutdown, every connection cut
      await sleep(DOWN_SEC * 1000);
      await servers!.startPostgres();
      return `stopped at ${at}/${N}${quiet ? '' : ' (delivery busy in a transaction)'}, accepting connections again after ${((Date.now() - from) / 1000).toFixed(1)} s`;
    });
    expectNoProblems(rig!, f);
  });
});
