// An agent with two tools behind the verdict gateway: it sends the conversation with its tools, runs the tools
// the model calls, sends the results back and prints the final answer. The gateway never runs a tool itself.
//
//   VERDICT_GATEWAY_URL=http://127.0.0.1:8787 AGENT_MODEL=anthropic:claude-sonnet-4-5 node examples/agent-loop.mjs
import { createClient } from 'verdict/client';

const verdict = createClient({
  baseURL: process.env.VERDICT_GATEWAY_URL ?? 'http://127.0.0.1:8787',
  key: process.env.VERDICT_GATEWAY_KEY,
});
const model = process.env.AGENT_MODEL ?? 'openai:gpt-4.1';

const tools = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current temperature of a city in °C.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'convert_units',
      description: 'Convert a temperature between C and F.',
      parameters: {
        type: 'object',
        properties: { value: { type: 'number' }, from: { type: 'string' }, to: { type: 'string' } },
        required: ['value', 'from', 'to'],
        additionalProperties: false,
      },
    },
  },
];

/** The tools themselves: here, canned answers. */
const run = {
  get_weather: ({ city }) => ({ city, temp_c: 12 }),
  convert_units: ({ value, from, to }) => ({
    value: from === 'C' && to === 'F' ? Math.round((value * 9) / 5 + 32) : value,
    unit: to,
  }),
};

const messages = [{ role: 'user', content: 'What is the temperature in Oslo, in °F?' }];
for (let turn = 0; turn < 5; turn++) {
  const answer = await verdict.text({ model, messages, tools });
  if (!answer.success) {
    console.error(`${answer.error.code}: ${answer.error.message}`);
    process.exit(1);
  }
  const calls = answer.metadata.tool_calls ?? [];
  if (calls.length === 0) {
    console.log(answer.content);
    process.exit(0);
  }
  messages.push({
    role: 'assistant',
    content: answer.content === '' ? null : answer.content,
    tool_calls: calls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
    })),
  });
  for (const call of calls) {
    const result = run[call.name]?.(call.arguments) ?? { error: `No tool named ${call.name}.` };
    console.log(`${call.name}(${JSON.stringify(call.arguments)}) → ${JSON.stringify(result)}`);
    messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result) });
  }
}
console.error('No final answer after 5 turns.');
process.exit(1);
