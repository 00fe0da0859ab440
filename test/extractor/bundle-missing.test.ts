// Why a file is missing from an export bundle, as the crate and the answer's trailers say it
// (issue 26): in words that name no address of openBIS's inside. A fetch error's own text names
// the data store's URL, a redirect's target, or a resolved address; none of it may pass.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { missingReason } from '../../lib/extractor/bundle.ts';
import { OpenbisClient } from '../../lib/extractor/openbis/client.ts';
import { DomainError } from '../../lib/process/errors.ts';

function serve(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> {
  const server = createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    return error;
  }
  assert.fail('the download succeeded');
}

describe("a missing file's reason in an export bundle", () => {
  let store: { server: Server; origin: string };
  let elsewhere: { server: Server; origin: string };

  before(async () => {
    elsewhere = await serve((_req, res) => res.writeHead(500).end());
    store = await serve((req, res) => {
      if (req.url?.includes('/moved/'))
        res.writeHead(302, { location: `${elsewhere.origin}/inside/x` }).end();
      else res.writeHead(404, 'Not Found').end();
    });
  });
  after(() => {
    store.server.close();
    elsewhere.server.close();
  });

  const hosts = () => [new URL(store.origin).host, new URL(elsewhere.origin).host, '127.0.0.1', 'sessionID'];

  for (const [label, path, expected] of [
    ['a 404', 'original/gone.txt', /^the data store answered 404$/],
    ['a redirect elsewhere', 'moved/file.txt', /^the data store/],
  ] as const) {
    it(`${label}: a reason with no address in it`, async () => {
      const client = new OpenbisClient({ url: store.origin });
      const error = await failure(client.download(store.origin, 'admin-token', '2024-1', path));
      const reason = missingReason(error);
      assert.match(reason, expected);
      for (const host of hosts()) assert.equal(reason.includes(host), false, `${reason} names ${host}`);
    });
  }

  it('a refused or unreachable store: its kind in words, never the text that named it', () => {
    const named =
      'path: http://dss.lab.internal:8081/datastore_server/X/f refused: address 10.1.2.3 is private';
    for (const kind of ['forbidden', 'malformed', 'unreachable', 'upstream-timeout', 'too-large'] as const) {
      const reason = missingReason(new DomainError(kind, named, 'path'));
      assert.equal(/dss\.lab\.internal|10\.1\.2\.3|8081/.test(reason), false, `${kind}: ${reason}`);
    }
  });
});
