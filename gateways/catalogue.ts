// The catalogue at `/`. For now a placeholder page that links the services; the catalogue
// issue (datasets, uploads, the automation chain, SPARQL) replaces it.
import { SERVICES, services } from '../lib/services.ts';
import { createGateway, escapeHtml, route, type Gateway } from './kit/index.ts';

function page(): string {
  const rows = SERVICES.map((name) => {
    const s = services[name];
    return `<li><a href="${s.basePath}/api/docs">${escapeHtml(s.title)}</a> ${escapeHtml(s.version)} — ${escapeHtml(s.description)}</li>`;
  }).join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><title>labld</title></head>
  <body>
    <h1>labld</h1>
    <p>Tabular lab data to linked data. The catalogue (datasets, uploads, SPARQL) is coming; the services are here:</p>
    <ul>
      ${rows}
    </ul>
  </body>
</html>
`;
}

export function catalogueGateway(): Gateway {
  return createGateway({
    service: 'catalogue',
    title: 'labld catalogue',
    version: '0.1.0',
    basePath: '/',
    routes: [
      route({
        method: 'GET',
        path: '/',
        summary: 'Catalogue home page',
        responses: { 200: { description: 'HTML page', content: { 'text/html': null } } },
        handler: () => ({ body: page(), contentType: 'text/html; charset=utf-8' }),
      }),
    ],
  });
}
