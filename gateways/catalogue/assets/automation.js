// Progressive enhancement of a dataset page's Automation section: while a step is queued or
// running (data-active), the section is fetched again every second from its own route and
// replaced, so the steps are seen to complete without a reload; when all is at rest, every
// five seconds (a new upload elsewhere shows up too). Retry and Replay are sent the same way
// and the section refreshed at once. The sections that follow it (data-live-follows, the
// Resources table) are fetched again from their own data-live whenever it changed: a step
// that is done has stored its output, a deleted source has taken its outputs along. Without
// this script the page is right as loaded, and the forms post and come back to it.
(function () {
  'use strict';
  var section = document.getElementById('automation');
  if (!section || !window.fetch || !window.FormData || !window.URLSearchParams) return;
  var timer = null;

  function active() {
    var root = section.querySelector('[data-active]');
    return root !== null && root.getAttribute('data-active') === 'true';
  }

  function schedule() {
    window.clearTimeout(timer);
    timer = window.setTimeout(refresh, document.hidden ? 10000 : active() ? 1000 : 5000);
  }

  /** Fetches `target`'s data-live and puts it in; true when it changed. */
  function update(target) {
    return window
      .fetch(target.getAttribute('data-live'), {
        credentials: 'same-origin',
        headers: { accept: 'text/html' },
      })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        // Replaced only when it changed, so that a link or button keeps its focus between polls.
        if (html === null || html === target.innerHTML) return false;
        var focused = document.activeElement && target.contains(document.activeElement);
        target.innerHTML = html;
        if (focused) target.querySelector('h2').focus();
        return true;
      });
  }

  function refresh() {
    update(section)
      .then(function (changed) {
        if (!changed) return null;
        var followers = document.querySelectorAll('[data-live-follows="automation"]');
        return Promise.all(Array.prototype.map.call(followers, update));
      })
      .catch(function () {
        // Offline for a moment: the next poll tries again.
      })
      .then(schedule);
  }

  section.addEventListener('submit', function (event) {
    var form = event.target;
    if (!(form instanceof window.HTMLFormElement)) return;
    event.preventDefault();
    var button = form.querySelector('button');
    if (button) button.disabled = true;
    window
      .fetch(form.action, {
        method: 'POST',
        credentials: 'same-origin',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new window.URLSearchParams(new FormData(form)),
      })
      .then(function (response) {
        // Done: the answer is the redirect back to this page. A refusal: the form posts as
        // without this script, and the page of the refusal says why.
        if (response.type === 'opaqueredirect' || response.ok) refresh();
        else form.submit();
      })
      .catch(function () {
        form.submit();
      });
  });

  document.addEventListener('visibilitychange', function () {
    if (!document.hidden) refresh();
  });
  schedule();
})();
