// GREL string, boolean and array functions (FnO descriptions of FnOio/grel-functions-fno):
// the ones the RML test suites and YARRRML users reach for. Behaviour follows OpenRefine's
// GREL documentation.
import { createHash } from 'node:crypto';
import { GREL } from '../vocab.ts';
import {
  bool,
  int,
  list,
  str,
  type FnArg,
  type FnResult,
  type FunctionRegistry,
  type ParameterSpec,
} from './registry.ts';

const p = (...locals: string[]): ParameterSpec => ({ names: locals.map((l) => `${GREL}${l}`) });
const listParam = (...locals: string[]): ParameterSpec => ({ ...p(...locals), list: true });

const VALUE = p('valueParam', 'valueParameter');
const VALUE2 = p('valueParam2', 'valueParameter2');
const SEP = p('param_string_sep', 'p_string_sep');
const SUB = p('param_string_sub', 'string_sub');
const FIND = p('param_find', 'p_string_find');
const REPLACE = p('param_replace', 'p_string_replace');
const FROM = p('p_int_i_from', 'param_int_i_from');
const TO = p('p_int_i_opt_to', 'param_int_i_opt_to');
const BOOL_B = p('param_b', 'bool_b');
const ARRAY = listParam('param_a', 'p_array_a');

const STRING_OUT = [`${GREL}stringOut`, `${GREL}stringOutput`];
const NUMBER_OUT = [`${GREL}output_number`, `${GREL}o_number`];
const BOOL_OUT = [`${GREL}output_bool`, `${GREL}o_bool`];
const ARRAY_OUT = [`${GREL}output_array`, `${GREL}o_array`];
const ANY_OUT = [`${GREL}output_any`, `${GREL}o_any`];

type Run = (args: FnArg[]) => FnResult;

/** A one-string function: null in, null out. */
const onString =
  (f: (s: string) => FnResult): Run =>
  ([value]) => {
    const s = str(value);
    return s === undefined ? null : f(s);
  };

