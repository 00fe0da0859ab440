// The function library behind FnML. A function is known by its IRI and declares its
// parameters (every IRI a mapping may use for each: FnO parameter resource and predicate,
// in every namespace it was published under) and its outputs, so a mapping that names an
// unknown function, parameter or output fails before any data is read.
import { functionError } from '../errors.ts';

export type FnScalar = string | number | boolean;
/** What a function receives per parameter: a value, all values (list parameters), or nothing. */
export type FnArg = FnScalar | FnScalar[] | undefined;
export type FnResult = FnScalar | FnScalar[] | null | undefined;

/** Observes comparisons made by condition functions (for per-rule statistics). */
export interface FunctionContext {
  compared(fn: string, left: string, right: string, result: boolean): void;
}

export interface ParameterSpec {
  names: string[];
  /** The parameter takes all values of its input as one list. */
  list?: boolean;
}

export interface FunctionSpec {
  parameters: ParameterSpec[];
  outputs: string[];
  run(args: FnArg[], context: FunctionContext, iri: string): FnResult;
}

export class FunctionRegistry {
  private readonly functions = new Map<string, FunctionSpec>();

  register(iri: string, spec: FunctionSpec): this {
    this.functions.set(iri, spec);
    return this;
  }

  has(iri: string): boolean {
    return this.functions.has(iri);
  }

  /** The function, or an error naming the IRI: an unknown function is never silently true. */
  get(iri: string): FunctionSpec {
    const spec = this.functions.get(iri);
    if (!spec) throw functionError(`Unknown function <${iri}>: no implementation is available`);
    return spec;
  }

  /** Position of a parameter of `iri`, or an error naming both. */
  parameterIndex(iri: string, parameter: string): number {
    const index = this.get(iri).parameters.findIndex((p) => p.names.includes(parameter));
    if (index < 0) throw functionError(`Function <${iri}> has no parameter <${parameter}>`);
    return index;
  }

  checkOutput(iri: string, output: string): void {
    if (!this.get(iri).outputs.includes(output))
      throw functionError(`Function <${iri}> has no output <${output}>`);
  }

  /** A copy to which a caller can add functions without changing the shared default. */
  extend(): FunctionRegistry {
    const copy = new FunctionRegistry();
    for (const [iri, spec] of this.functions) copy.register(iri, spec);
    return copy;
  }
}

/** First value of an argument as a string (functions that take one string). */
export function str(arg: FnArg): string | undefined {
  const value = Array.isArray(arg) ? arg[0] : arg;
  return value === undefined ? undefined : String(value);
}

export function list(arg: FnArg): FnScalar[] {
  if (arg === undefined) return [];
  return Array.isArray(arg) ? arg : [arg];
}

export function bool(arg: FnArg): boolean {
  const value = Array.isArray(arg) ? arg[0] : arg;
  return value === true || (typeof value === 'string' && value.toLowerCase() === 'true');
}

export function int(arg: FnArg): number | undefined {
  const value = str(arg);
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? Math.trunc(number) : undefined;
}
