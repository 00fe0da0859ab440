// The RML engine's errors worded for a YARRRML mapping given as mapping_url: an expression
// the engine cannot read names its rule and the YARRRML key it was written under; a source
// URL that cannot be opened names that source and the rules reading it, not the mapping.
import { DomainError, invalid } from '../process/errors.ts';
import { redactUrl } from '../fetch/errors.ts';
import { RmlError, type ExpressionFault } from '../rml/index.ts';
import { ruleOf, sourceDeclaration, type YarrrmlMapping } from './mapping.ts';

const FIELD = 'mapping_url';

/** An engine error about a JSONPath/XPath as an invalid error naming mapping_url, the rule and the key; others pass. */
export function expressionFailure(error: unknown): unknown {
  if (!(error instanceof RmlError) || !error.fault) return error;
  return invalid(`${FIELD}: ${yarrrmlWords(error.fault)}`, FIELD);
}

/** `rule "people": the iterator "$.a[" (sources) is not valid JSONPath: … (at position 4)`. */
export function yarrrmlWords(fault: ExpressionFault): string {
  const at = fault.position === undefined ? '' : ` (at position ${fault.position})`;
  // Iterators are written in a source's declaration; references as $(…) in s, po, conditions.
  const what = fault.field?.startsWith('rml:iterator')
    ? `the iterator ${JSON.stringify(fault.expression)} (sources)`
    : `the reference $(${fault.expression})`;
  const rule = fault.rule === undefined ? '' : `rule ${JSON.stringify(fault.rule)}: `;
  return `${rule}${what} ${fault.reason}${at}`;
}

/** The rules that read `url`, through a declared source or an inline one. */
export function rulesReading(mapping: YarrrmlMapping, url: string): string[] {
  const strip = (access: string | undefined) => access?.replace(/\/+$/, '');
  const wanted = strip(url);
  return mapping.rules.filter((name) => {
    const rule = ruleOf(mapping, name);
    const given: unknown = rule.sources ?? rule.source;
    // `sources: data`, `sources: [data, other]`, `sources: [[file~jsonpath, $.x]]`, or one inline list.
    const inline = Array.isArray(given) && given.length === 2 && /~/.test(String(given[0]));
    const entries: unknown[] = Array.isArray(given) && !inline ? given : [given];
    return entries.some((entry) => {
      const declared = typeof entry === 'string' ? mapping.sources.find((s) => s.name === entry) : undefined;
      return strip((declared ?? sourceDeclaration(undefined, entry)).access) === wanted;
    });
  });
}

/**
 * A source the mapping names that cannot be opened or read: the loader's error (worded
 * for mapping_url) reworded to name the source and its rules. Non-client errors pass.
 */
export function sourceFailure(error: unknown, url: string, rules: string[]): unknown {
  if (!(error instanceof DomainError)) return error;
  const shown = redactUrl(url);
  const reason = error.message.replace(/^mapping_url: /, '');
  const whose =
    rules.length === 0
      ? ''
      : ` (rule${rules.length > 1 ? 's' : ''} ${rules.map((r) => JSON.stringify(r)).join(', ')})`;
  const detail = reason.startsWith(shown)
    ? `the mapping's source ${shown}${whose}${reason.slice(shown.length)}`
    : `the mapping's source ${shown}${whose}: ${reason}`;
  return new DomainError(error.kind, `${FIELD}: ${detail}`, FIELD);
}
