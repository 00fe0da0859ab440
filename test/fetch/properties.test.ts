// Properties: whatever string a client sends, the fetch answers with a result or a DomainError
// (never a crash, never a credential in the text); every address in a denied range is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from '../support/fc.ts';
import { DomainError, isErrorKind } from '../../lib/process/errors.ts';
import { deniedReason } from '../../lib/fetch/address-policy.ts';
import { guardedFetch } from '../../lib/fetch/guarded-fetch.ts';
import { tableResolver, testPolicy } from './helpers.ts';

// Nothing allowed and no real DNS, so no generated URL can leave the machine.
const policy = testPolicy({ allow: '', timeoutMs: 500, connectTimeoutMs: 200 });

async function outcome(url: string): Promise<'ok' | DomainError> {
  try {
    const res = await guardedFetch(url, { field: 'data_url', policy });
    res.body.destroy();
    return 'ok';
  } catch (error) {
    assert.ok(error instanceof DomainError, `${JSON.stringify(url)} threw ${String(error)}`);
    assert.ok(isErrorKind(error.kind), error.kind);
    assert.ok(error.message.startsWith('data_url: '), error.message);
    return error;
  }
}

const scheme = fc.constantFrom(
  'http://',
  'https://',
  'HTTP://',
  'file://',
  'ftp://',
  'data:',
  'javascript:',
  '',
);
const host = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.ipV4Extended(),
  fc.ipV6().map((ip) => `[${ip}]`),
  fc.constantFrom('localhost', '127.1', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]', '0', '%31%32%37.0.0.1'),
  fc.string({ maxLength: 20 }),
);
const urlish = fc
  .tuple(
    scheme,
    fc.option(fc.constantFrom('user:secret@', 'user@', ':secret@'), { nil: '' }),
    host,
    fc.option(
      fc.integer({ min: 0, max: 70000 }).map((p) => `:${p}`),
      { nil: '' },
    ),
    fc.string({ maxLength: 30 }),
  )
  .map(([s, auth, h, port, rest]) => `${s}${auth}${h}${port}/${rest}`);

test('any string gives a result or a DomainError, never a crash or a leaked password', async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.string(), fc.webUrl(), urlish), async (url) => {
      const result = await outcome(url);
      // Only an authority (after //) holds credentials; `data:user:secret@x` is plain data.
      const authority = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
      if (result !== 'ok' && authority) assert.ok(!result.message.includes('secret'), result.message);
    }),
    { numRuns: 400 },
  );
});

/** A random address inside a CIDR, as text. */
function inRange(base: bigint, bits: number, width: 32 | 128, random: bigint): bigint {
  const hostBits = BigInt(width - bits);
  const mask = (1n << hostBits) - 1n;
  return (base & ~mask) | (random & mask);
}

const v4Text = (n: bigint): string => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
const v6Text = (n: bigint): string =>
  Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
const v4 = (text: string): bigint => text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(part), 0n);

const DENIED_V4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const DENIED_V6: Array<[bigint, number]> = [
  [0n, 96], // unspecified, loopback, IPv4-compatible
  [0xfc00n << 112n, 7], // unique local
  [0xfe80n << 112n, 10], // link-local
  [0xfec0n << 112n, 10], // old site-local
  [0xff00n << 112n, 8], // multicast
  [0x20010db8n << 96n, 32], // documentation
  [0x0100n << 112n, 64], // discard
];

const deniedV4 = fc
  .tuple(fc.constantFrom(...DENIED_V4), fc.bigInt({ min: 0n, max: (1n << 32n) - 1n }))
  .map(([[base, bits], random]) => v4Text(inRange(v4(base), bits, 32, random)));
const deniedV6 = fc
  .tuple(fc.constantFrom(...DENIED_V6), fc.bigInt({ min: 0n, max: (1n << 128n) - 1n }))
  .map(([[base, bits], random]) => v6Text(inRange(base, bits, 128, random)));
const deniedAny = fc.oneof(
  deniedV4,
  deniedV6,
  deniedV4.map((ip) => `::ffff:${ip}`), // IPv4-mapped
  deniedV4.map((ip) => `64:ff9b::${ip}`), // NAT64
);

test('every address in a denied range is denied', () => {
  fc.assert(
    fc.property(deniedAny, (ip) => {
      assert.notEqual(deniedReason(ip), undefined, ip);
    }),
    { numRuns: 2000 },
  );
});

test('every denied address is refused with 403, as a literal and behind a name', async () => {
  await fc.assert(
    fc.asyncProperty(deniedAny, async (ip) => {
      const literal = await outcome(`http://${ip.includes(':') ? `[${ip}]` : ip}/x`);
      assert.ok(literal !== 'ok' && literal.kind === 'forbidden', `${ip}: ${String(literal)}`);
      const named = testPolicy({ allow: '', resolve: tableResolver({ 'h.test': [ip] }) });
      try {
        await guardedFetch('http://h.test/x', { field: 'data_url', policy: named });
        assert.fail(`${ip} behind a name was fetched`);
      } catch (error) {
        assert.ok(error instanceof DomainError && error.kind === 'forbidden', `${ip}: ${String(error)}`);
      }
    }),
    { numRuns: 300 },
  );
});
