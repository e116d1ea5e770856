// The console's gRPC API (campaign.v1.Console) called as the gateway calls it, over the
// in-process stack's campaign service, with helpers to make users through the operators' side.
import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import type { ConsoleClient } from '@webpush/contracts/generated/campaign/v1/Console.js';
import { loadConsoleProto } from '@webpush/shared/grpc.js';
import { withInternalToken } from '@webpush/shared/internal-auth.js';
import { INTERNAL_TOKENS } from '../../../../test/support/internal-tokens.js';
import { startInProcess, type InProcessStack } from '../../../../test/support/in-process.js';
import { createAccounts, type Accounts, type Role } from '../../src/accounts/accounts.js';

export const BASE_URL = 'https://push.example.net';

export interface ConsoleHarness {
  stack: InProcessStack;
  accounts: Accounts;
  call<Res>(method: keyof ConsoleClient & string, request: object): Promise<Res>;
  /** A call's error, or a failure when it succeeded. */
  refusal(method: keyof ConsoleClient & string, request: object): Promise<grpc.ServiceError>;
  /** A user with this password, member of the site with the role (through an accepted invite). */
  newUser(siteId: string, email: string, password: string, role?: Role): Promise<void>;
  stop(): Promise<void>;
}

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

/** The token of a link printed by the operators (`…/console/#/invite/<token>`). */
export const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1);

export async function startConsoleHarness(label: string): Promise<ConsoleHarness> {
  const stack = await startInProcess(label, { campaign: true });
  const { Console } = loadConsoleProto().campaign.v1;
  const client = new Console(`127.0.0.1:${stack.campaign!.grpcPort}`, grpc.credentials.createInsecure(), withInternalToken(INTERNAL_TOKENS.GATEWAY_INTERNAL_TOKEN));
  const accounts = createAccounts(stack.pool);

  function call<Res>(method: string, request: object): Promise<Res> {
    return new Promise((resolve, reject) => {
      const fn = (client as unknown as Record<string, (req: object, opts: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res: Res) => void) => void>)[method];
      fn.call(client, request, { deadline: Date.now() + 10_000 }, (err, res) => (err ? reject(err) : resolve(res)));
    });
  }

  return {
    stack,
    accounts,
    call,
    async refusal(method, request) {
      try {
        await call(method, request);
      } catch (err) {
        return err as grpc.ServiceError;
      }
      throw new Error(`${method} was expected to fail`);
    },
    async newUser(siteId, email, password, role = 'owner') {
      const invite = await accounts.invite({ site: siteId, email, role, baseUrl: BASE_URL });
      await call('AcceptInvite', { token: tokenOf(invite.link), password, sessionHash: '', clientAddress: '192.0.2.1' });
    },
    async stop() {
      client.close();
      await stack.stop();
    },
  };
}
