// An MCP server on stdio whose tool answers with QZX Result Contract v1 results: `node examples/mcp-greeter.mjs`.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { fail, ok } from 'verdict';
import { registerContractTool } from 'verdict/mcp/server';

serveStdio(() => {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' }, { capabilities: { tools: {} } });
  registerContractTool(server, {
    name: 'greet',
    description: 'Greets someone by name.',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    outputSchema: { type: 'object', required: ['greeting'], properties: { greeting: { type: 'string' } } },
    run: ({ name }) =>
      String(name).trim() === ''
        ? fail('Nobody to greet.', { error_code: 'empty_name' })
        : ok(`Hello, ${String(name)}.`, { greeting: `Hello, ${String(name)}.` }),
  });
  return server;
});
