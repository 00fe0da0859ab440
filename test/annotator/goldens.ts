// The golden descriptors: every CSV of seed-examples/csvtocsvw/ and probes/ with the original's
// descriptor (regenerated-v1.3.5/ and probes/*-metadata.json). Where labld fixes a bug of the
// original, the golden file is patched here, by hand, with exactly that fix; the bug tests
// (bugs.test.ts) show each fix on its own. Used by fixtures.test.ts (the domain function) and
// http.e2e.test.ts (the same through the gateway, with the CSVs served from another host).
import assert from 'node:assert/strict';
import { EXAMPLES, golden } from './support.ts';

export type Json = Record<string, unknown>;
export type Golden = Json & {
  notes: Json[];
  tables: (Json & { dialect: Json; tableSchema: { columns: Json[] } })[];
};

const UNIT = 'http://qudt.org/vocab/unit/';
const QUDT = 'http://qudt.org/schema/qudt/';

/** Allowed by the issue: the real delimiter character instead of the regex source. */
function realDelimiters(descriptor: Golden): void {
  const real: Record<string, string> = { '\\t': '\t', '\\|': '|' };
  for (const table of descriptor.tables) {
    const delimiter = table.dialect['delimiter'] as string;
    table.dialect['delimiter'] = real[delimiter] ?? delimiter;
  }
}

/** Bug fix "1 taken for unit NUM": the quantity keeps its value, without the unit. */
function dropNumUnit(descriptor: Golden, noteId: string): void {
  const note = descriptor.notes.find((n) => (n['@id'] as string).endsWith(`/${noteId}`));
  assert.ok(note, `golden note ${noteId}`);
  for (const body of note['oa:hasBody'] as Json[]) {
    if ((body['qudt:unit'] as Json | undefined)?.['@id'] === `${UNIT}NUM`) delete body['qudt:unit'];
  }
}

function column(descriptor: Golden, table: number, name: string): Json {
  const found = descriptor.tables[table]?.tableSchema.columns.find((c) => c['name'] === name);
  assert.ok(found, `golden column ${name}`);
  return found;
}

function renameNote(descriptor: Golden, from: string, to: string, label: string): void {
  const note = descriptor.notes.find((n) => (n['@id'] as string).endsWith(`/${from}`)) as Json;
  note['@id'] = (note['@id'] as string).replace(new RegExp(`${from}$`), to);
  note['label'] = label;
}

export interface GoldenCase {
  title: string;
  /** The CSV, relative to seed-examples/csvtocsvw/. */
  csv: string;
  /** The data_url the golden was made from (below EXAMPLES). */
  url: string;
  /** The golden descriptor, relative to seed-examples/csvtocsvw/. */
  golden: string;
  patch: (g: Golden) => void;
}

