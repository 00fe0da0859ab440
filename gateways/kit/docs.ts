// The API explorer at `<base>/api/docs`: swagger-ui-dist served from the installed package
// (never a CDN, so it works offline and loads nothing from another host), a small page and an
// init script. A strict Content-Security-Policy keeps the page on this origin.
import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';
import { escapeHtml } from './html.ts';

const DIST = path.dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));

/** The only files served from the package: a fixed list, never a path taken from the request. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
  'swagger-ui.css.map': 'application/json',
  'swagger-ui-bundle.js.map': 'application/json',
};

// Swagger UI styles elements inline and draws icons from data: URIs; scripts come only from here.
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** `base` is the mount prefix ('' at the root); every link is absolute on this host. */
export function docsPage(base: string, title: string): string {
  const assets = `${escapeHtml(base)}/api/docs`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} – API</title>
<link rel="stylesheet" href="${assets}/swagger-ui.css">
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/init.js"></script>
</body>
</html>
`;
}

/** A separate script rather than inline code, so that the CSP needs no 'unsafe-inline' for scripts. */
export function docsInit(base: string): string {
  // validatorUrl null: Swagger UI would otherwise send the document to validator.swagger.io.
  return `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(`${base}/api/openapi.json`)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;
}

export function serveDocsPage(ctx: Context, base: string, title: string): void {
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = docsPage(base, title);
}

/** Answers one asset of the explorer; false when `name` is not one of them. */
export async function serveDocsAsset(ctx: Context, base: string, name: string): Promise<boolean> {
  if (name === 'init.js') {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = docsInit(base);
    return true;
  }
  const type = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (type === undefined) return false;
  const handle = await open(path.join(DIST, name), 'r');
  try {
    ctx.length = (await handle.stat()).size;
  } catch (error) {
    await handle.close();
    throw error;
  }
  ctx.type = type;
  ctx.set('Cache-Control', 'public, max-age=86400');
  ctx.body = handle.createReadStream();
  return true;
}
