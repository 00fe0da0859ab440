// IDLab functions (FnOio/idlab-functions-java): the condition helpers YARRRML compiles to
// (equal, notEqual, trueCondition, isNull, listContainsElement, …) and the string and date
// helpers of the RMLMapper tests. Registered under every namespace the IDLab functions were
// published in, with each parameter known by its FnO resource and its predicate.
import { randomUUID } from 'node:crypto';
import { GREL, IDLAB_NAMESPACES } from '../vocab.ts';
import { normalizeDate } from './dates.ts';
import {
  bool,
  list,
  str,
  type FnArg,
  type FnResult,
  type FunctionContext,
  type FunctionRegistry,
  type ParameterSpec,
} from './registry.ts';

/** An IDLab parameter: `_x` (FnO resource) and `x` (predicate) in every IDLab namespace. */
const p = (local: string, predicate = local): ParameterSpec => ({
  names: IDLAB_NAMESPACES.flatMap((ns) => [`${ns}_${local}`, `${ns}${predicate}`]),
});
const grel = (...locals: string[]): ParameterSpec => ({ names: locals.map((l) => `${GREL}${l}`) });

const VALUE = grel('valueParam', 'valueParameter');
const VALUE2 = grel('valueParam2', 'valueParameter2');
const STR = p('str');
const OUT = (local: string) => IDLAB_NAMESPACES.flatMap((ns) => [`${ns}_${local}`, `${ns}${local}`]);
const STRING_OUT = [...OUT('stringOut'), `${GREL}stringOut`];
const BOOL_OUT = [...OUT('boolOut'), ...IDLAB_NAMESPACES.map((ns) => `${ns}o_boolOut`)];

type Run = (args: FnArg[], context: FunctionContext, iri: string) => FnResult;

function compare(negate: boolean): Run {
  return ([a, b], context, iri) => {
    const left = str(a) ?? '';
    const right = str(b) ?? '';
    const result = (left === right) !== negate;
    context.compared(iri, left, right, result);
    return result;
  };
}

const MIME: Record<string, string> = {
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  txt: 'text/plain',
  ttl: 'text/turtle',
  nt: 'application/n-triples',
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

const LANGUAGE = p('lang');

export function registerIdlab(registry: FunctionRegistry): void {
  const add = (local: string, parameters: ParameterSpec[], outputs: string[], run: Run) => {
    for (const ns of IDLAB_NAMESPACES) registry.register(`${ns}${local}`, { parameters, outputs, run });
  };

  add('equal', [VALUE, VALUE2], BOOL_OUT, compare(false));
  add('notEqual', [VALUE, VALUE2], BOOL_OUT, compare(true));
  add('trueCondition', [p('strBoolean'), STR], STRING_OUT, ([condition, value]) =>
    bool(condition) ? (value ?? null) : null,
  );
  add(
    'isNull',
    [STR],
    BOOL_OUT,
    ([value]) => value === undefined || (Array.isArray(value) && value.length === 0),
  );
  add(
    'stringContainsOtherString',
    [STR, p('otherStr'), p('delimiter')],
    BOOL_OUT,
    ([s, other, delimiter]) => {
      const parts = (str(s) ?? '').split(str(delimiter) ?? ' ');
      return parts.includes(str(other) ?? '');
    },
  );
  add('listContainsElement', [{ ...p('list'), list: true }, STR], BOOL_OUT, ([items, s]) => {
    const wanted = str(s);
    return list(items).some((item) => String(item) === wanted);
  });
  add('decide', [STR, p('expectedStr'), p('result')], STRING_OUT, ([s, expected, result]) => {
    return str(s) === str(expected) ? (str(result) ?? null) : null;
  });
  add('getMIMEType', [STR], STRING_OUT, ([s]) => {
    const extension = /\.([A-Za-z0-9]+)$/.exec(str(s) ?? '')?.[1]?.toLowerCase();
    return extension ? (MIME[extension] ?? null) : null;
  });
  add(
    'inRange',
    [p('test', 'p_test'), p('from', 'p_from'), p('to', 'p_to')],
    BOOL_OUT,
    ([test, from, to]) => {
      const value = Number(str(test));
      if (str(test) === undefined || Number.isNaN(value)) return false;
      const low = str(from) === undefined ? -Infinity : Number(str(from));
      const high = str(to) === undefined ? Infinity : Number(str(to));
      return value >= low && value < high;
    },
  );
  add('random', [], STRING_OUT, () => randomUUID());
  add('slugify', [STR], STRING_OUT, ([s]) => {
    const value = str(s);
    if (value === undefined) return null;
    return value
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  });
  add('toUpperCaseURL', [STR], STRING_OUT, ([s]) => {
    const value = str(s);
    if (value === undefined) return null;
    const upper = value.toUpperCase();
    return /^HTTPS?:\/\//.test(upper) ? upper : `http://${upper}`;
  });
  add('concat', [STR, p('otherStr'), p('delimiter')], STRING_OUT, ([a, b, delimiter]) => {
    const x = str(a);
    const y = str(b);
    return x === undefined || y === undefined ? null : `${x}${str(delimiter) ?? ''}${y}`;
  });
  add('concatSequence', [{ ...p('seq'), list: true }, p('delimiter')], STRING_OUT, ([items, delimiter]) => {
    return list(items).join(str(delimiter) ?? '');
  });
  const date = (withTime: boolean, withLanguage: boolean): Run => {
    return ([value, pattern, language]) => {
      const s = str(value);
      const f = str(pattern);
      if (s === undefined || f === undefined) return null;
      return normalizeDate(s, f, withTime, withLanguage ? (str(language) ?? 'en') : 'en');
    };
  };
  const DATE = [p('strDate'), p('pattern')];
  add('normalizeDate', DATE, STRING_OUT, date(false, false));
  add('normalizeDateWithLang', [...DATE, LANGUAGE], STRING_OUT, date(false, true));
  add('normalizeDateTime', DATE, STRING_OUT, date(true, false));
  add('normalizeDateTimeWithLang', [...DATE, LANGUAGE], STRING_OUT, date(true, true));
  // Published IDLab test helpers (used by the RML-FNML suite).
  add('alwaysReturnsABC', [], STRING_OUT, () => 'ABC');
  add('generateNull', [], STRING_OUT, () => null);
}
