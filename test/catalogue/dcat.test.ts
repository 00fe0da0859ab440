// The DCAT mapping (lib/catalogue/dcat.ts) against graphs written out by hand from DCAT-AP 3 and
// ckanext-dcat's euro_dcat_ap_3 profile, compared by RDF isomorphism; and which Accept asks for DCAT.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { acceptedRdf } from '../../gateways/catalogue/dcat.ts';
import { catalogQuads, datasetQuads } from '../../lib/catalogue/dcat.ts';
import { parse } from '../../lib/rdf/index.ts';
import { assertIsomorphic } from '../support/rdf.ts';

const SITE = 'http://labld.test';
const ID = '0b6c7b7e-3f0a-4d7e-9a55-6f1f2c1c9a01';
const RID = '5d1e2f3a-1111-4222-8333-944455566677';
const LINK = '7e8f9a0b-2222-4333-8444-a55566677788';
const SHA = 'a'.repeat(64);

const PREFIXES = `
@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix vcard: <http://www.w3.org/2006/vcard/ns#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix hydra: <http://www.w3.org/ns/hydra/core#> .
@prefix spdx: <http://spdx.org/rdf/terms#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
`;

/** A package dict as package_show answers it (the keys the mapping reads, and some it does not). */
function tensile(): Record<string, unknown> {
  return {
    id: ID,
    name: 'tensile-tests',
    title: 'Tensile tests',
    notes: 'Forces of steel samples',
    private: false,
    url: 'https://lab.example.org/tensile',
    version: '1.2',
    author: 'A. Author',
    author_email: 'author@lab.test',
    maintainer: 'M. Maintainer',
    maintainer_email: 'maintainer@lab.test',
    license_id: 'cc-by',
    license_title: 'Creative Commons Attribution',
    license_url: 'http://www.opendefinition.org/licenses/cc-by',
    metadata_created: '2026-11-25T07:40:00.123000',
    metadata_modified: '2026-11-26T08:00:00.000000',
    owner_org: null,
    organization: null,
    tags: [{ name: 'steel' }, { name: 'tensile test' }],
    extras: [{ key: 'lab', value: 'B2' }],
    resources: [
      {
        id: RID,
        package_id: ID,
        name: 'forces.csv',
        description: 'Raw forces',
        format: 'CSV',
        mimetype: 'text/csv',
        url: `${SITE}/dataset/${ID}/resource/${RID}/download/forces.csv`,
        url_type: 'upload',
        size: 1234,
        hash: SHA,
        created: '2026-11-25T07:41:00.000000',
        metadata_modified: '2026-11-25T07:42:00.000000',
      },
      {
        id: LINK,
        package_id: ID,
        name: 'Machine manual',
        description: '',
        format: 'application/pdf',
        mimetype: null,
        url: 'https://example.org/manual.pdf',
        url_type: '',
        size: null,
        hash: '',
        created: '2026-11-25T07:43:00.000000',
        metadata_modified: '2026-11-25T07:43:00.000000',
      },
    ],
  };
}

