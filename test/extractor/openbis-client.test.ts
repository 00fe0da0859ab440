// The openBIS client against the openBIS test double: sessions, gets keyed by the requested id,
// Jackson back-references, the data store, and the double's failure switches.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { decodeJackson, encodeJackson, type Json } from '../../lib/extractor/openbis/jackson.ts';
import {
  ID_TYPES,
  OpenbisClient,
  idDto,
  openbisPolicy,
  openbisUrl,
} from '../../lib/extractor/openbis/client.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';

const OBJECT = '20230531140916169-35';
const DATASET = '20240904142300681-40';

describe('openBIS client against the test double', () => {
  let double: OpenbisDouble;
  let client: OpenbisClient;
  let token: string;

  before(async () => {
    double = await startOpenbisDouble();
    client = new OpenbisClient({ url: double.origin });
    token = (await client.login('admin', 'changeit')) ?? '';
  });
  after(() => double.close());

  it('logs in, checks and ends sessions; a wrong password gives no token', async () => {
    assert.match(token, /^admin-[0-9a-f]{24}$/);
    assert.equal(await client.login('admin', 'wrong'), null);
    const other = await client.login('observer', 'observer-pass');
    assert.ok(other);
    assert.equal(await client.isSessionActive(other), true);
    await client.logout(other);
    assert.equal(await client.isSessionActive(other), false);
    assert.equal(await client.isSessionActive('nobody-123'), false);
  });

  it('gets a sample by permId and by identifier; back-references are resolved to one object', async () => {
    const byPerm = await client.getOne('getSamples', token, idDto(ID_TYPES.sample, OBJECT));
    assert.ok(byPerm);
    assert.equal(byPerm['code'], 'EMODUL_ING9');
    // registrator and modifier are one person: the double sends the second as a number.
    assert.equal(typeof byPerm['registrator'], 'object');
    assert.equal(byPerm['registrator'], byPerm['modifier']);
    const map = await client.get('getSamples', token, [
      idDto(ID_TYPES.sampleIdentifier, '/EMODUL/LEBEDIGITAL/EMODUL_ING9'),
    ]);
    assert.deepEqual(Object.keys(map), ['/EMODUL/LEBEDIGITAL/EMODUL_ING9']);
  });

  it('answers an unknown id with an empty map, never an error', async () => {
    assert.deepEqual(await client.get('getSamples', token, [idDto(ID_TYPES.sample, 'NOPE-1')]), {});
    assert.equal(await client.getOne('getSpaces', token, idDto(ID_TYPES.space, 'NOPE')), undefined);
  });

  it('lists spaces, finds text globally, and the data store lists and serves files', async () => {
    const spaces = await client.searchSpaces(token);
    assert.ok(spaces.some((s) => s['code'] === 'EMODUL'));
    const hits = await client.searchGlobally(token, 'admixture');
    assert.ok(hits.some((h) => (h['sample'] as Record<string, Json>)['code'] === 'EMODUL_ING9'));
    const files = await client.searchFiles(double.origin, token, DATASET);
    const file = files.find((f) => f['path'] === 'original/markdown_demo.md');
    assert.ok(file);
    assert.equal(file['fileLength'], 4566);
    assert.ok(
      files.some((f) => f['path'] === '' && f['directory'] === true),
      'the root directory comes first',
    );
    const bytes = await (
      await client.download(double.origin, token, DATASET, 'original/markdown_demo.md')
    ).bytes();
    assert.equal(bytes.length, 4566);
  });

  it('turns a dead session into unauthorized, naming authorization', async () => {
    await assert.rejects(
      client.getOne('getSamples', 'admin-dead', idDto(ID_TYPES.sample, OBJECT)),
      (e: unknown) => {
        assert.ok(e instanceof DomainError);
        assert.equal(e.kind, 'unauthorized');
        assert.equal(e.field, 'authorization');
        return true;
      },
    );
  });

  it('turns garbage into unreachable, an openBIS error into unreachable with its message, silence into a timeout', async () => {
    double.switches.mode = 'garbage';
    await assert.rejects(client.searchSpaces(token), { kind: 'unreachable', message: /not JSON/ });
    double.switches.mode = 'error';
    await assert.rejects(client.searchSpaces(token), { kind: 'unreachable', message: /test double switch/ });
    double.switches.mode = 'hang';
    const quick = new OpenbisClient({
      url: double.origin,
      policy: { ...openbisPolicy(openbisUrl(double.origin)), timeoutMs: 300 },
    });
    await assert.rejects(quick.searchSpaces(token), { kind: 'upstream-timeout' });
    double.switches.mode = 'normal';
  });

  it('refuses a file over the fetch limit without reading it', async () => {
    double.addHugeFile(DATASET, 'original/huge.bin', 64 * 1024 * 1024);
    const small = new OpenbisClient({
      url: double.origin,
      policy: { ...openbisPolicy(openbisUrl(double.origin)), maxBytes: 1024 * 1024 },
    });
    await assert.rejects(small.download(double.origin, token, DATASET, 'original/huge.bin'), (e: unknown) => {
      assert.ok(e instanceof DomainError);
      assert.equal(e.kind, 'too-large');
      assert.doesNotMatch(e.message, /sessionID|admin-/, 'the session token is never in an error');
      return true;
    });
  });

  it('refuses a missing or malformed OPENBIS_URL naming it', () => {
    assert.throws(() => openbisUrl(''), { field: 'OPENBIS_URL' });
    assert.throws(() => openbisUrl('ftp://x'), { field: 'OPENBIS_URL' });
  });
});

describe('Jackson back-references', () => {
  it('decoding what was encoded gives the same values, with shared objects shared', () => {
    const person = { '@type': 'as.dto.person.Person', userId: 'u' };
    const value = { '@type': 'as.dto.sample.Sample', registrator: person, modifier: person, fileLength: 3 };
    const encoded = encodeJackson(value) as Record<string, Json>;
    assert.equal(typeof encoded['modifier'], 'number', 'the second occurrence is a back-reference');
    const decoded = decodeJackson(encoded) as Record<string, Json>;
    assert.equal(decoded['registrator'], decoded['modifier']);
    assert.equal(decoded['fileLength'], 3, 'a number under a scalar key stays a number');
  });

  it('round-trips any tree of DTOs with repeated persons (property)', () => {
    const person = fc.record({ '@type': fc.constant('as.dto.person.Person'), userId: fc.string() });
    fc.assert(
      fc.property(fc.array(person, { minLength: 1, maxLength: 5 }), fc.nat({ max: 4 }), (people, pick) => {
        const shared = people[pick % people.length]!;
        const tree = {
          '@type': 'as.dto.sample.Sample',
          registrator: shared,
          modifier: shared,
          children: people.map((p) => ({ '@type': 'as.dto.sample.Sample', registrator: p, techId: 7 })),
        };
        const plain = JSON.parse(JSON.stringify(tree)) as Json;
        const back = decodeJackson(JSON.parse(JSON.stringify(encodeJackson(tree))) as Json);
        const strip = (v: Json): Json =>
          JSON.parse(JSON.stringify(v, (k, x: unknown) => (k === '@id' ? undefined : x))) as Json;
        assert.deepEqual(strip(back), strip(plain));
      }),
    );
  });
});
