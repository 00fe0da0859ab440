// Schemes, address ranges and the allow list: what may be fetched without any upstream.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deniedReason, parseAllowList, refusal } from '../../lib/fetch/address-policy.ts';
import { guardedFetch, makePolicy, policyFromEnv, systemResolver } from '../../lib/fetch/guarded-fetch.ts';
import { rejectsWith, serve, tableResolver, testPolicy, type TestServer } from './helpers.ts';

let server: TestServer;
before(async () => {
  server = await serve((_req, res) => res.end('ok'));
});
after(() => server.close());

// Nothing allowed, no real DNS: the production default without the network.
const strict = (): ReturnType<typeof testPolicy> => testPolicy({ allow: '' });

test('only http and https are fetched', async () => {
  for (const url of [
    'file:///etc/passwd',
    'data:text/csv,a,b',
    'ftp://example.org/x.csv',
    'javascript:alert(1)',
    'gopher://example.org/',
    'ws://example.org/',
    'blob:http://example.org/x',
  ]) {
    const scheme = new URL(url).protocol;
    await rejectsWith(
      guardedFetch(url, { field: 'data_url', policy: strict() }),
      'malformed',
      `data_url: ${url} refused: scheme ${scheme} is not allowed (only http and https)`,
    );
  }
});

test('a string that is not a URL is a 400', async () => {
  for (const url of ['', 'not a url', '/relative/path.csv', 'http://', 'http://[::1', 'http://a b/']) {
    await rejectsWith(
      guardedFetch(url, { field: 'template_url', policy: strict() }),
      'malformed',
      `template_url: ${JSON.stringify(url)} refused: not a valid URL`,
    );
  }
});

test('loopback is refused without an allow list, with the documented wording', async () => {
  await rejectsWith(guardedFetch('http://127.0.0.1/x', { field: 'data_url', policy: strict() }), 'forbidden');
  await assert.rejects(guardedFetch('http://127.0.0.1/x', { field: 'data_url', policy: strict() }), {
    message:
      'data_url: http://127.0.0.1/x refused: address 127.0.0.1 is loopback (allow it with LABLD_FETCH_ALLOW)',
  });
});

test('the name localhost is refused once resolved to loopback', async () => {
  const policy = testPolicy({ allow: '', resolve: systemResolver });
  await rejectsWith(
    guardedFetch(`http://localhost:${server.port}/`, { field: 'data_url', policy }),
    'forbidden',
    `data_url: http://localhost:${server.port}/ refused: address `,
    'is loopback',
  );
});

test('a name is judged by every address it resolves to', async () => {
  const policy = testPolicy({
    allow: '',
    resolve: tableResolver({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] }),
  });
  await rejectsWith(
    guardedFetch('http://mixed.test/', { field: 'data_url', policy }),
    'forbidden',
    'is loopback',
  );
});

test('other spellings of loopback are refused: decimal, octal, hex, short, IPv4-mapped IPv6', async () => {
  for (const url of [
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0.0.1/',
    'http://0x7f000001/',
    'http://127.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://localhost./',
    'http://127.0.0.1.:80/',
  ]) {
    const policy = testPolicy({ allow: '', resolve: tableResolver({ localhost: ['127.0.0.1'] }) });
    await rejectsWith(guardedFetch(url, { field: 'data_url', policy }), 'forbidden', 'is loopback');
  }
});

