// The frame of every catalogue page: skip link, header with the name and the navigation, main,
// footer. Scripts are external files only (the pages are served with a CSP without inline code).
import { assetUrl } from '../assets.ts';
import { escapeHtml } from '../html.ts';
import type { PageContext } from '../views.ts';
import { SERVICES, services } from '../../../lib/services.ts';
import { mappingGroup } from '../../../lib/catalogue/mapping-library.ts';

/** The four services' API pages, from the catalogue's footer (the services are labld's too). */
const SERVICE_LINKS = SERVICES.map(
  (name) => `<a href="${services[name].basePath}/api/docs">${escapeHtml(name)}</a>`,
).join(' · ');

export interface PageOptions {
  title: string;
  /** Asset names of scripts this page loads (deferred). */
  scripts?: string[];
  /** Asset names of stylesheets this page loads after the catalogue's own. */
  styles?: string[];
  /** The page's content in other forms (`<link rel="alternate">`), e.g. a dataset's DCAT. */
  alternates?: { href: string; type: string }[];
}

/** The header's links; the mapping library's group is named by a setting. */
const nav = (): { key: NonNullable<PageContext['current']>; path: string; text: string }[] => [
  { key: 'datasets', path: '/dataset', text: 'Datasets' },
  { key: 'mappings', path: `/group/${mappingGroup()}`, text: 'Mappings' },
  { key: 'tokens', path: '/user/tokens', text: 'API tokens' },
];

/** The hidden field carrying the session's CSRF token, or nothing without a session. */
export function csrfField(context: PageContext): string {
  return context.csrfToken === undefined
    ? ''
    : `<input type="hidden" name="_csrf" value="${escapeHtml(context.csrfToken)}">`;
}

function account(context: PageContext): string {
  if (!context.user) {
    const current = context.current === 'login' ? ' aria-current="page"' : '';
    return `<a class="account" href="/user/login"${current}>Log in</a>`;
  }
  const name = context.user.displayName ?? context.user.name;
  // Logging out changes state, so it is a POST with the CSRF token, not a link.
  return `<form class="account" method="post" action="/user/logout">
        ${csrfField(context)}
        <span>Signed in as <strong>${escapeHtml(name)}</strong></span>
        <button type="submit" class="link-button">Log out</button>
      </form>`;
}

export function layout(context: PageContext, options: PageOptions, main: string): string {
  const links = nav()
    .map(({ key, path, text }) => {
      const current = context.current === key ? ' aria-current="page"' : '';
      return `<li><a href="${path}"${current}>${text}</a></li>`;
    })
    .join('');
  const styles = (options.styles ?? [])
    .map((name) => `\n    <link rel="stylesheet" href="${assetUrl(name)}">`)
    .join('');
  const scripts = (options.scripts ?? [])
    .map((name) => `\n    <script src="${assetUrl(name)}" defer></script>`)
    .join('');
  const alternates = (options.alternates ?? [])
    .map((a) => `\n    <link rel="alternate" type="${escapeHtml(a.type)}" href="${escapeHtml(a.href)}">`)
    .join('');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${escapeHtml(options.title)} · labld</title>
    <link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
    <link rel="stylesheet" href="${assetUrl('catalogue.css')}">${styles}${scripts}${alternates}
  </head>
  <body>
    <a class="skip-link" href="#main">Skip to content</a>
    <header class="site-header">
      <div class="wrap header-row">
        <a class="brand" href="/">labld</a>
        <nav aria-label="Main"><ul class="nav">${links}</ul></nav>
        ${account(context)}
      </div>
    </header>
    <main id="main" class="wrap" tabindex="-1">
${main}
    </main>
    <footer class="site-footer">
      <div class="wrap">labld catalogue · <a href="/api/docs">API</a> · services: ${SERVICE_LINKS}</div>
    </footer>
  </body>
</html>
`;
}

const TITLES: Record<number, string> = { 404: 'Not found', 403: 'Not allowed', 401: 'Please log in' };

/** A request a page could not answer (unknown dataset, bad parameter), told to a person. */
export function renderError(context: PageContext, error: { status: number; detail: string }): string {
  const title = TITLES[error.status] ?? 'This request cannot be answered';
  const main = `      <h1>${escapeHtml(title)}</h1>
      <p class="error" role="alert">${escapeHtml(error.detail)}</p>
      <p><a href="/dataset">Back to the datasets</a></p>`;
  return layout(context, { title }, main);
}
