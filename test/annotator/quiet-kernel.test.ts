// The SIMD quiet-row kernel (lib/annotator/quiet-rows.wat): built from its source, and taking
// exactly the rows the row regex takes (the regex alone is the oracle), whatever the text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from '../support/fc.ts';
import { ColumnStats } from '../../lib/annotator/pandas.ts';
import { QuietBlocks, quietRowPattern, type QuietRows } from '../../lib/annotator/quiet-rows.ts';
import type { Sep } from '../../lib/annotator/separators.ts';
import { buildWasm, WASM_SOURCES, wasmOf } from '../../tools/wasm.ts';
import { annotateBytes, outcomeOf } from './support.ts';

type State = 'settled' | 'float' | 'int';

function statsOf(state: State): ColumnStats {
  const stats = new ColumnStats();
  if (state === 'settled') stats.addText('x');
  else stats.addNumber(state === 'float' ? 2 : 1);
  return stats;
}

function pattern(sep: Sep, states: State[]): QuietRows {
  const rows = quietRowPattern(sep, states.length - 1, states.length, states.map(statsOf));
  assert.ok(rows?.kernel);
  return rows;
}

/**
 * What the annotator's loop does with a chunk: take quiet rows, step over the next line (the
 * general code's), take again. Every result in order.
 */
function walk(blocks: QuietBlocks, text: string): number[] {
  const out: number[] = [];
  let from = 0;
  while (from < text.length) {
    const taken = blocks.take(text, from);
    out.push(taken.chars, taken.lines);
    const next = text.indexOf('\n', from + taken.chars);
    if (next < 0) break;
    from = next + 1;
  }
  return out;
}

function agree(rows: QuietRows, text: string): void {
  assert.deepEqual(walk(new QuietBlocks(rows), text), walk(new QuietBlocks(rows, false), text));
}

// Cells that sit at the edges of what a quiet row may hold: numbers of every shape, commas,
// colons before whatever, quotes, stray CR, the other separators, whitespace at either end,
// bytes above ASCII (Unicode whitespace, NEL, a surrogate pair, lone surrogates), control
// characters, and
// fields long enough that their commas lie in different blocks of the kernel.
const cell = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '1',
    '-17',
    ' +3 ',
    '2,5',
    '2,5,1',
    ',',
    '3.5',
    '.5',
    '5.',
    '.',
    '1e3',
    '1E-3',
    '1e',
    '2.5e+7 ',
    'nan',
    'x',
    'a:b',
    'a:',
    'a::b',
    'a: b',
    '12:30:01',
    ':µ',
    ':\u00a0',
    ':\u3000',
    ':\u0085',
    '"q"',
    'a\rb',
    '\t',
    '|',
    ';',
    '°C',
    'µm',
    '\u0085',
    '\u00a0x',
    'x\u3000',
    '😀',
    '\ud800',
    'x\udc00',
    '\u0000',
    '\u001c',
    'ü,ö',
  ),
  // Long fields: a comma or two a block of 64 bytes apart.
  fc.constantFrom(
    `,${'x'.repeat(70)},`,
    `,${'u'.repeat(130)},`,
    `${'y'.repeat(60)},z`,
    `${'w'.repeat(63)}`,
    `${'v'.repeat(40)},`,
  ),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -999, max: 99999 }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => value.toString()),
);

const part = fc.record({
  sep: fc.constantFrom<Sep>(';', ',', '\t', '|'),
  states: fc.array(fc.constantFrom<State>('settled', 'float', 'int'), { minLength: 2, maxLength: 6 }),
});

/** Rows of the part's width mostly, each of plain numbers or text or of odd cells. */
function textFor(sep: Sep, states: State[]): fc.Arbitrary<string> {
  const plainCell = (state: State, r: number): string =>
    state === 'int' ? String(r) : state === 'float' ? `${r}.5` : sep === ',' ? 'text' : `${r},25`;
  const row = fc.oneof(
    { weight: 3, arbitrary: fc.nat(999).map((r) => states.map((state) => plainCell(state, r)).join(sep)) },
    {
      weight: 2,
      arbitrary: fc
        .array(cell, { minLength: states.length, maxLength: states.length })
        .map((cells) => cells.join(sep)),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(cell, { minLength: 1, maxLength: states.length + 2 })
        .map((cells) => cells.join(sep)),
    },
  );
  return fc
    .tuple(
      fc.array(fc.tuple(row, fc.constantFrom('\n', '\r\n', '\n', '\r')), { maxLength: 40 }),
      fc.boolean(),
    )
    .map(([rows, partial]) => {
      const text = rows.map(([line, eol]) => line + eol).join('');
      return partial ? `${text}1${sep}2` : text;
    });
}

