// A child process for the crash cases of the Bus conformance suite. It opens a bus from
// LABLD_TEST_BUS (a JSON BusConfig), does one thing, reports on stdout and then waits to be
// killed with SIGKILL by the test.
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBus, type BusConfig } from '../../lib/bus/open.ts';

const config = JSON.parse(process.env.LABLD_TEST_BUS!) as BusConfig;
const [mode, topic, group, marker] = process.argv.slice(2) as [string, string, string, string];
const bus = await openBus(config);

if (mode === 'publish') {
  for (let seq = 0; seq < 5; seq += 1) await bus.publish(topic, { entity: 'crash', seq }, { key: 'crash' });
  process.stdout.write('published\n');
} else if (mode === 'handle-and-hang') {
  // Handle the message (a side effect the test can see), then never finish: the offset is
  // not committed when the process dies.
  await bus.subscribe<{ seq: number }>(topic, group, async (message) => {
    appendFileSync(marker, `${message.value.seq}\n`);
    process.stdout.write('handled\n');
    await new Promise(() => {});
  });
} else if (mode === 'apply') {
  // An idempotent effect per key: the key's state file holds the last seq applied, and a
  // message applies only as the next one. A redelivered message (seq ≤ state) changes
  // nothing; one that arrives before its predecessor is an order violation, recorded.
  // The effect is synchronous, then a short pause: a kill lands between effect and commit.
  mkdirSync(marker, { recursive: true });
  await bus.subscribe<{ entity: string; seq: number }>(topic, group, async ({ value }) => {
    const state = join(marker, `state-${value.entity}`);
    const last = existsSync(state) ? Number(readFileSync(state, 'utf8')) : -1;
    if (value.seq === last + 1) {
      // Written aside and renamed: a kill never leaves a torn state file.
      writeFileSync(`${state}.${process.pid}`, String(value.seq));
      renameSync(`${state}.${process.pid}`, state);
    } else if (value.seq > last + 1)
      appendFileSync(join(marker, 'violations'), `${value.entity} ${value.seq} after ${last}\n`);
    appendFileSync(join(marker, 'handled'), `${process.pid} ${value.entity} ${value.seq}\n`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  });
  process.stdout.write('subscribed\n');
}
setInterval(() => {}, 1 << 30);
