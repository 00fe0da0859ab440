// Unit tests of the RML engine's parts: templates, JSONPath, CSV, terms, functions, sinks.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { CsvParser, DEFAULT_DIALECT } from '../../lib/rml/csv.ts';
import { DEFAULT_FUNCTIONS } from '../../lib/rml/functions/library.ts';
import { compileJsonPath } from '../../lib/rml/jsonpath.ts';
import { NQuadsWriter, parseTerm, rdfjsSink, runRml, RmlError } from '../../lib/rml/index.ts';
import { parseTemplate } from '../../lib/rml/template.ts';
import { blankTerm, iriSafe, isLanguageTag, literalTerm, uriSafe } from '../../lib/rml/terms.ts';
import { normalizeYarrrmlText, yarrrmlToRml } from '../../lib/rml/yarrrml.ts';

describe('templates', () => {
  test('split literals and references, honouring backslash escapes', () => {
    assert.deepEqual(parseTemplate('http://ex.com/{ID}/{$.name}'), {
      literals: ['http://ex.com/', '/', ''],
      references: ['ID', '$.name'],
    });
    assert.deepEqual(parseTemplate('\\{{a\\}b}\\\\'), { literals: ['{', '\\'], references: ['a}b'] });
  });

  for (const bad of ['http://ex.com/{{Name}}', 'x{Name', 'x}Name', 'x{}', 'a\\b'])
    test(`refuse ${bad}`, () => assert.throws(() => parseTemplate(bad), RmlError));
});

