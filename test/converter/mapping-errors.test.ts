// Errors in words for what a YARRRML mapping itself gets wrong: a JSONPath the engine cannot
// read names mapping_url, the rule and the YARRRML key; a source URL inside the mapping that
// the guarded fetch refuses names that source and its rule, not the mapping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkRules, createRdf, readYarrrmlMapping, type Loader } from '../../lib/converter/index.ts';
import { guardedFetch, policyFromEnv } from '../../lib/fetch/guarded-fetch.ts';
import { seedLoader } from './support.ts';

const ACTIVITY = 'http://localhost:6003/api/createrdf';
const DATA = 'http://data.example/d.json';

const yarrrml = (iterator: string, reference: string, extra = '') => `prefixes:
  ex: http://example.com/
sources:
  data: ['${DATA}~jsonpath', '${iterator}']${extra}
mappings:
  people:
    sources: data
    s: ex:$(b)
    po:
      - [ex:p, "$(${reference})"]
`;

const loader = (mapping: string): Loader =>
  seedLoader({ 'http://m.example/map.yaml': mapping, [DATA]: '{"a":[{"b":1}]}' });

const convert = (mapping: string, load = loader(mapping)) =>
  createRdf({ mappingUrl: 'http://m.example/map.yaml', activity: ACTIVITY }, load);

test('a JSONPath iterator that cannot be read is a 422 naming mapping_url, the rule and sources', async () => {
  await assert.rejects(convert(yarrrml('$.a[', 'b')), {
    kind: 'invalid',
    field: 'mapping_url',
    message:
      'mapping_url: rule "people": the iterator "$.a[" (sources) is not valid JSONPath: ' +
      'a name, index, slice, "*" or filter expected (at position 4)',
  });
});

test('a JSONPath reference that cannot be read names the rule and the reference as written', async () => {
  await assert.rejects(convert(yarrrml('$.a[*]', 'c[?')), {
    kind: 'invalid',
    field: 'mapping_url',
    message:
      'mapping_url: rule "people": the reference $(c[?) is not valid JSONPath: ' +
      'a filter operand expected (at position 3)',
  });
});

test('the test endpoint’s reasons of checkmapping say why an iterator cannot be read', () => {
  const mapping = readYarrrmlMapping(yarrrml('$.a[', 'b'));
  const [check] = checkRules(mapping, { a: [{ b: 1 }] });
  assert.equal(check?.applicable, false); // the original skips such a rule (research §3.6)
  assert.match(
    check?.reason ?? '',
    /^the iterator "\$\.a\[" \(sources\) is not valid JSONPath: .* \(at position 4\)$/,
  );
});

test('a refused source URL inside the mapping names that source and its rule, not the mapping', async () => {
  const mapping = yarrrml(
    '$.a[*]',
    'b',
    "\n  other: ['http://10.0.0.1/x.json~jsonpath', '$[*]']\n  bad: ['ftp://x.example/y.json~jsonpath', '$[*]']",
  );
  const withRule = (source: string) => `${mapping}  things:\n    sources: ${source}\n    s: ex:$(b)\n`;
  // Everything but the mapping and its first source goes through the guarded fetch, as in labld.
  const guarded = (text: string): Loader => {
    const known = loader(text);
    return async (url, field) => {
      if (url.startsWith('http://m.example/') || url === DATA) return known(url, field);
      const fetched = await guardedFetch(url, { field, policy: policyFromEnv({}) });
      return { url: fetched.url, text: await fetched.text(), fileName: '' };
    };
  };
  await assert.rejects(convert(withRule('other'), guarded(withRule('other'))), {
    kind: 'forbidden',
    field: 'mapping_url',
    message:
      'mapping_url: the mapping\'s source http://10.0.0.1/x.json (rule "things") refused: ' +
      'address 10.0.0.1 is private (allow it with LABLD_FETCH_ALLOW)',
  });
  await assert.rejects(convert(withRule('bad'), guarded(withRule('bad'))), {
    kind: 'malformed',
    message:
      'mapping_url: the mapping\'s source ftp://x.example/y.json (rule "things") refused: ' +
      'scheme ftp: is not allowed (only http and https)',
  });
});
