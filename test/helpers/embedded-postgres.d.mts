/** A running (or stopped) test server. */
export interface TestPostgres {
  /** Connection URL. */
  url: string;
  /** Stop the server (fast shutdown); resolves once it has exited. */
  stop(): Promise<void>;
  /** Start it again on the same port. */
  start(): Promise<void>;
  /** Stop it and remove its data. */
  close(): Promise<void>;
}

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /** Turn off fsync (tests); default true. */
  fsyncOff?: boolean;
}

/** Initialise a data folder and start PostgreSQL on a free port. */
export function startPostgres(options?: StartPostgresOptions): Promise<TestPostgres>;
