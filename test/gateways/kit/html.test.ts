// The one HTML escaper (API docs page, catalogue page): nothing a text holds can open a tag,
// an entity or end an attribute, and a browser reads back the text as it was.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from '../../support/fc.ts';
import { escapeHtml } from '../../../gateways/kit/html.ts';

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };
// How a browser reads the references back (only the ones the escaper may write).
const unescape = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => NAMED[name] ?? "'");

it('escapes the five characters that matter in content and quoted attributes', () => {
  assert.equal(
    escapeHtml(`<a href="x" title='y'>&</a>`),
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
  );
});

it('property: the escaped text holds no markup and reads back as the text', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('&', '<', '>', '"', "'", 'a', ';', '#', 'é') }), (text) => {
      const html = escapeHtml(text);
      assert.doesNotMatch(html, /[<>"']/);
      assert.doesNotMatch(html, /&(?!(amp|lt|gt|quot|#39);)/);
      assert.equal(unescape(html), text);
    }),
  );
});
