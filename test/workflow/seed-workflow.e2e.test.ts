// The spec's workflow as one test, from a seed CSV to a joined graph, across the annotator,
// the mapper and the converter over HTTP: upload → descriptor → types → entities → mapping →
// checkmapping (rules_skipped 0) → test → createrdf. The fixture server plays the catalogue
// (it holds the descriptor and the mapping at URLs) and GitHub (the method template).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { parse } from '../../lib/rdf/index.ts';
import { seedFixture } from '../support/shared.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { startFixtureServer, type FixtureServer } from '../converter/fixture-server.ts';

const RO_HAS_PARTICIPANT = 'http://purl.obolibrary.org/obo/RO_0010002';
const QUDT = 'http://qudt.org/schema/qudt/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const OWL_NAMED_INDIVIDUAL = 'http://www.w3.org/2002/07/owl#NamedIndividual';

let labld: Running;
let files: FixtureServer;

before(async () => {
  process.env['LABLD_FETCH_ALLOW'] = '127.0.0.1';
  files = await startFixtureServer();
  labld = await startLabld();
});
after(async () => {
  await labld?.stop();
  await files?.stop();
});

const call = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${labld.url}${path}`, init);
  const text = await res.text();
  assert.equal(res.status, 200, `${path}: ${text.slice(0, 500)}`);
  return { text, res };
};
const postJson = (path: string, body: unknown) =>
  call(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const q = (params: Record<string, string>) => new URLSearchParams(params).toString();

test('seed CSV → descriptor → entities → mapping → checkmapping → test → joined graph', async () => {
  // 1. The lab's CSV (latin-1, as the testing machine wrote it) is uploaded to the annotator.
  const form = new FormData();
  form.append('file', new Blob([readFileSync(seedFixture('csvtocsvw/example.csv'))]), 'example.csv');
  const annotated = await call('/annotator/api/annotate_upload', { method: 'POST', body: form });
  const descriptor = JSON.parse(annotated.text) as { tables: { url: string }[] };
  assert.match(descriptor.tables[0]!.url, /\/annotator\/files\/[A-Za-z0-9_-]{22}\/example\.csv$/);
  files.put('/lab/example-metadata.json', annotated.text);
  const dataUrl = files.url('/lab/example-metadata.json');
  const templateUrl = files.url('/methods/DIN_EN_ISO_527-3.drawio.ttl');

  // 2. Types and entities of the descriptor and the template, as a mapping UI lists them.
  const types = JSON.parse((await call(`/mapper/api/types?${q({ url: dataUrl })}`)).text) as string[];
  assert.ok(types.includes('http://www.w3.org/ns/csvw#Column'), types.join(' '));
  assert.ok(types.includes('http://www.w3.org/ns/oa#Annotation'), types.join(' '));
  const data = JSON.parse((await call(`/mapper/api/entities?${q({ url: dataUrl })}`)).text) as {
    entities: Record<string, { uri: string }>;
  };
  const template = JSON.parse(
    (
      await call(
        `/mapper/api/entities?${q({ url: templateUrl, types: 'http://www.w3.org/2002/07/owl#NamedIndividual' })}`,
      )
    ).text,
  ) as { entities: Record<string, { uri: string }> };

  // 3. The user's map: template individual → data entity (the original's orientation), with the
  // column name as the annotator spells it (Prüfzeit → Pruefzeit).
  const map: Record<string, string> = {
    SpecimenID: 'AktuelleProbe0',
    WidthMeasurement: 'ProbenbreiteB03',
    ThicknessMeasurement: 'ProbendickeA04',
    ForceMeasurement: 'table-1-Standardkraft',
    LengthMeasurement: 'table-1-Standardweg',
    ExperimentTimeInterval: 'table-1-Pruefzeit',
    CrossheadSpeedSetPointValue: 'Pruefgeschwindigkeit5',
    PreLoadSetPointValue: 'Vorkraft6',
  };
  for (const [individual, entity] of Object.entries(map)) {
    assert.ok(data.entities[entity], `data entity ${entity}`);
    assert.ok(template.entities[individual], `template individual ${individual}`);
  }
  const mapping = await postJson('/mapper/api/mapping', {
    data_url: dataUrl,
    template_url: templateUrl,
    map,
  });
  assert.match(mapping.res.headers.get('content-disposition') ?? '', /attachment/);
  files.put('/lab/example-map.yaml', mapping.text);
  const mappingUrl = files.url('/lab/example-map.yaml');

  // 4. The mapping fits the descriptor: every rule applicable, none skipped.
  const check = JSON.parse(
    (
      await call(`/converter/api/checkmapping?${q({ mapping_url: mappingUrl, data_url: dataUrl })}`, {
        method: 'POST',
      })
    ).text,
  ) as { rules_applicable: number; rules_skipped: number };
  assert.deepEqual(check, { rules_applicable: 8, rules_skipped: 0 });

  // 5. The dry run shows each rule matched.
  const report = JSON.parse(
    (
      await call(`/converter/api/test?${q({ mapping_url: mappingUrl, data_url: dataUrl })}`, {
        method: 'POST',
      })
    ).text,
  ) as { per_rule_statistics: { applied: boolean }[]; triple_count: number };
  assert.equal(report.per_rule_statistics.length, 8);
  assert.ok(report.per_rule_statistics.every((rule) => rule.applied));
  assert.ok(report.triple_count >= 8);

  // 6. The joined graph: one link per map entry from the data entity to its template
  // individual, quantity values with units, the template's own triples.
  const created = JSON.parse(
    (await postJson('/converter/api/createrdf', { mapping_url: mappingUrl, data_url: dataUrl })).text,
  ) as { filename: string; graph: string; num_mappings_applied: number; num_mappings_skipped: number };
  assert.deepEqual([created.num_mappings_applied, created.num_mappings_skipped], [8, 0]);
  const graph = await parse(created.graph, 'turtle');
  // The original re-bases the template into the joined document (`<#SpecimenID>` in the golden
  // csvw-template-map.rdf), so a template individual is `<joined graph>#<name>` here.
  const links = graph.filter((quad) => quad.predicate.value === RO_HAS_PARTICIPANT);
  const individuals = new Set(
    graph
      .filter((quad) => quad.predicate.value === RDF_TYPE && quad.object.value === OWL_NAMED_INDIVIDUAL)
      .map((quad) => quad.subject.value),
  );
  for (const [individual, entity] of Object.entries(map)) {
    const link = links.find((quad) => quad.subject.value === data.entities[entity]!.uri);
    assert.ok(link, `a link from ${entity}`);
    assert.ok(link.object.value.endsWith(`#${individual}`), `${entity} → ${link.object.value}`);
    assert.ok(individuals.has(link.object.value), `${link.object.value} is the template's individual`);
  }
  assert.equal(links.length, Object.keys(map).length);
  assert.ok(graph.some((quad) => quad.predicate.value === `${QUDT}unit`));
});
