// The console's shell: the session (GET /console/api/session at start), hash routing, the site
// being looked at (GET /console/api/sites/{id}, shared by its pages), the header with its
// navigation, and focus moved to each new page's heading so keyboard and screen-reader users
// land where the page starts.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorBox, Loading } from './components/ui';
import { api, ApiError, messageOf, onUnauthorized } from './lib/api';
import { canChange } from './lib/format';
import { useLoad } from './lib/hooks';
import { href, navigate, parseHash, sitePath, useHash, type Route } from './lib/router';
import { SessionContext, useZonePreference, ZoneContext } from './lib/session';
import type { Session, SiteDetail } from './lib/types';
import { AudiencePage } from './pages/Audience';
import { AuditLogPage } from './pages/AuditLog';
import { AutomationsPage } from './pages/Automations';
import { CampaignPage } from './pages/Campaign';
import { CampaignsPage } from './pages/Campaigns';
import { ComposerClosed, ComposerPage } from './pages/Composer';
import { InvitePage } from './pages/Invite';
import { LoginPage } from './pages/Login';
import { OptInPromptsPage } from './pages/OptInPrompts';
import { PeoplePage } from './pages/People';
import { SettingsPage } from './pages/Settings';
import { SitesPage } from './pages/Sites';
import { TemplatesPage } from './pages/Templates';
import { WebhookPage, WebhooksPage } from './pages/Webhooks';

