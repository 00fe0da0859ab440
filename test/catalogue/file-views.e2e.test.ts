// A resource's page shows its file (issue 28, item 5): Turtle, JSON-LD, YAML, RDF/XML, N-Triples
// and CSV as highlighted text with line numbers, a long file a page of lines at a time (never
// the whole file), and a graph as the table of its subjects, named by their labels.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openCatalogueStore } from '../../lib/catalogue/store/open.ts';
import { startLabld, type Running } from '../support/labld.ts';
import { api, person, type Person } from './actions/support.ts';

let labld: Running & { dataDir: string };
let ada: Person;
const ids: Record<string, string> = {};

export const FILES: Record<string, string> = {
  'specimens.ttl': `@prefix ex: <http://example.org/lab#>.
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.
ex:s1 a ex:Specimen; rdfs:label "Specimen one"; ex:width 10; ex:cutFrom ex:plate.
ex:plate a ex:Plate; rdfs:label "Steel plate".
ex:Specimen rdfs:label "Specimen".
ex:width rdfs:label "width".
ex:cutFrom rdfs:label "cut from".
ex:s2 a ex:Specimen; ex:width 12.5; ex:note "<b>not bold</b>"@en.
`,
  'context.jsonld':
    '{\n  "@id": "http://example.org/lab#s1",\n  "http://www.w3.org/2000/01/rdf-schema#label": "Specimen one"\n}\n',
  'map.yaml': 'prefixes:\n  ex: http://example.org/lab#\nmappings:\n  specimen:\n    s: ex:$(id)\n',
  'graph.rdf':
    '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n  <rdf:Description rdf:about="http://example.org/lab#s1"/>\n</rdf:RDF>\n',
  'graph.nt': '<http://example.org/lab#s1> <http://www.w3.org/2000/01/rdf-schema#label> "Specimen one" .\n',
  'long.csv': `line,value\n${Array.from({ length: 449 }, (_, i) => `row-${i + 2},${i}`).join('\n')}\n`,
};

