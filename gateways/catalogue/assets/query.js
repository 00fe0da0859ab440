// The query page, enhanced. Without this script every builder choice is a link or a GET form
// and the SPARQL editor a form to the endpoint. With it: the plain form becomes YASGUI (our own
// copy of @zazuko/yasgui, pointed at the dataset's endpoint, with everything that would fetch
// from elsewhere switched off), and a builder choice fetches the same page for the new sentence
// and swaps the builder in place, so the results show at once. The server makes every sentence,
// word and query; this script only moves pages and text around (and has YASGUI's table say
// "a blank node" as the builder does, and keep values as text).
(function () {
  'use strict';

  var mount = document.getElementById('yasgui');
  var yasgui = null;

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return '&#' + c.charCodeAt(0) + ';';
    });
  }

  // YASR's table, registered under its own name, with two changes.
  // - A blank node is shown by its raw id, which means nothing to a reader and changes with every
  //   load; the builder says "a blank node", and so does the table (the id stays in the tooltip,
  //   and in the table's search and sort).
  // - A value's search and sort text went through DOMPurify, which parses it as HTML: a literal
  //   holding markup (`<img onerror=…>`) made the page's CSP report its inline handlers. The
  //   search text is the value escaped (DataTables decodes it through innerHTML, so it must stay
  //   text) and the sort text the value itself (only compared, never parsed).
  function registerTable(Yasr) {
    var Table = Yasr.plugins.table;
    if (!Table) return;
    class TextTable extends Table {
      getColumns() {
        return super.getColumns().map(function (column, index) {
          var render = column.render;
          if (index === 0 || typeof render !== 'function') return column;
          column.render = function (data, type, row, meta) {
            if (data === '' || !data) return render(data, type, row, meta);
            if (type === 'sort') return String(data.value);
            if (type === 'filter' || !type) return escapeHtml(data.value);
            return render(data, type, row, meta);
          };
          return column;
        });
      }

      getCellContent(binding, prefixes) {
        if (binding.type !== 'bnode') return super.getCellContent(binding, prefixes);
        return (
          '<div><span class="nonIri bnode" title="_:' +
          escapeHtml(binding.value) +
          '">a blank node</span></div>'
        );
      }
    }
    Yasr.registerPlugin('table', TextTable);
  }

  function startYasgui() {
    if (!mount || typeof window.Yasgui === 'undefined') return;
    var form = document.getElementById('sparql-form');
    var query = document.getElementById('sparql-query').value;
    var endpoint = new URL(mount.getAttribute('data-endpoint'), window.location.href).href;
    var Yasgui = window.Yasgui;
    registerTable(Yasgui.Yasr);
    // No request may leave labld: the class and property completers ask the LOV service, and
    // prefixes would come from prefix.cc; only the bundled prefixes and local variables remain.
    Yasgui.Yasqe.defaults.autocompleters = ['prefixes', 'variables'];
    Yasgui.Yasqe.defaults.prefixCcApi = undefined;
    yasgui = new Yasgui(mount, {
      requestConfig: { endpoint: endpoint, method: 'POST' },
      copyEndpointOnNewTab: true,
      // Nothing kept in localStorage: another dataset's page must not reopen this endpoint.
      persistenceId: null,
      endpointCatalogueOptions: {
        getData: function () {
          return [{ endpoint: endpoint }];
        },
        keys: [],
      },
      yasqe: { value: query },
    });
    yasgui.getTab().setQuery(query);
    form.hidden = true;
    var open = document.getElementById('open-in-yasgui');
    if (open) open.hidden = false;
  }

  function openInYasgui() {
    var sparql = document.getElementById('builder-sparql');
    if (!yasgui || !sparql) return;
    var tab = yasgui.getTab();
    tab.setQuery(sparql.textContent);
    document.getElementById('editor').scrollIntoView();
    tab.getYasqe().focus();
    tab.getYasqe().query();
  }

  function isBuilderUrl(url) {
    return url.origin === window.location.origin && url.pathname === window.location.pathname;
  }

  function show(url, push) {
    var builder = document.getElementById('builder');
    builder.setAttribute('aria-busy', 'true');
    window
      .fetch(url.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
      .then(function (response) {
        if (!response.ok) throw new Error('status ' + response.status);
        return response.text();
      })
      .then(function (html) {
        var fresh = new window.DOMParser().parseFromString(html, 'text/html').getElementById('builder');
        if (!fresh) throw new Error('no builder in the answer');
        builder.replaceWith(fresh);
        if (push) window.history.pushState(null, '', url.href);
        var open = document.getElementById('open-in-yasgui');
        if (open && yasgui) open.hidden = false;
        document.getElementById('sentence').focus();
      })
      .catch(function () {
        // The page itself says what went wrong (an invalid number, a refusal).
        window.location.assign(url.href);
      });
  }

  document.addEventListener('click', function (event) {
    if (event.target.closest('#open-in-yasgui')) {
      openInYasgui();
      return;
    }
    var link = event.target.closest('#builder a[href]');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    var url = new URL(link.href);
    if (!isBuilderUrl(url)) return;
    event.preventDefault();
    show(url, true);
  });

  document.addEventListener('submit', function (event) {
    var form = event.target.closest('#builder form[method="get"]');
    if (!form) return;
    var url = new URL(form.action);
    if (!isBuilderUrl(url)) return;
    event.preventDefault();
    url.search = new window.URLSearchParams(new FormData(form)).toString();
    url.hash = 'builder';
    show(url, true);
  });

  window.addEventListener('popstate', function () {
    if (document.getElementById('builder')) show(new URL(window.location.href), false);
  });

  startYasgui();
})();
