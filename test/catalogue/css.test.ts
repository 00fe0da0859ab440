// The stylesheet's colours: every text colour on every background it is used on reaches the
// WCAG AA contrast of 4.5:1 (relative luminance as defined by WCAG 2.x).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const css = readFileSync(new URL('../../gateways/catalogue/assets/catalogue.css', import.meta.url), 'utf8');
const variables = Object.fromEntries(
  [...css.matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!]),
);

function colour(name: string): string {
  const value = name.startsWith('--') ? variables[name] : name;
  assert.ok(value, `${name} is not a colour of the stylesheet`);
  return value;
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(colour(a)), luminance(colour(b))].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

test('the luminance formula: black on white is 21:1', () => {
  assert.equal(Math.round(contrast('#000000', '#ffffff') * 100) / 100, 21);
});

for (const [text, background, where] of [
  ['--text', '#ffffff', 'body text'],
  ['--text', '--soft', 'header, table heads'],
  ['--muted', '#ffffff', 'counts, dates, hints'],
  ['--muted', '--soft', 'signed-in line in the header'],
  ['--link', '#ffffff', 'links'],
  ['--link', '--soft', 'links in the header'],
  ...(['--code-keyword', '--code-string', '--code-iri', '--code-name'] as const).flatMap((c) => [
    [c, '#ffffff', `text view syntax colour ${c}`] as const,
    [c, '#fff8c5', `text view syntax colour ${c} on a linked line`] as const,
  ]),
  ['--muted', '#fff8c5', 'line numbers and punctuation on a linked line'],
  ['--focus', '#ffffff', 'focus outline'],
  ['--error', '#fdf2f1', 'error messages'],
  ['#ffffff', '--accent', 'buttons'],
  ['#ffffff', '#094a8c', 'buttons under the pointer'],
] as const) {
  test(`${where}: ${text} on ${background} ≥ 4.5:1`, () => {
    const ratio = contrast(text, background);
    assert.ok(ratio >= 4.5, `${ratio.toFixed(2)}:1`);
  });
}