/** Annotations of `texts` one after the other and all at once: the same descriptors and lines. */
async function sameTogetherAsAlone(texts: string[], chunk: number): Promise<void> {
  const outcome = async (text: string): Promise<unknown> => {
    const result = await annotateBytes(text, { chunk, provenance: { activity: 'urn:x', time: new Date(0) } });
    return [result.descriptor, result.lines];
  };
  const alone: unknown[] = [];
  for (const text of texts) alone.push(await outcome(text));
  assert.deepEqual(await Promise.all(texts.map(outcome)), alone);
}

describe('quiet-row kernel', () => {
  it('the committed quiet-rows.wasm is what quiet-rows.wat builds to', async () => {
    for (const source of WASM_SOURCES) {
      const built = Buffer.from(await buildWasm(source));
      assert.ok(
        built.equals(readFileSync(wasmOf(source))),
        `${wasmOf(source).pathname} is out of date: npm run build:wasm`,
      );
    }
  });

  it('takes exactly the rows the row regex takes (random rows)', () => {
    fc.assert(
      fc.property(
        part.chain(({ sep, states }) =>
          fc.tuple(fc.constant(sep), fc.constant(states), textFor(sep, states)),
        ),
        ([sep, states, text]) => agree(pattern(sep, states), text),
      ),
      { numRuns: 3000 },
    );
  });

  it('takes exactly the rows the row regex takes across windows of the encoded text', () => {
    // Texts longer than the kernel's window (64K UTF-16 units), ASCII and not.
    fc.assert(
      fc.property(
        part.chain(({ sep, states }) =>
          fc.tuple(fc.constant(sep), fc.constant(states), textFor(sep, states)),
        ),
        fc.nat(3000),
        fc.constantFrom('', 'µ', '😀'),
        ([sep, states, odd], at, wide) => {
          const plain = (r: number): string =>
            states.map((state) => (state === 'settled' ? `v${wide}${r % 7}` : String(r))).join(sep);
          const lines: string[] = [];
          for (let r = 0, length = 0; length < 140_000; r++) {
            const line = `${r === at ? odd.replaceAll(/[\r\n]/g, '') : plain(r)}\n`;
            lines.push(line);
            length += line.length;
          }
          agree(pattern(sep, states), lines.join(''));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('two annotations at once in one thread share the kernel and give what each gives alone', async () => {
    // Each part's column states must be the kernel's whenever it runs: tables of text only
    // (decimal commas) next to ones whose integer column has an empty cell late (the column
    // becomes float64; the text tables' states would let the row through). Different widths
    // (their windows lie at different places in the kernel's memory), text above ASCII,
    // chunks small enough that the annotations take turns often.
    const table = (width: number, first: (r: number) => string, count: number): string => {
      const rows = [`Prüfer;Bob`, '', Array.from({ length: width }, (_, i) => `K${i}`).join(';')];
      for (let r = 0; r < count; r++) {
        rows.push(Array.from({ length: width }, (_, i) => (i === 0 ? first(r) : `${r}µ,${i}`)).join(';'));
      }
      return `${rows.join('\n')}\n`;
    };
    const texts = [
      table(3, (r) => (r === 25000 ? '' : String(r)), 30000),
      table(66, (r) => `${r},5`, 1500),
      table(66, (r) => (r === 1200 ? '' : String(r)), 1500),
      table(3, (r) => `${r},5`, 30000),
    ];
    await sameTogetherAsAlone(texts, 4099);
  });

  it('two annotations at once, one of identical chunks: a window is reused only if it is still in memory', async () => {
    // Rows of 6 bytes in chunks of 683 rows: every chunk after the first 64 KiB is the same
    // string, which the other annotation's windows (same width) overwrite in between.
    const rows = (row: (r: number) => string): string =>
      `Prüfer;Bob\n\nK0;K1\n${Array.from({ length: 30000 }, (_, r) => `${row(r)}\n`).join('')}`;
    await sameTogetherAsAlone([rows(() => '7;2,5'), rows((r) => `${100 + (r % 900)};4,5`)], 6 * 683);
  });

  it('annotate gives the same descriptor with the kernel as the general code alone (random tables)', async () => {
    const table = fc
      .tuple(
        part,
        fc.array(fc.tuple(fc.nat(399), cell), { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n'),
        fc.integer({ min: 7, max: 5000 }),
      )
      .map(([{ sep, states }, odd, eol, chunk]) => {
        const header = states.map((_, i) => `K${i}`).join(sep);
        const rows: string[] = [];
        for (let r = 0; r < 400; r++) {
          const cells = states.map((state) =>
            state === 'int' ? String(r) : state === 'float' ? `${r}.5` : sep === ',' ? `t${r}` : `${r},5`,
          );
          for (const [row, value] of odd) if (row === r) cells[r % cells.length] = value;
          rows.push(cells.join(sep));
        }
        return { text: [`Prüfer${sep}Bob`, '', header, ...rows, ''].join(eol), chunk };
      });
    await fc.assert(
      fc.asyncProperty(table, async ({ text, chunk }) => {
        assert.deepEqual(await outcomeOf(text, chunk), await outcomeOf(text, 1 << 20, false));
      }),
      { numRuns: 150 },
    );
  });
});