before(async () => {
  labld = await startLabld();
  const store = await openCatalogueStore({ dataDir: labld.dataDir });
  ada = await person(store, 'ada');
  await store.close();
  const made = await api(labld.url, 'package_create', {
    body: { name: 'files' },
    headers: { authorization: ada.token },
  });
  assert.equal(made.status, 200);
  for (const [name, text] of Object.entries(FILES)) {
    const form = new FormData();
    form.set('package_id', 'files');
    form.set('upload', new Blob([text]), name);
    const answer = await api(labld.url, 'resource_create', { form, headers: { authorization: ada.token } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    ids[name] = (answer.body.result as { id: string }).id;
  }
});
after(() => labld?.stop());

async function page(name: string, query = ''): Promise<string> {
  const response = await fetch(`${labld.url}/dataset/files/resource/${ids[name]}${query}`);
  const html = await response.text();
  assert.equal(response.status, 200, html);
  return html;
}

/** The text of each line of the page's text view, by line number (tags removed, entities read). */
function shownLines(html: string): Map<number, string> {
  const lines = new Map<number, string>();
  for (const m of html.matchAll(/<tr id="L(\d+)">.*?<code>(.*?)<\/code>/g)) {
    const text = m[2]!
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
    lines.set(Number(m[1]), text);
  }
  return lines;
}

describe('the text of each kind of file, with line numbers', () => {
  for (const [name, highlighted] of [
    ['specimens.ttl', 'tok-keyword'],
    ['context.jsonld', 'tok-property'],
    ['map.yaml', 'tok-key'],
    ['graph.rdf', 'tok-tag'],
    ['graph.nt', 'tok-url'],
    ['long.csv', 'tok-value'],
  ] as const) {
    test(`${name}: each line numbered, as written, highlighted`, async () => {
      const html = await page(name, '?view=text');
      const expected = FILES[name]!.split('\n').slice(0, 200);
      if (expected.at(-1) === '') expected.pop();
      assert.deepEqual([...shownLines(html).values()], expected);
      assert.deepEqual(
        [...shownLines(html).keys()],
        expected.map((_, i) => i + 1),
      );
      assert.match(html, new RegExp(`class="(?:[^"]* )?${highlighted}[ "]`), 'the language is highlighted');
      assert.doesNotMatch(html, /No table preview/);
    });
  }

  test('markup in a file is text, never markup of the page', async () => {
    const html = await page('specimens.ttl', '?view=text');
    assert.doesNotMatch(html, /<b>not bold<\/b>/);
    assert.match(html, /&lt;b&gt;not bold&lt;\/b&gt;/);
  });

  test('a long file: page 2 holds lines 201–400 with their numbers, and nothing else of the file', async () => {
    const html = await page('long.csv', '?view=text&page=2');
    const lines = shownLines(html);
    assert.deepEqual(
      [...lines.keys()],
      Array.from({ length: 200 }, (_, i) => i + 201),
    );
    assert.equal(lines.get(201), 'row-201,199');
    assert.equal(lines.get(400), 'row-400,398');
    assert.match(html, /Lines 201–400 of 450/);
    for (const absent of ['row-200,', 'row-401,', 'line,value', 'row-450,'])
      assert.ok(!html.includes(absent), absent);
    assert.match(html, /href="[^"]*view=text&amp;page=3"[^>]*>Next/);
    assert.match(html, /href="[^"]*view=text&amp;page=1"[^>]*>← Previous/);
  });

  test('the last page holds the last lines; a page past the end holds none', async () => {
    assert.deepEqual([...shownLines(await page('long.csv', '?view=text&page=3')).keys()].at(-1), 450);
    assert.equal(shownLines(await page('long.csv', '?view=text&page=4')).size, 0);
  });

  test('a view the file does not have is refused, naming the parameter', async () => {
    const response = await fetch(`${labld.url}/dataset/files/resource/${ids['map.yaml']}?view=subjects`, {
      headers: { accept: 'application/json' },
    });
    assert.equal(response.status, 422);
    assert.match(((await response.json()) as { detail: string }).detail, /^view: /);
  });
});

/** Each subject section: heading, types, property → values, as the page shows them in words. */
function subjects(html: string): { heading: string; types: string; properties: [string, string][] }[] {
  const words = (s: string) =>
    s
      .replace(/<br>/g, ' | ')
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
      .trim();
  return [...html.matchAll(/<section class="subject" id="[^"]*">([\s\S]*?)<\/section>/g)].map((m) => {
    const body = m[1]!;
    return {
      heading: words(/<h3>(.*?)<\/h3>/.exec(body)?.[1] ?? ''),
      types: words(/<p class="types">(.*?)<\/p>/.exec(body)?.[1] ?? ''),
      properties: [...body.matchAll(/<tr><th scope="row">(.*?)<\/th><td>(.*?)<\/td><\/tr>/g)].map(
        (p) => [words(p[1]!), words(p[2]!)] as [string, string],
      ),
    };
  });
}

describe('a graph as the table of its subjects', () => {
  test('a small Turtle file opens on its subjects, named by their labels', async () => {
    const html = await page('specimens.ttl');
    // Written from reading specimens.ttl: named things by name, properties by their labels.
    assert.deepEqual(subjects(html), [
      { heading: 'cut from', types: '', properties: [['rdfs:label', 'cut from']] },
      {
        heading: 'ex:s2',
        types: 'Specimen',
        properties: [
          ['width', '12.5 (xsd:decimal)'],
          ['ex:note', '<b>not bold</b>@en'],
        ],
      },
      { heading: 'Specimen', types: '', properties: [['rdfs:label', 'Specimen']] },
      {
        heading: 'Specimen one',
        types: 'Specimen',
        properties: [
          ['rdfs:label', 'Specimen one'],
          ['width', '10 (xsd:integer)'],
          ['cut from', 'Steel plate'],
        ],
      },
      { heading: 'Steel plate', types: 'ex:Plate', properties: [['rdfs:label', 'Steel plate']] },
      { heading: 'width', types: '', properties: [['rdfs:label', 'width']] },
    ]);
    // 4 + 2 + 1 + 1 + 1 + 3 triples, counted in the file.
    assert.match(html, /Subjects 1–6 of 6 \(12 triples\)/);
  });

  test('a subject that is the value of another links to its row', async () => {
    const html = await page('specimens.ttl', '?view=subjects');
    assert.match(html, /<section class="subject" id="plate">/);
    assert.match(html, /<a href="\?view=subjects&amp;page=1#plate"[^>]*>Steel plate<\/a>/);
  });

  test('JSON-LD, RDF/XML and N-Triples are read as graphs too', async () => {
    assert.deepEqual(subjects(await page('context.jsonld', '?view=subjects')), [
      { heading: 'Specimen one', types: '', properties: [['rdfs:label', 'Specimen one']] },
    ]);
    assert.deepEqual(subjects(await page('graph.nt', '?view=subjects')), [
      { heading: 'Specimen one', types: '', properties: [['rdfs:label', 'Specimen one']] },
    ]);
    // A subject with no triple of its own but its description: none in this file.
    assert.deepEqual(subjects(await page('graph.rdf', '?view=subjects')), []);
  });
});
