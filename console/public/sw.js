/*
 * The console's service worker (docs/console.md, "Test notification"). Plain browser JavaScript,
 * copied as it is by the build (console/public/ → dist/gateway/console-pages/) and served by the
 * gateway at /console/sw.js under the console's Content-Security-Policy; the site settings page
 * registers it with scope /console/ only to receive the test notification it asks for.
 *
 * Shows a pushed notification in the site plugin's payload format
 * (services/delivery/src/plugin/assets/webpush-sw.js): {v, id, title, body, url, icon, image,
 * action}, tag = id. A click opens its url only when that is an http(s) URL of the console's own
 * origin (a test notification's is the site's settings page); any other url opens the console.
 * A url in the console, when a console tab is open (one this worker controls), focuses that tab
 * and takes it there; else it opens in a new tab.
 * It reports nothing (a test push carries no tracking token), caches nothing and handles no fetch.
 */
(function () {
  'use strict';

  function parsePayload(data) {
    if (!data) return null;
    try {
      var msg = data.json();
      return msg && typeof msg === 'object' && typeof msg.title === 'string' ? msg : null;
    } catch (e) {
      return null;
    }
  }

  /** The url when it is an http(s) URL of this origin, else the console (this worker's scope). */
  function target(url) {
    try {
      var u = new URL(String(url || ''), self.registration.scope);
      if ((u.protocol === 'https:' || u.protocol === 'http:') && u.origin === self.location.origin && url) return u.href;
    } catch (e) {
      // not a URL: the console
    }
    return self.registration.scope;
  }

  function options(msg) {
    var o = { body: typeof msg.body === 'string' ? msg.body : '', tag: String(msg.id || ''), data: { url: target(msg.url) } };
    if (typeof msg.icon === 'string' && msg.icon) o.icon = msg.icon;
    if (typeof msg.image === 'string' && msg.image) o.image = msg.image;
    if (typeof msg.action === 'string' && msg.action) o.actions = [{ action: 'open', title: msg.action }];
    return o;
  }

  /**
   * A console tab there is, focused and taken to the url (the console's pages are one document,
   * routed by the hash; a client's url stays the one it was opened at), else a new tab.
   */
  function openOrFocus(url) {
    var inConsole = url.indexOf(self.registration.scope) === 0;
    return self.clients.matchAll({ type: 'window' }).then(function (windows) {
      for (var i = 0; inConsole && i < windows.length; i++) {
        if (windows[i].url.indexOf(self.registration.scope) === 0 && 'focus' in windows[i]) {
          return windows[i].focus().then(function (client) {
            return client.url === url ? client : client.navigate(url).catch(function () { return client; });
          });
        }
      }
      return self.clients.openWindow ? self.clients.openWindow(url) : null;
    });
  }

  self.addEventListener('install', function () {
    self.skipWaiting();
  });
  self.addEventListener('activate', function (event) {
    event.waitUntil(self.clients.claim());
  });
  self.addEventListener('push', function (event) {
    var msg = parsePayload(event.data);
    if (msg) event.waitUntil(self.registration.showNotification(msg.title, options(msg)));
  });
  self.addEventListener('notificationclick', function (event) {
    var url = (event.notification.data && event.notification.data.url) || self.registration.scope;
    event.notification.close();
    event.waitUntil(openOrFocus(target(url)).catch(function () {}));
  });
})();
