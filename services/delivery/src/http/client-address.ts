// The visitor a request is on behalf of, as the gateway decided it. The gateway is the only edge:
// it alone reads forwarding and country headers (its TRUSTED_PROXIES and COUNTRY_HEADER) and
// passes its answer in internal headers. Every route that reads them sits behind gatewayOnly
// (routes/gateway-only.ts), so they are never a client's; X-Forwarded-For and the socket address
// (the gateway's own) are never read here.
import { isIP } from 'node:net';
import type { Request } from 'express';
import { CLIENT_ADDRESS_HEADER, CLIENT_COUNTRY_HEADER } from '@webpush/shared/edge-headers.js';

/** The rate-limit key of a request: the visitor's address, or one shared bucket if the gateway sent none. */
export function clientAddress(req: Request): string {
  const value = req.headers[CLIENT_ADDRESS_HEADER];
  return typeof value === 'string' && isIP(value) !== 0 ? value : 'unknown';
}

/** The visitor's ISO 3166-1 alpha-2 code as the gateway passed it, or undefined. */
export function clientCountry(req: Request): string | undefined {
  const value = req.headers[CLIENT_COUNTRY_HEADER];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
