// Compiles an FnML function execution into a function of the record. Parameters are bound to
// positions once (unknown function, parameter or output → error before any data is read);
// list parameters receive all values, a scalar parameter with several values calls the
// function once per combination.
import type { FnArg, FnResult, FnScalar, FunctionContext, FunctionRegistry } from './functions/registry.ts';
import type { FunctionExecution } from './model.ts';
import type { Value, Values } from './sources.ts';

export type ValueGen = (record: unknown) => Values;

export function compileExecution(
  execution: FunctionExecution,
  functions: FunctionRegistry,
  context: FunctionContext,
  input: (map: FunctionExecution['inputs'][number]['value']) => ValueGen,
): ValueGen {
  const iri = execution.function;
  const spec = functions.get(iri);
  if (execution.output) functions.checkOutput(iri, execution.output);
  const bound = execution.inputs.map((i) => ({
    index: functions.parameterIndex(iri, i.parameter),
    gen: input(i.value),
  }));
  const arity = spec.parameters.length;
  const isList = spec.parameters.map((p) => p.list === true);

  return (record) => {
    const args: FnArg[] = new Array<FnArg>(arity);
    let multi = false;
    for (const { index, gen } of bound) {
      const values = gen(record);
      if (values === null) continue;
      if (isList[index]) {
        const current = args[index];
        args[index] = [
          ...(current === undefined ? [] : (current as FnScalar[])),
          ...(Array.isArray(values) ? values : [values]),
        ];
      } else if (Array.isArray(values)) {
        args[index] = values;
        multi = true;
      } else {
        args[index] = values;
      }
    }
    if (!multi) return toValues(spec.run(args, context, iri));
    const results: Value[] = [];
    for (const combination of combinations(args, isList)) {
      const result = toValues(spec.run(combination, context, iri));
      if (result === null) continue;
      if (Array.isArray(result)) results.push(...result);
      else results.push(result);
    }
    return results.length === 0 ? null : results;
  };
}

function toValues(result: FnResult): Values {
  if (result === null || result === undefined) return null;
  if (Array.isArray(result)) {
    const values = result.filter((v) => v !== null && v !== undefined);
    return values.length === 0 ? null : values;
  }
  if (typeof result === 'number' && !Number.isFinite(result)) return null;
  return result;
}

/** Every choice of one value per multi-valued scalar parameter. */
function* combinations(args: FnArg[], isList: boolean[]): Generator<FnArg[]> {
  const position = args.findIndex((a, i) => Array.isArray(a) && !isList[i]);
  if (position < 0) {
    yield args;
    return;
  }
  for (const value of args[position] as FnScalar[]) {
    const next = args.slice();
    next[position] = value;
    yield* combinations(next, isList);
  }
}
