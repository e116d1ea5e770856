/*
 * webpush service worker (v1). Plain browser JavaScript, no build step.
 *
 * Installed by the site owner as a one-line file at the site's root:
 *   importScripts('https://<gateway>/public/v1/webpush-sw.js');
 * The snippet (webpush.js) registers that file with `?api=<gateway>/public/v1/&site=<publicId>`,
 * which is how this worker knows where to report. A site that registers its own worker can set
 * `self.WEBPUSH = { api: '…/public/v1/', site: 'pub_…' }` before importScripts instead.
 *
 * Shows each campaign's notification (title, body, icon, image, up to two buttons, the options a
 * campaign sets: badge, requireInteraction, renotify, silent, vibrate, timestamp, dir, lang;
 * tag = campaign id) from either payload format — this worker's own, or a Declarative Web Push
 * message, which a browser that understands it shows itself — reports the impression once it is
 * shown and the click when the body or a button is clicked, opens the campaign link — or the
 * clicked button's own link — (focusing a tab already on it), and re-registers the subscription when the browser replaces it. Each report is
 * retried a bounded number of times (post(), below). A campaign's revision (an update or a
 * recall) replaces or closes its notification (handleRevision).
 */
(function () {
  'use strict';

  var REPORT_TIMEOUT_MS = 10000;
  var query = new URL(self.location.href).searchParams;
  var preset = self.WEBPUSH || {};
  var api = preset.api || query.get('api') || '';
  var site = preset.site || query.get('site') || '';

  function noop() {}

  function withTimeout(url, init) {
    var controller = typeof AbortController === 'function' ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, REPORT_TIMEOUT_MS) : null;
    if (controller) init.signal = controller.signal;
    return fetch(url, init).then(
      function (res) { clearTimeout(timer); return res; },
      function (err) { clearTimeout(timer); throw err; }
    );
  }

  // A report that met a network error, a 5xx or a 429 is sent again, at most RETRY_DELAYS_MS.length
  // more times, after these waits (or the answer's Retry-After, up to MAX_RETRY_WAIT_MS): every
  // call here is idempotent (an impression or click is stored once per campaign and subscriber,
  // a subscribe or a subscription change applied twice changes nothing), so a retry never counts
  // twice. Bounded, because the browser stops a worker that holds an event too long.
  var RETRY_DELAYS_MS = [1000, 4000];
  var MAX_RETRY_WAIT_MS = 8000;

  function retryable(res) {
    return res.status === 429 || res.status >= 500;
  }

  function retryWait(res, attempt) {
    var seconds = res ? Number(res.headers.get('Retry-After')) : NaN;
    var wait = seconds >= 0 ? seconds * 1000 : RETRY_DELAYS_MS[attempt];
    return Math.min(Math.max(wait, RETRY_DELAYS_MS[attempt]), MAX_RETRY_WAIT_MS);
  }

  function sleep(ms) {
    return new Promise(function (resolve) { setTimeout(resolve, ms); });
  }

  // text/plain keeps these cross-origin POSTs "simple" (no preflight); the server reads JSON anyway.
  // Resolves with the last answer; rejects only when the last attempt got none.
  function post(path, body, attempt) {
    attempt = attempt || 0;
    var again = function (res, err) {
      if (attempt >= RETRY_DELAYS_MS.length) {
        if (res) return res;
        throw err;
      }
      return sleep(retryWait(res, attempt)).then(function () { return post(path, body, attempt + 1); });
    };
    return withTimeout(api + path, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8' },
      body: JSON.stringify(body),
      credentials: 'omit',
      keepalive: true
    }).then(
      function (res) { return retryable(res) ? again(res) : res; },
      function (err) { return again(null, err); }
    );
  }

  /** Reports an impression or a click; never rejects, so a report can never hold up a notification. */
  function report(type, token) {
    if (!api || typeof token !== 'string' || token === '') return Promise.resolve(false);
    return post('events', { type: type, token: token }).then(
      function (res) { return res.status === 202; },
      function () { return false; }
    );
  }

  function parsePayload(data) {
    if (!data) return null;
    try {
      var msg = data.json();
      if (!msg || typeof msg !== 'object') return null;
      var shown = declarative(msg);
      if (shown) return fromDeclarative(shown);
      return typeof msg.title === 'string' ? msg : null;
    } catch (e) {
      return null;
    }
  }

  // A Declarative Web Push message ({ web_push: 8030, notification: {…, navigate}, mutable: true };
  // docs/site-plugin.md, "Safari and Declarative Web Push"): its notification, or null.
  function declarative(msg) {
    var n = msg.web_push === 8030 ? msg.notification : null;
    return n && typeof n === 'object' && typeof n.title === 'string' && typeof n.navigate === 'string' ? n : null;
  }

  // The same notification in this worker's own format. Its links are the click-tracking redirect
  // (which counts the click too; a click is stored once however often it is reported) and the
  // buttons keep their names: 'open' (the campaign link), then 'link-<i>'.
  function fromDeclarative(n) {
    var data = n.data && typeof n.data === 'object' ? n.data : {};
    var msg = {
      id: data.id, token: data.token, url: n.navigate, title: n.title, body: n.body, icon: n.icon, image: n.image,
      badge: n.badge, requireInteraction: n.requireInteraction, renotify: n.renotify, silent: n.silent,
      vibrate: n.vibrate, timestamp: n.timestamp, dir: n.dir, lang: n.lang, actions: []
    };
    var given = Array.isArray(n.actions) ? n.actions : [];
    for (var i = 0; i < given.length; i++) {
      var a = given[i];
      if (!a || typeof a.title !== 'string' || typeof a.navigate !== 'string') continue;
      if (a.action === 'open') msg.action = a.title;
      else msg.actions.push({ title: a.title, url: a.navigate });
    }
    return msg;
  }

  var MAX_BUTTONS = 2;

  // The buttons: the campaign's callToAction first ('open': the campaign link), then each of its
  // `actions` ('link-<i>': that button's own link, kept in data.links).
  function buttons(msg) {
    var list = [];
    var links = {};
    if (typeof msg.action === 'string' && msg.action !== '') list.push({ action: 'open', title: msg.action });
    var extra = Array.isArray(msg.actions) ? msg.actions : [];
    for (var i = 0; i < extra.length && list.length < MAX_BUTTONS; i++) {
      var a = extra[i];
      if (!a || typeof a.title !== 'string' || typeof a.url !== 'string') continue;
      list.push({ action: 'link-' + i, title: a.title });
      links['link-' + i] = a.url;
    }
    return { list: list, links: links };
  }

  function notificationOptions(msg) {
    var data = { id: msg.id, url: msg.url || '', token: msg.token || '' };
    var options = {
      body: typeof msg.body === 'string' ? msg.body : '',
      // The campaign id: a repeat or a correction replaces the notification (renotify needs one).
      tag: String(msg.id || ''),
      data: data
    };
    if (msg.icon) options.icon = msg.icon;
    // Browsers that cannot show an option ignore it (what each shows: docs/site-plugin.md).
    if (msg.image) options.image = msg.image;
    var b = buttons(msg);
    if (b.list.length > 0) options.actions = b.list;
    if (Object.keys(b.links).length > 0) data.links = b.links;
    if (typeof msg.badge === 'string' && msg.badge !== '') options.badge = msg.badge;
    if (msg.requireInteraction === true) options.requireInteraction = true;
    if (msg.renotify === true && options.tag !== '') options.renotify = true;
    // The Notifications API refuses vibrate with silent: silent wins.
    if (msg.silent === true) options.silent = true;
    else if (Array.isArray(msg.vibrate) && msg.vibrate.length > 0) options.vibrate = msg.vibrate;
    if (typeof msg.timestamp === 'number' && msg.timestamp >= 0) options.timestamp = msg.timestamp;
    if (msg.dir === 'ltr' || msg.dir === 'rtl') options.dir = msg.dir;
    if (typeof msg.lang === 'string' && msg.lang !== '') options.lang = msg.lang;
    return options;
  }

  // A browser that shows Declarative Web Push messages itself hands a mutable one to this worker
  // with the notification it is about to show (event.notification): the impression is counted and
  // that notification left to the browser, whose click opens `navigate`. Everywhere else this
  // worker shows it.
  function handlePush(event) {
    var msg = parsePayload(event.data);
    if (!msg) return Promise.resolve();
    if (event.notification) return Promise.all([rememberShown(String(msg.id || '')), report('impression', msg.token)]);
    return show(msg, notificationOptions(msg));
  }

  function show(msg, options) {
    return self.registration.showNotification(msg.title, options).then(function () {
      return Promise.all([rememberShown(options.tag), report('impression', msg.token)]);
    });
  }

  // Campaigns this worker has shown (the last SHOWN_KEPT), so that an update can tell a
  // notification the visitor closed (not shown again) from one that never arrived (the push
  // service replaced it, still queued, with the update's: shown). Cache Storage, because a worker
  // keeps no memory between pushes.
  var SHOWN_CACHE = 'webpush-shown-v1';
  var SHOWN_KEPT = 200;

  function shownUrl(tag) {
    return new URL('__webpush/shown/' + encodeURIComponent(tag), self.registration.scope || self.location.href).href;
  }

  function rememberShown(tag) {
    if (!tag || typeof caches === 'undefined') return Promise.resolve();
    return caches.open(SHOWN_CACHE).then(function (cache) {
      return cache.put(shownUrl(tag), new Response('')).then(function () { return cache.keys(); }).then(function (keys) {
        return Promise.all(keys.slice(0, Math.max(0, keys.length - SHOWN_KEPT)).map(function (k) { return cache.delete(k); }));
      });
    }).catch(noop);
  }

  function wasShown(tag) {
    if (typeof caches === 'undefined') return Promise.resolve(false);
    return caches.open(SHOWN_CACHE)
      .then(function (cache) { return cache.match(shownUrl(tag)); })
      .then(function (hit) { return !!hit; }, function () { return false; });
  }

  /** A revision of a campaign (docs/site-plugin.md, "Update and recall"), or null for any other push. */
  function parseRevision(data) {
    if (!data) return null;
    try {
      var msg = data.json();
      return msg && typeof msg === 'object' && typeof msg.revision === 'number' && typeof msg.id === 'string' ? msg : null;
    } catch (e) {
      return null;
    }
  }

  // A recall closes the campaign's notifications; an update replaces the one shown (same tag,
  // never re-alerting) or shows the correction where the first never arrived — not where the
  // visitor closed it already.
  function handleRevision(msg) {
    return self.registration.getNotifications({ tag: msg.id }).then(function (shown) {
      if (msg.recall === true) {
        shown.forEach(function (n) { n.close(); });
        return;
      }
      if (typeof msg.title !== 'string') return;
      var options = notificationOptions(msg);
      options.renotify = false;
      return (shown.length > 0 ? Promise.resolve(false) : wasShown(msg.id)).then(function (closed) {
        if (!closed) return show(msg, options);
      });
    });
  }

  function sameUrl(a, b) {
    try {
      return new URL(a).href === new URL(b).href;
    } catch (e) {
      return a === b;
    }
  }

  function openOrFocus(url) {
    if (!url) return Promise.resolve(null);
    return self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (sameUrl(windows[i].url, url) && 'focus' in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow ? self.clients.openWindow(url) : null;
    });
  }

  /**
   * Body and button clicks are the same click: one report, then the link — the clicked button's
   * own, or the campaign link (the body, the callToAction button).
   */
  function handleClick(notification, action) {
    var data = notification.data || {};
    notification.close();
    var reported = report('click', data.token);
    var own = action && data.links && Object.prototype.hasOwnProperty.call(data.links, action) ? data.links[action] : '';
    var opened = openOrFocus(own || data.url).catch(noop);
    return Promise.all([reported, opened]);
  }

  function keepAlive(event, promise) {
    try {
      event.waitUntil(promise);
    } catch (e) {
      // Only an event the browser did not dispatch (a synthetic one) cannot be extended.
    }
  }

  function base64UrlToBytes(text) {
    var padded = (text + '===='.slice((text.length + 3) % 4 + 1)).replace(/-/g, '+').replace(/_/g, '/');
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function applicationServerKey(old) {
    if (old && old.options && old.options.applicationServerKey) return Promise.resolve(old.options.applicationServerKey);
    return withTimeout(api + 'sites/' + encodeURIComponent(site) + '/config', { credentials: 'omit' })
      .then(function (res) { if (!res.ok) throw new Error('config ' + res.status); return res.json(); })
      .then(function (config) { return base64UrlToBytes(config.vapidPublicKey); });
  }

  function timeZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
    } catch (e) {
      return null;
    }
  }

  // The browser replaced (or dropped) the subscription: register the new one under the same site
  // (subscribing again when the browser supplied none), then report the change, which hands the
  // old subscriber's topics over to the new one and retires the old endpoint.
  function resubscribe(event) {
    if (!api || !site) return Promise.resolve();
    var old = event.oldSubscription || null;
    var next = event.newSubscription
      ? Promise.resolve(event.newSubscription)
      : applicationServerKey(old).then(function (key) {
          return self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        });
    var sitePath = 'sites/' + encodeURIComponent(site) + '/';
    return next
      .then(function (sub) {
        var body = { subscription: sub.toJSON(), language: self.navigator.language || null, timeZone: timeZone() };
        return post(sitePath + 'subscriptions', body).then(function (res) {
          if (!res.ok) throw new Error('subscribe ' + res.status);
          if (old && old.endpoint && old.endpoint !== sub.endpoint) {
            return post(sitePath + 'subscription-changes', { oldEndpoint: old.endpoint, endpoint: sub.endpoint });
          }
        });
      })
      .catch(noop);
  }

  self.addEventListener('install', function () {
    self.skipWaiting();
  });
  self.addEventListener('activate', function (event) {
    event.waitUntil(self.clients.claim());
  });
  self.addEventListener('push', function (event) {
    var revision = parseRevision(event.data);
    keepAlive(event, revision ? handleRevision(revision) : handlePush(event));
  });
  self.addEventListener('notificationclick', function (event) {
    keepAlive(event, handleClick(event.notification, event.action));
  });
  self.addEventListener('pushsubscriptionchange', function (event) {
    keepAlive(event, resubscribe(event));
  });
})();