test('private, link-local, CGNAT, unspecified, multicast, broadcast and reserved are refused', async () => {
  const cases: Array<[string, string]> = [
    ['http://10.0.0.1/', 'private'],
    ['http://172.16.5.4/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://[fc00::1]/', 'private'],
    ['http://[fd12:3456::1]/', 'private'],
    ['http://169.254.1.1/', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://0/', 'unspecified'],
    ['http://[::]/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
    ['http://[ff02::1]/', 'multicast'],
    ['http://255.255.255.255/', 'broadcast'],
    ['http://240.0.0.1/', 'reserved'],
    ['http://192.0.2.1/', 'reserved'],
    ['http://[2001:db8::1]/', 'reserved'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://[::ffff:169.254.169.254]/', 'a cloud metadata address'],
    ['http://[64:ff9b::a00:1]/', 'private (through NAT64)'],
    ['http://[2002:7f00:1::]/', 'loopback (through 6to4)'],
    ['http://[::7f00:1]/', 'reserved'],
  ];
  for (const [url, reason] of cases) {
    await rejectsWith(
      guardedFetch(url, { field: 'data_url', policy: strict() }),
      'forbidden',
      ` is ${reason} (`,
    );
  }
});

test('cloud metadata addresses are refused even under a broad allow list', async () => {
  const broad = testPolicy({ allow: '0.0.0.0/0,169.254.0.0/16,::/0,fd00::/8' });
  for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/']) {
    await rejectsWith(
      guardedFetch(url, { field: 'metadata_url', policy: broad }),
      'forbidden',
      'is a cloud metadata address (allow it only by listing the exact address in LABLD_FETCH_ALLOW and naming it in the URL)',
    );
  }
  // Only naming the exact address opens it (checked without dialling it).
  const exact = parseAllowList('169.254.169.254,fd00:ec2::254/128');
  const at = (host: string) => ({ host, port: 80 });
  assert.equal(refusal(exact, at('169.254.169.254'), '169.254.169.254'), undefined);
  assert.equal(refusal(exact, at('fd00:ec2::254'), 'fd00:ec2::254'), undefined);
  // A name never opens it, neither by a host entry nor by the exact IP entry.
  assert.notEqual(
    refusal(parseAllowList('metadata.test'), at('metadata.test'), '169.254.169.254'),
    undefined,
  );
  assert.notEqual(refusal(exact, at('metadata.test'), '169.254.169.254'), undefined);
});

test('allow by CIDR', async () => {
  const res = await guardedFetch(`${server.origin}/`, {
    field: 'data_url',
    policy: testPolicy({ allow: '10.0.0.0/8, 127.0.0.0/8' }),
  });
  assert.equal(await res.text(), 'ok');
  await rejectsWith(
    guardedFetch(`${server.origin}/`, { field: 'data_url', policy: testPolicy({ allow: '127.0.0.2/32' }) }),
    'forbidden',
  );
});

test('allow by host name, which admits only that name', async () => {
  const resolve = tableResolver({ 'files.lab.test': ['127.0.0.1'], 'other.test': ['127.0.0.1'] });
  const policy = testPolicy({ allow: 'Files.Lab.Test.', resolve });
  const res = await guardedFetch(`http://files.lab.test:${server.port}/`, { field: 'data_url', policy });
  assert.equal(await res.text(), 'ok');
  await rejectsWith(
    guardedFetch(`http://other.test:${server.port}/`, { field: 'data_url', policy }),
    'forbidden',
    'address 127.0.0.1 is loopback',
  );
});

test('allow localhost by name, resolved by the system (IPv6 first is fine)', async () => {
  const policy = testPolicy({ allow: 'localhost', resolve: systemResolver });
  const res = await guardedFetch(`http://localhost:${server.port}/`, { field: 'data_url', policy });
  assert.equal(await res.text(), 'ok');
});

test('public addresses are not denied', () => {
  for (const ip of [
    '8.8.8.8',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '64:ff9b::808:808',
    '::ffff:1.1.1.1',
  ]) {
    assert.equal(deniedReason(ip), undefined, ip);
  }
  assert.equal(deniedReason('2130706433'), 'not a valid IP address');
});

test('the allow list parses hosts, IPs and CIDRs, each with an optional port, and rejects nonsense', () => {
  const allow = parseAllowList(
    ' localhost , files.lab.example:8080,*.lab.test,10.0.0.0/8,::1/128,[::1],[::1]:9000,127.0.0.1:81,127.0.0.1/32,2130706433',
  );
  assert.deepEqual(allow.hosts, [
    { host: 'localhost', subdomains: false, port: undefined },
    { host: 'files.lab.example', subdomains: false, port: 8080 },
    { host: 'lab.test', subdomains: true, port: undefined },
  ]);
  assert.deepEqual(
    allow.ranges.map((r) => [r.net.toString(), r.bits, r.port]),
    [
      ['10.0.0.0', 8, undefined],
      ['::1', 128, undefined],
      ['::1', 128, undefined],
      ['::1', 128, 9000],
      ['127.0.0.1', 32, 81],
      ['127.0.0.1', 32, undefined],
      ['127.0.0.1', 32, undefined],
    ],
  );
  assert.equal(parseAllowList('').ranges.length, 0);
  for (const bad of [
    '10.0.0.0/33',
    '::1/129',
    'http://x',
    'a b',
    'x/8',
    '10.0.0.0/',
    'user@host',
    'host:0',
    'host:65536',
    'host:',
    'host:http',
    '[::1]:',
    '[localhost]:80',
    '*.127.0.0.1',
    '*',
    'a.*.b',
  ]) {
    assert.throws(() => parseAllowList(bad), /LABLD_FETCH_ALLOW/, bad);
  }
});

test('policyFromEnv reads the LABLD_FETCH_* settings and their defaults', () => {
  const defaults = policyFromEnv({});
  assert.equal(defaults.timeoutMs, 30000);
  assert.equal(defaults.connectTimeoutMs, 5000);
  assert.equal(defaults.maxBytes, 1073741824);
  assert.equal(defaults.maxRedirects, 5);
  assert.equal(defaults.allow.ranges.length + defaults.allow.hosts.length, 0);
  const set = policyFromEnv({
    LABLD_FETCH_ALLOW: 'localhost,10.0.0.0/8',
    LABLD_FETCH_TIMEOUT_MS: '100',
    LABLD_FETCH_CONNECT_TIMEOUT_MS: '50',
    LABLD_FETCH_MAX_BYTES: '10mb',
    LABLD_FETCH_MAX_REDIRECTS: '0',
  });
  assert.deepEqual(
    [
      set.timeoutMs,
      set.connectTimeoutMs,
      set.maxBytes,
      set.maxRedirects,
      set.allow.hosts.some((h) => h.host === 'localhost'),
    ],
    [100, 50, 10 * 1024 * 1024, 0, true],
  );
  assert.throws(() => policyFromEnv({ LABLD_FETCH_ALLOW: 'not/valid' }), /LABLD_FETCH_ALLOW/);
  assert.equal(makePolicy({ maxBytes: 5 }).maxBytes, 5);
});
