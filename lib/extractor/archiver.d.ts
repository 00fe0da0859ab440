// Types for the part of archiver (its types are a separate package) that the export bundle uses.
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';

  export interface EntryData {
    name: string;
    date?: Date;
  }

  export interface Archiver extends Transform {
    append(source: Readable | Buffer | string, data: EntryData): this;
    finalize(): Promise<void>;
    abort(): this;
    on(event: 'entry', listener: (entry: EntryData) => void): this;
    on(event: 'warning' | 'error', listener: (error: Error) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  export default function archiver(
    format: 'zip',
    options?: { zlib?: { level?: number }; store?: boolean },
  ): Archiver;
}
