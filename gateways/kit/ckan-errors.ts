// Domain errors as CKAN's Action API words them, for the catalogue: `{"success": false,
// "error": {"__type": …, …}}` with CKAN's own types and statuses, so CKAN clients (ckanapi and
// the like) that branch on `__type` keep working. CKAN answers a validation error with 409 and
// `{<field>: [message]}`, a missing object with 404 "Not found: …", a refused one with 403
// "Access denied: …". Kinds CKAN has no type for read as validation errors with their own status.
import type { DomainError } from '../../lib/process/errors.ts';
import { type ErrorKind } from '../../lib/process/errors.ts';

export type CkanErrorType = 'Validation Error' | 'Not Found Error' | 'Authorization Error';

export interface CkanError {
  __type: CkanErrorType;
  message?: string;
  /** Validation errors: the messages per field, as CKAN's error_dict. */
  [field: string]: string | string[] | undefined;
}

export interface CkanErrorAnswer {
  status: number;
  body: { success: false; error: CkanError };
}

const CKAN: Record<ErrorKind, { status: number; type: CkanErrorType }> = {
  malformed: { status: 400, type: 'Validation Error' },
  // CKAN answers missing credentials and refused ones alike: NotAuthorized, 403.
  unauthorized: { status: 403, type: 'Authorization Error' },
  forbidden: { status: 403, type: 'Authorization Error' },
  'not-found': { status: 404, type: 'Not Found Error' },
  'slow-client': { status: 408, type: 'Validation Error' },
  // "That URL is already in use" is a CKAN validation error.
  conflict: { status: 409, type: 'Validation Error' },
  'too-large': { status: 413, type: 'Validation Error' },
  unsupported: { status: 415, type: 'Validation Error' },
  'not-acceptable': { status: 406, type: 'Validation Error' },
  invalid: { status: 409, type: 'Validation Error' },
  unreachable: { status: 409, type: 'Validation Error' },
  'upstream-timeout': { status: 504, type: 'Validation Error' },
  crashed: { status: 500, type: 'Validation Error' },
};

/** The CKAN Action API answer for a domain error. */
export function ckanError(error: DomainError): CkanErrorAnswer {
  const { status, type } = CKAN[error.kind];
  let body: CkanError;
  if (type === 'Not Found Error') body = { __type: type, message: `Not found: ${error.detail}` };
  else if (type === 'Authorization Error') body = { __type: type, message: `Access denied: ${error.detail}` };
  else if (error.field === undefined) body = { __type: type, message: error.message };
  // CKAN's error_dict keys the message by the field, without repeating it: {"name": ["Missing value"]}.
  else body = { __type: type, [error.field]: [withoutField(error.message, error.field)] };
  return { status, body: { success: false, error: body } };
}

function withoutField(message: string, field: string): string {
  return message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
}
