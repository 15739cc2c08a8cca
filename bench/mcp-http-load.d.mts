import type { ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';

/** The built CLI entry the driver starts. */
export declare const CLI: string;
/** A fixed token for measuring. */
export declare const BENCH_TOKEN: string;
/** The call the driver repeats by default. */
export declare const SAMPLE_CALL: { name: string; arguments: Record<string, unknown> };

/** A running `verdict mcp serve --http`. */
export interface VerdictHttp {
  child: ChildProcess;
  url: URL;
  stderr(): string;
  stdout(): string;
  stop(): Promise<number | null>;
}

/** Starts `verdict mcp serve --http 127.0.0.1:0` with {@link BENCH_TOKEN}. */
export declare function startVerdictHttp(options?: {
  nodeArgs?: string[];
  args?: string[];
  env?: Record<string, string>;
}): Promise<VerdictHttp>;

/** The resident set size of a process in bytes (Linux), else undefined. */
export declare function rssBytes(pid: number): number | undefined;

/** A connected official client, pinned to 2026-07-28 unless `pin` is false. */
export declare function connectClient(url: URL, options?: { pin?: boolean; token?: string }): Promise<Client>;

/** What a load run measured. */
export interface LoadRun {
  seconds: number;
  latencies: number[];
  errors: string[];
}

/** Makes `total` calls with `concurrency` in flight through one client. */
export declare function runCalls(
  client: Client,
  options: {
    total: number;
    concurrency: number;
    call?: { name: string; arguments: Record<string, unknown> };
  },
): Promise<LoadRun>;

/** The `q` quantile (0–1) of a list of numbers. */
export declare function quantile(values: readonly number[], q: number): number;
