// The original annotator's bugs (research seed-services §1, §5), one test each, named after
// the bug. Inputs are the fixtures' probes or small CSVs written here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderDescriptor } from '../../lib/annotator/index.ts';
import { annotateBytes, annotateFile, csvtocsvw, EXAMPLES } from './support.ts';

const UNIT = 'http://qudt.org/vocab/unit/';
type Json = Record<string, unknown>;

function columns(
  result: { descriptor: { tables: { tableSchema: { columns: Json[] } }[] } },
  table = 0,
): Json[] {
  return result.descriptor.tables[table]?.tableSchema.columns ?? [];
}
const unitId = (c: Json | undefined): unknown => (c?.['qudt:unit'] as Json | undefined)?.['@id'];

describe('annotator bug fixes', () => {
  it('bug: a URL cell in a metadata row crashed the original (HTTP 500)', async () => {
    const { descriptor } = await annotateFile(csvtocsvw('probes/urlmeta.csv'), `${EXAMPLES}urlmeta.csv`);
    const homepage = descriptor.notes.find((note) => note.label === 'Homepage');
    assert.deepEqual(homepage?.['oa:hasBody'], [
      {
        '@type': 'oa:TextualBody',
        'oa:purpose': 'oa:tagging',
        'oa:format': 'text/plain',
        'oa:value': 'https://example.org/x',
      },
    ]);
    assert.equal(homepage?.['@id'], `${EXAMPLES}urlmeta.csv/Homepage1`);
    assert.deepEqual(
      columns({ descriptor }).map((c) => c['name']),
      ['GID', 'TimeS', 'ForceKn'],
    );
  });

  it('bug: a two-column comma CSV gave an empty descriptor', async () => {
    const result = await annotateFile(csvtocsvw('probes/twocol.csv'), `${EXAMPLES}twocol.csv`);
    assert.equal(result.descriptor.tables.length, 1);
    assert.equal(result.descriptor.tables[0]?.dialect.delimiter, ',');
    assert.deepEqual(
      columns(result).map((c) => c['name']),
      ['GID', 'Time', 'Force'],
    );
  });

  it('bug: %20 in the file name doubled the CSV namespace', async () => {
    const result = await annotateFile(csvtocsvw('probes/my file.csv'), `${EXAMPLES}my%20file.csv`);
    assert.equal(result.descriptor['@context'][1]['csv'], `${EXAMPLES}my%20file.csv/`);
    assert.equal(result.descriptor['@id'], `${EXAMPLES}my%20file.csv`);
    assert.equal(result.metadataFileName, 'my%20file-metadata.json');
  });

  it('bug: mV was found as MegaV (QUDT gives MegaV the symbol "mV")', async () => {
    const result = await annotateBytes('Offset;5;mV\n\nTime [s];Voltage [mV]\n0,5;1,5\n1,0;2,5\n');
    assert.equal(unitId(columns(result)[2]), `${UNIT}MilliV`);
    const body = result.descriptor.notes[0]?.['oa:hasBody'][0] as Json;
    assert.equal(unitId(body), `${UNIT}MilliV`);
  });

  it('bug: μ (Greek small mu) found no unit where µ (micro sign) finds MicroM', async () => {
    const result = await annotateBytes('Strain [μm];Strain [µm];Time μs\n1;2;3\n4;5;6\n');
    assert.deepEqual(columns(result).slice(1).map(unitId), [
      `${UNIT}MicroM`,
      `${UNIT}MicroM`,
      `${UNIT}MicroSEC`,
    ]);
    // The names stay as the original made them: mu is a cased letter, dropped after title().
    assert.deepEqual(
      columns(result)
        .slice(1)
        .map((c) => c['name']),
      ['Strainm', 'Strainm', 'Times'],
    );
  });

  it('bug: 1 was taken for the unit NUM (labels, values and headerless columns)', async () => {
    const meta = await annotateBytes('Kamera 1:      0\nBackup erstellen:   1\n');
    const [kamera, backup] = meta.descriptor.notes;
    assert.equal(kamera?.label, 'Kamera 1');
    assert.equal(kamera?.['@id'], `${EXAMPLES}test.csv/Kamera10`);
    assert.deepEqual(backup?.['oa:hasBody'], [
      {
        '@type': 'qudt:QuantityValue',
        'qudt:value': { '@value': 1, '@type': 'http://www.w3.org/2001/XMLSchema#integer' },
      },
    ]);
    const table = await annotateFile(csvtocsvw('example8.csv'), `${EXAMPLES}example8.csv`);
    assert.equal(unitId(columns(table)[2]), undefined);
  });

  it('bug: UTF-8 files with ° were read as latin-1 (BOM, then strict UTF-8, then a detector)', async () => {
    const german = await annotateFile(csvtocsvw('probes/german.csv'), `${EXAMPLES}german.csv`);
    assert.equal(german.encoding, 'utf-8');
    const utf8 = await annotateBytes('Temp [°C];Zeit [s]\n1,5;2\n2,5;3\n');
    assert.deepEqual(columns(utf8)[1]?.['titles'], ['Temp [°C]', 'TempC']);
    assert.equal(utf8.descriptor.tables[0]?.dialect.encoding, 'utf-8');
    const bom = await annotateBytes(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('A [°C];B\n1;2\n3;4\n')]),
    );
    assert.deepEqual(columns(bom)[1]?.['titles'], ['A [°C]', 'AC']);
    // A real latin-1 file is still recognised (the detector step).
    const latin1 = await annotateFile(csvtocsvw('example.csv'), `${EXAMPLES}example.csv`);
    assert.equal(latin1.encoding, 'latin-1');
    assert.equal(latin1.descriptor.notes[1]?.label, 'Einspannlänge');
  });

  it('bug: a "False" metadata value became true (bool of a non-empty string)', async () => {
    const result = await annotateBytes('Enabled: True\nInverted: False\n');
    const values = result.descriptor.notes.map(
      (n) => ((n['oa:hasBody'][0] as Json)['qudt:value'] as Json)['@value'],
    );
    assert.deepEqual(values, [true, false]);
  });

  it('bug: return types nt, trig and hext answered HTTP 500', async () => {
    const { descriptor } = await annotateFile(csvtocsvw('probes/german.csv'), `${EXAMPLES}german.csv`);
    for (const type of ['nt', 'trig', 'hext']) {
      const rendered = await renderDescriptor(descriptor, type);
      assert.ok(rendered.body.includes(`${EXAMPLES}german.csv/table-1`), type);
      assert.equal(rendered.filename, `german-metadata.${type}`);
    }
  });
});

describe('uploads', () => {
  it('name the download after the client file, the namespace after labld URL', async () => {
    const { annotate } = await import('../../lib/annotator/index.ts');
    const result = await annotate({
      open: () => [Buffer.from('Time [s];Force [kN]\n0,5;1,5\n1,0;2,5\n')],
      csvUrl: 'https://labld.example/annotator/uploads/3f2a/my%20test.csv',
      fileName: 'my test.csv',
      field: 'file',
    });
    assert.equal(result.metadataFileName, 'my%20test-metadata.json');
    assert.equal(
      result.descriptor['@context'][1]['csv'],
      'https://labld.example/annotator/uploads/3f2a/my%20test.csv/',
    );
    assert.equal(
      result.descriptor.tables[0]?.url,
      'https://labld.example/annotator/uploads/3f2a/my%20test.csv',
    );
  });
});
