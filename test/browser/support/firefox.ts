// Debian's Firefox ESR, headless, driven over WebDriver BiDi by puppeteer-core (no browser is
// downloaded). Its push service is the local one in firefox-push-server.ts (`dom.push.serverURL`),
// so Firefox itself subscribes, receives our encrypted pushes and decrypts them.
//
// A user's clicks on Firefox's own windows: headless Linux has no desktop notification service,
// so with `alerts.useSystemBackend` false Firefox draws each notification in a window of its own
// (chrome://global/content/alerts/alert.xhtml), and asks for the notification permission in a
// doorhanger of the browser window. Both are privileged ("chrome") documents: started with
// `--remote-allow-system-access`, Firefox lists them to BiDi (`browsingContext.getTree` with
// `moz:scope: "chrome"`) and lets a script run in them. BiDi's input actions refuse chrome
// contexts, so the click is a native mouse event (nsIDOMWindowUtils.sendNativeMouseEvent): it
// enters through the (headless) widget like the OS's own, and Firefox treats it as the user's.
import puppeteer, { type Browser } from 'puppeteer-core';

export const FIREFOX = '/usr/bin/firefox-esr';

/** The raw BiDi connection puppeteer-core holds (not part of its typed API). */
interface BidiConnection {
  send(method: string, params: object): Promise<{ result: any }>;
}

export interface Firefox {
  browser: Browser;
  /** Clicks the "Allow" button of the notification permission doorhanger, once it is shown. */
  allowNotifications(timeoutMs: number): Promise<void>;
  /** Titles of the notifications Firefox is showing in its own windows. */
  shownNotifications(): Promise<string[]>;
  /** Clicks the body of the shown notification with this title, as a user would. */
  clickNotification(title: string, timeoutMs: number): Promise<void>;
  /** The labels of the buttons Firefox draws in the window of the notification with this title. */
  notificationButtons(title: string, timeoutMs: number): Promise<string[]>;
  close(): Promise<void>;
}

export async function launchFirefox(pushServerUrl: string, env: Record<string, string> = {}, prefs: Record<string, unknown> = {}): Promise<Firefox> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    args: ['--remote-allow-system-access'],
    env: { ...process.env, ...env },
    timeout: 60_000,
    extraPrefsFirefox: {
      'dom.push.enabled': true,
      'dom.push.connection.enabled': true,
      'dom.push.serverURL': pushServerUrl,
      // The local push server speaks ws://, not wss://.
      'dom.push.testing.allowInsecureServerURL': true,
      // After the push server drops the connection, reconnect within a second (default 5 s, doubling).
      'dom.push.retryBaseInterval': 500,
      // No desktop notification service here: Firefox draws its own notification windows.
      'alerts.useSystemBackend': false,
      // A notification window closes by itself after this long (default 20 s); a slow machine
      // must not lose it between showing it and clicking it.
      'alerts.totalOpenTime': 120_000,
      ...prefs,
    },
  });
  const connection = (browser as unknown as { connection: BidiConnection }).connection;

  const chromeContexts = async (): Promise<{ context: string; url: string }[]> =>
    (await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' })).result.contexts;

  /** Runs `expression` in a chrome document; returns its string result. */
  const evaluate = async (context: string, expression: string): Promise<string> => {
    const { result } = await connection.send('script.evaluate', { target: { context }, expression, awaitPromise: false });
    if (result.type !== 'success') throw new Error(`script in ${context} failed: ${JSON.stringify(result.exceptionDetails?.text ?? result)}`);
    return result.result.value as string;
  };

  /**
   * JavaScript for a chrome document: a native mouse click at the centre of the first element
   * `find` returns; evaluates to "" when there is none yet (the caller waits and asks again).
   */
  const nativeClick = (find: string) => `(() => {
    const el = (${find})();
    if (!el) return '';
    const r = el.getBoundingClientRect();
    const u = window.windowUtils;
    const x = Math.round((window.mozInnerScreenX + r.x + r.width / 2) * window.devicePixelRatio);
    const y = Math.round((window.mozInnerScreenY + r.y + r.height / 2) * window.devicePixelRatio);
    for (const message of [u.NATIVE_MOUSE_MESSAGE_MOVE, u.NATIVE_MOUSE_MESSAGE_BUTTON_DOWN, u.NATIVE_MOUSE_MESSAGE_BUTTON_UP]) {
      u.sendNativeMouseEvent(x, y, message, 0, 0, el, null);
    }
    return 'clicked';
  })()`;

  const alertWindows = async () => (await chromeContexts()).filter((c) => c.url === 'chrome://global/content/alerts/alert.xhtml');
  // A XUL label: its text is the `value` attribute, not its content.
  const titleOf = (context: string) => evaluate(context, `(() => { const l = document.getElementById('alertTitleLabel'); return l ? (l.value || l.textContent || '') : ''; })()`);

  /** Polls `attempt` every 100 ms until it returns true, for at most timeoutMs. */
  const until = async (what: string, attempt: () => Promise<boolean>, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    while (!(await attempt())) {
      if (Date.now() > end) throw new Error(`Firefox: ${what} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  return {
    browser,
    async allowNotifications(timeoutMs) {
      await until('no notification permission prompt to allow', async () => {
        const windows = (await chromeContexts()).filter((c) => c.url === 'chrome://browser/content/browser.xhtml');
        for (const w of windows) {
          const done = await evaluate(
            w.context,
            nativeClick(`() => document.getElementById('notification-popup')?.state === 'open' && document.querySelector('#web-notifications-notification .popup-notification-primary-button')`),
          );
          if (done) return true;
        }
        return false;
      }, timeoutMs);
    },
    async shownNotifications() {
      const titles: string[] = [];
      for (const w of await alertWindows()) titles.push(await titleOf(w.context));
      return titles;
    },
    async clickNotification(title, timeoutMs) {
      await until(`no notification titled ${JSON.stringify(title)} to click`, async () => {
        for (const w of await alertWindows()) {
          if ((await titleOf(w.context)) === title) return (await evaluate(w.context, nativeClick(`() => document.getElementById('alertTextLabel')`))) !== '';
        }
        return false;
      }, timeoutMs);
    },
    async notificationButtons(title, timeoutMs) {
      let labels: string[] = [];
      await until(`no notification titled ${JSON.stringify(title)}`, async () => {
        for (const w of await alertWindows()) {
          if ((await titleOf(w.context)) !== title) continue;
          labels = JSON.parse(await evaluate(w.context, `JSON.stringify([...document.querySelectorAll('button, toolbarbutton')].filter((b) => !b.hidden).map((b) => (b.label || b.getAttribute('label') || b.textContent || '').trim()).filter(Boolean))`));
          return true;
        }
        return false;
      }, timeoutMs);
      return labels;
    },
    close: () => browser.close(),
  };
}
