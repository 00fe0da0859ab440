// While the dataset is being loaded into the triple store, the page looks again every two
// seconds until the load has ended (loaded or failed). Without this script, reload by hand.
(function () {
  'use strict';
  var section = document.getElementById('triplestore');
  if (!section) return;
  var state = section.getAttribute('data-state');
  if (state !== 'queued' && state !== 'running') return;
  window.setTimeout(function () {
    window.location.reload();
  }, 2000);
})();
