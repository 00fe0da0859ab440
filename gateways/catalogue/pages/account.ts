// Signing in and API tokens.
import { escapeHtml, formatDate, segment } from '../html.ts';
import type { LoginView, PageContext, TokenView } from '../views.ts';
import { csrfField, layout } from './layout.ts';

export function renderLogin(context: PageContext, view: LoginView): string {
  const error = view.error ? `<p class="error" role="alert">${escapeHtml(view.error)}</p>` : '';
  const next = view.next ? `<input type="hidden" name="next" value="${escapeHtml(view.next)}">` : '';
  const main = `      <h1>Log in</h1>
      ${error}
      <form class="stacked narrow" method="post" action="/user/login">
        ${csrfField(context)}${next}
        <label for="login-username">User name</label>
        <input id="login-username" name="username" type="text" autocomplete="username" required value="${escapeHtml(view.username ?? '')}">
        <label for="login-password">Password</label>
        <input id="login-password" name="password" type="password" autocomplete="current-password" required>
        <p><button type="submit">Log in</button></p>
      </form>`;
  return layout({ ...context, current: 'login' }, { title: 'Log in' }, main);
}

export function renderTokens(context: PageContext, view: TokenView): string {
  const created = view.newToken
    ? `<div class="notice" role="status">
        <p>New token <strong>${escapeHtml(view.newToken.name)}</strong>. Copy it now: it is shown only once.</p>
        <label for="new-token">Token</label>
        <input id="new-token" class="secret" type="text" readonly value="${escapeHtml(view.newToken.secret)}">
      </div>`
    : '';
  const rows = view.tokens
    .map(
      (
        t,
      ) => `<tr><th scope="row">${escapeHtml(t.name)}</th><td>${formatDate(t.created)}</td><td>${t.lastUsed ? formatDate(t.lastUsed) : 'never'}</td>
            <td><form method="post" action="/user/tokens/${segment(t.id)}/revoke">${csrfField(context)}<button type="submit" class="link-button">Revoke<span class="visually-hidden"> ${escapeHtml(t.name)}</span></button></form></td></tr>`,
    )
    .join('\n            ');
  const list =
    view.tokens.length === 0
      ? '<p class="empty">You have no API tokens.</p>'
      : `<div class="table-scroll"><table class="data">
          <caption class="visually-hidden">Your API tokens</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Revoke</span></th></tr></thead>
          <tbody>
            ${rows}
          </tbody>
        </table></div>`;
  const main = `      <h1>API tokens</h1>
      <p class="lead">A token lets scripts use the API as you: send it as <code>Authorization: &lt;token&gt;</code>.</p>
      ${created}
      ${list}
      <h2>Create a token</h2>
      <form class="stacked narrow" method="post" action="/user/tokens">
        ${csrfField(context)}
        <label for="token-name">Token name</label>
        <input id="token-name" name="name" type="text" required maxlength="200">
        <p><button type="submit">Create token</button></p>
      </form>`;
  return layout({ ...context, current: 'tokens' }, { title: 'API tokens' }, main);
}
