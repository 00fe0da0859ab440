// The allow list's rules: a host entry admits URLs naming that host (on its port, if given),
// an IP or CIDR entry admits URLs written with an IP in it (on its port) but no name resolving
// there, redirects are judged hop by hop the same way, and labld's own socket is never dialled.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { parseAllowList, refusal } from '../../lib/fetch/address-policy.ts';
import { guardedFetch } from '../../lib/fetch/guarded-fetch.ts';
import { noteListening } from '../../lib/fetch/own-address.ts';
import { rejectsWith, serve, tableResolver, testPolicy, type TestServer } from './helpers.ts';

let files: TestServer;
/** Stands in for labld's own /metrics: registered as this process's listening socket. */
let self: TestServer;
let forgetSelf: () => void;

before(async () => {
  self = await serve((_req, res) => res.end('labld_internal_metric 1'));
  forgetSelf = noteListening('127.0.0.1', self.port);
  files = await serve((req, res) => {
    const target = new URL(req.url ?? '/', 'http://x').searchParams.get('u');
    if (target) {
      res.statusCode = 302;
      res.setHeader('location', target);
      return void res.end();
    }
    res.end('lab data');
  });
});
after(async () => {
  forgetSelf();
  await files.close();
  await self.close();
});

const names = tableResolver({
  localhost: ['127.0.0.1'],
  'files.lab.test': ['127.0.0.1'],
  'a.lab.test': ['127.0.0.1'],
  'lab.test': ['127.0.0.1'],
});
const policy = (allow: string) => testPolicy({ allow, resolve: names });
const fetchText = async (url: string, allow: string) =>
  (await guardedFetch(url, { field: 'data_url', policy: policy(allow) })).text();

test('an IP entry admits URLs written with that IP, not a name that resolves to it', async () => {
  assert.equal(await fetchText(`http://127.0.0.1:${files.port}/x`, '127.0.0.1'), 'lab data');
  await rejectsWith(
    guardedFetch(`http://files.lab.test:${files.port}/x`, {
      field: 'data_url',
      policy: policy('127.0.0.0/8'),
    }),
    'forbidden',
    'address 127.0.0.1 is loopback (allow the name files.lab.test with LABLD_FETCH_ALLOW: an IP entry admits only URLs written with that IP)',
  );
});

test('a host entry admits that name (any case) on any port, and no other name', async () => {
  assert.equal(await fetchText(`http://FILES.lab.test:${files.port}/x`, 'files.lab.test'), 'lab data');
  await rejectsWith(
    guardedFetch(`http://lab.test:${files.port}/x`, { field: 'data_url', policy: policy('files.lab.test') }),
    'forbidden',
    'is loopback (allow it with LABLD_FETCH_ALLOW)',
  );
});

test('host:port and ip:port entries admit that port only, and say so', async () => {
  assert.equal(
    await fetchText(`http://files.lab.test:${files.port}/`, `files.lab.test:${files.port}`),
    'lab data',
  );
  assert.equal(await fetchText(`http://127.0.0.1:${files.port}/`, `127.0.0.1:${files.port}`), 'lab data');
  await rejectsWith(
    guardedFetch(`http://files.lab.test:${files.port}/`, {
      field: 'data_url',
      policy: policy('files.lab.test:1'),
    }),
    'forbidden',
    `LABLD_FETCH_ALLOW allows files.lab.test on other ports only, not ${files.port}`,
  );
  await rejectsWith(
    guardedFetch(`http://127.0.0.1:${files.port}/`, { field: 'data_url', policy: policy('127.0.0.1:1') }),
    'forbidden',
    `LABLD_FETCH_ALLOW allows this address on other ports only, not ${files.port}`,
  );
  // The scheme's default port counts as the URL's port.
  const at80 = parseAllowList('files.lab.test:80');
  assert.equal(refusal(at80, { host: 'files.lab.test', port: 80 }, '10.0.0.1'), undefined);
});