const TENSILE = `${PREFIXES}
<${SITE}/dataset/${ID}> a dcat:Dataset ;
  dct:title "Tensile tests" ;
  dct:description "Forces of steel samples" ;
  dct:identifier "${ID}" ;
  owl:versionInfo "1.2" ;
  dcat:landingPage <https://lab.example.org/tensile> ;
  dcat:keyword "steel", "tensile test" ;
  dct:issued "2026-11-25T07:40:00.123000Z"^^xsd:dateTime ;
  dct:modified "2026-11-26T08:00:00.000000Z"^^xsd:dateTime ;
  dcat:contactPoint [ a vcard:Organization ; vcard:fn "M. Maintainer" ;
                      vcard:hasEmail <mailto:maintainer@lab.test> ] ;
  dct:license <http://www.opendefinition.org/licenses/cc-by> ;
  dcat:distribution <${SITE}/dataset/${ID}/resource/${RID}>, <${SITE}/dataset/${ID}/resource/${LINK}> .
<https://lab.example.org/tensile> a foaf:Document .
<http://www.opendefinition.org/licenses/cc-by> a dct:LicenseDocument .
<${SITE}/dataset/${ID}/resource/${RID}> a dcat:Distribution ;
  dct:title "forces.csv" ;
  dct:description "Raw forces" ;
  dcat:accessURL <${SITE}/dataset/${ID}/resource/${RID}/download/forces.csv> ;
  dcat:downloadURL <${SITE}/dataset/${ID}/resource/${RID}/download/forces.csv> ;
  dcat:mediaType <http://www.iana.org/assignments/media-types/text/csv> ;
  dct:format "CSV" ;
  dcat:byteSize "1234"^^xsd:nonNegativeInteger ;
  dct:issued "2026-11-25T07:41:00.000000Z"^^xsd:dateTime ;
  dct:modified "2026-11-25T07:42:00.000000Z"^^xsd:dateTime ;
  dct:license <http://www.opendefinition.org/licenses/cc-by> ;
  spdx:checksum [ a spdx:Checksum ; spdx:algorithm spdx:checksumAlgorithm_sha256 ;
                  spdx:checksumValue "${SHA}"^^xsd:hexBinary ] .
<http://www.iana.org/assignments/media-types/text/csv> a dct:MediaType .
<${SITE}/dataset/${ID}/resource/${LINK}> a dcat:Distribution ;
  dct:title "Machine manual" ;
  dcat:accessURL <https://example.org/manual.pdf> ;
  dcat:mediaType <http://www.iana.org/assignments/media-types/application/pdf> ;
  dct:issued "2026-11-25T07:43:00.000000Z"^^xsd:dateTime ;
  dct:modified "2026-11-25T07:43:00.000000Z"^^xsd:dateTime ;
  dct:license <http://www.opendefinition.org/licenses/cc-by> .
<http://www.iana.org/assignments/media-types/application/pdf> a dct:MediaType .
`;

const turtle = (text: string) => parse(text, 'turtle');

describe('DCAT: a package dict as a dcat:Dataset', () => {
  test('every field ckanext-dcat maps, in DCAT-AP 3 terms', async () => {
    await assertIsomorphic(datasetQuads(tensile(), SITE), await turtle(TENSILE), 'tensile-tests');
  });

  test('the least a dataset has: its id and times, nothing made up', async () => {
    const bare = {
      id: ID,
      name: 'bare',
      title: '',
      notes: '',
      url: '',
      version: null,
      maintainer: null,
      author: null,
      license_id: null,
      tags: [],
      extras: [],
      resources: [],
      metadata_created: '2026-11-25T07:40:00.000000',
      metadata_modified: '2026-11-25T07:40:00.000000',
    };
    const expected = `${PREFIXES}
<${SITE}/dataset/${ID}> a dcat:Dataset ;
  dct:identifier "${ID}" ;
  dct:issued "2026-11-25T07:40:00.000000Z"^^xsd:dateTime ;
  dct:modified "2026-11-25T07:40:00.000000Z"^^xsd:dateTime .
`;
    await assertIsomorphic(datasetQuads(bare, SITE), await turtle(expected), 'bare');
  });

  test('author when no maintainer; publisher from the publisher_* extras; an organization otherwise', async () => {
    const pkg = {
      id: ID,
      author: 'A. Author',
      author_email: 'author@lab.test',
      extras: [
        { key: 'publisher_name', value: 'The Lab' },
        { key: 'publisher_url', value: 'https://lab.example.org' },
      ],
      // An unsafe URL is left out, never written broken.
      url: 'https://lab.example.org/a b',
      organization: { id: 'org-1', name: 'the-org', title: 'The Org' },
    };
    const expected = `${PREFIXES}
<${SITE}/dataset/${ID}> a dcat:Dataset ;
  dct:identifier "${ID}" ;
  dcat:contactPoint [ a vcard:Organization ; vcard:fn "A. Author" ; vcard:hasEmail <mailto:author@lab.test> ] ;
  dct:publisher [ a foaf:Agent ; foaf:name "The Lab" ; foaf:homepage <https://lab.example.org> ] .
`;
    await assertIsomorphic(datasetQuads(pkg, SITE), await turtle(expected), 'extras');
    const withOrg = { id: ID, organization: { id: 'org-1', name: 'the-org', title: 'The Org' } };
    const fromOrg = `${PREFIXES}
<${SITE}/dataset/${ID}> a dcat:Dataset ; dct:identifier "${ID}" ;
  dct:publisher <${SITE}/organization/org-1> .
<${SITE}/organization/org-1> a foaf:Agent ; foaf:name "The Org" .
`;
    await assertIsomorphic(datasetQuads(withOrg, SITE), await turtle(fromOrg), 'organization');
  });
});

