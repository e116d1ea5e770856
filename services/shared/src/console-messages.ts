// The console API's own `message` texts (docs/console.md), written once: the gateway answers some
// itself (its session, CSRF, role and input checks) and the campaign service the others (as gRPC
// status details); both catalogues take them in. None is the /v2 contract's: the console answers
// /v2's texts only where it runs /v2's rules (campaigns, plans).
import { BAD_CHARACTERS } from './text.js';

export const CONSOLE_OWN = {
  notLoggedIn: 'Not logged in',
  wrongLogin: 'Wrong email or password',
  tooManyLogins: 'Too many login attempts; try again later',
  invalidCsrf: 'Invalid CSRF token',
  jsonContentType: 'Content-Type must be application/json',
  siteNotFound: 'Site not found',
  keyNotFound: 'Key not found',
  ownersOnly: "Only the site's owners can do this",
  linkInvalid: 'This link is invalid, used or expired',
  passwordLength: 'Password must be 10 to 200 characters',
  keyAlreadyRevoked: 'The key is already revoked',
  labelLength: 'Label must be 1 to 100 characters',
  labelCharacters: 'Label must not contain control characters',
  /** `<field>`: the body's field name as the API spells it. */
  fieldString: '<field> must be a string',
  fieldCharacters: `<field> ${BAD_CHARACTERS}`,
  daysRange: 'days must be a whole number from 1 to 365',
} as const;

/** `template` with `<field>` replaced by `field`. */
export function withField(template: string, field: string): string {
  return template.replace('<field>', () => field);
}
