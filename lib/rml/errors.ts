// Errors of the RML engine. All are client errors (422): the mapping, a source or the data
// it holds is wrong, never the engine, so callers can hand the message to the user as is.
import { ClientError } from '../errors.ts';

export type RmlErrorKind = 'mapping' | 'source' | 'data' | 'function';

export class RmlError extends ClientError {
  readonly kind: RmlErrorKind;

  constructor(kind: RmlErrorKind, detail: string) {
    super(422, detail);
    this.name = 'RmlError';
    this.kind = kind;
  }
}

export const mappingError = (detail: string): RmlError => new RmlError('mapping', detail);
export const dataError = (detail: string): RmlError => new RmlError('data', detail);
export const sourceError = (detail: string): RmlError => new RmlError('source', detail);
export const functionError = (detail: string): RmlError => new RmlError('function', detail);
