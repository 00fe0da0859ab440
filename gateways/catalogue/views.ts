// What the catalogue's pages show, as plain data. The render functions (pages/*.ts) turn these
// into HTML and know nothing of stores; whoever serves the pages (a CatalogueSource) builds them.
// Every string here may come from a user and is escaped when rendered.
import type { StepSummary } from '../../lib/chain/status.ts';
import type { Literal, NamedNode } from 'n3';
import type { Sentence } from '../../lib/triplestore/builder.ts';
import type { FileLine } from '../../lib/catalogue/file-lines.ts';
import type { SubjectTable } from '../../lib/rdf/subjects.ts';
import type { ColumnType } from '../../lib/datastore/table-query.ts';

/** Who is looking, and what the layout needs for them. */
export interface PageContext {
  /** Signed-in user, or undefined for a visitor. */
  user?: { name: string; displayName?: string };
  /** The CSRF token of the session, put into every form that posts (log out, upload, tokens). */
  csrfToken?: string;
  /** Which nav entry is the current page. */
  current?: 'datasets' | 'mappings' | 'tokens' | 'login';
}

export interface DatasetSummary {
  name: string;
  title: string;
  description?: string;
  organization?: string;
  resourceCount: number;
  /** ISO 8601. */
  modified: string;
  private: boolean;
}

export interface DatasetListView {
  query: string;
  /** 1-based. */
  page: number;
  pageSize: number;
  total: number;
  datasets: DatasetSummary[];
  /** The facets the chain's steps declare (pipeline.ts), counted over the datasets found. */
  facets?: { field: string; title: string; items: { name: string; count: number }[] }[];
}

/** Who or what made a resource: a person's upload or a step of the automation chain. */
export type Maker = { kind: 'user'; name: string } | { kind: 'step'; step: string; chain?: string };

export interface ResourceView {
  id: string;
  name: string;
  /** e.g. CSV, JSON-LD, YARRRML. */
  format: string;
  /** Bytes; undefined when unknown. */
  size?: number;
  madeBy: Maker;
  /** ISO 8601. */
  created: string;
  /** Same-site path of the bytes. */
  downloadUrl: string;
  /** A link resource's web address (e.g. the SPARQL endpoint): opened, not downloaded. */
  link?: string;
  /** Whether the datastore holds its rows, so that a table preview exists. */
  previewable: boolean;
}

export interface StepStatusView {
  step: string;
  /** e.g. pending, running, done, failed. */
  status: string;
  detail?: string;
  /** A failed step's error and what to do, in words (the detail holds both, joined). */
  failure?: { detail: string; action: string };
  /** A failed step the viewer may run again: its source resource and step. */
  retry?: { resourceId: string; step: string };
  /** What a done step made (the descriptor, the Turtle, the joined graph): its page. */
  output?: { name: string; href: string };
  /** Where the user can act on a waiting step (needs a mapping: the mapping library). */
  help?: { text: string; href: string };
}

/** A message of the chain that failed for good, for the dataset's admins to replay. */
export interface DeadLetterView {
  id: string;
  /** `example.csv: import` */
  step: string;
  error: string;
  attempts: number;
  /** ISO 8601. */
  failedAt: string;
}

/** The dataset in the triple store (spec step 7), as its page tells it. */
export interface TripleStoreView {
  state: 'not-loaded' | 'queued' | 'running' | 'done' | 'failed';
  /** done: what was loaded, in words (graphs, resources that could not be loaded). */
  note?: string;
  triples?: number;
  /** ISO 8601: when the last load ended. */
  when?: string;
  /** failed: what went wrong, and what to do. */
  error?: string;
  action?: string;
  /** The dataset's SPARQL endpoint, once the load registered it. */
  endpoint?: string;
  /** Whether the viewer may press Load. */
  canLoad: boolean;
  /** done: the rows were loaded too, so Load again offers them ticked. */
  withRows?: boolean;
  /**
   * The chain steps done for the dataset's sources, with their summaries: what a step found out
   * about the graphs Load loads (a step of the pipeline may show its findings here).
   */
  findings?: StepFinding[];
}

/** A done chain step of one source, with its summary (lib/chain/status.ts). */
export interface StepFinding {
  /** The source's name. */
  source: string;
  step: string;
  summary: StepSummary;
}

/** The plot of one numeric column over another of a resource's datastore table. */
export interface PlotView {
  /** The dataset's resources whose rows are in the datastore. */
  resources: { id: string; name: string }[];
  /** The one plotted (a resources' id). */
  resource: string;
  /** Its numeric columns with their axis titles (`Standardkraft [N]`). */
  columns: { id: string; label: string }[];
  x?: string;
  y?: string;
  /** Same-site URL of the points as JSON, when x and y are chosen. */
  pointsUrl?: string;
  /** Why the asked table was not shown (the page then answers 422, with this in the plot section). */
  refused?: string;
}

export interface DatasetView {
  name: string;
  title: string;
  description?: string;
  organization?: string;
  private: boolean;
  resources: ResourceView[];
  /** The automation chain's steps; empty until the chain is wired. */
  steps: StepStatusView[];
  /** The chain's dead letters; undefined when the viewer may not see them (not an admin). */
  deadLetters?: DeadLetterView[];
  /** Whether the viewer may add resources (the upload form is shown). */
  canUpload: boolean;
  triplestore?: TripleStoreView;
  /** Undefined when no resource of the dataset has rows in the datastore. */
  plot?: PlotView;
  /** Whether the viewer may change the dataset or its members (the Edit link). */
  canEdit?: boolean;
}

