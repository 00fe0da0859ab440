// The physical floor of reading a CSV, shared by the benches that compare against it: read the
// file as a stream, decode UTF-8 and split it into lines. Returns the number of lines.
import { createReadStream } from 'node:fs';

export async function readFloor(path: string): Promise<number> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let carry = '';
  let lines = 0;
  for await (const chunk of createReadStream(path)) {
    const text = carry + decoder.decode(chunk as Buffer, { stream: true });
    const parts = text.split('\n');
    carry = parts.pop() ?? '';
    lines += parts.length;
  }
  return lines + (carry ? 1 : 0);
}
