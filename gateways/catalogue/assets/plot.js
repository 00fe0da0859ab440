// Progressive enhancement of the dataset page's plot: the points' JSON (already reduced on the
// server to at most 2000) drawn with uPlot, served by labld from its package. Changing the x or
// y column redraws in place; changing the table sends the form (its columns differ). Without
// this script the form still works and the figure is a link to the JSON.
(function () {
  'use strict';
  var figure = document.getElementById('plot-figure');
  var form = document.getElementById('plot-form');
  var canvas = document.getElementById('plot-canvas');
  var link = document.getElementById('plot-json');
  if (!figure || !form || !canvas || !window.uPlot || !window.fetch) return;
  var chart = null;
  var note = document.createElement('p');
  note.className = 'hint';
  note.setAttribute('aria-live', 'polite');
  figure.appendChild(note);

  function draw(url) {
    figure.setAttribute('aria-busy', 'true');
    note.textContent = 'Drawing…';
    window
      .fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (answer) {
        return answer.json().then(function (body) {
          if (!answer.ok) throw new Error(body.detail || 'the points could not be read');
          return body;
        });
      })
      .then(function (body) {
        if (chart) chart.destroy();
        var width = Math.max(320, Math.min(figure.clientWidth || 800, 1000));
        chart = new window.uPlot(
          {
            width: width,
            height: 420,
            scales: { x: { time: false } },
            axes: [{ label: body.x.label }, { label: body.y.label }],
            series: [{ label: body.x.label }, { label: body.y.label, stroke: '#0b5cad', width: 1 }],
          },
          [body.points.x, body.points.y],
          canvas,
        );
        // The canvas is a picture: say in words what it shows.
        canvas.setAttribute('role', 'img');
        canvas.setAttribute(
          'aria-label',
          body.y.label +
            ' over ' +
            body.x.label +
            ': ' +
            body.points.x.length +
            ' points from ' +
            body.plotted_rows +
            ' rows',
        );
        figure.setAttribute('data-x-label', body.x.label);
        figure.setAttribute('data-y-label', body.y.label);
        note.textContent =
          body.y.label +
          ' over ' +
          body.x.label +
          ' — ' +
          body.points.x.length +
          ' points drawn from ' +
          body.plotted_rows +
          ' rows.';
        figure.setAttribute('aria-busy', 'false');
      })
      .catch(function (error) {
        note.textContent = 'The plot could not be drawn: ' + error.message;
        figure.setAttribute('aria-busy', 'false');
      });
  }

  form.addEventListener('change', function (event) {
    var name = event.target.name;
    if (name === 'plot') {
      // The other table's columns are not this one's: let the server pick the new table's.
      if (form.elements.x) form.elements.x.disabled = true;
      if (form.elements.y) form.elements.y.disabled = true;
      form.submit();
      return;
    }
    if (name !== 'x' && name !== 'y') return;
    var points = new URL(figure.getAttribute('data-points'), window.location.href);
    points.searchParams.set('x', form.elements.x.value);
    points.searchParams.set('y', form.elements.y.value);
    var path = points.pathname + points.search;
    figure.setAttribute('data-points', path);
    if (link) link.setAttribute('href', path);
    var page = new URL(window.location.href);
    page.searchParams.set('plot', form.elements.plot.value);
    page.searchParams.set('x', form.elements.x.value);
    page.searchParams.set('y', form.elements.y.value);
    window.history.replaceState(null, '', page.pathname + page.search + '#plot');
    draw(path);
  });

  draw(figure.getAttribute('data-points'));
})();
