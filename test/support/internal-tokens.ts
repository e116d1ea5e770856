// The services' internal tokens for in-process test stacks (packages/shared/src/internal-auth.ts):
// one set per test run, passed to every service a suite starts and to its own gRPC clients.
import { randomBytes } from 'node:crypto';

export const INTERNAL_TOKENS = Object.freeze({
  GATEWAY_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
  CAMPAIGN_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
  OPERATOR_INTERNAL_TOKEN: randomBytes(32).toString('base64'),
});