/** A dataset page's Resources section: also served alone, for the page's script to refresh. */
export type ResourcesView = Pick<DatasetView, 'name' | 'title' | 'resources' | 'canUpload'>;

export type { ColumnType };

/** One page of the datastore rows of a resource, as requested by sort/filter/page parameters. */
export interface TablePreviewView {
  /** `unit`: the unit's symbol (or its IRI's last part), from the descriptor the import read. */
  columns: { name: string; type: ColumnType; unit?: string }[];
  rows: (string | number | null)[][];
  sort?: { column: string; order: 'asc' | 'desc' };
  /** Column name → filter text (only non-empty ones). */
  filters: Record<string, string>;
  /** Number column name → its bounds as typed. */
  ranges: Record<string, { min?: string; max?: string }>;
  /** The free-text search. */
  q?: string;
  /** 1-based. */
  page: number;
  pageSize: number;
  /** Rows matching the filters. */
  total: number;
}

/** How a resource's page can show the file: its rows, its text, the subjects of its graph. */
export type FileViewName = 'table' | 'text' | 'subjects';

/** A page of a file's lines, highlighted by the render function in the file's language. */
export interface TextView {
  fileName: string;
  lines: FileLine[];
  page: number;
  perPage: number;
  total?: number;
  atLeast?: number;
  encoding: string;
}

export interface ResourcePageView {
  dataset: { name: string; title: string };
  resource: ResourceView;
  /** The views this file has, and the one shown (`view` in the query string). */
  views?: FileViewName[];
  shown?: FileViewName;
  text?: TextView;
  subjects?: SubjectTable;
  /** Undefined when the resource has no rows in the datastore. */
  table?: TablePreviewView;
  /** The chain's steps of this resource (of its source, for a derived one); a failure in words. */
  steps?: StepStatusView[];
  /** Whether the viewer may change, replace or delete it (the Edit link). */
  canEdit?: boolean;
}

export interface UploadView {
  dataset: { name: string; title: string };
  /** A message after a failed upload (e.g. a limit); undefined on first show. */
  error?: string;
}

/** The form that makes a dataset; after a refusal, with what was typed and why. */
export interface NewDatasetView {
  values?: { name: string; title: string; notes: string; private: boolean };
  error?: string;
}

export interface LoginView {
  /** Where to go after signing in (a same-site path). */
  next?: string;
  /** Kept after a failed attempt. */
  username?: string;
  error?: string;
}

/** The `mappings` group: the datasets holding mapping rules, listed like the dataset list. */
export interface GroupView {
  name: string;
  title: string;
  description?: string;
  datasets: DatasetSummary[];
  /** The mapping library's group: its mappings, and where the viewer may add one. */
  library?: LibraryView;
}

/** A source whose selection chose a mapping, and the joined graph made with it. */
export interface MappingUseView {
  dataset: string;
  name: string;
  href: string;
  joined?: { name: string; href: string };
}

/** One mapping of the library: what it maps (or why it cannot be read), who used it. */
export interface MappingView {
  name: string;
  href: string;
  download: string;
  datasetTitle: string;
  template?: string;
  sources: string[];
  rules: number;
  classes: string[];
  predicates: string[];
  targets: string[];
  error?: string;
  usedBy: MappingUseView[];
}

export interface LibraryView {
  /** The library's group name (the form that starts a dataset in it). */
  group: string;
  mappings: MappingView[];
  /** The library's datasets the viewer may add a mapping to (the upload forms). */
  shelves: { name: string; title: string }[];
  /** Sources the viewer can see that wait for a mapping. */
  waiting: number;
}

export interface TokenSummary {
  id: string;
  name: string;
  /** ISO 8601. */
  created: string;
  lastUsed?: string;
}

export interface TokenView {
  tokens: TokenSummary[];
  /** The secret of a token just created: shown once, never again. */
  newToken?: { name: string; secret: string };
}

/** One thing the query builder offers to add, with how many things of the sentence it concerns. */
export interface BuilderChoice<T = string> {
  /** An IRI (a class or a property), or a value term. */
  value: T;
  /** In words (the IRI's local name, the literal as written). */
  label: string;
  count: number;
}

/** The query page: YASGUI on the dataset's endpoint and the sentence builder over it. */
export interface QueryPageView {
  dataset: { name: string; title: string };
  /** Same-site path of the dataset's SPARQL endpoint. */
  endpoint: string;
  /** Whether the dataset has any graph loaded; if not, the page says so (and offers the Load button). */
  loaded: boolean;
  /** Whether the viewer may press Load (editors). */
  canLoad: boolean;
  /** YASGUI's first query. */
  defaultQuery: string;
  /** The builder, when the dataset is loaded. */
  builder?: BuilderView;
}

export interface BuilderView {
  sentence: Sentence;
  words: string;
  /** Each step of the sentence in words, in order (each can be taken back). */
  stepWords: string[];
  /** The SPARQL of the results (to open in YASGUI). */
  sparql: string;
  classes: BuilderChoice[];
  properties: BuilderChoice[];
  /** The properties that point at the things of the sentence (read backwards). */
  inverseProperties: BuilderChoice[];
  /** For a last step without a value yet: its values, and the range of its numbers if it has any. */
  values?: {
    property: string;
    inverse: boolean;
    choices: BuilderChoice<NamedNode | Literal>[];
    numbers?: { min: string; max: string; count: number };
  };
  results?: {
    /** Column headings: the class (or "thing") and each step's property. */
    columns: string[];
    /** Cells in words; null where the row has no value. */
    rows: (string | null)[][];
    /** Rows without the page's limit. */
    total: number;
  };
  /** What could not be shown, and why (a part past the time limit or the result limit). */
  error?: string;
}
