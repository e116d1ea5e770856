// Hash routing (`/console/#/sites/<id>/campaigns`): the gateway serves one page, the browser keeps
// history, and links are plain <a href="#/…"> elements (keyboard and middle-click work as usual).
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'login'; next?: string }
  | { page: 'invite'; token: string }
  | { page: 'sites' }
  | { page: 'campaigns'; siteId: string; query: URLSearchParams }
  | { page: 'composer'; siteId: string; from?: string }
  | { page: 'campaign'; siteId: string; campaignId: string }
  | { page: 'editDraft'; siteId: string; campaignId: string }
  | { page: 'audience'; siteId: string }
  | { page: 'people'; siteId: string; externalId?: string }
  | { page: 'settings'; siteId: string }
  | { page: 'prompts'; siteId: string }
  | { page: 'audit'; siteId: string }
  | { page: 'templates'; siteId: string; templateId?: string }
  | { page: 'automations'; siteId: string; automationId?: string }
  | { page: 'webhooks'; siteId: string }
  | { page: 'webhook'; siteId: string; webhookId: string }
  | { page: 'notFound'; path: string };

export function parseHash(hash: string): Route {
  const raw = hash.replace(/^#/, '') || '/';
  const q = raw.indexOf('?');
  const path = q >= 0 ? raw.slice(0, q) : raw;
  const query = new URLSearchParams(q >= 0 ? raw.slice(q + 1) : '');
  const parts = path.split('/').filter(Boolean).map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'sites')) return { page: 'sites' };
  if (parts[0] === 'login' && parts.length === 1) return { page: 'login', next: query.get('next') ?? undefined };
  if (parts[0] === 'invite' && parts.length === 2) return { page: 'invite', token: parts[1] };
  if (parts[0] === 'sites' && parts.length >= 3) {
    const siteId = parts[1];
    const rest = parts.slice(2);
    if (rest[0] === 'campaigns') {
      if (rest.length === 1) return { page: 'campaigns', siteId, query };
      if (rest.length === 2 && rest[1] === 'new') return { page: 'composer', siteId, from: query.get('from') ?? undefined };
      if (rest.length === 2) return { page: 'campaign', siteId, campaignId: rest[1] };
      if (rest.length === 3 && rest[2] === 'edit') return { page: 'editDraft', siteId, campaignId: rest[1] };
    }
    if (rest.length === 1 && rest[0] === 'audience') return { page: 'audience', siteId };
    // A person's external id is one segment, percent-encoded (it may hold any character but controls).
    if (rest[0] === 'people' && rest.length <= 2) return { page: 'people', siteId, externalId: rest[1] };
    if (rest.length === 1 && rest[0] === 'settings') return { page: 'settings', siteId };
    if (rest.length === 1 && rest[0] === 'prompts') return { page: 'prompts', siteId };
    if (rest.length === 1 && rest[0] === 'audit') return { page: 'audit', siteId };
    if (rest[0] === 'templates' && rest.length <= 2) return { page: 'templates', siteId, templateId: rest[1] };
    // `automations/new` is the create form; any other second segment an automation's id.
    if (rest[0] === 'automations' && rest.length <= 2) return { page: 'automations', siteId, automationId: rest[1] };
    if (rest[0] === 'webhooks' && rest.length === 1) return { page: 'webhooks', siteId };
    if (rest[0] === 'webhooks' && rest.length === 2) return { page: 'webhook', siteId, webhookId: rest[1] };
  }
  return { page: 'notFound', path };
}

export function href(path: string): string {
  return `#${path}`;
}

export function navigate(path: string, opts: { replace?: boolean } = {}): void {
  const target = href(path);
  if (opts.replace) {
    history.replaceState(null, '', target);
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else if (location.hash === target) {
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    location.hash = target;
  }
}

/** The current hash, kept up to date. */
export function useHash(): string {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const on = () => setHash(location.hash);
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return hash;
}

export function sitePath(siteId: string, rest = ''): string {
  return `/sites/${encodeURIComponent(siteId)}${rest}`;
}
