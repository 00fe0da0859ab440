// node:test reporter that ends the run with the one line CI reads: "N passed, N failed".
// Suites are not counted, only tests. With LABLD_TEST_SUMMARY set, the counts are also
// written there as JSON so that .ci/run can add up several runs.
import { writeFileSync } from 'node:fs';

export default async function* summaryReporter(source) {
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    if (event.data.details?.type === 'suite') continue;
    if (event.type === 'test:pass') passed += 1;
    else failed += 1;
  }
  if (process.env.LABLD_TEST_SUMMARY) {
    writeFileSync(process.env.LABLD_TEST_SUMMARY, JSON.stringify({ passed, failed }));
  }
  yield `${passed} passed, ${failed} failed\n`;
}
