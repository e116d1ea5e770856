// The browser's push service, stood in for in the page (headless Chromium has none:
// pushManager.subscribe() never settles there). The push simulator is the push service instead:
// the tests give the page one of its subscriptions, the real stack pushes to it, and the simulator
// checks the VAPID JWT and decrypts the push as a browser would. Used by the site plugin's and the
// console's browser tests.

/**
 * Stands in for the browser's push service (headless Chromium has none): subscribe() answers
 * the simulator's subscription and records the options the snippet passed. Kept in
 * localStorage so later pages of the origin see the same subscription, as a browser would.
 * Plain JavaScript text: it runs in the page, never through the TypeScript loader.
 */
export function fakePushService(sub: { endpoint: string; keys: { p256dh: string; auth: string } }): string {
  return `(function (sub) {
  function toBase64Url(key) {
    if (key == null) return null;
    if (typeof key === 'string') return key;
    var bytes = key instanceof ArrayBuffer ? new Uint8Array(key) : new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
    var text = '';
    for (var i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
    return btoa(text).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '');
  }
  function subscription() {
    return {
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: null },
      toJSON: function () { return { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }; },
      unsubscribe: function () { localStorage.removeItem('fake-push:subscribed'); return Promise.resolve(true); }
    };
  }
  PushManager.prototype.subscribe = function (options) {
    var calls = JSON.parse(localStorage.getItem('fake-push:calls') || '[]');
    calls.push({ userVisibleOnly: !!(options && options.userVisibleOnly), applicationServerKey: toBase64Url(options && options.applicationServerKey) });
    localStorage.setItem('fake-push:calls', JSON.stringify(calls));
    localStorage.setItem('fake-push:subscribed', '1');
    return Promise.resolve(subscription());
  };
  // Not a stand-in: records whether each permission request came with a user gesture.
  var requestPermission = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = function () {
    var asked = JSON.parse(localStorage.getItem('fake-push:permission-requests') || '[]');
    asked.push({ userActivation: navigator.userActivation ? navigator.userActivation.isActive : null });
    localStorage.setItem('fake-push:permission-requests', JSON.stringify(asked));
    return requestPermission.apply(null, arguments);
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(localStorage.getItem('fake-push:subscribed') ? subscription() : null);
  };
})(${JSON.stringify(sub)});`;
}