test('*.suffix admits names below the suffix only', async () => {
  assert.equal(await fetchText(`http://a.lab.test:${files.port}/`, '*.lab.test'), 'lab data');
  await rejectsWith(
    guardedFetch(`http://lab.test:${files.port}/`, { field: 'data_url', policy: policy('*.lab.test') }),
    'forbidden',
  );
});

test('a redirect is judged by the same rules: another port of an allowed host is refused', async () => {
  const allow = `localhost:${files.port}`;
  const sameOrigin = `http://localhost:${files.port}/data.csv`;
  const start = (hop: string) => `http://localhost:${files.port}/?u=${encodeURIComponent(hop)}`;
  assert.equal(await fetchText(start(sameOrigin), allow), 'lab data');
  const elsewhere = 'http://localhost:1/metrics'; // refused before any connection is tried
  await rejectsWith(
    guardedFetch(start(elsewhere), { field: 'data_url', policy: policy(allow) }),
    'forbidden',
    `redirected to ${elsewhere}`,
    'LABLD_FETCH_ALLOW allows localhost on other ports only, not 1',
  );
});

test("labld's own listening socket is refused whatever the allow list says, directly or by a redirect", async () => {
  for (const allow of ['127.0.0.0/8', 'localhost', `localhost:${self.port},127.0.0.1:${self.port}`]) {
    for (const url of [`http://127.0.0.1:${self.port}/metrics`, `http://localhost:${self.port}/metrics`]) {
      await rejectsWith(
        guardedFetch(url, { field: 'data_url', policy: policy(allow) }),
        'forbidden',
        'is labld itself',
      );
    }
    const viaRedirect = `http://127.0.0.1:${files.port}/?u=${encodeURIComponent(`http://localhost:${self.port}/metrics`)}`;
    await rejectsWith(
      guardedFetch(viaRedirect, { field: 'data_url', policy: policy(`${allow},127.0.0.1:${files.port}`) }),
      'forbidden',
      'is labld itself',
    );
  }
});

const privateV4 = fc
  .tuple(fc.constantFrom(10, 127, 192), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
  .map(([a, b, c, d]) => (a === 192 ? `192.168.${c}.${d}` : `${a}.${b}.${c}.${d}`));
const port = fc.integer({ min: 1, max: 65535 });

test('property: an IP entry (single or CIDR) never admits a name, and admits its literal on its port only', () => {
  fc.assert(
    fc.property(privateV4, port, port, fc.boolean(), (ip, allowed, asked, cidr) => {
      const entry = cidr ? `${ip.split('.').slice(0, 2).join('.')}.0.0/16` : `${ip}:${allowed}`;
      const allow = parseAllowList(entry);
      assert.notEqual(refusal(allow, { host: 'some.name.test', port: asked }, ip), undefined, entry);
      const literal = refusal(allow, { host: ip, port: asked }, ip);
      assert.equal(literal === undefined, cidr || asked === allowed, `${entry} ${asked}`);
    }),
    { numRuns: 500 },
  );
});

test('property: a host entry admits exactly its name, on its port when it has one', () => {
  const label = fc.stringMatching(/^[a-z][a-z0-9]{0,8}$/);
  fc.assert(
    fc.property(
      label,
      label,
      fc.option(port, { nil: undefined }),
      port,
      privateV4,
      (name, other, allowed, asked, ip) => {
        const host = `${name}.lab.test`;
        const allow = parseAllowList(allowed === undefined ? host : `${host}:${allowed}`);
        const ok = allowed === undefined || allowed === asked;
        assert.equal(refusal(allow, { host, port: asked }, ip) === undefined, ok);
        if (other !== name)
          assert.notEqual(refusal(allow, { host: `${other}.lab.test`, port: asked }, ip), undefined);
        assert.notEqual(
          refusal(allow, { host: ip, port: asked }, ip),
          undefined,
          'the literal is not the name',
        );
      },
    ),
    { numRuns: 500 },
  );
});