function escape(value: string, mode: string): string {
  switch (mode) {
    case 'html':
    case 'xml':
      return value.replace(
        /[&<>"']/g,
        (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`,
      );
    case 'url':
      return encodeURIComponent(value).replace(/%20/g, '+');
    case 'csv':
      return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
    case 'javascript':
      return JSON.stringify(value).slice(1, -1);
    default:
      return value;
  }
}

export function registerGrel(registry: FunctionRegistry): void {
  const add = (local: string, parameters: ParameterSpec[], outputs: string[], run: Run) =>
    registry.register(`${GREL}${local}`, { parameters, outputs, run });

  add(
    'toUpperCase',
    [VALUE],
    STRING_OUT,
    onString((s) => s.toUpperCase()),
  );
  add(
    'toLowerCase',
    [VALUE],
    STRING_OUT,
    onString((s) => s.toLowerCase()),
  );
  add(
    'string_toTitlecase',
    [VALUE],
    STRING_OUT,
    onString((s) =>
      s.toLowerCase().replace(/(^|\s)(\p{L})/gu, (_m, space: string, c: string) => space + c.toUpperCase()),
    ),
  );
  add(
    'string_trim',
    [VALUE],
    STRING_OUT,
    onString((s) => s.trim()),
  );
  add(
    'string_length',
    [VALUE],
    NUMBER_OUT,
    onString((s) => [...s].length),
  );
  add(
    'string_toString',
    [p('param_any_e', 'p_any_e')],
    STRING_OUT,
    onString((s) => s),
  );
  add(
    'string_toNumber',
    [p('param_any_e', 'p_any_e')],
    NUMBER_OUT,
    onString((s) => (s.trim() === '' ? null : Number(s))),
  );
  add('string_substring', [VALUE, FROM, TO], STRING_OUT, ([value, from, to]) => {
    const s = str(value);
    if (s === undefined) return null;
    // Out-of-range bounds are an error in GREL (Java), which FnML turns into "no value".
    const norm = (i: number) => (i < 0 ? s.length + i : i);
    const start = norm(int(from) ?? 0);
    const end = norm(int(to) ?? s.length);
    return start < 0 || end > s.length || start > end ? null : s.slice(start, end);
  });
  add('string_replace', [VALUE, FIND, REPLACE], STRING_OUT, ([value, find, replace]) => {
    const s = str(value);
    const f = str(find);
    return s === undefined ? null : f === undefined ? s : s.split(f).join(str(replace) ?? '');
  });
  add('string_replaceChars', [VALUE, FIND, REPLACE], STRING_OUT, ([value, find, replace]) => {
    const s = str(value);
    if (s === undefined) return null;
    const from = [...(str(find) ?? '')];
    const to = [...(str(replace) ?? '')];
    return [...s].map((c) => (from.includes(c) ? (to[from.indexOf(c)] ?? '') : c)).join('');
  });
  add(
    'string_contains',
    [VALUE, SUB],
    BOOL_OUT,
    ([value, sub]) => str(value)?.includes(str(sub) ?? '') ?? null,
  );
  add(
    'string_startsWith',
    [VALUE, SUB],
    BOOL_OUT,
    ([value, sub]) => str(value)?.startsWith(str(sub) ?? '') ?? null,
  );
  add(
    'string_endsWith',
    [VALUE, SUB],
    BOOL_OUT,
    ([value, sub]) => str(value)?.endsWith(str(sub) ?? '') ?? null,
  );
  add(
    'string_indexOf',
    [VALUE, SUB],
    NUMBER_OUT,
    ([value, sub]) => str(value)?.indexOf(str(sub) ?? '') ?? null,
  );
  add(
    'string_lastIndexOf',
    [VALUE, SUB],
    NUMBER_OUT,
    ([value, sub]) => str(value)?.lastIndexOf(str(sub) ?? '') ?? null,
  );
  add('string_split', [VALUE, SEP], ARRAY_OUT, ([value, sep]) => str(value)?.split(str(sep) ?? ',') ?? null);
  add('string_chomp', [VALUE, SEP], STRING_OUT, ([value, sep]) => {
    const s = str(value);
    const suffix = str(sep) ?? '';
    return s === undefined ? null : suffix && s.endsWith(suffix) ? s.slice(0, -suffix.length) : s;
  });
  add(
    'string_md5',
    [VALUE],
    STRING_OUT,
    onString((s) => createHash('md5').update(s).digest('hex')),
  );
  add(
    'string_sha1',
    [VALUE],
    STRING_OUT,
    onString((s) => createHash('sha1').update(s).digest('hex')),
  );
  add('escape', [VALUE, p('modeParam', 'modeParameter')], STRING_OUT, ([value, mode]) => {
    const s = str(value);
    return s === undefined ? null : escape(s, str(mode) ?? '');
  });
  add('string_diff', [VALUE, VALUE2], STRING_OUT, ([a, b]) => {
    const x = str(a);
    const y = str(b);
    if (x === undefined || y === undefined) return null;
    let i = 0;
    while (i < x.length && x[i] === y[i]) i += 1;
    return y.slice(i);
  });
  add('array_join', [ARRAY, SEP], STRING_OUT, ([array, sep]) => list(array).join(str(sep) ?? ''));
  add('array_length', [ARRAY], NUMBER_OUT, ([array]) => list(array).length);
  add('array_sum', [ARRAY], NUMBER_OUT, ([array]) =>
    list(array).reduce<number>((sum, v) => sum + Number(v), 0),
  );
  add('array_reverse', [ARRAY], ARRAY_OUT, ([array]) => [...list(array)].reverse());
  add('array_sort', [ARRAY], ARRAY_OUT, ([array]) => [...list(array)].sort());
  add('array_uniques', [ARRAY], ARRAY_OUT, ([array]) => [...new Set(list(array))]);
  add('boolean_not', [BOOL_B], BOOL_OUT, ([b]) => !bool(b));
  add('boolean_and', [listParam('bool_array_b', 'param_rep_b')], BOOL_OUT, ([b]) =>
    list(b).every((v) => bool(v)),
  );
  add('boolean_or', [listParam('bool_array_b', 'param_rep_b')], BOOL_OUT, ([b]) =>
    list(b).some((v) => bool(v)),
  );
  add('boolean_xor', [listParam('bool_array_b', 'param_rep_b')], BOOL_OUT, ([b]) => {
    return list(b).filter((v) => bool(v)).length % 2 === 1;
  });
  add(
    'controls_if',
    [BOOL_B, p('param_true', 'any_true'), p('param_false', 'any_false')],
    ANY_OUT,
    ([b, t, f]) => {
      return (bool(b) ? t : f) ?? null;
    },
  );
}
