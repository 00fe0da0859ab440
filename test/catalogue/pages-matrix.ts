// The authorization matrix of the catalogue's pages on a whole labld: {anonymous, reader,
// editor, admin, other user, sysadmin} × {public, private} × every page that reads or changes a
// dataset, against the rules written at the top of lib/catalogue/auth/authorize.ts — restated
// here as the statuses a browser gets, independently of the code's table. Run on the embedded
// store (pages-matrix.e2e.test.ts) and on PostgreSQL (pages-matrix.postgres.ts).
import assert from 'node:assert/strict';
import { before, after, describe, test } from 'node:test';
import { hashPassword } from '../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { annotateDeadLetter, api } from './actions/support.ts';
import { CookieJar, csrfOf, getPage, logIn, postForm } from './support/login.ts';

export interface MatrixLabld {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

const PASSWORD = 'the matrix has long passwords';
const WHO = ['anonymous', 'reader', 'editor', 'admin', 'other', 'sysadmin'] as const;
type Who = (typeof WHO)[number];
type Visibility = 'public' | 'private';

/** What a browser gets for a page that reads the dataset. */
function readStatus(who: Who, visibility: Visibility): number {
  if (visibility === 'public') return 200;
  return who === 'anonymous' || who === 'other' ? 404 : 200;
}

/** What a browser gets for a change to the dataset (editor and up), `ok` when allowed. */
function writeStatus(who: Who, visibility: Visibility, ok: number): number {
  if (who === 'anonymous') return 401;
  if (who === 'editor' || who === 'admin' || who === 'sysadmin') return ok;
  if (who === 'other' && visibility === 'private') return 404; // it must not learn that it exists
  return 403;
}

/** What a browser gets for a change only the dataset's admins may make, `ok` when allowed. */
function adminStatus(who: Who, visibility: Visibility, ok: number): number {
  if (who === 'admin' || who === 'sysadmin') return ok;
  return who === 'editor' ? 403 : writeStatus(who, visibility, ok);
}

interface Seeded {
  jars: Map<Who, CookieJar>;
  resources: Map<Visibility, string>;
}

/** The dead letter each person tries to replay (one each: a replay removes it). */
const deadLetterId = (visibility: Visibility, who: Who) => `matrix/${visibility}/${who}`;

/** A dead letter of the resource's annotate step for each person to replay. */
async function seedDeadLetters(labld: MatrixLabld, resources: Map<Visibility, string>): Promise<void> {
  const store = await openCatalogueStore({
    dataDir: labld.dataDir,
    databaseUrl: process.env['LABLD_DATABASE_URL'] ?? '',
  });
  try {
    for (const [visibility, resourceId] of resources) {
      const resource = (await store.getResource(resourceId))!;
      for (const who of WHO) {
        await store.addDeadLetter(
          annotateDeadLetter(deadLetterId(visibility, who), resource, 'an-old-run', 'rows.csv'),
        );
      }
    }
  } finally {
    await store.close();
  }
}

async function seed(labld: MatrixLabld): Promise<Seeded> {
  const store = await openCatalogueStore({
    dataDir: labld.dataDir,
    databaseUrl: process.env['LABLD_DATABASE_URL'] ?? '',
  });
  const hash = await hashPassword(PASSWORD);
  const owner = createToken();
  try {
    for (const who of WHO) {
      if (who === 'anonymous') continue;
      await store.createUser({ name: who, password_hash: hash, sysadmin: who === 'sysadmin' });
    }
    const ownerUser = await store.createUser({ name: 'owner', password_hash: hash });
    await store.createToken({ user_id: ownerUser.id, name: 'seed', token_hash: owner.hash });
  } finally {
    await store.close();
  }
  const auth = { authorization: owner.token };
  const resources = new Map<Visibility, string>();
  for (const visibility of ['public', 'private'] as const) {
    const made = await api(labld.url, 'package_create', {
      body: { name: `${visibility}-set`, private: visibility === 'private' },
      headers: auth,
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    for (const role of ['reader', 'editor', 'admin'] as const) {
      const member = await api(labld.url, 'package_collaborator_create', {
        body: { id: `${visibility}-set`, user_id: role, capacity: role === 'reader' ? 'member' : role },
        headers: auth,
      });
      assert.equal(member.status, 200, JSON.stringify(member.body));
    }
    const form = new FormData();
    form.set('package_id', `${visibility}-set`);
    form.set('upload', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'rows.csv');
    const resource = await api(labld.url, 'resource_create', { form, headers: auth });
    assert.equal(resource.status, 200, JSON.stringify(resource.body));
    resources.set(visibility, resource.body.result.id as string);
  }
  await seedDeadLetters(labld, resources);
  const jars = new Map<Who, CookieJar>();
  for (const who of WHO) {
    if (who === 'anonymous') {
      jars.set(who, new CookieJar());
      continue;
    }
    const { response, jar } = await logIn(labld.url, who, PASSWORD);
    assert.equal(response.status, 303, `${who} logs in`);
    jars.set(who, jar);
  }
  return { jars, resources };
}

/** A CSRF token for the jar's session (or pre-session), from a page that always carries a form. */
export async function csrf(base: string, jar: CookieJar): Promise<string> {
  return csrfOf((await getPage(`${base}/user/login`, jar)).html);
}

export function pagesMatrix(name: string, start: () => Promise<MatrixLabld>): void {
  describe(`catalogue pages authorization matrix: ${name}`, () => {
    let labld: MatrixLabld;
    let seeded: Seeded;
    before(async () => {
      labld = await start();
      seeded = await seed(labld);
    });
    after(() => labld?.stop());

    for (const visibility of ['public', 'private'] as const) {
      const dataset = `/dataset/${visibility}-set`;
      for (const who of WHO) {
        test(`${who} × ${visibility}: reads`, async () => {
          const jar = seeded.jars.get(who)!;
          const resource = `${dataset}/resource/${seeded.resources.get(visibility)}`;
          const expected = readStatus(who, visibility);
          for (const path of [dataset, resource]) {
            assert.equal((await getPage(`${labld.url}${path}`, jar)).status, expected, path);
          }
          const download = await fetch(`${labld.url}${resource}/download`, {
            headers: { cookie: jar.header() },
          });
          assert.equal(download.status, expected, 'download');
          const listed = (await getPage(`${labld.url}/dataset`, jar)).html.includes(`${visibility}-set`);
          assert.equal(listed, expected === 200, 'in the dataset list');
        });

        test(`${who} × ${visibility}: the upload form and an upload`, async () => {
          const jar = seeded.jars.get(who)!;
          const form = await getPage(`${labld.url}${dataset}/upload`, jar);
          assert.equal(form.status, writeStatus(who, visibility, 200), 'the form');
          const body = new FormData();
          body.set('_csrf', await csrf(labld.url, jar));
          body.set('file', new Blob(['x\n1\n'], { type: 'text/csv' }), `by-${who}.csv`);
          const posted = await fetch(`${labld.url}${dataset}/upload`, {
            method: 'POST',
            body,
            redirect: 'manual',
            headers: { cookie: jar.header(), origin: labld.url, accept: 'text/html' },
          });
          assert.equal(posted.status, writeStatus(who, visibility, 303), 'the post');
        });
      }
    }

    for (const visibility of ['public', 'private'] as const) {
      const dataset = `/dataset/${visibility}-set`;
      for (const who of WHO) {
        test(`${who} × ${visibility}: the Automation section, Retry, the dead letters and Replay`, async () => {
          const jar = seeded.jars.get(who)!;
          const section = await getPage(`${labld.url}${dataset}/automation`, jar);
          assert.equal(section.status, readStatus(who, visibility), 'the section');
          const admin = who === 'admin' || who === 'sysadmin';
          if (section.status === 200) {
            assert.equal(section.html.includes('Dead letters'), admin, 'dead letters shown to admins only');
            assert.equal(section.html.includes(deadLetterId(visibility, who)), admin);
          }
          const resource_id = seeded.resources.get(visibility)!;
          // The step is not failed: an editor is let through and told so (409), others are refused.
          const retry = await postForm(`${labld.url}${dataset}/automation/retry`, jar, {
            _csrf: await csrf(labld.url, jar),
            resource_id,
            step: 'annotate',
          });
          assert.equal(retry.status, writeStatus(who, visibility, 409), 'retry');
          const replay = await postForm(`${labld.url}${dataset}/dead-letters/replay`, jar, {
            _csrf: await csrf(labld.url, jar),
            id: deadLetterId(visibility, who),
          });
          assert.equal(replay.status, adminStatus(who, visibility, 303), 'replay');
          if (admin) {
            const after = await getPage(`${labld.url}${dataset}/automation`, jar);
            assert.ok(
              !after.html.includes(deadLetterId(visibility, who)),
              'a replayed dead letter leaves the list',
            );
          }
          // Without the CSRF token nobody replays anything.
          const forged = await postForm(`${labld.url}${dataset}/dead-letters/replay`, jar, {
            id: deadLetterId(visibility, 'admin'),
          });
          assert.equal(forged.status, 403, 'no CSRF token');
        });
      }
    }

    for (const who of WHO) {
      test(`${who}: making a dataset and the token page need a login`, async () => {
        const jar = seeded.jars.get(who)!;
        const loggedIn = who !== 'anonymous';
        assert.equal((await getPage(`${labld.url}/dataset/new`, jar)).status, loggedIn ? 200 : 401);
        const made = await postForm(`${labld.url}/dataset/new`, jar, {
          _csrf: await csrf(labld.url, jar),
          name: `made-by-${who}`,
        });
        assert.equal(made.status, loggedIn ? 303 : 401);
        assert.equal((await getPage(`${labld.url}/user/tokens`, jar)).status, loggedIn ? 200 : 401);
      });
    }
  });
}
