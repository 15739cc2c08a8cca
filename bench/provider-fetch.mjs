// The CPU of one provider call through the AI SDK, by the `fetch` under the gateway's guarded provider fetch
// (its bounds, redirects not followed): Node's global `fetch` against the gateway's provider fetch
// (dist/gateway/ai-sdk/provider-fetch.js: undici's `request` on a keep-alive pool, a streaming `Response`), plain and
// streamed. One fake OpenAI provider in its own process; the calls run in this process, whose CPU is read per
// round, the two fetches interleaved, the order turning each round.
//   node bench/provider-fetch.mjs [--calls N] [--rounds N] [--concurrency N] [--force]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';
import { createGuardedFetch } from '../dist/gateway/ai-sdk/guarded-fetch.js';
import { createProviderFetch } from '../dist/gateway/ai-sdk/provider-fetch.js';
import { checkQuietMachine, median, spread } from './quiet-machine.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return Number(index >= 0 ? args[index + 1] : fallback);
};
const CALLS = option('calls', 2000);
const ROUNDS = option('rounds', 9);
const CONCURRENCY = option('concurrency', 20);
const machine = checkQuietMachine(args);
globalThis.AI_SDK_LOG_WARNINGS = false;

const PROVIDER = `
import { createServer } from 'node:http';
const text = 'Hello! How can I help you today?';
const plain = JSON.stringify({ id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o-mini',
  choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 } });
const chunk = (delta, finish) => 'data: ' + JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1,
  model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] }) + '\\n\\n';
const streamed = text.split(' ').map((word) => chunk({ content: word + ' ' }, null)).join('') + chunk({}, 'stop')
  + 'data: [DONE]\\n\\n';
const server = createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    const stream = Buffer.concat(parts).includes('"stream":true');
    const body = stream ? streamed : plain;
    res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json',
      'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\\n'));
`;

const free = createServer().listen(0, '127.0.0.1');
await once(free, 'listening');
const port = free.address().port;
free.close();
const provider = spawn(process.execPath, ['--input-type=module', '-e', PROVIDER], {
  env: { ...process.env, PORT: String(port) },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await once(provider.stdout, 'data');

const pool = createProviderFetch();
const modelOf = (fetch) =>
  createOpenAI({ apiKey: 'sk-bench', baseURL: `http://127.0.0.1:${port}/v1`, fetch }).chat('gpt-4o-mini');
const fetches = {
  "Node's global fetch": modelOf(createGuardedFetch(undefined, globalThis.fetch)),
  'the provider fetch': modelOf(createGuardedFetch(undefined, pool.fetch)),
};
const calls = {
  plain: (model) => generateText({ model, prompt: 'Say hi', maxRetries: 0 }).then((result) => result.text),
  stream: (model) => streamText({ model, prompt: 'Say hi', maxRetries: 0 }).text,
};

/** CPU ms of this process per call, over `count` calls at `concurrency`. */
async function round(call, model, count) {
  const before = process.cpuUsage();
  let left = count;
  const worker = async () => {
    while (left-- > 0) await call(model);
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

const lines = [];
for (const [mode, call] of Object.entries(calls)) {
  const names = Object.keys(fetches);
  for (const name of names) await round(call, fetches[name], CALLS);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      samples[name].push(await round(call, fetches[name], CALLS));
    }
  }
  const ratio = median(samples['the provider fetch']) / median(samples["Node's global fetch"]);
  for (const name of names) lines.push(`| ${mode} | ${name} | ${spread(samples[name], 3)} |`);
  lines.push(`| ${mode} | ratio of medians | **${ratio.toFixed(2)}×** |`);
}
provider.kill();
await pool.close();
process.stdout.write(
  [
    machine.summary(),
    `${CALLS.toLocaleString('en')} calls per fetch and round at concurrency ${CONCURRENCY}, ${ROUNDS} rounds interleaved after one warm-up round each; median (min–max).`,
    '',
    '| call | fetch | CPU ms per call |',
    '|---|---|---:|',
    ...lines,
    '',
  ].join('\n'),
);
