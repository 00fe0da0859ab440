// Checks a catalogue request against its schema in process (the gateway before publishing, the
// consumer after a claim is fetched), naming the field that does not fit.
import { invalid } from '../process/errors.ts';
import { createAjv, describeAjvError } from '../json-schema.ts';
import { catalogueRequestSchema } from './catalogue.ts';

const validate = createAjv().compile(catalogueRequestSchema());

export function checkCatalogueRequest(request: { operation: string; input: unknown }): void {
  if (validate(request)) return;
  const { field, problem } = describeAjvError(validate.errors![0]!);
  throw invalid(`${field}: ${problem}`, field);
}
