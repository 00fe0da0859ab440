// The existence oracle, walked on a whole labld: for every request that addresses a dataset or a
// resource (oracle-probes.ts: every such action of the Action API, the pages, the SPARQL
// endpoint), anonymous and a logged-in user who is no member must get the same answer about a
// private dataset as about one that does not exist — the same status, type and body, where only
// the caller's own references may differ. Named by name and by id. Then the name-taken case: a
// name held by a private dataset is refused as a name that is unavailable for no dataset's sake.
// Run on the embedded store (oracle-matrix.e2e.test.ts) and on PostgreSQL (.postgres.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { hashPassword } from '../../lib/catalogue/auth/passwords.ts';
import { createToken } from '../../lib/catalogue/auth/tokens.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { annotateDeadLetter, api } from './actions/support.ts';
import { csrf, type MatrixLabld } from './pages-matrix.ts';
import { probes, type Caller, type Refs } from './oracle-probes.ts';
import { CookieJar, logIn, postForm } from './support/login.ts';

const PASSWORD = 'an oracle needs a long password';

interface Seeded {
  callers: Caller[];
  /** The other user's token, for the name-taken case. */
  other: string;
  hidden: { id: string; resource: string };
}

async function seed(labld: MatrixLabld): Promise<Seeded> {
  const store = await openCatalogueStore({
    dataDir: labld.dataDir,
    databaseUrl: process.env['LABLD_DATABASE_URL'] ?? '',
  });
  const owner = createToken();
  const other = createToken();
  try {
    const hash = await hashPassword(PASSWORD);
    const ownerUser = await store.createUser({ name: 'owner', password_hash: hash });
    const otherUser = await store.createUser({ name: 'other', password_hash: hash });
    await store.createToken({ user_id: ownerUser.id, name: 'seed', token_hash: owner.hash });
    await store.createToken({ user_id: otherUser.id, name: 'seed', token_hash: other.hash });
    // The `mappings` group is labld's, made at its first start.
    assert.ok(await store.getGroup('mappings'));
  } finally {
    await store.close();
  }
  const made: Record<string, string> = {};
  for (const [name, token, priv] of [
    ['secret-set', owner.token, true],
    ['open-set', owner.token, false],
    ['others-set', other.token, false],
  ] as const) {
    const answer = await api(labld.url, 'package_create', {
      body: { name, private: priv },
      headers: { authorization: token },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    made[name] = answer.body.result.id as string;
  }
  const form = new FormData();
  form.set('package_id', 'secret-set');
  form.set('upload', new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'rows.csv');
  const resource = await api(labld.url, 'resource_create', { form, headers: { authorization: owner.token } });
  assert.equal(resource.status, 200, JSON.stringify(resource.body));
  const hidden = { id: made['secret-set']!, resource: resource.body.result.id as string };
  await seedDeadLetter(labld, hidden);

  const anonymous = new CookieJar();
  const { response, jar } = await logIn(labld.url, 'other', PASSWORD);
  assert.equal(response.status, 303, 'other logs in');
  return {
    callers: [
      { name: 'anonymous', token: undefined, jar: anonymous, csrf: await csrf(labld.url, anonymous) },
      { name: 'other', token: other.token, jar, csrf: await csrf(labld.url, jar) },
    ],
    other: other.token,
    hidden,
  };
}

/** A dead letter of the private dataset's chain, for the probes that name one. */
async function seedDeadLetter(labld: MatrixLabld, hidden: { id: string; resource: string }): Promise<void> {
  const store = await openCatalogueStore({
    dataDir: labld.dataDir,
    databaseUrl: process.env['LABLD_DATABASE_URL'] ?? '',
  });
  try {
    const resource = { id: hidden.resource, package_id: hidden.id };
    await store.addDeadLetter(annotateDeadLetter('secret-letter', resource, 'an-old-run', 'rows.csv'));
  } finally {
    await store.close();
  }
}

/** Headers that differ from one answer to the next whatever was asked. */
const PER_ANSWER = new Set(['date', 'x-correlation-id']);

/** An answer as the caller sees it, with the caller's own references put back as placeholders. */
async function seen(response: Response, refs: Refs) {
  const placeholders = (text: string) =>
    Object.entries(refs).reduce((t, [key, value]) => t.replaceAll(value, `{${key}}`), text);
  const headers = [...response.headers]
    .filter(([name]) => !PER_ANSWER.has(name))
    .map(([name, value]) => `${name}: ${placeholders(value)}`);
  return { status: response.status, headers, body: placeholders(await response.text()) };
}

export function oracleMatrix(name: string, start: () => Promise<MatrixLabld>): void {
  describe(`a private dataset answers as a missing one: ${name}`, () => {
    let labld: MatrixLabld;
    let seeded: Seeded;
    before(async () => {
      labld = await start();
      seeded = await seed(labld);
    });
    after(() => labld?.stop());

    const missing = (dataset: string): Refs => ({
      dataset,
      resource: randomUUID(),
      deadLetter: 'absent-letter',
    });
    const pairs: [string, () => Refs, () => Refs][] = [
      [
        'by name',
        () => ({ dataset: 'secret-set', resource: seeded.hidden.resource, deadLetter: 'secret-letter' }),
        () => missing('absent-set'),
      ],
      [
        'by id',
        () => ({ dataset: seeded.hidden.id, resource: seeded.hidden.resource, deadLetter: 'secret-letter' }),
        () => missing(randomUUID()),
      ],
    ];
    for (const caller of ['anonymous', 'other'] as const) {
      for (const [by, hiddenRefs, missingRefs] of pairs) {
        for (const probe of probes()) {
          test(`${caller}, ${by}: ${probe.label}`, async () => {
            const who = seeded.callers.find((c) => c.name === caller)!;
            const refs = { hidden: hiddenRefs(), missing: missingRefs() };
            const hidden = await seen(await probe.send(labld.url, refs.hidden, who), refs.hidden);
            const absent = await seen(await probe.send(labld.url, refs.missing, who), refs.missing);
            assert.deepEqual(hidden, absent);
            assert.ok(hidden.status >= 400 && hidden.status < 500, `a refusal: ${hidden.status}`);
          });
        }
      }
    }

    test('a name held by a private dataset is refused as any unavailable name', async () => {
      const create = (name: string) =>
        api(labld.url, 'package_create', { body: { name }, headers: { authorization: seeded.other } });
      const rename = (name: string) =>
        api(labld.url, 'package_patch', {
          body: { id: 'others-set', name },
          headers: { authorization: seeded.other },
        });
      // A reserved word and a name in the form of an id say nothing of any dataset.
      const unused = [`new`, randomUUID()];
      for (const ask of [create, rename]) {
        const answers = [];
        for (const name of ['secret-set', 'open-set', seeded.hidden.id, ...unused]) {
          const answer = await ask(name);
          answers.push(
            JSON.stringify(answer.body).replaceAll(`\\"${name}\\"`, '{name}') + ` ${answer.status}`,
          );
        }
        assert.equal(new Set(answers).size, 1, answers.join('\n'));
        assert.match(answers[0]!, /"__type":"Validation Error","name":\[/);
        assert.match(answers[0]!, / 409$/);
      }
      // The form that makes a dataset says the same.
      const { jar, csrf: _csrf } = seeded.callers.find((c) => c.name === 'other')!;
      const pages = [];
      for (const name of ['secret-set', ...unused]) {
        const posted = await postForm(`${labld.url}/dataset/new`, jar, { _csrf, name });
        const html = (await posted.text())
          .replaceAll(`&quot;${name}&quot;`, '{name}')
          .replaceAll(`value="${name}"`, 'value="{name}"');
        pages.push(`${posted.status} ${html}`);
      }
      assert.equal(new Set(pages).size, 1, pages.join('\n\n'));
    });
  });
}
