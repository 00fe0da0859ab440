// Progressive enhancement of the upload form: the same multipart POST, sent with XMLHttpRequest
// so that a progress bar can follow it. Without this script the form posts normally.
(function () {
  'use strict';
  var form = document.getElementById('upload-form');
  if (!form || !window.XMLHttpRequest || !window.FormData) return;
  var row = document.getElementById('upload-progress-row');
  var bar = document.getElementById('upload-progress');
  var status = document.getElementById('upload-status');
  var button = form.querySelector('button[type="submit"]');

  function show(percent, text) {
    bar.value = percent;
    bar.textContent = percent + '%';
    status.textContent = text;
  }

  form.addEventListener('submit', function (event) {
    if (!form.checkValidity()) return;
    event.preventDefault();
    var request = new XMLHttpRequest();
    request.open('POST', form.action);
    // Asks for JSON ({ "location": … }) instead of the redirect a plain form gets.
    request.setRequestHeader('Accept', 'application/json');
    row.hidden = false;
    button.disabled = true;
    show(0, 'Uploading…');
    request.upload.addEventListener('progress', function (e) {
      if (e.lengthComputable) show(Math.floor((e.loaded / e.total) * 100), 'Uploading… ');
    });
    request.addEventListener('load', function () {
      var answer = {};
      try {
        answer = JSON.parse(request.responseText);
      } catch {
        answer = {};
      }
      if (request.status >= 200 && request.status < 300) {
        show(100, 'Upload complete.');
        if (answer.location) {
          var link = document.createElement('a');
          link.href = answer.location;
          link.textContent = 'Open the new resource';
          status.appendChild(document.createTextNode(' '));
          status.appendChild(link);
        }
      } else {
        show(0, 'Upload failed: ' + (answer.detail || request.status));
      }
      button.disabled = false;
    });
    request.addEventListener('error', function () {
      show(0, 'Upload failed: the connection was lost.');
      button.disabled = false;
    });
    request.send(new FormData(form));
  });
})();
