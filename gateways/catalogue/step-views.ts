// The dataset page's "Automation" section from labld_status_show's answer: one line per source
// resource and step, in chain order, with what the user needs — progress while running, the
// summary when done (which mapping won), the error and what to do when failed. Plain text; the
// page escapes it.
import type { StepStatusView } from './views.ts';

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
    case 'done': {
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

/** `status` is labld_status_show's result; `names` the dataset's resource names by id. */
export function stepViews(status: Dict, names: ReadonlyMap<string, string>): StepStatusView[] {
  const resources = Array.isArray(status.resources) ? (status.resources as Dict[]) : [];
  return resources.flatMap((r) => {
    const name = names.get(String(r.resource_id)) ?? 'a removed resource';
    const steps = Array.isArray(r.steps) ? (r.steps as Dict[]) : [];
    return steps.map((step) => {
      const view: StepStatusView = { step: `${name}: ${String(step.step)}`, status: String(step.state) };
      const detail = detailOf(step);
      if (detail) view.detail = detail;
      return view;
    });
  });
}
