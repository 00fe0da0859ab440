// How the catalogue answers a browser: an HTML page with its security headers, and a refusal
// told in the page's frame (API clients keep the kit's {"detail"}).
import type { Context } from 'koa';
import { DomainError } from '../../lib/process/errors.ts';
import { toErrorAnswer, type Result } from '../kit/index.ts';
import { renderError } from './pages/layout.ts';
import type { PageContext } from './views.ts';

/** Pages load only our own files; no inline script or style, no framing, forms post here only. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function page(body: string, headers: Record<string, string> = {}, status?: number): Result {
  return {
    body,
    contentType: 'text/html; charset=utf-8',
    ...(status === undefined ? {} : { status }),
    headers: {
      'Content-Security-Policy': PAGE_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Cache-Control': 'no-store',
      ...headers,
    },
  };
}

/**
 * A domain error as a page with its status, for a person in a browser; rethrown for API clients
 * (and for anything that is not a DomainError), whom the kit answers with {"detail"}.
 */
export function errorPage(ctx: Context, context: PageContext, error: unknown): Result {
  if (!(error instanceof DomainError) || ctx.accepts('json', 'html') !== 'html') throw error;
  const { status } = toErrorAnswer(error);
  return page(renderError(context, { status, detail: error.message }), {}, status);
}