export function App() {
  const hash = useHash();
  const route = parseHash(hash);
  // undefined: not known yet; null: not logged in.
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [bootError, setBootError] = useState<unknown>(undefined);
  const [notice, setNotice] = useState<string | null>(null);
  const zone = useZonePreference();
  // The session as the last render knew it: a 401 while one was live ended it (the user was
  // somewhere to continue); a fresh visit (none known yet) or a logout is only asked to log in.
  const live = useRef(session);
  live.current = session;

  useEffect(() => {
    onUnauthorized(() => {
      if (live.current) setNotice('Your session has ended. Log in to continue where you were.');
      setSession(null);
      const current = parseHash(location.hash);
      if (current.page !== 'login' && current.page !== 'invite') {
        const path = location.hash.replace(/^#/, '') || '/';
        navigate(`/login?next=${encodeURIComponent(path)}`, { replace: true });
      }
    });
    api.session().then(
      (s) => setSession(s),
      (err) => {
        if (err instanceof ApiError && err.status === 401) setSession(null);
        else setBootError(err);
      },
    );
  }, []);

  // Logged-out visitors of a page that needs a session go to the login page.
  useEffect(() => {
    if (session === null && route.page !== 'login' && route.page !== 'invite') {
      const path = hash.replace(/^#/, '') || '/';
      navigate(path === '/' || path === '/sites' ? '/login' : `/login?next=${encodeURIComponent(path)}`, { replace: true });
    }
  }, [session, hash]);

  const loggedIn = (s: Session, next?: string) => {
    setSession(s);
    setNotice(null);
    navigate(next && next.startsWith('/') && !next.startsWith('/login') ? next : '/sites');
  };

  const logout = async () => {
    try {
      await api.logout();
    } catch (err) {
      // A session already gone is logged out all the same.
      if (!(err instanceof ApiError && err.status === 401)) {
        setNotice(`Logging out failed: ${messageOf(err)}`);
        return;
      }
    }
    setSession(null);
    setNotice('You are logged out.');
    navigate('/login');
  };

  let page: ComponentChildren;
  if (route.page === 'invite') page = <InvitePage token={route.token} onDone={(s) => loggedIn(s)} />;
  else if (route.page === 'login') page = <LoginPage next={route.next} notice={notice} onDone={loggedIn} />;
  else if (bootError !== undefined) page = <ErrorBox error={bootError} title="The console could not start" />;
  else if (!session) page = <Loading what="Checking your session" />;
  else page = <SessionPage route={route} session={session} />;

  return (
    <SessionContext.Provider value={session ?? null}>
      <ZoneContext.Provider value={zone}>
        <Shell route={route} session={session ?? null} onLogout={logout} hash={hash}>
          {page}
        </Shell>
      </ZoneContext.Provider>
    </SessionContext.Provider>
  );
}

function SessionPage({ route, session }: { route: Route; session: Session }) {
  if (route.page === 'sites') return <SitesPage session={session} />;
  if (route.page === 'notFound' || route.page === 'login' || route.page === 'invite') {
    return (
      <section>
        <h1 tabIndex={-1}>Page not found</h1>
        <p>
          Nothing is at <code>#{route.page === 'notFound' ? route.path : ''}</code>. <a href={href('/sites')}>Go to your sites</a>.
        </p>
      </section>
    );
  }
  return <SitePages route={route} session={session} />;
}

type SiteRoute = Extract<Route, { siteId: string }>;

function SitePages({ route, session }: { route: SiteRoute; session: Session }) {
  const site = useLoad<SiteDetail>(() => api.site(route.siteId), [route.siteId, session.user.email]);
  if (site.error) {
    return (
      <section>
        <h1 tabIndex={-1}>Site</h1>
        <ErrorBox error={site.error} />
        <p>
          <a href={href('/sites')}>Back to your sites</a>
        </p>
      </section>
    );
  }
  if (!site.data || site.data.id !== route.siteId) return <Loading what="Loading the site" />;
  const s = site.data;
  switch (route.page) {
    case 'campaigns':
      return <CampaignsPage site={s} query={route.query} />;
    case 'composer':
      return canChange(s.role) ? <ComposerPage site={s} from={route.from} /> : <ComposerClosed site={s} />;
    case 'campaign':
      return <CampaignPage site={s} campaignId={route.campaignId} />;
    case 'editDraft':
      return canChange(s.role) ? <ComposerPage site={s} edit={route.campaignId} /> : <ComposerClosed site={s} edit={route.campaignId} />;
    case 'audience':
      return <AudiencePage site={s} />;
    case 'people':
      return <PeoplePage site={s} externalId={route.externalId} />;
    case 'settings':
      return <SettingsPage site={s} />;
    case 'prompts':
      return <OptInPromptsPage site={s} />;
    case 'audit':
      return <AuditLogPage site={s} />;
    case 'templates':
      return <TemplatesPage site={s} templateId={route.templateId} />;
    case 'automations':
      return <AutomationsPage site={s} automationId={route.automationId} />;
    case 'webhooks':
      return <WebhooksPage site={s} />;
    case 'webhook':
      return <WebhookPage site={s} webhookId={route.webhookId} />;
  }
}

/** `owners`: shown to the site's owners only (the API refuses the others). */
const SITE_NAV: { page: Route['page']; label: string; path: string; owners?: true }[] = [
  { page: 'campaigns', label: 'Campaigns', path: '/campaigns' },
  { page: 'composer', label: 'New campaign', path: '/campaigns/new' },
  { page: 'templates', label: 'Templates', path: '/templates' },
  { page: 'automations', label: 'Automations', path: '/automations' },
  { page: 'audience', label: 'Audience', path: '/audience' },
  { page: 'people', label: 'People', path: '/people' },
  { page: 'prompts', label: 'Opt-in prompts', path: '/prompts' },
  { page: 'webhooks', label: 'Webhooks', path: '/webhooks', owners: true },
  { page: 'settings', label: 'Settings', path: '/settings' },
  { page: 'audit', label: 'Audit log', path: '/audit', owners: true },
];

function Shell({ route, session, onLogout, hash, children }: { route: Route; session: Session | null; onLogout: () => void; hash: string; children: ComponentChildren }) {
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  const siteId = 'siteId' in route ? route.siteId : undefined;
  const siteRef = siteId ? session?.sites.find((s) => s.id === siteId) : undefined;
  const siteName = siteRef?.name;
  const owner = siteRef?.role === 'owner';
  // A viewer's navigation has no "New campaign": there is nothing they could make there; the
  // owners' pages (webhooks, the audit log) are listed to owners only.
  const nav = SITE_NAV.filter((n) => (n.page !== 'composer' || !siteRef || canChange(siteRef.role)) && (owner || !n.owners));
  const active = route.page === 'campaign' || route.page === 'editDraft' ? 'campaigns' : route.page === 'webhook' ? 'webhooks' : route.page;

  // A new page: its heading takes the focus (not on the first load: the browser starts at the top).
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // The heading may come after the page's data (a site loading first): look for it a while —
    // unless the user has meanwhile acted (put the focus somewhere, typed, clicked): never taken
    // back. Acting is watched as events, not as a focused element that changed: a user who goes
    // back to the field they submitted from (a second look-up) keeps the same element focused.
    const before = document.activeElement;
    let acted = false;
    const act = () => (acted = true);
    const events = ['keydown', 'pointerdown'] as const;
    for (const e of events) document.addEventListener(e, act, true);
    let tries = 0;
    const stop = () => {
      clearInterval(t);
      for (const e of events) document.removeEventListener(e, act, true);
    };
    const t = setInterval(() => {
      const now = document.activeElement;
      if (acted || (now && now !== before && now !== document.body && now.isConnected)) return stop();
      const h1 = main.current?.querySelector<HTMLElement>('h1');
      if (h1) h1.focus({ preventScroll: false });
      if (h1 || ++tries > 100) stop();
    }, 30);
    return stop;
  }, [hash.split('?')[0]]);

  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); main.current?.querySelector<HTMLElement>('h1')?.focus(); }}>
        Skip to the content
      </a>
      <header class="topbar">
        <div class="topbar-row">
          <a class="brand" href={href('/sites')}>
            <span class="brand-mark" aria-hidden="true" />
            Push console
          </a>
          {session ? (
            <div class="user">
              <span class="user-email" title={session.user.email}>
                {session.user.email}
              </span>
              <button type="button" class="btn btn-small" onClick={onLogout}>
                Log out
              </button>
            </div>
          ) : null}
        </div>
        {session && siteId ? (
          <nav class="sitenav" aria-label="Site">
            <a class="site-name" href={href('/sites')} title="Switch site">
              {siteName ?? 'Site'}
            </a>
            <ul>
              {nav.map((n) => (
                <li key={n.page}>
                  <a href={href(sitePath(siteId, n.path))} aria-current={active === n.page ? 'page' : undefined}>
                    {n.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </header>
      <main id="main" ref={main}>
        {children}
      </main>
    </>
  );
}
