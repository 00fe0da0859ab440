// String templates (`http://ex.com/{ID}/{$.name}`): parsed once into literal parts and
// reference expressions. Backslash escapes `\{`, `\}` and `\\` are honoured inside and
// outside the braces; an unescaped brace that does not open or close a reference is an error.
import { mappingError } from './errors.ts';

export interface StringTemplate {
  /** Literal text around the references: `literals.length === references.length + 1`. */
  literals: string[];
  references: string[];
}

export function parseTemplate(template: string): StringTemplate {
  const literals: string[] = [];
  const references: string[] = [];
  let current = '';
  let inReference = false;
  for (let i = 0; i < template.length; i += 1) {
    const c = template[i]!;
    if (c === '\\') {
      const next = template[i + 1];
      if (next === '{' || next === '}' || next === '\\') {
        current += next;
        i += 1;
        continue;
      }
      throw invalid(template, `a lone backslash at position ${i} (escape it as \\\\)`);
    }
    if (c === '{') {
      if (inReference) throw invalid(template, `an unescaped "{" inside a reference at position ${i}`);
      literals.push(current);
      current = '';
      inReference = true;
    } else if (c === '}') {
      if (!inReference) throw invalid(template, `an unescaped "}" at position ${i}`);
      if (current === '') throw invalid(template, `an empty reference at position ${i}`);
      references.push(current);
      current = '';
      inReference = false;
    } else {
      current += c;
    }
  }
  if (inReference) throw invalid(template, 'an unclosed "{"');
  literals.push(current);
  return { literals, references };
}

function invalid(template: string, why: string): Error {
  return mappingError(`Invalid template "${template}": ${why}`);
}
