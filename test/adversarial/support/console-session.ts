// A console user of the suite's console classes, logged in as the console's page does: a
// member of a site made through the operators' side (the campaign service's accounts), then the
// cookie and the CSRF token every later call carries.
import { createAccounts, type Role } from '../../../services/campaign/src/accounts/accounts.js';
import type { HeaderList } from './http.js';
import { request } from './http.js';
import { getCtx, jsonRequest } from './suite.js';

export interface ConsoleSession {
  email: string;
  /** The session cookie, then the CSRF token. */
  headers: HeaderList;
}

const PASSWORD = 'the adversarial console user knows this one';
let users = 0;

/** Logs a new member of `siteId` in with `role`. */
export async function consoleLogIn(siteId: string, role: Role = 'owner'): Promise<ConsoleSession> {
  const c = getCtx();
  const email = `console.${role}.${++users}.${Date.now()}@example.com`;
  await createAccounts(c.db).ensureMember({ site: siteId, email, password: PASSWORD, role });
  const result = await request(c.gatewayPort, jsonRequest('POST', '/console/api/login', { email, password: PASSWORD }));
  const answer = result.responses[0];
  const cookie = /console_session=([^;,]+)/.exec(answer?.headers['set-cookie'] ?? '')?.[1];
  const csrf = (JSON.parse(answer?.text ?? '{}') as { csrfToken?: string }).csrfToken;
  if (answer?.status !== 200 || !cookie || !csrf) throw new Error(`the console user could not log in: ${answer?.status} ${answer?.text}`);
  return { email, headers: [['Cookie', `console_session=${cookie}`], ['X-CSRF-Token', csrf]] };
}
