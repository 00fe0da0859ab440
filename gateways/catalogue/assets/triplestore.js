// While the dataset is being loaded into the triple store, the Triple store section is fetched
// again every two seconds (from this page's own address) and replaced in place, until the load
// has ended (loaded or failed). It once reloaded the whole page instead, and a reload that came
// while someone clicked a link on the page took the click's navigation away. A load that ends
// adds the SPARQL endpoint to the Resources, so that section is taken from the same answer.
// Without this script, reload by hand.
(function () {
  'use strict';
  if (!window.fetch || !window.DOMParser) return;

  function busy(section) {
    var state = section && section.getAttribute('data-state');
    return state === 'queued' || state === 'running';
  }

  /**
   * Puts `fresh`'s content into `section`. Its status line stays the same element with its text
   * changed, so that a screen reader announces it (a live region put in anew is not announced).
   */
  function replaceSection(section, fresh) {
    section.setAttribute('data-state', fresh.getAttribute('data-state'));
    var status = section.querySelector('[role="status"]');
    var next = fresh.querySelector('[role="status"]');
    if (!status || !next) {
      section.innerHTML = fresh.innerHTML;
      return;
    }
    status.innerHTML = next.innerHTML;
    while (status.nextSibling) status.nextSibling.remove();
    while (next.nextSibling) section.appendChild(document.adoptNode(next.nextSibling));
  }

  function refresh() {
    var section = document.getElementById('triplestore');
    return window
      .fetch(window.location.href, { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null) return;
        var page = new window.DOMParser().parseFromString(html, 'text/html');
        var fresh = page.getElementById('triplestore');
        // Replaced only when it changed, so that a focused control keeps its focus between looks.
        if (!fresh || fresh.outerHTML === section.outerHTML) return;
        replaceSection(section, fresh);
        var resources = document.getElementById('resources');
        var listed = page.getElementById('resources');
        if (resources && listed && resources.innerHTML !== listed.innerHTML)
          resources.innerHTML = listed.innerHTML;
      })
      .catch(function () {
        // Offline for a moment: the next look tries again.
      });
  }

  function schedule() {
    if (!busy(document.getElementById('triplestore'))) return;
    window.setTimeout(
      function () {
        refresh().then(schedule);
      },
      document.hidden ? 10000 : 2000,
    );
  }

  schedule();
})();
