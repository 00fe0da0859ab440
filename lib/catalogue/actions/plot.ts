// labld_datastore_plot: a plot's points from a resource's datastore table (issue 15 item 5).
// Without `x` and `y`, the columns a plot may draw, each with its axis title; with them, the
// rows of the two columns reduced in the database to at most `points` points
// (lib/datastore/plot.ts). Whoever may read the resource's rows may plot them.
import { unitSymbol } from '../../annotator/units.ts';
import type { Field } from '../../datastore/contract.ts';
import { axisLabel, bucketsFor, envelope, plotField, plotPoints, plottable } from '../../datastore/plot.ts';
import { resourceFor, type Action } from './context.ts';
import { optional, required } from './params.ts';

const column = (f: Field) => ({ id: f.id, label: axisLabel(f, unitSymbol), unit: f.info?.unit ?? null });

/** labld_datastore_plot's answer without x and y: the table's size and its plottable columns. */
export function plotColumns(resourceId: string, info: { count: number; fields: Field[] }) {
  return { resource_id: resourceId, rows: info.count, columns: plottable(info.fields).map(column) };
}

const datastorePlot: Action = async (deps, viewer, params) => {
  const id = required(params, 'resource_id', 'id');
  const { resource } = await resourceFor(deps.store, viewer, 'datastore.read', id, 'resource_id');
  const info = await deps.datastore.info(resource.id);
  const answer = plotColumns(resource.id, info);
  const [xName, yName] = [optional(params, 'x'), optional(params, 'y')];
  if (xName === undefined && yName === undefined && params.points === undefined) return answer;
  const x = plotField(info.fields, xName, 'x');
  const y = plotField(info.fields, yName, 'y');
  const points = plotPoints(params.points);
  const { rows, buckets } = await deps.datastore.buckets(resource.id, x.id, y.id, bucketsFor(points));
  return { ...answer, x: column(x), y: column(y), plotted_rows: rows, points: envelope(buckets) };
};

export const plotActions = { labld_datastore_plot: datastorePlot };
