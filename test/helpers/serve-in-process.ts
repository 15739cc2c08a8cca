import { run } from '../../src/cli/run.js';
import { type MemoryStream, memoryIo } from './memory-io.js';

/** A `verdict mcp serve --http …` running inside the test process. */
export interface InProcessServer {
  /** The MCP endpoint it announced on stderr. */
  url: URL;
  /** What it wrote on stderr so far. */
  stderr: MemoryStream;
  /** What it wrote on stdout so far. */
  stdout: MemoryStream;
  /** Stops serving (as SIGINT does) and resolves with the exit status. */
  stop(): Promise<number>;
}

/**
 * Runs `verdict mcp serve` with `args` in-process and resolves once it announces its endpoint; rejects with the
 * exit status and output when it ends first (a usage error, say).
 */
export async function serveInProcess(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<InProcessServer> {
  const controller = new AbortController();
  const io = memoryIo({ env, signal: controller.signal });
  let status: number | undefined;
  const serving = run(['mcp', 'serve', ...args], io).then((code) => {
    status = code;
    return code;
  });
  for (;;) {
    const match = /serving MCP on (\S+)/.exec(io.stderr.text());
    if (match?.[1]) {
      return {
        url: new URL(match[1]),
        stderr: io.stderr,
        stdout: io.stdout,
        stop: () => {
          controller.abort();
          return serving;
        },
      };
    }
    if (status !== undefined) {
      throw new Error(`verdict mcp serve ended with ${status}: ${io.stdout.text()}${io.stderr.text()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
