// What CKAN clients send, on either catalogue store: ids a create is given (a dump loaded
// elsewhere keeps them), and package_search as CKAN users write it. Expected values are
// written here from CKAN's documentation and Solr's syntax, not taken from a run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from '../../support/fc.ts';
import { runAction } from '../../../lib/catalogue/actions/index.ts';
import { isDomainError } from '../../../lib/process/errors.ts';
import { ckanError } from '../../../gateways/kit/ckan-errors.ts';
import { METADATA_TEXT } from '../../../lib/catalogue/model.ts';
import { person, refused, type Catalogue, type Person } from './support.ts';

type Dict = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DATASET_ID = '6f1c7e0a-3b5d-4c2e-9a8f-0d1e2f3a4b5c';
const RESOURCE_ID = '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d';

export function ckanClientSuite(label: string, fresh: () => Promise<Catalogue>): void {
  let catalogue: Catalogue;
  let alice: Person;

  /** An action called by alice, another person, or (`'anonymous'`) with no token. */
  const call = (action: string, params: Dict = {}, who: Person | 'anonymous' = alice): Promise<Dict> =>
    runAction(
      catalogue.deps,
      who === 'anonymous' ? { kind: 'anonymous' } : { kind: 'token', hash: who.tokenHash },
      action,
      params,
    ) as Promise<Dict>;

  describe(`CKAN clients: ${label}`, () => {
    before(async () => {
      catalogue = await fresh();
      alice = await person(catalogue.deps.store, 'alice');
    });
    after(() => catalogue.dispose());

    describe('client-given ids', () => {
      it('package_create and its inline resources keep the ids given', async () => {
        const pkg = await call('package_create', {
          id: DATASET_ID,
          name: 'moved',
          resources: [{ id: RESOURCE_ID, url: 'https://example.org/a.csv' }],
        });
        assert.equal(pkg.id, DATASET_ID);
        assert.equal(pkg.resources[0].id, RESOURCE_ID);
        assert.equal((await call('package_show', { id: DATASET_ID })).name, 'moved');
      });

      it('an id in use is a Validation Error naming id, and nothing is made', async () => {
        const again = await refused(call('package_create', { id: DATASET_ID, name: 'moved-again' }));
        assert.equal(again.status, 409);
        assert.equal(again.error.__type, 'Validation Error');
        assert.ok(again.error.id, JSON.stringify(again.error));
        assert.equal(await catalogue.deps.store.getDataset('moved-again'), undefined);
        const resource = await refused(
          call('resource_create', { package_id: 'moved', id: RESOURCE_ID, url: 'https://example.org/b' }),
        );
        assert.equal(resource.status, 409);
        assert.ok(resource.error.id, JSON.stringify(resource.error));
        assert.equal((await call('package_show', { id: 'moved' })).num_resources, 1);
      });

      it('a malformed id is a Validation Error naming id', async () => {
        for (const id of ['not-a-uuid', DATASET_ID.toUpperCase(), `${DATASET_ID}x`, "1' OR '1'='1"]) {
          const answer = await refused(call('package_create', { id, name: 'badly-named' }));
          assert.equal(answer.status, 409, id);
          assert.ok(answer.error.id, `${id}: ${JSON.stringify(answer.error)}`);
        }
        const resource = await refused(
          call('resource_create', { package_id: 'moved', id: 'x', url: 'https://example.org/b' }),
        );
        assert.ok(resource.error.id, JSON.stringify(resource.error));
      });

      it('resource_create keeps the id given', async () => {
        const id = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
        const res = await call('resource_create', { package_id: 'moved', id, url: 'https://example.org/c' });
        assert.equal(res.id, id);
      });
    });

    describe('package_search', () => {
      before(async () => {
        await call('package_delete', { id: 'moved' });
        const root = await person(catalogue.deps.store, 'root', true);
        await call('group_create', { name: 'tensile-group', title: 'Tensile' }, root);
        await call('group_create', { name: 'mappings', title: 'Mapping library' }, root);
        const link = (file: string) => ({ url: `https://example.org/${file}` });
        await call('package_create', {
          name: 'tensile-steel',
          title: 'Tensile tests of steel',
          notes: 'Specimens pulled at 2 mm/min',
          groups: [{ name: 'tensile-group' }],
          resources: [link('a.csv'), link('iso.pdf')],
        });
        await call('package_create', {
          name: 'tensile-alu',
          title: 'Tensile tests of aluminium',
          notes: 'Alloy 6061',
          groups: [{ name: 'tensile-group' }, { name: 'mappings' }],
          resources: [link('b.csv')],
        });
        await call('package_create', {
          name: 'hardness',
          title: 'Hardness',
          notes: 'Vickers',
          resources: [link('map.yaml')],
        });
        await call('package_create', { name: 'quiet', title: 'another dataset' });
        await call('package_create', {
          name: 'secret',
          title: 'Secret tensile tests',
          private: true,
          groups: [{ name: 'mappings' }],
          resources: [link('c.csv')],
        });
        await call('package_patch', { id: 'hardness', notes: 'Vickers, again' });
      });

      const names = async (params: Dict, who?: Person | 'anonymous') =>
        ((await call('package_search', { rows: 100, ...params }, who)).results as Dict[])
          .map((d) => d.name)
          .sort();

      it('facet.field with facet.limit fills facets and search_facets as CKAN does', async () => {
        const found = await call(
          'package_search',
          { 'facet.field': JSON.stringify(['groups', 'res_format', 'tags', 'organization', 'license_id']) },
          'anonymous',
        );
        assert.equal(found.count, 4);
        assert.deepEqual(found.facets, {
          groups: { 'tensile-group': 2, mappings: 1 },
          res_format: { CSV: 2, PDF: 1, YAML: 1 },
          tags: {},
          organization: {},
          license_id: {},
        });
        assert.deepEqual(found.search_facets.groups, {
          title: 'groups',
          items: [
            { name: 'tensile-group', display_name: 'Tensile', count: 2 },
            { name: 'mappings', display_name: 'Mapping library', count: 1 },
          ],
        });
        const one = await call('package_search', {
          'facet.field': ['groups', 'res_format'],
          'facet.limit': 1,
        });
        assert.deepEqual(one.facets, { groups: { 'tensile-group': 2 }, res_format: { CSV: 2 } });
        // Counted over what was found, not over the page.
        const paged = await call('package_search', {
          'facet.field': ['res_format'],
          rows: 1,
          fq: 'groups:tensile-group',
        });
        assert.deepEqual(paged.facets, { res_format: { CSV: 2, PDF: 1 } });
        assert.deepEqual((await call('package_search', {})).facets, {});
      });

      it('a private dataset counts in the facets only of those who may read it', async () => {
        const mine = await call('package_search', { 'facet.field': ['groups'], include_private: true });
        assert.deepEqual(mine.facets, { groups: { 'tensile-group': 2, mappings: 2 } });
      });

      it('fq with the Solr field syntax: names, groups, formats, quotes, +/-, AND/OR', async () => {
        assert.deepEqual(await names({ fq: 'groups:tensile-group' }), ['tensile-alu', 'tensile-steel']);
        assert.deepEqual(await names({ fq: 'res_format:PDF' }), ['tensile-steel']);
        assert.deepEqual(await names({ fq: '+groups:tensile-group -res_format:PDF' }), ['tensile-alu']);
        assert.deepEqual(await names({ fq: 'groups:tensile-group AND res_format:CSV' }), [
          'tensile-alu',
          'tensile-steel',
        ]);
        assert.deepEqual(await names({ fq: 'res_format:YAML OR name:tensile-steel' }), [
          'hardness',
          'tensile-steel',
        ]);
        assert.deepEqual(await names({ fq: 'name:"hardness"' }), ['hardness']);
        assert.deepEqual(await names({ fq: 'groups:(mappings OR tensile-group) NOT name:tensile-steel' }), [
          'tensile-alu',
        ]);
        assert.deepEqual(await names({ fq: '-groups:*' }), ['hardness', 'quiet']);
        assert.deepEqual(await names({ fq: '+dataset_type:dataset +capacity:public' }), [
          'hardness',
          'quiet',
          'tensile-alu',
          'tensile-steel',
        ]);
        // labld keeps no tags or organizations: no dataset has one.
        assert.deepEqual(await names({ fq: 'tags:steel' }), []);
        assert.deepEqual(await names({ fq: 'organization:lab' }), []);
      });

      it('fq_list: each item a filter of its own', async () => {
        assert.deepEqual(await names({ fq_list: ['groups:tensile-group', '-name:tensile-alu'] }), [
          'tensile-steel',
        ]);
        assert.deepEqual(
          await names({ fq: 'res_format:CSV', fq_list: JSON.stringify(['groups:mappings']) }),
          ['tensile-alu'],
        );
      });

      it('q with field:value, a prefix and a phrase', async () => {
        assert.deepEqual(await names({ q: 'name:hardness' }), ['hardness']);
        assert.deepEqual(await names({ q: 'title:aluminium' }), ['tensile-alu']);
        assert.deepEqual(await names({ q: 'tens*' }), ['tensile-alu', 'tensile-steel']);
        assert.deepEqual(await names({ q: '"tests of steel"' }), ['tensile-steel']);
        assert.deepEqual(await names({ q: 'tensile -aluminium' }), ['tensile-steel']);
        assert.deepEqual(await names({ q: '*:*' }), ['hardness', 'quiet', 'tensile-alu', 'tensile-steel']);
        assert.deepEqual(await names({ q: 'VICKERS' }), ['hardness']);
        assert.deepEqual(await names({ q: 'tensile', include_private: true }), [
          'secret',
          'tensile-alu',
          'tensile-steel',
        ]);
      });

      it('sort on title_string (code point order), metadata_modified and score', async () => {
        const order = async (params: Dict) =>
          ((await call('package_search', params)).results as Dict[]).map((d) => d.name);
        assert.deepEqual(await order({ sort: 'title_string asc' }), [
          'hardness',
          'tensile-alu',
          'tensile-steel',
          'quiet',
        ]);
        assert.deepEqual(await order({ sort: 'title_string desc' }), [
          'quiet',
          'tensile-steel',
          'tensile-alu',
          'hardness',
        ]);
        assert.equal((await order({ sort: 'metadata_modified desc' }))[0], 'hardness');
        assert.deepEqual(await order({ q: 'tensile OR steel', sort: 'score desc, name asc' }), [
          'tensile-steel',
          'tensile-alu',
        ]);
        assert.deepEqual(await order({ q: 'tensile OR steel', sort: 'name asc' }), [
          'tensile-alu',
          'tensile-steel',
        ]);
        assert.equal(
          (await call('package_search', { sort: 'num_resources desc, name asc' })).results[0].name,
          'tensile-steel',
        );
      });

      it('rows above 1000 are capped, not refused', async () => {
        const found = await call('package_search', { rows: 5000 });
        assert.equal(found.count, 4);
        assert.equal(found.results.length, 4);
        assert.equal((await refused(call('package_search', { rows: -1 }))).status, 409);
      });

      it('what labld does not read is a Validation Error naming it, never passed over', async () => {
        const cases: [Dict, string][] = [
          [{ qf: 'title^2' }, 'qf'],
          [{ defType: 'edismax' }, 'defType'],
          [{ facet_field: ['groups'] }, 'facet_field'],
          [{ 'facet.field': ['notes'] }, 'facet.field'],
          [{ fq: 'metadata_modified:[NOW-1DAY TO NOW]' }, 'fq'],
          [{ fq: 'title:stee~' }, 'fq'],
          [{ fq: 'colour:red' }, 'fq'],
          [{ fq: '(groups:mappings' }, 'fq'],
          [{ fq: 'groups:mappings)' }, 'fq'],
          [{ fq: '"unclosed' }, 'fq'],
          [{ fq: 'name:te*st' }, 'fq'],
          [{ fq: 'groups:' }, 'fq'],
          [{ fq: 'NOT' }, 'fq'],
          [{ q: 'tit?e' }, 'q'],
          [{ q: 'title:steel^4' }, 'q'],
          [{ fq_list: ['groups:mappings', 'x:[1 TO 2]'] }, 'fq_list'],
          [{ fq_list: [3] }, 'fq_list'],
          [{ sort: 'title asc' }, 'sort'],
          [{ sort: 'name sideways' }, 'sort'],
          [{ sort: 'name; DROP TABLE packages' }, 'sort'],
          [{ include_drafts: 'perhaps' }, 'include_drafts'],
        ];
        for (const [params, field] of cases) {
          const answer = await refused(call('package_search', params));
          assert.equal(answer.status, 409, JSON.stringify(params));
          assert.ok(answer.error[field], `${JSON.stringify(params)}: ${JSON.stringify(answer.error)}`);
        }
      });

      it('property: a random fq or q is found or refused with a 4xx naming it, never a 500', async () => {
        const piece = fc.constantFrom(
          ...[
            'groups:',
            'name:',
            'tags:',
            'res_format:',
            'title:',
            'x:',
            ':',
            '"',
            '(',
            ')',
            '+',
            '-',
            '!',
            ' ',
          ],
          ...['AND', 'OR', 'NOT', '&&', '||', '*', '*:*', '\\', '[', ']', '{', '}', '~', '^', '?', 'TO'],
          ...['tensile', 'CSV', 'mappings', 'é', "'", ';', '%', '_', '\u0000', '2', '--', 'SELECT'],
        );
        const text = fc.oneof(
          fc.array(piece, { maxLength: 20 }).map((p) => p.join('')),
          fc.string({ maxLength: 40 }),
        );
        await fc.assert(
          fc.asyncProperty(text, fc.constantFrom('fq', 'q', 'fq_list'), async (value, param) => {
            const params = { [param]: param === 'fq_list' ? [value] : value };
            try {
              await call('package_search', params, 'anonymous');
            } catch (error) {
              assert.ok(isDomainError(error), `${JSON.stringify(params)}: ${String(error)}`);
              const { status, body } = ckanError(error);
              assert.equal(status, 409, JSON.stringify(params));
              assert.ok((body.error as Dict)[param], JSON.stringify(body));
            }
          }),
          { numRuns: 300 },
        );
      });
    });

    describe('dataset fields CKAN scripts send', () => {
      const full = {
        name: 'described',
        title: 'Described',
        author: 'Ada Lovelace',
        author_email: 'ada@lab.test',
        maintainer: 'Lab IT',
        maintainer_email: 'it@lab.test',
        version: '1.2',
        url: 'https://lab.test/projects/described',
        license_id: 'cc-by',
        tags: [{ name: 'steel' }, { name: 'tensile test' }],
        extras: [
          { key: 'machine', value: 'Zwick Z100' },
          { key: 'speed', value: '2 mm/min' },
        ],
      };

      it('are kept and given back as CKAN gives them', async () => {
        const made = await call('package_create', full);
        const shown = await call('package_show', { id: made.id });
        for (const key of METADATA_TEXT) assert.equal(shown[key], (full as Dict)[key], key);
        assert.equal(shown.license_title, 'Creative Commons Attribution');
        assert.equal(shown.isopen, true);
        assert.deepEqual(
          shown.tags.map((t: Dict) => [t.name, t.display_name]),
          [
            ['steel', 'steel'],
            ['tensile test', 'tensile test'],
          ],
        );
        assert.equal(shown.num_tags, 2);
        assert.deepEqual(shown.extras, full.extras);
      });

      it('package_patch changes what it is given; package_update clears what it is not', async () => {
        const patched = await call('package_patch', { id: 'described', tag_string: 'steel,fatigue' });
        assert.deepEqual(
          patched.tags.map((t: Dict) => t.name),
          ['fatigue', 'steel'],
        );
        assert.equal(patched.author, 'Ada Lovelace');
        assert.deepEqual(patched.extras, full.extras);
        const updated = await call('package_update', { id: 'described', name: 'described', author: 'Bob' });
        assert.equal(updated.author, 'Bob');
        assert.equal(updated.maintainer, null);
        assert.equal(updated.license_id, null);
        assert.deepEqual([updated.tags, updated.extras, updated.url], [[], [], '']);
        await call('package_update', { ...full, id: 'described' });
      });

      it('bad values are refused naming the field; organizations are not kept', async () => {
        const cases: [Dict, string][] = [
          [{ author_email: 'not an address' }, 'author_email'],
          [{ maintainer_email: 'a@' }, 'maintainer_email'],
          [{ url: 'javascript:alert(1)' }, 'url'],
          [{ tags: [{ name: 'a' }] }, 'tags'],
          [{ tags: [{ name: 'semi;colon' }] }, 'tags'],
          [{ tags: [{ name: 'x1', vocabulary_id: 'v' }] }, 'tags'],
          [
            {
              extras: [
                { key: 'k', value: '1' },
                { key: 'k', value: '2' },
              ],
            },
            'extras',
          ],
          [{ extras: [{ key: 'title', value: 'shadow' }] }, 'extras'],
          [{ extras: [{ key: 'k', value: { nested: true } }] }, 'extras'],
          [{ owner_org: 'lab' }, 'owner_org'],
        ];
        for (const [params, field] of cases) {
          const answer = await refused(call('package_create', { name: 'refused-one', ...params }));
          assert.equal(answer.status, 409, JSON.stringify(params));
          assert.ok(answer.error[field], `${JSON.stringify(params)}: ${JSON.stringify(answer.error)}`);
        }
        assert.equal(await catalogue.deps.store.getDataset('refused-one'), undefined);
      });

      it('package_search filters and counts by tags and license_id', async () => {
        await call('package_create', { name: 'hidden-tags', private: true, tags: [{ name: 'secret-tag' }] });
        const found = await call(
          'package_search',
          { fq: 'tags:steel', 'facet.field': ['tags', 'license_id'] },
          'anonymous',
        );
        assert.deepEqual(
          found.results.map((d: Dict) => d.name),
          ['described'],
        );
        assert.deepEqual(found.facets, { tags: { steel: 1, 'tensile test': 1 }, license_id: { 'cc-by': 1 } });
        assert.deepEqual(found.search_facets.license_id.items, [
          { name: 'cc-by', display_name: 'Creative Commons Attribution', count: 1 },
        ]);
        assert.deepEqual(
          (await call('package_search', { fq: 'tags:"tensile test" AND license_id:cc-by' }, 'anonymous'))
            .count,
          1,
        );
        assert.equal((await call('package_search', { q: 'author:lovelace' }, 'anonymous')).count, 1);
      });

      it("tag_list: the tags of the datasets the caller may see; license_list: CKAN's licences", async () => {
        assert.deepEqual(await call('tag_list', {}, 'anonymous'), ['steel', 'tensile test']);
        assert.deepEqual(await call('tag_list', { query: 'TENS' }, 'anonymous'), ['tensile test']);
        assert.deepEqual(await call('tag_list', {}), ['secret-tag', 'steel', 'tensile test']);
        const licenses = (await call('license_list', {}, 'anonymous')) as unknown as Dict[];
        assert.deepEqual(
          licenses.find((l) => l.id === 'cc-by'),
          {
            id: 'cc-by',
            title: 'Creative Commons Attribution',
            url: 'http://www.opendefinition.org/licenses/cc-by',
            is_okd_compliant: true,
            od_conformance: 'approved',
            status: 'active',
          },
        );
      });

      it("a resource change bumps the dataset's metadata_modified", async () => {
        const stamp = async () =>
          (await call('package_show', { id: 'described' })).metadata_modified as string;
        const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
        let before = await stamp();
        await pause();
        const res = await call('resource_create', {
          package_id: 'described',
          url: 'https://example.org/d.csv',
        });
        assert.ok((await stamp()) > before, 'resource_create');
        before = await stamp();
        await pause();
        await call('resource_patch', { id: res.id, description: 'changed' });
        assert.ok((await stamp()) > before, 'resource_patch');
        before = await stamp();
        await pause();
        await call('resource_delete', { id: res.id });
        assert.ok((await stamp()) > before, 'resource_delete');
      });
    });
  });
}
