// Imported first by the counting tests: lib/process/counters.ts reads LABLD_COUNTS once, as it loads.
process.env['LABLD_COUNTS'] = 'on';
