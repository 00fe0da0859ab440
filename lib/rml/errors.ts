// Errors of the RML engine. All are of kind `invalid`: the mapping, a source or the data it
// holds is wrong, never the engine, so callers can hand the message to the user as is. Which
// of them is wrong is the error's `part`.
import { DomainError } from '../process/errors.ts';

export type RmlErrorPart = 'mapping' | 'source' | 'data' | 'function';

/**
 * A JSONPath or XPath expression the engine cannot read, and where it was written: the
 * field (`rml:iterator`, `rml:reference`, …) and the triples map are added as the error
 * travels up, so a caller can word it in its own vocabulary (YARRRML keys, say).
 */
export interface ExpressionFault {
  expression: string;
  /** What is wrong, as a predicate: `is not valid JSONPath: "]" expected`. */
  reason: string;
  /** Offset in `expression` where reading stopped, when known. */
  position?: number;
  field?: string;
  rule?: string;
}

export class RmlError extends DomainError {
  readonly part: RmlErrorPart;
  readonly fault: ExpressionFault | undefined;

  constructor(part: RmlErrorPart, detail: string, fault?: ExpressionFault) {
    super('invalid', detail);
    this.name = 'RmlError';
    this.part = part;
    this.fault = fault;
  }
}

export const mappingError = (detail: string): RmlError => new RmlError('mapping', detail);
export const dataError = (detail: string): RmlError => new RmlError('data', detail);
export const sourceError = (detail: string): RmlError => new RmlError('source', detail);
export const functionError = (detail: string): RmlError => new RmlError('function', detail);

/** `Triples map "People": rml:iterator "$.a[" is not valid JSONPath: … (at position 4)`. */
export function describeFault(fault: ExpressionFault): string {
  const at = fault.position === undefined ? '' : ` (at position ${fault.position})`;
  const what = `${fault.field ? `${fault.field} ` : ''}${JSON.stringify(fault.expression)} ${fault.reason}${at}`;
  return fault.rule === undefined ? what : `Triples map ${JSON.stringify(fault.rule)}: ${what}`;
}

export const expressionError = (fault: ExpressionFault): RmlError =>
  new RmlError('mapping', describeFault(fault), fault);

type Place = Pick<ExpressionFault, 'field' | 'rule'>;

/**
 * `error` with what the caller knows of where its expression was written; what the error
 * already says wins (the innermost place is the precise one). Other errors pass unchanged.
 */
export function placeFault(error: unknown, where: Place): unknown {
  if (!(error instanceof RmlError) || !error.fault) return error;
  const fault: ExpressionFault = { ...error.fault };
  fault.field ??= where.field;
  fault.rule ??= where.rule;
  return expressionError(fault);
}

/** Runs `make`, placing an expression fault it throws (see placeFault). */
export function placed<T>(where: Place, make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw placeFault(error, where);
  }
}
