// The CORS headers of the site plugin's endpoints (/public/*). Browsers call them from the
// customer's pages, so any origin may, without credentials; Retry-After is exposed so the plugin
// can honour a 429. One owner for both sides: the delivery service answers the plugin with them,
// and the gateway puts them on every answer it makes itself on /public (a 413, a 502 when the
// delivery service cannot be reached), or the browser would see a bare network error instead.
export const PLUGIN_CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
});

/** What a preflight (OPTIONS) is told on top: the methods and header the plugin uses. */
export const PLUGIN_PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Methods': 'POST, DELETE',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
});

/** Whether a request path is the site plugin's (the gateway proxies these to the delivery service). */
export function isPluginPath(path: string): boolean {
  return path === '/public' || path.startsWith('/public/');
}