describe('JSONPath', () => {
  const doc = {
    '@id': 'root',
    notes: [
      { '@id': 'n1', label: 'a', n: 1 },
      { '@id': 'n2', label: 'b', n: 5 },
    ],
    tables: [{ tableSchema: { columns: [{ name: 'x' }, { name: 'y' }] } }],
    'key with space': 'v',
  };
  const run = (path: string) => compileJsonPath(path)(doc);

  test('names with @ and spaces, bracketed keys', () => {
    assert.deepEqual(run('$.@id'), ['root']);
    assert.deepEqual(run("$['key with space']"), ['v']);
    assert.deepEqual(run('$.notes[*].@id'), ['n1', 'n2']);
  });
  test('recursive descent, indices, slices, unions', () => {
    assert.deepEqual(run('$..columns[*].name'), ['x', 'y']);
    assert.deepEqual(run('$.notes[-1].label'), ['b']);
    assert.deepEqual(run('$.notes[0:1].label'), ['a']);
    assert.deepEqual(run("$.notes[0]['label','n']"), ['a', 1]);
  });
  test('filters', () => {
    assert.deepEqual(run("$.notes[?(@.label == 'b')].@id"), ['n2']);
    assert.deepEqual(run('$.notes[?(@.n > 2 || @.label == "a")].@id'), ['n1', 'n2']);
    assert.deepEqual(run('$.notes[?(@.missing)]'), []);
  });
  test('syntax errors are mapping errors naming the path', () => {
    assert.throws(() => compileJsonPath('$.students[*]]'), {
      kind: 'invalid',
      part: 'mapping',
      message: '"$.students[*]]" is not valid JSONPath: unexpected "]" (at position 13)',
    });
    assert.throws(() => compileJsonPath('$.a[?(@.b =~ /(/)]'), {
      message:
        /^"\$\.a\[\?\(@\.b =~ \/\(\/\)\]" is not valid JSONPath: \/\(\/ is not a valid regular expression \(at position \d+\)$/,
    });
    assert.throws(() => compileJsonPath('students'), RmlError);
  });
});

describe('CSV', () => {
  function parse(chunks: string[], dialect = DEFAULT_DIALECT): string[][] {
    const rows: string[][] = [];
    const parser = new CsvParser(dialect, (row) => rows.push(row));
    for (const chunk of chunks) parser.push(chunk);
    parser.end();
    return rows;
  }

  test('quotes, doubled quotes, newlines in cells, CRLF, BOM, chunk boundaries', () => {
    const text = '\uFEFFa,b\r\n1,"x ""y"", z"\r\n2,"multi\nline"\n3,last';
    const expected = [
      ['a', 'b'],
      ['1', 'x "y", z'],
      ['2', 'multi\nline'],
      ['3', 'last'],
    ];
    assert.deepEqual(parse([text]), expected);
    for (let cut = 1; cut < text.length; cut += 1)
      assert.deepEqual(parse([text.slice(0, cut), text.slice(cut)]), expected);
  });
  test('old-Mac CR-only line endings read as the LF twin, in any chunking', () => {
    const text = 'a,b\r1,"x\ry"\r\r2,z\r';
    const expected = [
      ['a', 'b'],
      ['1', 'x\ny'], // the CR in the cell was that file's line break
      ['2', 'z'],
    ];
    assert.deepEqual(parse([text]), expected);
    for (let cut = 0; cut <= text.length; cut += 1)
      assert.deepEqual(parse([text.slice(0, cut), text.slice(cut)]), expected);
    // A CR inside a line of a LF file stays data.
    assert.deepEqual(parse(['a,b\n1,x\ry\n']), [
      ['a', 'b'],
      ['1', 'x\ry'],
    ]);
  });
  test('CSVW dialect: delimiter, trim, comment prefix', () => {
    const dialect = { ...DEFAULT_DIALECT, delimiter: ';', trim: true, commentPrefix: '#' };
    assert.deepEqual(parse(['# note\n a ; b \n'], dialect), [['a', 'b']]);
  });
  test('an unclosed quote is an error', () => assert.throws(() => parse(['a\n"x']), RmlError));
});

describe('terms', () => {
  test('IRI-safe values follow the RML-Core table', () => {
    assert.equal(iriSafe('42'), '42');
    assert.equal(iriSafe('Hello World!'), 'Hello%20World%21');
    assert.equal(iriSafe('2011-08-23T22:17:00Z'), '2011-08-23T22%3A17%3A00Z');
    assert.equal(iriSafe('~A_17.1-2'), '~A_17.1-2');
    assert.equal(iriSafe('Zoë'), 'Zoë');
    assert.equal(uriSafe('Zoë'), 'Zo%C3%AB');
  });
  test('literals are escaped; blank node labels stay distinct', () => {
    assert.equal(literalTerm('a "q"\n\\'), '"a \\"q\\"\\n\\\\"');
    assert.equal(literalTerm('1', 'http://www.w3.org/2001/XMLSchema#string'), '"1"');
    assert.notEqual(blankTerm('a b'), blankTerm('a_b'));
  });
  test('language tags', () => {
    assert.ok(isLanguageTag('en-GB'));
    assert.ok(!isLanguageTag('a-english'));
  });
  test('N-Triples terms back to RDF/JS', () => {
    const literal = parseTerm('"x\\"y"@en');
    assert.equal(literal.termType, 'Literal');
    assert.equal(literal.value, 'x"y');
    assert.equal(parseTerm('<http://a/b\\u0020c>').value, 'http://a/b c');
  });
});

const CSV_MAPPING = (object: string) => `
@prefix rml: <http://w3id.org/rml/> .
<#TM> rml:logicalSource [ rml:source [ rml:path "data.csv" ]; rml:referenceFormulation rml:CSV ];
  rml:subjectMap [ rml:template "http://ex.com/{id}" ];
  rml:predicateObjectMap [ rml:predicate <http://ex.com/p>; rml:objectMap ${object} ] .`;

describe('functions and conditions', () => {
  const sources = { 'data.csv': 'id,name\n1,Alice\n2,Bob\n' };

  test('an unknown function is an error naming its IRI, before any data is read', async () => {
    const mapping = CSV_MAPPING('[ rml:functionExecution [ rml:function <http://ex.com/nope> ] ]');
    await assert.rejects(runRml(mapping, { sources }), /Unknown function <http:\/\/ex\.com\/nope>/);
  });

  test('a false condition suppresses the triple; statistics count the comparisons', async () => {
    const mapping = CSV_MAPPING(`[ rml:reference "name";
      rml:condition [ rml:functionExecution [ rml:function <https://w3id.org/imec/idlab/function#equal>;
        rml:input [ rml:parameter <http://users.ugent.be/~bjdmeest/function/grel.ttl#valueParam>; rml:inputValueMap [ rml:reference "name" ] ],
                  [ rml:parameter <http://users.ugent.be/~bjdmeest/function/grel.ttl#valueParam2>; rml:inputValue "Bob" ] ] ] ]`);
    const result = await runRml(mapping, { sources });
    assert.equal(result.nquads, '<http://ex.com/2> <http://ex.com/p> "Bob" .\n');
    const [stats] = result.statistics;
    assert.equal(stats!.iterations, 2);
    assert.equal(stats!.comparisons, 2);
    assert.deepEqual(
      stats!.compared.map((c) => [c.left, c.right, c.result]),
      [
        ['Alice', 'Bob', false],
        ['Bob', 'Bob', true],
      ],
    );
  });

  test('the IDLab functions answer in every namespace they were published under', () => {
    for (const ns of ['https://w3id.org/imec/idlab/function#', 'http://example.com/idlab/function/']) {
      assert.ok(DEFAULT_FUNCTIONS.has(`${ns}trueCondition`));
      assert.ok(DEFAULT_FUNCTIONS.has(`${ns}equal`));
    }
  });
});

describe('YARRRML', () => {
  test('the nested-list normalisation of the seed branch', () => {
    const input = 'po:\n  - - a\n    - b\n  - - c\n    - d\n    - e\n';
    assert.equal(normalizeYarrrmlText(input), 'po:\n  - [a, b]\n  - - c\n    - d\n    - e\n');
  });

  test('two-line nested lists reach the parser (its own YAML reader drops them)', async () => {
    const yarrrml = `prefixes:\n  ex: http://ex.com/\nmappings:\n  m:\n    sources: [[data.csv~csv]]\n    s: ex:$(id)\n    po:\n      - - ex:p\n        - $(name)\n`;
    assert.match(await yarrrmlToRml(yarrrml), /reference> "name"|rml:reference "name"/);
  });

  test('YAML errors are client errors', async () => {
    await assert.rejects(yarrrmlToRml('mappings: [a'), /not valid YAML/);
  });

  test('a YAML error says what and where, never the lines of the document (a fetched page is not read out)', async () => {
    for (const text of [
      'a: b\n  c: secret_value_q\n',
      'key: "secret_value_r\n',
      '- a\nb: secret_value_s\n',
    ]) {
      await assert.rejects(yarrrmlToRml(text), (error: Error) => {
        assert.match(error.message, /not valid YAML: .+ \(line \d+, column \d+\)$/);
        assert.doesNotMatch(error.message, /secret_value/);
        return true;
      });
    }
  });
});

describe('sinks', () => {
  test('the N-Quads writer writes graph names; a small backlog does not hold the run', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const chunks: string[] = [];
    const writer = new NQuadsWriter(out);
    writer.quad('<http://s>', '<http://p>', '"o"', '');
    writer.quad('<http://s>', '<http://p>', '"o"', '<http://g>');
    let drained = false;
    const drain = writer.drain().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(drained, true, "past the stream's high-water mark, nothing read yet: the run goes on");
    await drain;
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    await writer.end();
    assert.equal(chunks.join(''), '<http://s> <http://p> "o" .\n<http://s> <http://p> "o" <http://g> .\n');
  });

  test('the N-Quads writer waits for its stream past a backlog of 16 MB', async () => {
    const out = new PassThrough();
    const writer = new NQuadsWriter(out);
    const object = `"${'x'.repeat(200)}"`;
    for (let i = 0; i < 100_000; i++) writer.quad(`<http://s/${i}>`, '<http://p>', object, '');
    let drained = false;
    const drain = writer.drain().then(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(drained, false, 'about 22 MB unread: the writer waits');
    out.resume();
    await drain;
    await writer.end();
  });

  test('the RDF/JS sink hands out quads with the default graph', () => {
    const quads: string[] = [];
    rdfjsSink((q) => quads.push(`${q.subject.value} ${q.object.value} ${q.graph.termType}`)).quad(
      '<http://s>',
      '<http://p>',
      '"1"^^<http://www.w3.org/2001/XMLSchema#integer>',
      '',
    );
    assert.deepEqual(quads, ['http://s 1 DefaultGraph']);
  });
});

test('normalizeDateWithLang: a malformed language tag is a function error (422), not a crash', async () => {
  const { normalizeDate } = await import('../../lib/rml/functions/dates.ts');
  assert.equal(normalizeDate('01-Jan-20', 'dd-MMM-yy', false, 'en'), '2020-01-01');
  assert.throws(
    () => normalizeDate('01-Jan-20', 'dd-MMM-yy', false, 'x!!'),
    (error: unknown) => error instanceof RmlError && error.kind === 'invalid' && /x!!/.test(error.message),
  );
});
