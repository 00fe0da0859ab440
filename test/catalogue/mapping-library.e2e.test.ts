// The mapping library exists from the first start (issue 28: on a fresh install the "Mappings"
// link was a 404 and the group could only be made through the API, so select-mapping found
// nothing to select from). Its name is a setting; two starts racing make it once.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ensureMappingLibrary, mappingGroup } from '../../lib/catalogue/mapping-library.ts';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld } from '../support/labld.ts';
import { removeTempDir, tempDir } from '../support/temp.ts';

const VARIABLE = 'CKANINI__CKANEXT__CSVWMAPANDTRANSFORM__MAPPING_GROUP';

describe('the mapping library on a fresh install', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((dir) => removeTempDir(dir))));

  it('is there at first start: the Mappings link answers its page, group_show finds it', async () => {
    const labld = await startLabld();
    try {
      const home = await (await fetch(`${labld.url}/`)).text();
      assert.match(home, /<a href="\/group\/mappings"[^>]*>Mappings<\/a>/);
      const page = await fetch(`${labld.url}/group/mappings`);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<h1>Mappings<\/h1>/);
      const shown = await fetch(`${labld.url}/api/3/action/group_show?id=mappings`);
      assert.equal(shown.status, 200);
      assert.equal(((await shown.json()) as { result: { name: string } }).result.name, 'mappings');
    } finally {
      await labld.stop();
    }
  });

  it('takes its name from the setting, and refuses a name the catalogue cannot hold', () => {
    assert.equal(mappingGroup({}), 'mappings');
    assert.equal(mappingGroup({ [VARIABLE]: 'tensile-mappings' }), 'tensile-mappings');
    for (const bad of ['Mappings', 'a b', 'x']) {
      assert.throws(() => mappingGroup({ [VARIABLE]: bad }), new RegExp(VARIABLE));
    }
  });

  it('is made once when two starts race, and a second start finds it', async () => {
    const dataDir = tempDir('labld-library-');
    dirs.push(dataDir);
    const store = await openCatalogueStore({ dataDir });
    try {
      const outcomes = await Promise.all([
        ensureMappingLibrary(store, 'lib'),
        ensureMappingLibrary(store, 'lib'),
      ]);
      assert.deepEqual([...outcomes].sort(), ['made', 'there']);
      assert.equal(await ensureMappingLibrary(store, 'lib'), 'there');
      assert.equal((await store.listGroups()).filter((g) => g.name === 'lib').length, 1);
    } finally {
      await store.close();
    }
  });
});
