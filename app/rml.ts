// `labld rml MAPPING [--out FILE] [--format F] [--base IRI]`: batch execution of an RML
// (Turtle) or YARRRML mapping file, like Morph-KGC's command line. Sources are files relative
// to the mapping, or URLs read through the guarded fetch. Progress goes to stderr; errors
// reject (bin/labld.js prints them and exits 1).
import { createWriteStream, existsSync, rmSync, type WriteStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatFromFileName, isRdfFormat, RETURN_TYPES } from '../lib/rdf/formats.ts';
import { runMappingFile, type RunFileOptions } from '../lib/rml/run-file.ts';
import type { RuleStatistics } from '../lib/rml/stats.ts';

export const RML_USAGE = `  rml MAPPING [--out FILE] [--format nt|nq|${RETURN_TYPES.filter((f) => f !== 'nt').join('|')}] [--base IRI] [--strict] [--quiet]
                                execute an RML (Turtle) or YARRRML mapping file; sources are
                                files relative to it (or URLs, through the guarded fetch);
                                output to FILE or stdout (format from --format, FILE's
                                extension, else N-Quads); progress on stderr. Legacy mappings
                                skip a term with a data error (an invalid IRI from a cell) and
                                report it; --strict ends the run on it (exit 1)
`;

/** A usage problem: the caller prints it with the usage text and exits 2. */
export class UsageError extends Error {}

function formatOf(format: string | undefined, out: string | undefined): RunFileOptions['format'] {
  if (format === undefined) return formatFromFileName(out) ?? 'nq';
  if (format === 'nq' || isRdfFormat(format)) return format;
  throw new UsageError(`--format must be one of nq, ${RETURN_TYPES.join(', ')}; got ${format}`);
}

/** Reports records read and elapsed time at most once a second, after the first second. */
export function progressReporter(
  stderr: Writable,
  quiet: boolean,
  now: () => number = () => performance.now(),
) {
  const start = now();
  let last = start;
  let reported = false;
  return {
    progress(records: number) {
      const at = now();
      if (quiet || at - last < 1000) return;
      last = at;
      reported = true;
      stderr.write(
        `labld rml: ${records.toLocaleString('en')} records read, ${((at - start) / 1000).toFixed(0)} s\n`,
      );
    },
    done(triples: number, out: string) {
      if (quiet && !reported) return;
      const seconds = (now() - start) / 1000;
      stderr.write(
        `labld rml: ${triples.toLocaleString('en')} triples to ${out} in ${seconds.toFixed(1)} s\n`,
      );
    },
    /** Skipped terms are reported even with --quiet: they are missing from the output. */
    skipped(statistics: RuleStatistics[]) {
      for (const rule of statistics) {
        if (rule.skipped === 0) continue;
        const more = rule.skipped - rule.errors.length;
        stderr.write(
          `labld rml: rule ${rule.name}: ${rule.skipped.toLocaleString('en')} term(s) skipped on data errors (--strict ends the run instead):\n` +
            rule.errors.map((error) => `  ${error}\n`).join('') +
            (more > 0 ? `  … and ${more.toLocaleString('en')} more\n` : ''),
        );
      }
    },
  };
}

async function openOutput(path: string): Promise<WriteStream> {
  const out = createWriteStream(path);
  await new Promise<void>((ok, fail) => {
    out.once('open', () => ok());
    out.once('error', (error: Error) => fail(new Error(`cannot write ${path}: ${error.message}`)));
  });
  return out;
}

export async function rml(
  args: string[],
  io: { stdout: Writable; stderr: Writable } = process,
): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o' },
        format: { type: 'string', short: 'f' },
        base: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        strict: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('rml needs exactly one MAPPING file');
  const mappingPath = positionals[0]!;
  const format = formatOf(values.format, values.out);
  if (!existsSync(mappingPath)) throw new Error(`the mapping file ${mappingPath} does not exist`);
  const outPath = values.out === undefined ? undefined : resolve(values.out);
  const out = outPath === undefined ? io.stdout : await openOutput(outPath);
  const reporter = progressReporter(io.stderr, values.quiet ?? false);
  try {
    const result = await runMappingFile(mappingPath, out, {
      format,
      baseIri: values.base,
      // Relative YARRRML bases (`base: '#'`) resolve against the output document.
      documentIri: outPath === undefined ? undefined : pathToFileURL(outPath).href,
      // The HTTP client (0.2 s of imports) is loaded by mappings with a URL source only.
      openUrl: async (url) => {
        const { guardedFetch } = await import('../lib/fetch/guarded-fetch.ts');
        return (await guardedFetch(url, { field: 'rml:source' })).body;
      },
      progress: (records) => reporter.progress(records),
      strict: values.strict ?? false,
    });
    reporter.done(result.triples, values.out ?? 'stdout');
    reporter.skipped(result.statistics);
  } catch (error) {
    // No half-written graph is left behind to be mistaken for a result.
    if (outPath !== undefined) rmSync(outPath, { force: true });
    throw error;
  }
}