export const GOLDEN_CASES: readonly GoldenCase[] = [
  {
    title: 'example.csv (tab, latin-1, 16 metadata rows, two header rows)',
    csv: 'example.csv',
    url: `${EXAMPLES}example.csv`,
    golden: 'regenerated-v1.3.5/example-metadata.json',
    patch: (g) => dropNumUnit(g, 'GeschwindigkeitEModul14'),
  },
  {
    title: 'example2.csv (one ; info row, tab table with [unit] headers)',
    csv: 'example2.csv',
    url: `${EXAMPLES}example2.csv`,
    golden: 'regenerated-v1.3.5/example2-metadata.json',
    patch: () => {},
  },
  {
    title: 'example3.csv (config-style Key: value, 86 notes, no table)',
    csv: 'example3.csv',
    url: `${EXAMPLES}example3.csv`,
    golden: 'regenerated-v1.3.5/example3-metadata.json',
    patch: (g) => {
      for (const id of [
        'BackupErstellen9',
        'Probentyp17',
        'Kamera47',
        'XAchse66',
        'Anzeige70',
        'Anzeige271',
      ]) {
        dropNumUnit(g, id);
      }
      for (const id of ['Messkanal1Tara116', 'Messkanal3Tara120']) dropNumUnit(g, id);
      // The label's last word `1` is no longer taken for a unit, so it stays in label and @id.
      renameNote(g, 'Kamera47', 'Kamera147', 'Kamera 1');
      renameNote(g, 'Anzeige70', 'Anzeige170', 'Anzeige 1');
    },
  },
  {
    title: 'example4.csv (MTS export: | and tab blocks, headerless tables)',
    csv: 'example4.csv',
    url: `${EXAMPLES}example4.csv`,
    golden: 'regenerated-v1.3.5/example4-metadata.json',
    patch: (g) => {
      delete column(g, 0, '1')['qudt:unit'];
      delete column(g, 1, '1')['qudt:unit'];
    },
  },
  {
    title: 'example5.csv (pandas export, URLs and dates; UTF-8 read as UTF-8)',
    csv: 'example5.csv',
    url: `${EXAMPLES}example5.csv`,
    golden: 'regenerated-v1.3.5/example5-metadata.json',
    patch: (g) => {
      (g.tables[0] as Golden['tables'][0]).dialect['encoding'] = 'utf-8';
      column(g, 0, 'AgingTempC')['titles'] = ['Aging Temp [°C]', 'AgingTempC'];
    },
  },
  {
    title: 'example6.csv (Property,Value,Unit table)',
    csv: 'example6.csv',
    url: `${EXAMPLES}example6.csv`,
    golden: 'regenerated-v1.3.5/example6-metadata.json',
    patch: () => {},
  },
  {
    title: 'example7.csv (first data row taken as a second header row)',
    csv: 'example7.csv',
    url: `${EXAMPLES}example7.csv`,
    golden: 'regenerated-v1.3.5/example7-metadata.json',
    patch: (g) => {
      // `1` is no longer the unit NUM, so the title "1 N/C" yields its next word, N/C.
      column(g, 0, 'Value')['qudt:unit'] = { '@id': `${UNIT}N-PER-C`, '@type': `${QUDT}DerivedUnit` };
    },
  },
  {
    title: 'example8.csv (numbers only, no header)',
    csv: 'example8.csv',
    url: `${EXAMPLES}example8.csv`,
    golden: 'regenerated-v1.3.5/example8-metadata.json',
    patch: (g) => {
      delete column(g, 0, '1')['qudt:unit'];
    },
  },
  {
    title: 'alltext.csv (an all-text table is read as metadata, as the original does)',
    csv: 'probes/alltext.csv',
    url: `${EXAMPLES}alltext.csv`,
    golden: 'probes/alltext-metadata.json',
    patch: () => {},
  },
  {
    title: 'trailing.csv (trailing separator: extra Unnamed2 column, as the original)',
    csv: 'probes/trailing.csv',
    url: `${EXAMPLES}trailing.csv`,
    golden: 'probes/trailing-metadata.json',
    patch: () => {},
  },
  {
    title: 'german.csv (; and decimal commas, a unit cell merged into the quantity)',
    csv: 'probes/german.csv',
    url: `${EXAMPLES}german.csv`,
    golden: 'probes/german-metadata.json',
    patch: (g) => {
      (g.tables[0] as Golden['tables'][0]).dialect['encoding'] = 'utf-8';
    },
  },
  {
    title: 'suffix.csv (space-separated units; the glued DisplacementMm gains MilliM)',
    csv: 'probes/suffix.csv',
    url: `${EXAMPLES}suffix.csv`,
    golden: 'probes/suffix-metadata.json',
    patch: (g) => {
      const displacement = column(g, 0, 'Displacementmm');
      const { ['@type']: type, format } = displacement;
      delete displacement['@type'];
      delete displacement['format'];
      Object.assign(displacement, {
        'qudt:unit': { '@id': `${UNIT}MilliM`, '@type': `${QUDT}DerivedUnit` },
        '@type': type,
        format,
      });
    },
  },
  {
    title: 'my file.csv (URL with %20: one namespace, not two)',
    csv: 'probes/my file.csv',
    url: `${EXAMPLES}my%20file.csv`,
    golden: 'probes/my%20file-metadata.json',
    patch: (g) => {
      const fixed = JSON.parse(
        JSON.stringify(g).replaceAll('my%20file.csvmy%20file.csv/', 'my%20file.csv/'),
      ) as Golden;
      Object.assign(g, fixed);
      (g.tables[0] as Golden['tables'][0]).dialect['encoding'] = 'utf-8';
    },
  },
  {
    title: 'twocol.csv (two comma columns: a table instead of an empty descriptor)',
    csv: 'probes/twocol.csv',
    url: `${EXAMPLES}twocol.csv`,
    golden: 'probes/twocol-metadata.json',
    patch: (g) => {
      const ns = `${EXAMPLES}twocol.csv/`;
      const data = (name: string): Json => ({
        titles: [name, name],
        '@id': `${ns}table-1-${name}`,
        name,
        '@type': ['Column'],
        format: { '@id': 'http://www.w3.org/2001/XMLSchema#double' },
      });
      g.tables = [
        {
          '@id': `${ns}table-1`,
          url: `${EXAMPLES}twocol.csv`,
          dialect: { delimiter: ',', skipRows: 0, headerRowCount: 1, encoding: 'ascii' },
          tableSchema: {
            columns: [
              {
                '@id': `${ns}table-1-GID`,
                name: 'GID',
                titles: ['GID', 'Generic Identifier'],
                datatype: 'string',
                required: true,
                suppressOutput: true,
                '@type': 'Column',
              },
              data('Time'),
              data('Force'),
            ],
            primaryKey: 'GID',
            aboutUrl: `${ns}table-1-gid-{GID}`,
          } as unknown as Golden['tables'][0]['tableSchema'],
        } as Golden['tables'][0],
      ];
    },
  },
];

/**
 * The descriptor labld must give for a case, provenance excluded; with `base`, the CSV is
 * served from there instead of EXAMPLES (every IRI derived from the URL moves with it).
 */
export function expectedDescriptor(c: GoldenCase, base = EXAMPLES): Json {
  const expected = golden(c.golden) as Golden;
  realDelimiters(expected);
  c.patch(expected);
  return JSON.parse(JSON.stringify(expected).replaceAll(EXAMPLES, base)) as Json;
}

/** The data_url of a case when its CSV is served from `base`. */
export const caseUrl = (c: GoldenCase, base = EXAMPLES): string => c.url.replace(EXAMPLES, base);
