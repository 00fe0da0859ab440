// A child process for the crash cases of the Bus conformance suite. It opens a bus from
// LABLD_TEST_BUS (a JSON BusConfig), does one thing, reports on stdout and then waits to be
// killed with SIGKILL by the test.
import { appendFileSync } from 'node:fs';
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
}
setInterval(() => {}, 1 << 30);
