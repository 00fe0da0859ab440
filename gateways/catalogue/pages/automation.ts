// The dataset page's Automation section: each source's chain steps (Retry on a failed one for
// editors, a link to what a done step made) and, for the dataset's admins, the chain's dead
// letters with Replay. The same HTML is the page's section and the fragment automation.js
// fetches while steps run (`data-active`), so the page is right without JavaScript too.
import { escapeHtml, segment } from '../html.ts';
import type { DeadLetterView, PageContext, StepStatusView } from '../views.ts';
import { csrfField } from './layout.ts';

export interface AutomationView {
  /** The dataset's name (the forms' and the fragment's paths). */
  dataset: string;
  steps: StepStatusView[];
  deadLetters?: DeadLetterView[];
}

/** The fragment's path, which automation.js polls. */
export const automationPath = (dataset: string) => `/dataset/${segment(dataset)}/automation`;

const stateClass = (status: string) => `status status-${escapeHtml(status.replace(/[^a-z]/gi, ''))}`;

function retryForm(context: PageContext, dataset: string, s: StepStatusView): string {
  if (!s.retry) return '';
  return `<form class="inline-form" method="post" action="${escapeHtml(automationPath(dataset))}/retry">
            ${csrfField(context)}
            <input type="hidden" name="resource_id" value="${escapeHtml(s.retry.resourceId)}">
            <input type="hidden" name="step" value="${escapeHtml(s.retry.step)}">
            <button type="submit">Retry<span class="visually-hidden"> ${escapeHtml(s.step)}</span></button>
          </form>`;
}

function stepList(context: PageContext, view: AutomationView): string {
  if (view.steps.length === 0) {
    return '<p class="empty">No automation steps have run for this dataset yet.</p>';
  }
  return renderSteps(context, view);
}

/** The steps as a list: state, detail (a failure's error and what to do), output, Retry. */
export function renderSteps(context: PageContext, view: AutomationView): string {
  const items = view.steps.map((s) => {
    const detail = s.detail ? ` — ${escapeHtml(s.detail)}` : '';
    const output = s.output
      ? ` → <a href="${escapeHtml(s.output.href)}">${escapeHtml(s.output.name)}</a>`
      : '';
    const help = s.help ? ` → <a href="${escapeHtml(s.help.href)}">${escapeHtml(s.help.text)}</a>` : '';
    const busy = s.status === 'running' || s.status === 'queued';
    return `<li${busy ? ' aria-busy="true"' : ''}><code>${escapeHtml(s.step)}</code> <span class="${stateClass(s.status)}">${escapeHtml(s.status)}</span>${detail}${output}${help}${retryForm(context, view.dataset, s)}</li>`;
  });
  return `<ul class="steps">${items.join('')}</ul>`;
}

function deadLetters(context: PageContext, view: AutomationView): string {
  if (!view.deadLetters) return '';
  const heading = '<h3 id="dead-letters-heading">Dead letters</h3>';
  if (view.deadLetters.length === 0) {
    return `${heading}<p class="empty">No message of this dataset's chain has failed for good.</p>`;
  }
  const rows = view.deadLetters.map(
    (d) => `<tr>
            <th scope="row"><code>${escapeHtml(d.step)}</code></th>
            <td class="dead-letter-error">${escapeHtml(d.error)}</td>
            <td class="num">${d.attempts}</td>
            <td><time datetime="${escapeHtml(d.failedAt)}">${escapeHtml(d.failedAt.replace('T', ' ').slice(0, 19))}</time></td>
            <td><form class="inline-form" method="post" action="${escapeHtml(`/dataset/${segment(view.dataset)}/dead-letters/replay`)}">
              ${csrfField(context)}
              <input type="hidden" name="id" value="${escapeHtml(d.id)}">
              <button type="submit">Replay<span class="visually-hidden"> ${escapeHtml(d.step)}</span></button>
            </form></td>
          </tr>`,
  );
  return `${heading}
        <p class="hint">Messages the chain gave up on after its retries. Replay sends one again to its step, once its cause is fixed.</p>
        <div class="table-scroll"><table class="data dead-letters" aria-labelledby="dead-letters-heading">
          <thead><tr><th scope="col">Step</th><th scope="col">Error</th><th scope="col" class="num">Attempts</th><th scope="col">Failed (UTC)</th><th scope="col"><span class="visually-hidden">Replay</span></th></tr></thead>
          <tbody>
          ${rows.join('\n          ')}
          </tbody>
        </table></div>`;
}

/** The section's content; `data-active` while a step is queued or running (automation.js polls faster). */
export function renderAutomation(context: PageContext, view: AutomationView): string {
  const active = view.steps.some((s) => s.status === 'running' || s.status === 'queued');
  return `<div class="automation" data-active="${active}">
        <h2 id="steps-heading" tabindex="-1">Automation</h2>
        ${stepList(context, view)}
        ${deadLetters(context, view)}
      </div>`;
}
