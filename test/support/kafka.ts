// Test Kafka. The mocha global setup (test/support/global-setup.ts) makes sure a broker is
// reachable: KAFKA_BROKERS when set, otherwise one throwaway broker of the project's own for the
// whole run. Suites that need topics create their own (uniquely named, or through ensureTopics).
export const TEST_KAFKA_BROKERS_VAR = 'WEBPUSH_TEST_KAFKA_BROKERS';

/** The broker list for this test run, e.g. "127.0.0.1:39092". */
export function testKafkaBrokers(): string {
  const brokers = process.env[TEST_KAFKA_BROKERS_VAR];
  if (!brokers) throw new Error(`${TEST_KAFKA_BROKERS_VAR} is not set: run the tests through mocha with test/support/global-setup.ts`);
  return brokers;
}
