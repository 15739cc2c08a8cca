import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { FAMILIES, FINAL_TEXT, UNITS_ARGS, WEATHER_ARGS } from '../gateway/agent-wire.js';
import { useReplay } from '../gateway/use-replay.js';
import { ROOT } from '../support/ensure-build.js';
import { type Served, serveFetch } from './serve-gateway.js';

const run = promisify(execFile);
const replay = useReplay();
let served: Served;

beforeAll(async () => {
  served = await serveFetch((request) =>
    createGateway({
      providers: {
        ...replay().providers(),
        'openai-responses': {
          type: 'openai',
          api: 'responses',
          baseURL: replay().baseURL.openai,
          apiKey: 'sk-replay-openai-secret',
        },
      } as GatewayOptions['providers'],
      retries: 0,
    }).fetch(request),
  );
});
afterAll(() => served.close());

type Body = Record<string, unknown>;

/** What each provider received, read in its own wire format: tool names declared, tool results by call id. */
const READ: Record<string, { tools(body: Body): string[]; results(body: Body): [string, unknown][] }> = {
  'OpenAI chat': {
    tools: (body) => (body.tools as { function: { name: string } }[]).map((tool) => tool.function.name),
    results: (body) =>
      (body.messages as { role: string; tool_call_id?: string; content: string }[])
        .filter((message) => message.role === 'tool')
        .map((message) => [message.tool_call_id ?? '', JSON.parse(message.content)]),
  },
  'OpenAI Responses': {
    tools: (body) => (body.tools as { type: string; name: string }[]).map((tool) => tool.name),
    results: (body) =>
      (body.input as { type?: string; call_id?: string; output?: string }[])
        .filter((item) => item.type === 'function_call_output')
        .map((item) => [item.call_id ?? '', JSON.parse(item.output ?? '')]),
  },
  Anthropic: {
    tools: (body) => (body.tools as { name: string; input_schema: unknown }[]).map((tool) => tool.name),
    results: (body) =>
      (
        body.messages as {
          role: string;
          content: { type: string; tool_use_id?: string; content?: string }[];
        }[]
      )
        .flatMap((message) =>
          message.role === 'user' && Array.isArray(message.content) ? message.content : [],
        )
        .filter((block) => block.type === 'tool_result')
        .map((block) => [block.tool_use_id ?? '', JSON.parse(block.content ?? '')]),
  },
  Gemini: {
    tools: (body) =>
      (body.tools as { functionDeclarations: { name: string }[] }[]).flatMap((tool) =>
        tool.functionDeclarations.map((declaration) => declaration.name),
      ),
    results: (body) =>
      (
        body.contents as {
          role: string;
          parts: { functionResponse?: { id?: string; name: string; response: { content: unknown } } }[];
        }[]
      )
        .flatMap((content) => content.parts)
        .flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse]))
        .map((response) => [response.id ?? response.name, response.response.content]),
  },
};

describe('an agent loop through verdict/client (examples/agent-loop.mjs)', () => {
  test.each(FAMILIES.filter((family) => family.name in READ))(
    '$name: the tool calls come back, the results go to the right call ids, the final answer arrives',
    async (family) => {
      const reader = READ[family.name];
      if (reader === undefined) throw new Error(family.name);
      replay().enqueue(family.toolCalls(true), family.text(FINAL_TEXT));
      const { stdout } = await run(process.execPath, [join(ROOT, 'examples', 'agent-loop.mjs')], {
        cwd: ROOT,
        env: { ...process.env, VERDICT_GATEWAY_URL: served.url, AGENT_MODEL: family.model },
        timeout: 30_000,
      });
      const lines = stdout.trim().split('\n');
      expect(lines.at(-1)).toBe(FINAL_TEXT);
      expect(lines.slice(0, 2)).toEqual([
        `get_weather(${JSON.stringify(WEATHER_ARGS)}) → {"city":"Oslo","temp_c":12}`,
        `convert_units(${JSON.stringify(UNITS_ARGS)}) → {"value":54,"unit":"F"}`,
      ]);
      const [first, second] = replay().requests.map((request) => request.body as Body);
      expect(replay().requests).toHaveLength(2);
      expect(reader.tools(first as Body)).toEqual(['get_weather', 'convert_units']);
      expect(reader.tools(second as Body)).toEqual(['get_weather', 'convert_units']);
      const results = reader.results(second as Body);
      expect(results.map(([, value]) => value)).toEqual([
        { city: 'Oslo', temp_c: 12 },
        { value: 54, unit: 'F' },
      ]);
      if (family.givesIds) {
        expect(results.map(([id]) => id)).toEqual(
          family.name === 'Anthropic'
            ? ['toolu_weather_1', 'toolu_units_1']
            : ['call_weather_1', 'call_units_1'],
        );
      } else {
        // Gemini gives no ids: the gateway's ids come back with each result, in the order of the calls.
        expect(new Set(results.map(([id]) => id)).size).toBe(2);
      }
    },
  );
});
