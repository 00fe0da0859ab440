// The openBIS test double is as strict as openBIS: fetch options whose `@type` is not the class
// the field declares are refused (so the extractor's old EmptyFetchOptions calls are), an id of
// the wrong kind is refused, only the relations asked for come back (the others null), and entity types carry
// their property assignments.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Json } from '../../lib/extractor/openbis/jackson.ts';
import { ID_TYPES, OpenbisClient, idDto } from '../../lib/extractor/openbis/client.ts';
import { startOpenbisDouble, type OpenbisDouble } from '../support/openbis-double.ts';

const OBJECT = '20230531140916169-35';
const EMPTY = { '@type': 'as.dto.common.fetchoptions.EmptyFetchOptions' };
const SAMPLE_FO = 'as.dto.sample.fetchoptions.SampleFetchOptions';

describe('openBIS test double: as strict as the server', () => {
  let double: OpenbisDouble;
  let client: OpenbisClient;
  let token: string;
  const getSamples = (ids: Json[], options: Json) => client.call('getSamples', [token, ids, options]);

  before(async () => {
    double = await startOpenbisDouble();
    client = new OpenbisClient({ url: double.origin });
    token = (await client.login('admin', 'changeit')) ?? '';
  });
  after(() => double.close());

  it('refuses relations sent as EmptyFetchOptions, as the extractor used to send them', async () => {
    const old = { '@type': SAMPLE_FO, type: EMPTY, properties: EMPTY, registrator: EMPTY };
    await assert.rejects(
      getSamples([idDto(ID_TYPES.sample, OBJECT)], old),
      /type: Could not resolve type id 'as\.dto\.common\.fetchoptions\.EmptyFetchOptions'.*SampleTypeFetchOptions/,
    );
  });

  it('refuses a relation with another class, an unknown field, or no fetch options', async () => {
    const id = idDto(ID_TYPES.sample, OBJECT);
    const wrong = {
      '@type': SAMPLE_FO,
      experiment: { '@type': 'as.dto.project.fetchoptions.ProjectFetchOptions' },
    };
    await assert.rejects(getSamples([id], wrong), /experiment: Could not resolve type id/);
    await assert.rejects(
      getSamples([id], { '@type': SAMPLE_FO, colour: EMPTY }),
      /Unrecognized field "colour"/,
    );
    await assert.rejects(getSamples([id], null), /fetch options must be an object/);
    const dss = `${double.origin}/datastore_server/rmi-data-store-server-v3.json`;
    const criteria = { '@type': 'dss.dto.datasetfile.search.DataSetFileSearchCriteria' };
    await assert.rejects(
      client.call('searchFiles', [token, criteria, EMPTY], dss),
      /Could not resolve type id/,
    );
  });

  it('refuses an id of the wrong kind', async () => {
    await assert.rejects(
      client.call('getExperiments', [
        token,
        [idDto(ID_TYPES.sample, OBJECT)],
        { '@type': 'as.dto.experiment.fetchoptions.ExperimentFetchOptions' },
      ]),
      /as\.dto\.sample\.id\.SamplePermId/,
    );
  });

  it('answers only the relations asked for, at every level', async () => {
    const bare = (await getSamples([idDto(ID_TYPES.sample, OBJECT)], { '@type': SAMPLE_FO })) as Record<
      string,
      Record<string, Json>
    >;
    const sample = bare[OBJECT];
    assert.ok(sample);
    assert.equal(sample['code'], 'EMODUL_ING9', 'fields that are not relations are always there');
    for (const relation of ['type', 'properties', 'registrator', 'experiment', 'space', 'tags'])
      assert.equal(sample[relation], null, `${relation} was not asked for`);
    const typed = (await getSamples([idDto(ID_TYPES.sample, OBJECT)], {
      '@type': SAMPLE_FO,
      experiment: { '@type': 'as.dto.experiment.fetchoptions.ExperimentFetchOptions' },
    })) as Record<string, Record<string, Record<string, Json>>>;
    const experiment = typed[OBJECT]?.['experiment'];
    assert.ok(experiment && typeof experiment['code'] === 'string');
    assert.equal(experiment['project'], null, "the experiment's project was not asked for");
  });

  it("gives entity types their property assignments, with each assignment's property type", async () => {
    const type = await client.getOne(
      'getSampleTypes',
      token,
      idDto(ID_TYPES.entityType, 'EMODUL_INGREDIENT', 'SAMPLE'),
    );
    assert.ok(type);
    const assignments = type['propertyAssignments'] as Record<string, Record<string, Json>>[];
    const codes = assignments.map((a) => a['propertyType']?.['code']);
    assert.ok(codes.includes('EMODUL_INGREDIENT.BULKDENSITY'), codes.join(', '));
  });

  it("the extractor's own calls pass", async () => {
    const sample = await client.getOne('getSamples', token, idDto(ID_TYPES.sample, OBJECT));
    assert.equal((sample?.['type'] as Record<string, Json>)['code'], 'EMODUL_INGREDIENT');
  });
});
