// Logging in for real in Chromium on a whole labld, seeded through the store and the Action API
// (test/catalogue/support/seed.ts). A wrong password, the login
// through the form back to the page asked for, an upload whose XHR carries the session's CSRF
// token, and logging out through the header's form.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashSessionId } from '../../../lib/catalogue/auth/sessions.ts';
import { openCatalogueStore } from '../../../lib/catalogue/store/open.ts';
import { api } from '../actions/support.ts';
import { startSeededLabld, type SeededLabld } from '../support/seed.ts';
import { SCREENSHOTS, launchChromium, type Browser } from './launch.ts';

const PASSWORD = 'correct horse battery staple';
let catalogue: SeededLabld;
let browser: Browser;
const problems: string[] = [];

describe('logging in through the form in Chromium', () => {
  before(async () => {
    catalogue = await startSeededLabld({ users: { ada: PASSWORD } });
    browser = await launchChromium();
    browser.page.on('pageerror', (e) => problems.push(e.message));
    browser.page.on('console', (m) => {
      // The 401 of a failed login is logged by the browser as a failed resource; nothing else may be.
      if (m.type() === 'error' && !/status of 401/.test(m.text())) problems.push(m.text());
    });
  });
  after(async () => {
    await browser?.close();
    await catalogue?.stop();
  });

  test('a visitor is offered the login link, and a wrong password is told without saying which part', async () => {
    const { page } = browser;
    await page.goto(`${catalogue.url}/dataset/plate-reader-01/upload`);
    assert.equal(await page.locator('a.account').innerText(), 'Log in');
    await page.goto(`${catalogue.url}/user/login?next=/dataset/plate-reader-01/upload`);
    await page.getByLabel('User name').fill('ada');
    await page.getByLabel('Password').fill('not the password');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith('/user/login') && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    assert.equal(response.status(), 401);
    assert.equal(await page.getByRole('alert').innerText(), 'The user name or the password is wrong.');
    assert.equal(await page.getByLabel('User name').inputValue(), 'ada');
    assert.equal(await page.getByLabel('Password').inputValue(), '');
  });

  test('the right password leads back to the page asked for, signed in', async () => {
    const { page } = browser;
    await page.goto(`${catalogue.url}/user/login?next=/dataset/plate-reader-01/upload`);
    await page.getByLabel('User name').fill('ada');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${catalogue.url}/dataset/plate-reader-01/upload`);
    assert.match(await page.locator('form.account').innerText(), /Signed in as ada/);
    const cookies = await page.context().cookies(catalogue.url);
    const session = cookies.find((c) => c.name === 'labld_session');
    assert.equal(session?.httpOnly, true);
    assert.equal(session?.sameSite, 'Lax');
    assert.equal(session?.path, '/');
    assert.equal(await page.evaluate('document.cookie'), '', 'no script can read the session or CSRF cookie');
    await page.screenshot({ path: join(SCREENSHOTS, 'logged-in.png'), fullPage: true });
  });

  test('the upload (XMLHttpRequest) carries the session’s CSRF token and is accepted', async () => {
    const { page } = browser;
    await page.getByLabel(/^File/).setInputFiles({
      name: 'after-login.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('sample,temperature\nS-1,20.5\n'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('#upload-status', { hasText: 'Upload complete.' }).waitFor({ timeout: 30_000 });
    const stored = await api(catalogue.url, 'package_show', { query: { id: 'plate-reader-01' } });
    const names = (stored.body.result.resources as { name: string }[]).map((r) => r.name);
    assert.deepEqual(
      names.filter((name) => name === 'after-login.csv'),
      ['after-login.csv'],
    );
  });

  test('logging out ends the session: the header offers the login again and the session row is gone', async () => {
    const { page } = browser;
    const before = (await page.context().cookies(catalogue.url)).find((c) => c.name === 'labld_session');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${catalogue.url}/`);
    assert.equal(await page.locator('a.account').innerText(), 'Log in');
    const cookies = await page.context().cookies(catalogue.url);
    assert.equal(
      cookies.find((c) => c.name === 'labld_session'),
      undefined,
    );
    const store = await openCatalogueStore({ dataDir: catalogue.dataDir });
    try {
      assert.equal(await store.findLiveSession(hashSessionId(before!.value)), undefined);
    } finally {
      await store.close();
    }
  });

  test('no page logged an error or a Content-Security-Policy violation', () => {
    assert.deepEqual(problems, []);
  });
});
