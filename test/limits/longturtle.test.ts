// longturtle on hostile graphs: a long chain of blank nodes (written inline, each level
// indents every line below it, and RDFC-1.0 labelling walks the chain again per node) took
// 31 s at 500 nodes and ran out of memory at 100,000. Now both are bounded and the text
// still reads back to the same graph.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isomorphic, parse, serialize } from '../../lib/rdf/index.ts';

const chain = (n: number): string =>
  '@prefix ex: <http://ex.org/> . ex:s ex:p ' + '[ ex:p '.repeat(n) + '1' + ' ]'.repeat(n) + ' .';

describe('longturtle and long blank-node chains', () => {
  it('writes a 500-node chain in seconds, as the same graph', async () => {
    const quads = await parse(chain(500), 'turtle');
    const started = performance.now();
    const text = await serialize(quads, 'longturtle');
    assert.ok(performance.now() - started < 10_000, `took ${performance.now() - started} ms`);
    assert.equal((await parse(text, 'turtle')).length, quads.length);
    // (isomorphic() would canonicalise without a budget: what took 31 s.)
    const short = await parse(chain(20), 'turtle');
    assert.ok(await isomorphic(await parse(await serialize(short, 'longturtle'), 'turtle'), short));
  });

  it('writes a 100,000-node chain with bounded indentation', async () => {
    const quads = await parse(chain(100_000), 'turtle');
    const text = await serialize(quads, 'longturtle');
    assert.equal((await parse(text, 'turtle')).length, quads.length);
    let widest = 0;
    for (const line of text.split('\n')) widest = Math.max(widest, line.length - line.trimStart().length);
    assert.ok(widest <= 4 * 2 * 9, `indented ${widest} spaces`);
  });

  it('still nests a shallow chain inline, and writes long lists flat', async () => {
    const text = await serialize(await parse(chain(3), 'turtle'), 'longturtle');
    assert.doesNotMatch(text, /_:/);
    const list = await serialize(
      await parse(`<http://ex.org/s> <http://ex.org/p> (${' 1'.repeat(5000)} ) .`, 'turtle'),
      'longturtle',
    );
    assert.doesNotMatch(list, /_:|\[/);
  });
});
