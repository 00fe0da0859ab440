// Small helpers shared by the catalogue's render functions: escaping lives in the kit.
import { escapeHtml } from '../kit/html.ts';

export { escapeHtml };

/** A same-site path with query parameters (empty values left out), ready for an attribute. */
export function href(path: string, params: Record<string, string | number | undefined> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return escapeHtml(query ? `${path}?${query}` : path);
}

/** A path segment from a user-chosen name (dataset, resource, group); a lone surrogate becomes U+FFFD. */
export function segment(name: string): string {
  return encodeURIComponent(name.toWellFormed());
}

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.5 KB"; undefined → "—". */
export function formatSize(bytes: number | undefined): string {
  if (bytes === undefined) return '—';
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = -1;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}

/** The date part of an ISO 8601 time, in a <time> element. */
export function formatDate(iso: string): string {
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 10))}</time>`;
}

/** Pages 1..n of `total` items: "Previous / Page x of y / Next" links keeping the other parameters. */
export function pager(
  path: string,
  params: Record<string, string | number | undefined>,
  page: number,
  pageSize: number,
  total: number,
  label: string,
): string {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return '';
  const link = (to: number, text: string, rel: string): string =>
    to < 1 || to > pages
      ? `<span class="pager-off" aria-disabled="true">${text}</span>`
      : `<a href="${href(path, { ...params, page: to })}" rel="${rel}">${text}</a>`;
  return `<nav class="pager" aria-label="${escapeHtml(label)}">
  ${link(page - 1, '← Previous', 'prev')}
  <span>Page ${page} of ${pages}</span>
  ${link(page + 1, 'Next →', 'next')}
</nav>`;
}
