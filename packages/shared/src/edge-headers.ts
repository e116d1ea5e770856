// What the gateway, the only edge, tells the delivery service about a visitor (docs/security.md,
// "The gateway is the edge"). The gateway strips these headers from every client request and
// sets them itself on the requests it proxies, next to its internal token (INTERNAL_AUTH_HEADER);
// the delivery service's HTTP app refuses any request without that token, so it can believe them.

/** The visitor's address as the gateway decided it (TRUSTED_PROXIES), always present. */
export const CLIENT_ADDRESS_HEADER = 'x-client-address';

/** The visitor's country, an ISO 3166-1 alpha-2 code in capitals; absent when unknown. */
export const CLIENT_COUNTRY_HEADER = 'x-client-country';
