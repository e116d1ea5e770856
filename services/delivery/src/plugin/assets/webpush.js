/*
 * webpush site snippet (v1). Plain browser JavaScript, no build step.
 *
 *   <script src="https://<gateway>/public/v1/webpush.js" data-site="pub_…" async></script>
 *
 * Attributes on the script tag:
 *   data-site         the site's public id (required)
 *   data-sw           path of the site's service worker file (default /webpush-sw.js)
 *   data-button       CSS selector of the site's own subscribe element; "none" for no button
 *                     (call window.webpush.subscribe() from a click handler instead); absent:
 *                     a small default button is shown while the visitor has not decided
 *   data-button-text  text of the default button (default "Get notifications")
 *   data-topics       comma-separated topics for this page, added to the meta-tag hints
 *
 * A site whose configuration (set in the console) shows an opt-in prompt or the bell gets them
 * from webpush-prompt.js, loaded only then, instead of the default button.
 *
 * Permission is asked only from a user gesture (a click on the button). Topic hints come from
 * <meta property="article:section">, <meta name="keywords">, data-topics and elements carrying
 * data-webpush-topics, lowercased. State changes are announced with a `webpush:state` event on
 * document (detail: { state }); window.webpush.state is one of: loading, unsupported, default,
 * subscribing, subscribed, denied, error.
 *
 * Commands, callable before the script has loaded through the queue stub (docs/people.md):
 *   <script>window.webpush=window.webpush||function(){(webpush.q=webpush.q||[]).push(arguments)}</script>
 *   webpush('identify', externalId, signature)  this browser's subscription belongs to the site's
 *                     user externalId; signature = hex HMAC-SHA256 of externalId under the site's
 *                     identity secret, computed by the site's server. Sent once subscribed.
 *   webpush('logout') the subscription no longer belongs to anyone.
 *   webpush('tag', key, value)  sets (null: removes) a tag of the identified visitor, for the keys
 *                     the site lets pages set; sent once subscribed (after an identify of this page).
 *   webpush('subscribe'), webpush('unsubscribe') as window.webpush.subscribe()/unsubscribe().
 * Each answers a Promise. An identify's outcome is announced with a `webpush:identity` event on
 * document (detail: { externalId, identified } or { externalId, error }).
 *
 * Opt-in funnel: window.webpush.reportOptIn(event, promptId) reports what a prompt did (shown,
 * accepted, dismissed); the snippet reports the browser's 'denied' itself, and names the prompt
 * in the subscribe and unsubscribe calls, whose server side counts 'subscribed' and
 * 'unsubscribed' (docs/site-plugin.md, "Opt-in funnel").
 */
