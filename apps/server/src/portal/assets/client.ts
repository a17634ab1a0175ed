import { WEBHOOK_EVENT_TYPES } from '@switchboard/contract';

/**
 * The portal's only script (served from 'self'; the CSP allows no inline script). It adds: copy-to-clipboard (keys,
 * webhook secrets),
 * handing a freshly generated key to the API reference, and starting the reference with that key prefilled.
 * The key travels only through this tab's sessionStorage (gone when the tab closes), never back to the server. The
 * Live events page's tail reads the session-authenticated stream with the browser's EventSource.
 */
export const PORTAL_JS = `
(function () {
  'use strict';
  var TAIL_EVENTS = ${JSON.stringify(WEBHOOK_EVENT_TYPES)};
  var STORAGE_KEY = 'switchboard.tryKey';

  function announce(text) {
    var live = document.getElementById('live-status');
    if (live) live.textContent = text;
  }

  document.addEventListener('click', function (event) {
    var copy = event.target.closest('[data-copy-target]');
    if (copy) {
      var field = document.getElementById(copy.getAttribute('data-copy-target'));
      var what = copy.getAttribute('data-copy-what') || 'API key';
      var done = function () { copy.textContent = 'Copied'; announce(copy.getAttribute('data-copied-message') || what +
        ' copied to the clipboard.'); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(field.value).then(done, function () { field.select(); });
      } else {
        field.select();
        if (document.execCommand('copy')) done();
      }
      return;
    }
    var tryKey = event.target.closest('[data-try-key]');
    if (tryKey) {
      sessionStorage.setItem(STORAGE_KEY, document.getElementById(tryKey.getAttribute('data-try-key')).value);
      window.location.assign(tryKey.getAttribute('data-href'));
      return;
    }
    if (event.target.closest('[data-forget-key]')) {
      sessionStorage.removeItem(STORAGE_KEY);
      window.location.reload();
    }
  });

  var keyForm = document.getElementById('try-key-form');
  if (keyForm) {
    keyForm.addEventListener('submit', function (event) {
      event.preventDefault();
      var value = keyForm.elements.namedItem('apiKey').value.trim();
      if (value) sessionStorage.setItem(STORAGE_KEY, value);
      window.location.reload();
    });
  }

  var mount = document.getElementById('reference-app');
  var configElement = document.getElementById('reference-config');
  if (mount && configElement && window.Scalar) {
    var options = JSON.parse(configElement.textContent);
    var config = options.scalar;
    var key = sessionStorage.getItem(STORAGE_KEY);
    if (key && options.apiKeyScheme) {
      var schemes = {};
      schemes[options.apiKeyScheme] = { value: key };
      config.authentication = { preferredSecurityScheme: options.apiKeyScheme, securitySchemes: schemes };
      document.getElementById('try-key-prefix').textContent = key.slice(0, 16) + '\u2026';
      document.getElementById('try-key-status').hidden = false;
      if (keyForm) keyForm.hidden = true;
    }
    window.Scalar.createApiReference(mount, config);
  }

  // Live events: the signed-in user's stream (the portal session authenticates it), newest first, at most 200.
  var tail = document.getElementById('event-tail');
  if (tail && window.EventSource) {
    var status = document.getElementById('event-tail-status');
    var source = new EventSource(tail.getAttribute('data-stream'));
    var show = function (event) {
      var item = document.createElement('li');
      var head = document.createElement('strong');
      head.textContent = event.type + ' #' + event.lastEventId;
      var body = document.createElement('pre');
      body.textContent = JSON.stringify(JSON.parse(event.data), null, 2);
      item.appendChild(head);
      item.appendChild(body);
      tail.insertBefore(item, tail.firstChild);
      while (tail.children.length > 200) tail.removeChild(tail.lastChild);
      announce(event.type);
    };
    source.onopen = function () { status.textContent = 'Live: waiting for events.'; };
    // The server ends the tail when the session does (signed out, password changed, access taken away); the
    // browser's reconnection then gets the sign-in page and gives up: say so instead of "reconnecting" forever.
    source.onerror = function () {
      status.textContent = source.readyState === EventSource.CLOSED
        ? 'Ended: your session is over or your access changed. Sign in again to resume.'
        : 'Disconnected: reconnecting…';
    };
    TAIL_EVENTS.forEach(function (type) { source.addEventListener(type, show); });
  }
})();
`;
