import type { CallToolResult as CallToolResultV1 } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult as CallToolResultV2 } from '@modelcontextprotocol/server';
import { describe, expectTypeOf, test } from 'vitest';
import type { ContractCallToolResult } from '../../src/mcp/index.js';

describe('ContractCallToolResult', () => {
  test('is a CallToolResult of the 1.x SDK and of the 2.x SDK', () => {
    expectTypeOf<ContractCallToolResult>().toExtend<CallToolResultV1>();
    expectTypeOf<ContractCallToolResult>().toExtend<CallToolResultV2>();
  });
});
