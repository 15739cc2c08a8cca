#!/usr/bin/env node
// A third-party CLI built on verdict's producer runtime: `node examples/greet-cli.mjs --name Ada --json`.
import { fail, ok } from 'verdict';
import { defineCommand, nodeIo, runCommand } from 'verdict/node';

const greet = defineCommand({
  name: 'greet',
  description: 'Greets someone by name.',
  options: { name: { type: 'string', description: 'Who to greet.', required: true } },
  run: ({ options }) =>
    options.name.trim() === ''
      ? fail('Nobody to greet.', { error_code: 'empty_name' })
      : ok(`Hello, ${options.name}.`, { greeting: `Hello, ${options.name}` }),
});

process.exitCode = await runCommand(greet, process.argv.slice(2), nodeIo());
