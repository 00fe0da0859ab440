// createrdf with an RML Turtle mapping as mapping_url (the engine reads RML already): the
// seed mapping translated to RML gives the same joined graph as its YARRRML. And the
// mapper's use_template_rowwise: true is a 422 that says why it does not apply to the data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRdf } from '../../lib/converter/index.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { parse } from '../../lib/rdf/index.ts';
import { readYarrrml, yarrrmlToRml } from '../../lib/rml/index.ts';
import { assertIsomorphic } from '../support/rdf.ts';
import { CSVW_MAPPING_URL, readSeed, seedLoader, SEED_FILES } from './support.ts';

const ACTIVITY = 'http://localhost:6003/api/createrdf';
const NOW = new Date('2026-06-24T12:41:10.121Z');
const RML_URL = 'https://example.org/mappings/csvw-template-map.rml.ttl';

test('an RML Turtle mapping_url gives the same joined graph as the YARRRML it was translated from', async () => {
  const yarrrml = readSeed(SEED_FILES[CSVW_MAPPING_URL]!);
  const rml = await yarrrmlToRml(readYarrrml(yarrrml));
  const request = { activity: ACTIVITY, now: NOW };
  const fromYarrrml = await createRdf({ ...request, mappingUrl: CSVW_MAPPING_URL }, seedLoader());
  const fromRml = await createRdf({ ...request, mappingUrl: RML_URL }, seedLoader({ [RML_URL]: rml }));
  assert.deepEqual(
    [fromRml.num_mappings_applied, fromRml.num_mappings_skipped],
    [fromYarrrml.num_mappings_applied, fromYarrrml.num_mappings_skipped],
  );
  assert.equal(fromRml.filename, fromYarrrml.filename);
  // Provenance names the mapping URL, which differs; everything else is the same graph.
  const withoutMappingUrl = async (graph: string, url: string) =>
    (await parse(graph, 'turtle')).filter((q) => q.object.value !== url);
  await assertIsomorphic(
    await withoutMappingUrl(fromRml.graph, RML_URL),
    await withoutMappingUrl(fromYarrrml.graph, CSVW_MAPPING_URL),
    'joined graph',
  );
});

test('use_template_rowwise: true is a 422 naming the field and why it does not apply', async () => {
  const yarrrml = readSeed(SEED_FILES[CSVW_MAPPING_URL]!).replace(
    /^use_template_rowwise:.*$/m,
    "use_template_rowwise: 'true'",
  );
  assert.match(yarrrml, /use_template_rowwise: 'true'/);
  const url = 'https://example.org/mappings/rowwise.yaml';
  await assert.rejects(
    createRdf({ activity: ACTIVITY, mappingUrl: url }, seedLoader({ [url]: yarrrml })),
    (error: unknown) =>
      error instanceof DomainError &&
      error.kind === 'invalid' &&
      error.field === 'use_template_rowwise' &&
      /once per data row.*CSVW descriptor.*no row/.test(error.message),
  );
});
