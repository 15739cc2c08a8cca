// `npm run bench:gateway-faults`: the resident memory of a `verdict gateway` process through the fault suite of
// its tests (test/helpers/fault-suite.ts): every provider fault of the fault-injection provider, slow headers,
// slow bodies, clients leaving while queued, repeated-key bodies, then a shutdown with streams in flight.
//
//   npm run bench:gateway-faults -- [--rounds N] [--keys 10000,100000,1000000] [--heap-mib N]
//
// Prints VmRSS in MiB after warm-up, the highest sample (every 50 ms) and after the suite settled, with the
// answers checked and any that were not a coherent envelope. Linux only (VmRSS comes from /proc).
import { fileURLToPath } from 'node:url';
import { runFaultSuite } from '../test/helpers/fault-suite.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? (args[index + 1] ?? fallback) : fallback;
};
const report = await runFaultSuite({
  cliPath: fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)),
  rounds: Number(option('rounds', '3')),
  repeatedKeys: option('keys', '10000,100000,1000000').split(',').map(Number),
  progress: (line) => process.stderr.write(`${line}\n`),
  // With a heap bound, a gateway whose memory were not bounded by its settings would die here.
  nodeOptions: args.includes('--heap-mib') ? `--max-old-space-size=${option('heap-mib', '256')}` : '',
});
console.log(
  JSON.stringify(
    {
      rss_mib: report.rssMiB ?? 'unavailable (no /proc)',
      answers: report.answers,
      codes: report.codes,
      problems: report.problems,
      alive: report.alive,
      exit_code: report.exitCode,
      seconds: report.seconds,
    },
    null,
    2,
  ),
);
process.exitCode = report.problems.length === 0 && report.alive && report.exitCode === 0 ? 0 : 1;
