// The dataset page's "Automation" section from labld_status_show's answer: one line per source
// resource and step, in chain order, with what the user needs — progress while running, the
// summary when done (which mapping won), the error and what to do when failed, Retry for editors
// and what a done step made; then the dead letters for admins. Plain text; the page escapes it.
import { NEEDS_MAPPING } from '../../lib/chain/status.ts';
import type { DeadLetterView, StepStatusView } from './views.ts';

type Dict = Record<string, unknown>;

const counts = (p: Dict): string =>
  (['rows', 'triples', 'bytes'] as const)
    .filter((k) => typeof p[k] === 'number')
    .map((k) => `${String(p[k])} ${k}`)
    .join(', ');

function detailOf(step: Dict): string | undefined {
  switch (step.state) {
    case 'running': {
      const progress = counts((step.progress as Dict | undefined) ?? {});
      return progress === '' ? undefined : `${progress} so far`;
    }
    case 'done':
    case NEEDS_MAPPING: {
      const summary = (step.summary as Dict | undefined) ?? {};
      const took = typeof summary.durationMs === 'number' ? `${summary.durationMs} ms` : '';
      return [summary.note, counts(summary), took]
        .filter((s) => typeof s === 'string' && s !== '')
        .join('; ');
    }
    case 'failed': {
      const failure = (step.failure as Dict | undefined) ?? {};
      return `${String(failure.detail ?? 'failed')} — ${String(failure.action ?? '')}`;
    }
    default:
      return undefined;
  }
}

/** What the page adds to the status: the viewer's rights and the outputs' pages. */
export interface StepViewOptions {
  /** The viewer may retry a failed step (an editor). */
  canRetry?: boolean;
  /** The resource a step made from a source, by `<source id> <step>`. */
  outputs?: ReadonlyMap<string, { name: string; href: string }>;
  /** The mapping builder's page for a source, linked from a step that needs a mapping. */
  mappingHref?: (resourceId: string) => string;
}

/** How a state reads on the page: a source waiting for a mapping is not "done" (issue 28). */
const stateWords = (state: unknown) => (state === NEEDS_MAPPING ? 'needs a mapping' : String(state));

/** `status` is labld_status_show's result; `names` the dataset's resource names by id. */
export function stepViews(
  status: Dict,
  names: ReadonlyMap<string, string>,
  options: StepViewOptions = {},
): StepStatusView[] {
  const resources = Array.isArray(status.resources) ? (status.resources as Dict[]) : [];
  return resources.flatMap((r) => {
    const resourceId = String(r.resource_id);
    const name = names.get(resourceId) ?? 'a removed resource';
    const steps = Array.isArray(r.steps) ? (r.steps as Dict[]) : [];
    return steps.map((step) => {
      const view: StepStatusView = { step: `${name}: ${String(step.step)}`, status: stateWords(step.state) };
      // A step run again (Retry, a replay, the bus's own retries) says which attempt this is.
      const again = typeof step.attempt === 'number' && step.attempt > 1 ? `attempt ${step.attempt}` : '';
      const detail = [detailOf(step), again].filter(Boolean).join('; ');
      if (detail) view.detail = detail;
      if (step.state === 'failed') {
        const failure = (step.failure as Dict | undefined) ?? {};
        view.failure = { detail: String(failure.detail ?? 'failed'), action: String(failure.action ?? '') };
      }
      if (step.state === NEEDS_MAPPING && options.mappingHref && names.has(resourceId)) {
        view.help = { href: options.mappingHref(resourceId), text: 'make a mapping for it' };
      }
      // A source still there: a removed one has nothing to run again. A waiting selection
      // runs again too (as saving a mapping to the library does by itself).
      const rests = step.state === 'failed' || step.state === NEEDS_MAPPING;
      if (rests && options.canRetry && names.has(resourceId)) {
        view.retry = { resourceId, step: String(step.step) };
      }
      const output = step.state === 'done' && options.outputs?.get(`${resourceId} ${String(step.step)}`);
      if (output) view.output = output;
      return view;
    });
  });
}

/** labld_dead_letter_list's dead letters as the page lists them. */
export function deadLetterViews(list: Dict, names: ReadonlyMap<string, string>): DeadLetterView[] {
  const letters = Array.isArray(list.dead_letters) ? (list.dead_letters as Dict[]) : [];
  return letters.map((d) => ({
    id: String(d.id),
    step: `${names.get(String(d.resource_id)) ?? 'a removed resource'}: ${String(d.group).replace(/^chain-/, '')}`,
    error: String(d.error),
    attempts: typeof d.attempts === 'number' ? d.attempts : 0,
    failedAt: String(d.failed_at),
  }));
}