(function () {
  'use strict';

  // Included twice: the first copy is in charge. A queue stub (a plain function) is taken over.
  if (window.webpush && 'state' in window.webpush) return;
  var queued = (window.webpush && window.webpush.q) || [];
  var script = document.currentScript;
  if (!script || !script.src) return;

  var MAX_TOPICS = 20;
  var MAX_TOPIC_CHARS = 64;
  // The opt-in funnel's events and prompt ids (services/delivery/src/optin/funnel.ts): 'site' is
  // the site's own button, the default button and window.webpush.subscribe() without a prompt.
  var OPTIN_EVENTS = ['shown', 'accepted', 'dismissed', 'denied', 'subscribed', 'unsubscribed'];
  var REPORTED_OPTIN_EVENTS = ['shown', 'accepted', 'dismissed', 'denied'];
  var PROMPT_ID = /^[A-Za-z0-9_-]{1,64}$/;
  var SITE_PROMPT = 'site';
  var site = script.getAttribute('data-site') || '';
  var api = new URL('.', script.src).href; // …/public/v1/
  var swPath = script.getAttribute('data-sw') || '/webpush-sw.js';
  var buttonSelector = script.getAttribute('data-button');
  var buttonText = script.getAttribute('data-button-text') || 'Get notifications';
  var extraTopics = script.getAttribute('data-topics') || '';

  var state = 'loading';
  var defaultButton = null;
  var registration = null;
  var config = null;
  // The visitor the page said it is ({ externalId, signature }), sent whenever the browser is subscribed.
  var identity = null;
  // Tags asked for on this page and not sent yet (key → value), sent once the browser is subscribed.
  var pendingTags = {};
  // The prompt that led to the opt-in (or opt-out) under way, named in the subscribe (unsubscribe) call.
  var optInPrompt = null;
  // Events reported in this page view, by "event promptId": each counts once per page view.
  var reportedOptIn = {};

  var commands = { identify: identify, logout: logout, tag: tag, subscribe: subscribe, unsubscribe: unsubscribe };

  function webpush(command) {
    var run = Object.prototype.hasOwnProperty.call(commands, command) ? commands[command] : null;
    if (!run) return Promise.reject(new Error('webpush: unknown command ' + String(command)));
    return run.apply(null, Array.prototype.slice.call(arguments, 1));
  }
  Object.defineProperty(webpush, 'state', {
    get: function () {
      return state;
    }
  });
  webpush.topics = pageTopics;
  webpush.subscribe = subscribe;
  webpush.unsubscribe = unsubscribe;
  webpush.config = siteConfig;
  webpush.reportOptIn = reportOptIn;
  window.webpush = webpush;

  function setState(next, detail) {
    state = next;
    if (defaultButton) defaultButton.style.display = next === 'default' ? '' : 'none';
    var payload = { state: next };
    if (detail) payload.error = detail;
    try {
      document.dispatchEvent(new CustomEvent('webpush:state', { detail: payload }));
    } catch (e) {
      /* very old browsers: no CustomEvent constructor */
    }
  }

  function supported() {
    return (
      window.isSecureContext !== false &&
      'serviceWorker' in navigator &&
      'PushManager' in window &&
      'Notification' in window &&
      typeof fetch === 'function'
    );
  }

  // ---- topics ---------------------------------------------------------------------------------

  function normalizeTopic(raw) {
    var name = String(raw).trim().toLowerCase();
    if (name === '' || Array.from(name).length > MAX_TOPIC_CHARS) return null;
    if (/[\u0000-\u001f\u007f]/.test(name) || name.indexOf('country__') === 0) return null;
    return name;
  }

  /** The page's topic hints: lowercased, distinct, at most 20, in the order found. */
  function pageTopics() {
    var found = [];
    function add(value, split) {
      if (!value) return;
      var parts = split ? value.split(',') : [value];
      for (var i = 0; i < parts.length; i++) {
        var name = normalizeTopic(parts[i]);
        if (name !== null && found.indexOf(name) === -1 && found.length < MAX_TOPICS) found.push(name);
      }
    }
    add(extraTopics, true);
    var sections = document.querySelectorAll('meta[property="article:section"], meta[name="article:section"]');
    for (var i = 0; i < sections.length; i++) add(sections[i].getAttribute('content'), false);
    var marked = document.querySelectorAll('[data-webpush-topics]');
    for (var j = 0; j < marked.length; j++) add(marked[j].getAttribute('data-webpush-topics'), true);
    var keywords = document.querySelectorAll('meta[name="keywords"]');
    for (var k = 0; k < keywords.length; k++) add(keywords[k].getAttribute('content'), true);
    return found;
  }

  // ---- server calls ---------------------------------------------------------------------------

  // A call that met a network error, a 5xx or a 429 is made again, at most RETRY_DELAYS_MS.length
  // more times, after these waits (or the answer's Retry-After, up to MAX_RETRY_WAIT_MS): every
  // call here is idempotent (reading the config; a subscribe, page view or unsubscribe applied
  // twice changes nothing), so a retry never counts twice. Without it a visitor who said yes on
  // a flaky network would hold a push subscription the site does not know of until a later page
  // view. The service worker (webpush-sw.js) keeps the same rule; the two files are served as
  // they are, with no build step to share code.
  var RETRY_DELAYS_MS = [1000, 4000];
  var MAX_RETRY_WAIT_MS = 8000;

  function retryWait(res, attempt) {
    var seconds = res ? Number(res.headers.get('Retry-After')) : NaN;
    var wait = seconds >= 0 ? seconds * 1000 : RETRY_DELAYS_MS[attempt];
    return Math.min(Math.max(wait, RETRY_DELAYS_MS[attempt]), MAX_RETRY_WAIT_MS);
  }

  // text/plain keeps these cross-origin calls "simple" (no CORS preflight); the server reads JSON.
  // Resolves with the last answer; rejects only when the last attempt got none.
  function send(method, path, body, attempt) {
    var again = function (res, err) {
      if (attempt >= RETRY_DELAYS_MS.length) {
        if (res) return res;
        throw err;
      }
      return new Promise(function (resolve) { setTimeout(resolve, retryWait(res, attempt)); }).then(function () {
        return send(method, path, body, attempt + 1);
      });
    };
    return fetch(api + path, {
      method: method,
      headers: body === undefined ? {} : { 'Content-Type': 'text/plain;charset=UTF-8' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit'
    }).then(
      function (res) { return res.status === 429 || res.status >= 500 ? again(res) : res; },
      function (err) { return again(null, err); }
    );
  }

  function call(method, path, body) {
    return send(method, path, body, 0).then(function (res) {
      return res.json().then(
        function (json) {
          if (!res.ok) throw new Error((json && json.message) || 'HTTP ' + res.status);
          return json;
        },
        function () {
          throw new Error('HTTP ' + res.status);
        }
      );
    });
  }

  function siteConfig() {
    if (!config) {
      config = call('GET', 'sites/' + encodeURIComponent(site) + '/config').catch(function (err) {
        config = null;
        throw err;
      });
    }
    return config;
  }

  function timeZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
    } catch (e) {
      return null;
    }
  }

  // Whether this browser shows Declarative Web Push messages itself, without a service worker
  // (docs/site-plugin.md, "Safari and Declarative Web Push"): WebKit's feature detection is a
  // PushManager on window itself (Safari 18.4 and later).
  function showsDeclarativePush() {
    return 'pushManager' in window;
  }

  // The topics are those the visitor chose (an opt-in prompt's) first, then the page's: at most
  // 20. promptId only from an opt-in (subscribe()): the server then counts 'subscribed' when the
  // subscriber is new or was inactive. A refresh or a re-registration names none and counts nothing.
  function register(subscription, promptId, chosen) {
    var topics = (chosen || []).concat(pageTopics()).filter(function (name, i, all) {
      return all.indexOf(name) === i;
    });
    var body = {
      subscription: subscription.toJSON(),
      topics: topics.slice(0, MAX_TOPICS),
      language: navigator.language || null,
      timeZone: timeZone(),
      declarative: showsDeclarativePush()
    };
    if (promptId) body.promptId = promptId;
    return call('POST', 'sites/' + encodeURIComponent(site) + '/subscriptions', body);
  }

  // ---- opt-in funnel --------------------------------------------------------------------------

  /**
   * What an opt-in prompt did: 'shown', 'accepted', 'dismissed' or 'denied' are reported (each at
   * most once per prompt and page view: a prompt shown again on the same page counts once);
   * 'accepted', 'subscribed' and 'unsubscribed' make promptId the prompt named by the next
   * subscribe() or unsubscribe() call, whose server side counts the subscription's change
   * exactly. A promptId that is not 1 to 64 letters, digits, - or _ is taken as 'site'. Never
   * rejects: a report that fails is lost, the visitor's page is not disturbed.
   */
  function reportOptIn(event, promptId) {
    var prompt = typeof promptId === 'string' && PROMPT_ID.test(promptId) ? promptId : SITE_PROMPT;
    if (OPTIN_EVENTS.indexOf(event) === -1) return Promise.resolve(false);
    if (event === 'accepted' || event === 'subscribed' || event === 'unsubscribed') optInPrompt = prompt;
    if (REPORTED_OPTIN_EVENTS.indexOf(event) === -1 || reportedOptIn[event + ' ' + prompt]) return Promise.resolve(false);
    reportedOptIn[event + ' ' + prompt] = true;
    return call('POST', 'sites/' + encodeURIComponent(site) + '/optin-events', { event: event, promptId: prompt }).then(
      function () { return true; },
      function () { return false; }
    );
  }

  /** The prompt of the opt-in or opt-out under way ('site' when none said), forgotten once taken. */
  function takeOptInPrompt() {
    var prompt = optInPrompt || SITE_PROMPT;
    optInPrompt = null;
    return prompt;
  }

  function reportPageView(subscription) {
    return call('POST', 'sites/' + encodeURIComponent(site) + '/pageviews', {
      endpoint: subscription.endpoint,
      topics: pageTopics()
    }).then(function (answer) {
      // Unknown to the server (for instance removed after the push service expired it): register again.
      if (!answer.updated) return register(subscription);
    });
  }

  // ---- service worker and push subscription ---------------------------------------------------

  function base64UrlToBytes(text) {
    var padded = (text + '===='.slice(((text.length + 3) % 4) + 1)).replace(/-/g, '+').replace(/_/g, '/');
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function registerWorker() {
    if (!registration) {
      var url = swPath + (swPath.indexOf('?') === -1 ? '?' : '&') + 'api=' + encodeURIComponent(api) + '&site=' + encodeURIComponent(site);
      registration = navigator.serviceWorker.register(url).catch(function (err) {
        registration = null;
        throw err;
      });
    }
    return registration;
  }

  /** The registration once its worker is active (a push subscription needs an active worker). */
  function activeRegistration() {
    return registerWorker().then(function (reg) {
      if (reg.active) return reg;
      return new Promise(function (resolve, reject) {
        var worker = reg.installing || reg.waiting;
        if (!worker) return reject(new Error('service worker did not install'));
        worker.addEventListener('statechange', function () {
          if (worker.state === 'activated') resolve(reg);
          if (worker.state === 'redundant') reject(new Error('service worker did not install'));
        });
      });
    });
  }

  function pushSubscription(reg) {
    return reg.pushManager.getSubscription().then(function (existing) {
      if (existing) return existing;
      return siteConfig().then(function (cfg) {
        return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(cfg.vapidPublicKey) });
      });
    });
  }

  /**
   * Asks for permission (call it from a click handler: browsers require a user gesture), then
   * subscribes and registers the subscription with the page's topics, and options.topics (a
   * list of topic names the visitor chose) first. Resolves to the state.
   */
  function subscribe(options) {
    var chosen = [];
    var given = options && options.topics;
    for (var i = 0; given && i < given.length; i++) {
      var name = normalizeTopic(given[i]);
      if (name !== null && chosen.indexOf(name) === -1) chosen.push(name);
    }
    if (!supported()) {
      setState('unsupported');
      return Promise.resolve(state);
    }
    // First thing in the gesture: Safari refuses a permission request made after an await.
    // When the permission is already granted this answers at once, without a prompt.
    var asked = Promise.resolve(Notification.requestPermission());
    var prompt = takeOptInPrompt();
    setState('subscribing');
    return asked
      .then(function (permission) {
        if (permission !== 'granted') {
          if (permission === 'denied') reportOptIn('denied', prompt);
          setState(permission === 'denied' ? 'denied' : 'default');
          return null;
        }
        return activeRegistration()
          .then(pushSubscription)
          .then(function (subscription) {
            return register(subscription, prompt, chosen);
          })
          .then(function () {
            setState('subscribed');
            sendIdentityAndTags();
          });
      })
      .catch(function (err) {
        setState('error', String((err && err.message) || err));
      })
      .then(function () {
        return state;
      });
  }

  /** Removes this browser's subscription here and on the server. */
  function unsubscribe() {
    if (!supported()) return Promise.resolve(state);
    var prompt = takeOptInPrompt();
    return registerWorker()
      .then(function (reg) {
        return reg.pushManager.getSubscription();
      })
      .then(function (sub) {
        if (!sub) return null;
        var endpoint = sub.endpoint;
        return sub.unsubscribe().then(function () {
          return call('DELETE', 'sites/' + encodeURIComponent(site) + '/subscriptions', { endpoint: endpoint, promptId: prompt });
        });
      })
      .then(function () {
        setState(Notification.permission === 'denied' ? 'denied' : 'default');
        return state;
      });
  }

  // ---- who the visitor is (docs/people.md) ---------------------------------------------------

  function announceIdentity(detail) {
    try {
      document.dispatchEvent(new CustomEvent('webpush:identity', { detail: detail }));
    } catch (e) {
      /* very old browsers: no CustomEvent constructor */
    }
  }

  function currentSubscription() {
    return registerWorker().then(function (reg) {
      return reg.pushManager.getSubscription();
    });
  }

  /** Sends the remembered identity for this browser's subscription; resolves to whether it was linked. */
  function sendIdentity() {
    var wanted = identity;
    if (!wanted || state !== 'subscribed') return Promise.resolve(false);
    return currentSubscription()
      .then(function (sub) {
        if (!sub) return false;
        return call('POST', 'sites/' + encodeURIComponent(site) + '/identity', {
          endpoint: sub.endpoint,
          externalId: wanted.externalId,
          signature: wanted.signature
        }).then(function (answer) {
          return answer.identified === true;
        });
      })
      .then(
        function (identified) {
          announceIdentity({ externalId: wanted.externalId, identified: identified });
          return identified;
        },
        function (err) {
          var message = String((err && err.message) || err);
          announceIdentity({ externalId: wanted.externalId, error: message });
          throw err;
        }
      );
  }

  /**
   * The site's user `externalId`, signed by the site's server. Remembered for this page: sent now
   * when the browser is subscribed, else as soon as it is. Resolves to whether it was linked now.
   */
  function identify(externalId, signature) {
    identity = { externalId: String(externalId), signature: String(signature) };
    return sendIdentity();
  }

  /** Sends the tags asked for so far; resolves to whether they were stored (false: the subscription belongs to nobody). */
  function sendTags() {
    var tags = pendingTags;
    if (Object.keys(tags).length === 0 || state !== 'subscribed') return Promise.resolve(false);
    pendingTags = {};
    return currentSubscription().then(function (sub) {
      if (!sub) return false;
      return call('POST', 'sites/' + encodeURIComponent(site) + '/tags', { endpoint: sub.endpoint, tags: tags }).then(function (answer) {
        return answer.tagged === true;
      });
    });
  }

  /** A tag of the identified visitor (value null removes it); sent now when subscribed, else once subscribed. */
  function tag(key, value) {
    pendingTags[String(key)] = value === undefined ? null : value;
    return sendTags();
  }

  /** Once subscribed: who the visitor is, then their tags (a tag belongs to the person identified first). */
  function sendIdentityAndTags() {
    sendIdentity()
      .catch(function () {}) // announced by sendIdentity
      .then(sendTags)
      .catch(function () {}); // a refusal of tags sent here is not announced (webpush('tag') while subscribed rejects with it)
  }

  /** The visitor logged out: this browser's subscription no longer belongs to anyone. */
  function logout() {
    identity = null;
    if (!supported()) return Promise.resolve(false);
    return currentSubscription().then(function (sub) {
      if (!sub) return false;
      return call('DELETE', 'sites/' + encodeURIComponent(site) + '/identity', { endpoint: sub.endpoint }).then(function (answer) {
        return answer.unlinked === true;
      });
    });
  }

  // ---- opt-in prompts -------------------------------------------------------------------------

  function loadPrompt() {
    var el = document.createElement('script');
    el.src = api + 'webpush-prompt.js';
    el.async = true;
    document.head.appendChild(el);
  }

  // ---- page wiring ----------------------------------------------------------------------------

  function onClick(event) {
    if (event && event.preventDefault) event.preventDefault();
    subscribe();
  }

  function showDefaultButton() {
    defaultButton = document.createElement('button');
    defaultButton.type = 'button';
    defaultButton.id = 'webpush-button';
    defaultButton.textContent = buttonText;
    defaultButton.setAttribute(
      'style',
      'position:fixed;right:16px;bottom:16px;z-index:2147483000;padding:10px 16px;border:0;border-radius:20px;' +
        'background:#1a73e8;color:#fff;font:14px/1.2 system-ui,sans-serif;cursor:pointer;box-shadow:0 2px 6px rgba(0,0,0,.3);display:none'
    );
    defaultButton.addEventListener('click', onClick);
    document.body.appendChild(defaultButton);
    defaultButton.style.display = state === 'default' ? '' : 'none';
  }

  // The site's own elements at once; the default button or the site's prompts once the
  // configuration says which (a configuration that cannot be read: the button, whose click tries
  // again).
  function bindButtons() {
    if (buttonSelector && buttonSelector !== 'none') {
      var own = document.querySelectorAll(buttonSelector);
      for (var i = 0; i < own.length; i++) own[i].addEventListener('click', onClick);
    }
    siteConfig().then(
      function (cfg) {
        if (cfg.prompts) loadPrompt();
        else if (!buttonSelector) showDefaultButton();
      },
      function () {
        if (!buttonSelector) showDefaultButton();
      }
    );
  }

  // A visitor who already allowed notifications: make sure the subscription exists and is
  // known, and report this page's topics. Needs no gesture, the permission is already there.
  function refresh() {
    return activeRegistration()
      .then(function (reg) {
        return reg.pushManager.getSubscription().then(function (sub) {
          if (!sub) return pushSubscription(reg).then(register);
          return reportPageView(sub);
        });
      })
      .then(function () {
        setState('subscribed');
        sendIdentityAndTags();
      })
      .catch(function (err) {
        setState('error', String((err && err.message) || err));
      });
  }

  function start() {
    if (!site) {
      setState('error', 'data-site is missing');
      return;
    }
    if (!supported()) {
      setState('unsupported');
      return;
    }
    bindButtons();
    registerWorker().catch(function (err) {
      setState('error', String((err && err.message) || err));
    });
    var permission = Notification.permission;
    if (permission === 'granted') {
      refresh();
    } else {
      setState(permission === 'denied' ? 'denied' : 'default');
    }
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();

  // Commands the page queued before this script loaded, in order; their promises are nobody's.
  for (var q = 0; q < queued.length; q++) webpush.apply(null, queued[q]).catch(function () {});
})();
