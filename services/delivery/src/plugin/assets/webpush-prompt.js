/*
 * webpush opt-in prompt (v1): loaded by webpush.js only for a site whose configuration shows a
 * soft prompt or the bell (docs/site-plugin.md, "Opt-in prompts"). Plain browser JavaScript, no
 * build step.
 *
 * The soft prompt (a slide-down or a modal with the site's texts and topic choices) appears from
 * the configured page view on, after the configured delay, while the visitor has not decided;
 * the browser's own permission prompt comes only from a click on its accept button. "Not now"
 * (or Escape) keeps it away for the configured days. Page views and the snooze are kept in
 * localStorage, per site. The bell opens the same prompt, or says that notifications are on (and
 * offers to turn them off) or blocked.
 */
(function () {
  'use strict';

  var webpush = window.webpush;
  if (!webpush || !webpush.config || webpush.promptLoaded) return;
  webpush.promptLoaded = true;

  var DAY_MS = 86400000;
  var css =
    '.wp-dialog{position:fixed;z-index:2147483001;box-sizing:border-box;max-width:min(420px,calc(100vw - 24px));padding:20px;' +
    'background:#fff;color:#202124;border-radius:12px;box-shadow:0 6px 24px rgba(0,0,0,.3);font:15px/1.45 system-ui,sans-serif}' +
    '.wp-slidedown{top:12px;left:50%;transform:translateX(-50%);animation:wp-in .3s ease-out}' +
    '.wp-modal{top:50%;left:50%;transform:translate(-50%,-50%)}' +
    '.wp-backdrop{position:fixed;inset:0;z-index:2147483000;background:rgba(0,0,0,.5)}' +
    '.wp-dialog h2{margin:0 0 8px;font-size:18px;line-height:1.3}.wp-dialog p{margin:0 0 12px;white-space:pre-line}' +
    '.wp-dialog fieldset{margin:0 0 12px;padding:0;border:0}.wp-dialog legend{font-weight:600;margin-bottom:4px}' +
    '.wp-dialog label{display:block;padding:4px 0}.wp-dialog input{width:18px;height:18px;margin:0 8px 0 0;vertical-align:-3px}' +
    '.wp-actions{display:flex;gap:8px;justify-content:flex-end;flex-wrap:wrap}' +
    '.wp-dialog button,.wp-bell{font:inherit;font-size:15px;border-radius:20px;cursor:pointer;padding:8px 16px;border:2px solid #1557b0}' +
    '.wp-secondary{background:#fff;color:#1557b0}.wp-primary{background:#1557b0;color:#fff}' +
    '.wp-bell{position:fixed;bottom:16px;z-index:2147483000;width:48px;height:48px;padding:0;background:#1557b0;color:#fff;' +
    'display:flex;align-items:center;justify-content:center;box-shadow:0 2px 6px rgba(0,0,0,.3)}' +
    '.wp-bell svg{width:24px;height:24px;fill:currentColor}.wp-bell[data-state=subscribed]{background:#137333;border-color:#137333}' +
    '.wp-dialog :focus-visible,.wp-bell:focus-visible{outline:3px solid #e37400;outline-offset:2px}' +
    '@keyframes wp-in{from{transform:translate(-50%,-120%)}to{transform:translate(-50%,0)}}' +
    '@media (prefers-reduced-motion:reduce){.wp-slidedown{animation:none}}';
  var BELL_PATH = 'M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6V11c0-3.1-1.6-5.6-4.5-6.3V4a1.5 1.5 0 0 0-3 0v.7C7.6 5.4 6 7.9 6 11v5l-2 2v1h16v-1z';

  var open = null; // the dialog on screen: { close() }
  var bell = null;
  var config = null;

  function store(publicId) {
    var key = 'webpush-prompt:' + publicId;
    var read = function () {
      try {
        return JSON.parse(localStorage.getItem(key)) || {};
      } catch (e) {
        return {};
      }
    };
    return {
      read: read,
      write: function (change) {
        var data = read();
        for (var k in change) data[k] = change[k];
        try {
          localStorage.setItem(key, JSON.stringify(data));
        } catch (e) {
          /* storage refused (private mode, quota): the prompt just counts from zero next time */
        }
      }
    };
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text) node.textContent = text; // the site's texts are plain text, never HTML
    return node;
  }

  function button(text, primary, onClick) {
    var b = el('button', { type: 'button', class: primary ? 'wp-primary' : 'wp-secondary' }, text);
    b.addEventListener('click', onClick);
    return b;
  }

  /**
   * A dialog: focus moves to its first control and back to where it was when it closes; Escape
   * is `onEscape`; a modal keeps Tab within itself over a backdrop.
   */
  function dialog(kind, title, body, content, actions, onEscape) {
    if (open) open.close();
    var returnTo = document.activeElement;
    var modal = kind === 'modal';
    var box = el('div', { role: 'dialog', 'aria-labelledby': 'wp-title', class: 'wp-dialog wp-' + (modal ? 'modal' : 'slidedown') });
    if (modal) box.setAttribute('aria-modal', 'true');
    box.appendChild(el('h2', { id: 'wp-title' }, title));
    if (body) {
      box.appendChild(el('p', { id: 'wp-body' }, body));
      box.setAttribute('aria-describedby', 'wp-body');
    }
    if (content) box.appendChild(content);
    var row = el('div', { class: 'wp-actions' });
    for (var i = 0; i < actions.length; i++) row.appendChild(actions[i]);
    box.appendChild(row);
    var backdrop = modal ? el('div', { class: 'wp-backdrop' }) : null;

    box.addEventListener('keydown', function (event) {
      if (event.key === 'Escape') {
        event.preventDefault();
        onEscape();
      } else if (event.key === 'Tab' && modal) {
        var controls = box.querySelectorAll('input,button');
        var first = controls[0];
        var last = controls[controls.length - 1];
        if (event.shiftKey && document.activeElement === first) {
          event.preventDefault();
          last.focus();
        } else if (!event.shiftKey && document.activeElement === last) {
          event.preventDefault();
          first.focus();
        }
      }
    });
    if (backdrop) document.body.appendChild(backdrop);
    document.body.appendChild(box);
    box.querySelector('input,button').focus();
    open = {
      close: function () {
        open = null;
        box.remove();
        if (backdrop) backdrop.remove();
        if (returnTo && returnTo.focus && document.contains(returnTo)) returnTo.focus();
      }
    };
    return open;
  }

  /** The soft prompt: `id` is the prompt's ('slidedown', 'modal', or 'bell' when the bell opened it). */
  function showPrompt(id, saved) {
    var prompts = config.prompts;
    var topics = null;
    if (prompts.topics.length > 0) {
      topics = el('fieldset');
      topics.appendChild(el('legend', {}, 'Topics'));
      for (var i = 0; i < prompts.topics.length; i++) {
        var label = el('label');
        var box = el('input', { type: 'checkbox', value: prompts.topics[i].name, checked: '' });
        label.appendChild(box);
        label.appendChild(document.createTextNode(prompts.topics[i].label));
        topics.appendChild(label);
      }
    }
    var notNow = function () {
      saved.write({ snoozedUntil: Date.now() + prompts.snoozeDays * DAY_MS });
      webpush.reportOptIn('dismissed', id);
      shown.close();
    };
    var accept = function () {
      var chosen = [];
      var boxes = topics ? topics.querySelectorAll('input:checked') : [];
      for (var j = 0; j < boxes.length; j++) chosen.push(boxes[j].value);
      // Both in the click itself, no wait between: the browser's permission prompt needs the
      // user's gesture. 'accepted' first: it names this prompt to the subscribe that follows.
      webpush.reportOptIn('accepted', id);
      webpush.subscribe({ topics: chosen });
      shown.close();
    };
    var kind = prompts.kind === 'modal' ? 'modal' : 'slidedown';
    var shown = dialog(kind, prompts.title, prompts.body, topics, [button(prompts.notNowLabel, false, notNow), button(prompts.acceptLabel, true, accept)], notNow);
    webpush.reportOptIn('shown', id);
  }

  /** What the bell says for a visitor already subscribed, or who blocked notifications. */
  function showStatus() {
    var close = function () {
      status.close();
    };
    var status =
      webpush.state === 'subscribed'
        ? dialog('slidedown', 'Notifications are on', 'You get notifications from this site.', null, [
            button('Turn off', false, function () {
              // Names the bell to the unsubscribe that follows: the funnel counts its opt-out.
              webpush.reportOptIn('unsubscribed', 'bell');
              webpush.unsubscribe();
              close();
            }),
            button('Close', true, close)
          ], close)
        : dialog('slidedown', 'Notifications are blocked', "Allow them in your browser's settings for this site.", null, [button('Close', true, close)], close);
  }

  var BELL_LABELS = { subscribed: 'Notifications are on', denied: 'Notifications are blocked' };

  function updateBell() {
    var state = webpush.state;
    var hidden = state === 'loading' || state === 'unsupported' || state === 'subscribing';
    bell.style.display = hidden ? 'none' : '';
    bell.setAttribute('data-state', state);
    bell.setAttribute('aria-label', BELL_LABELS[state] || 'Get notifications');
  }

  function showBell(saved) {
    bell = el('button', { type: 'button', class: 'wp-bell', 'aria-haspopup': 'dialog' });
    bell.style[config.prompts.bell.position === 'bottom-left' ? 'left' : 'right'] = '16px';
    bell.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="' + BELL_PATH + '"/></svg>';
    bell.addEventListener('click', function () {
      if (webpush.state === 'default' || webpush.state === 'error') showPrompt('bell', saved);
      else showStatus();
    });
    document.body.appendChild(bell);
    updateBell();
    document.addEventListener('webpush:state', updateBell);
  }

  function start(cfg) {
    config = cfg;
    var prompts = cfg.prompts;
    var saved = store(cfg.publicId);
    var views = (Number(saved.read().views) || 0) + 1;
    saved.write({ views: views });
    document.head.appendChild(el('style', {}, css));
    if (prompts.bell.enabled) showBell(saved);
    if (prompts.kind === 'none' || views < prompts.trigger.pageViews || Date.now() < (Number(saved.read().snoozedUntil) || 0)) return;
    setTimeout(function () {
      if (!open && webpush.state === 'default') showPrompt(prompts.kind, saved);
    }, prompts.trigger.delaySeconds * 1000);
  }

  webpush.config().then(start, function () {});
})();
