// BASE_URL's default comes from the port labld really listens on, so stored-file URLs written
// by a labld on an ephemeral port (port 0) can be fetched back.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startLabld } from '../support/labld.ts';
import { postFile } from '../annotator/e2e-support.ts';

test('without BASE_URL, a labld on port 0 writes stored-file URLs with the port it bound', async () => {
  const saved = process.env['BASE_URL'];
  delete process.env['BASE_URL'];
  const running = await startLabld();
  try {
    const port = new URL(running.url).port;
    assert.notEqual(port, '8000');
    const info = (await (await fetch(`${running.url}/annotator/info`)).json()) as { server: string };
    assert.equal(info.server, `http://localhost:${port}/annotator`);
    const reply = await postFile(`${running.url}/annotator/api/annotate_upload`, 'a,b\n1,2\n', 'two.csv');
    assert.equal(reply.status, 200, reply.text);
    const url = (reply.json() as { '@id': string })['@id'];
    assert.match(url, new RegExp(`^http://localhost:${port}/annotator/files/[^/]+/two\\.csv$`));
    const back = await fetch(url);
    assert.equal(back.status, 200);
    assert.equal(await back.text(), 'a,b\n1,2\n');
  } finally {
    await running.stop();
    if (saved === undefined) delete process.env['BASE_URL'];
    else process.env['BASE_URL'] = saved;
  }
  assert.equal(process.env['BASE_URL'], saved, 'the derived default is forgotten at stop');
});