describe('DCAT: a page of datasets as the dcat:Catalog', () => {
  const site = { siteUrl: SITE, title: 'labld', description: 'Lab data', modified: '2026-11-26T08:00:00' };
  const pageUrl = (n: number) => `${SITE}/catalog.ttl?q=steel&page=${n}`;
  const small = (id: string) => ({ id, metadata_modified: '2026-11-26T08:00:00' });
  const datasets = (ids: string[]) =>
    ids
      .map(
        (id) => `<${SITE}/dataset/${id}> a dcat:Dataset ; dct:identifier "${id}" ;
  dct:modified "2026-11-26T08:00:00Z"^^xsd:dateTime .`,
      )
      .join('\n');
  const catalog = (ids: string[]) => `${PREFIXES}
<${SITE}> a dcat:Catalog ; dct:title "labld" ; dct:description "Lab data" ;
  foaf:homepage <${SITE}> ; dct:modified "2026-11-26T08:00:00Z"^^xsd:dateTime
  ${ids.map((id) => `; dcat:dataset <${SITE}/dataset/${id}>`).join(' ')} .
${datasets(ids)}
`;

  test('a middle page: first, last, next and previous, old and new hydra names, as ckanext-dcat', async () => {
    const quads = catalogQuads(site, [small('c'), small('d')], { count: 5, page: 2, perPage: 2, pageUrl });
    const expected = `${catalog(['c', 'd'])}
<${pageUrl(2)}> a hydra:PagedCollection ;
  hydra:totalItems 5 ; hydra:itemsPerPage 2 ;
  hydra:firstPage "${pageUrl(1)}" ; hydra:first "${pageUrl(1)}" ;
  hydra:lastPage "${pageUrl(3)}" ; hydra:last "${pageUrl(3)}" ;
  hydra:nextPage "${pageUrl(3)}" ; hydra:next "${pageUrl(3)}" ;
  hydra:previousPage "${pageUrl(1)}" ; hydra:previous "${pageUrl(1)}" .
`;
    await assertIsomorphic(quads, await turtle(expected), 'page 2 of 3');
  });

  test('past the last page: no datasets, previous is the last page; an empty catalog has no paging', async () => {
    const quads = catalogQuads(site, [], { count: 5, page: 7, perPage: 2, pageUrl });
    const expected = `${catalog([])}
<${pageUrl(7)}> a hydra:PagedCollection ;
  hydra:totalItems 5 ; hydra:itemsPerPage 2 ;
  hydra:firstPage "${pageUrl(1)}" ; hydra:first "${pageUrl(1)}" ;
  hydra:lastPage "${pageUrl(3)}" ; hydra:last "${pageUrl(3)}" ;
  hydra:previousPage "${pageUrl(3)}" ; hydra:previous "${pageUrl(3)}" .
`;
    await assertIsomorphic(quads, await turtle(expected), 'page 7 of 3');
    const empty = catalogQuads({ ...site, modified: undefined }, [], {
      count: 0,
      page: 1,
      perPage: 2,
      pageUrl,
    });
    const nothing = `${PREFIXES}
<${SITE}> a dcat:Catalog ; dct:title "labld" ; dct:description "Lab data" ; foaf:homepage <${SITE}> .
`;
    await assertIsomorphic(empty, await turtle(nothing), 'empty');
  });
});

describe("DCAT: the dataset page's content negotiation (ckanext-dcat's parse_accept_header)", () => {
  test('the most wanted RDF type, unless text/html comes first; */* is the page', () => {
    const cases: [string, string | undefined][] = [
      ['text/turtle', 'turtle'],
      ['application/ld+json', 'json-ld'],
      ['application/rdf+xml', 'xml'],
      ['text/n3', 'n3'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', undefined],
      ['*/*', undefined],
      ['', undefined],
      ['application/json', undefined],
      ['text/html;q=0.5, application/ld+json', 'json-ld'],
      ['application/ld+json;q=0.5, text/html', undefined],
      ['text/*', 'turtle'],
      ['application/json, application/*;q=0.1', 'xml'],
      ['text/turtle;q=0, application/rdf+xml;q=0.2', 'xml'],
      ['TEXT/TURTLE; charset=utf-8', 'turtle'],
    ];
    for (const [accept, format] of cases) assert.equal(acceptedRdf(accept), format, accept);
  });
});
