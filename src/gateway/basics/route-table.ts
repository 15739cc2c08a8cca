/**
 * The gateway's routes, written once (docs/design.md, "Adding a gateway endpoint"). The configuration's route
 * names, the `Modality` type, the paths the app registers and labels its log lines with, `GET /v1/models`,
 * the paths of `/openapi.json` and the console's list of endpoints all derive from this table.
 *
 * Plain data with no imports, so the console's browser bundle can take it without zod or Hono; the request
 * schemas that go with it are keyed by the same names in `request-schemas.ts`.
 */

/** One HTTP method a route answers. */
export type RouteMethod = 'GET' | 'POST';

/** What the gateway knows about one route. */
export interface RouteEntry {
  /** The path as docs/gateway.md and `/openapi.json` write it (`{name}` for a path parameter). */
  readonly path: `/${string}`;
  /** The label of its log lines, metrics and usage records when it is not the path (a path with a parameter). */
  readonly label?: `/${string}`;
  /** The method it answers; any other is refused with a `VALIDATION_ERROR` naming it. */
  readonly method: RouteMethod;
  /** One line for `/openapi.json`. */
  readonly summary: string;
  /**
   * Set on the routes that call providers: how a sentence names its models ("no image models"), and the
   * route's own defaults. The route name is then a modality, a configuration `routes` member and an entry of
   * `GET /v1/models`' `modalities`.
   */
  readonly calls?: {
    /** The singular noun of its models: `image`, `video`… (the console's label, capitalised). */
    readonly noun: string;
    /** Default deadline of a request in milliseconds, when not the gateway's default. */
    readonly timeoutMs?: number;
    /** Default largest body in bytes, when not the gateway's default. */
    readonly maxBodyBytes?: number;
  };
  /** The route that calls providers whose limits and key permissions it shares (a video job's status). */
  readonly partOf?: string;
  /** Whether it can answer with `text/event-stream` (`"stream": true`). */
  readonly streams?: boolean;
  /** The JSON Schema of a `multipart/form-data` body it also takes, besides its JSON body. */
  readonly multipart?: Readonly<Record<string, unknown>>;
  /** The query parameters it reads (all optional strings). */
  readonly query?: readonly string[];
  /** Its answers, when not envelopes (`/healthz`, `/metrics`), as `/openapi.json` describes them. */
  readonly responses?: Readonly<Record<string, unknown>>;
  /** False for a path `/openapi.json` leaves out (the document itself). */
  readonly documented?: boolean;
}

/** Every route of the gateway, in the order `/openapi.json` lists them. */
export const ROUTE_TABLE = {
  text: {
    path: '/v1/text',
    method: 'POST',
    summary: 'Generate text',
    calls: { noun: 'text' },
    streams: true,
  },
  images: { path: '/v1/images', method: 'POST', summary: 'Generate images', calls: { noun: 'image' } },
  speech: { path: '/v1/speech', method: 'POST', summary: 'Turn text into speech', calls: { noun: 'speech' } },
  transcriptions: {
    path: '/v1/transcriptions',
    method: 'POST',
    summary: 'Transcribe audio',
    calls: { noun: 'transcription', maxBodyBytes: 25 * 1024 * 1024 },
    multipart: {
      type: 'object',
      properties: {
        model: { type: 'string' },
        file: { type: 'string', contentMediaType: 'application/octet-stream' },
      },
      required: ['model', 'file'],
    },
  },
  videos: {
    path: '/v1/videos',
    method: 'POST',
    summary: 'Generate a video',
    calls: { noun: 'video', timeoutMs: 600_000 },
  },
  video_job: {
    path: '/v1/videos/{job_id}',
    label: '/v1/videos/:job',
    method: 'GET',
    partOf: 'videos',
    summary: 'The status of a video job started with "wait": false (its videos once completed)',
  },
  models: { path: '/v1/models', method: 'GET', summary: 'Configured providers and aliases, as an envelope' },
  usage: {
    path: '/v1/usage',
    method: 'GET',
    summary: 'Usage totals and time series over a range (admin key; with a store, docs/gateway.md "Teams")',
    query: ['from', 'to', 'group_by', 'bucket'],
  },
  usage_requests: {
    path: '/v1/usage/requests',
    method: 'GET',
    summary: 'A page of usage records, newest first (admin key; with a store)',
    query: ['key', 'code', 'trace_id', 'from', 'to', 'limit', 'cursor'],
  },
  key: {
    path: '/v1/key',
    method: 'GET',
    summary: "The calling key's limits and what is left of them (with a store)",
  },
  anthropic_messages: {
    path: '/anthropic/v1/messages',
    method: 'POST',
    partOf: 'text',
    streams: true,
    summary:
      'Anthropic Messages API: any target answers as a Message, or its event stream with "stream": true',
    responses: {
      '200': {
        description: 'An Anthropic Message; with "stream": true, its text/event-stream of Messages events.',
        content: { 'application/json': {}, 'text/event-stream': { schema: { type: 'string' } } },
      },
      default: {
        description:
          'An Anthropic error body {type: "error", error: {type, message, verdict_code}}: the status and code are verdict\'s, also in x-verdict-error-code.',
        content: { 'application/json': {} },
      },
    },
  },
  anthropic_count_tokens: {
    path: '/anthropic/v1/messages/count_tokens',
    method: 'POST',
    partOf: 'text',
    summary: "Anthropic's token count of a Messages request, for Anthropic targets (others: 400)",
    responses: {
      '200': {
        description: '{input_tokens}, as Anthropic counted them.',
        content: { 'application/json': {} },
      },
      default: { description: 'An Anthropic error body.', content: { 'application/json': {} } },
    },
  },
  anthropic_models: {
    path: '/anthropic/v1/models',
    method: 'GET',
    summary: "The configured aliases in Anthropic's model list shape (any provider:model target works too)",
    responses: {
      '200': {
        description: '{data: [{type: "model", id, display_name, created_at}], has_more, first_id, last_id}',
      },
      default: { description: 'An Anthropic error body.', content: { 'application/json': {} } },
    },
  },
  healthz: {
    path: '/healthz',
    method: 'GET',
    summary: 'Liveness: 200 while serving, 503 while shutting down',
    responses: { '200': { description: 'Serving.' }, '503': { description: 'Shutting down.' } },
  },
  metrics: {
    path: '/metrics',
    method: 'GET',
    summary: 'Prometheus metrics of this instance',
    responses: { '200': { description: 'Prometheus text format.', content: { 'text/plain': {} } } },
  },
  openapi: { path: '/openapi.json', method: 'GET', summary: 'This document', documented: false },
  // The OpenAI surface (docs/gateway.md, "Use it from your existing client"): OpenAI's own objects, not envelopes.
  openai_chat_completions: {
    path: '/openai/v1/chat/completions',
    method: 'POST',
    partOf: 'text',
    streams: true,
    summary: 'OpenAI Chat Completions: a chat.completion, or chat.completion.chunk events then data: [DONE]',
    responses: {
      '200': {
        description:
          'A chat.completion; with "stream": true, text/event-stream of chat.completion.chunk events.',
        content: { 'application/json': {}, 'text/event-stream': {} },
      },
      default: { description: 'An OpenAI error: {error: {message, type, param, code, verdict_code}}.' },
    },
  },
  openai_responses: {
    path: '/openai/v1/responses',
    method: 'POST',
    partOf: 'text',
    streams: true,
    summary: 'OpenAI Responses: a response object, or response.* events ending with response.completed',
    responses: {
      '200': {
        description: 'A response; with "stream": true, text/event-stream of response.* events.',
        content: { 'application/json': {}, 'text/event-stream': {} },
      },
      default: { description: 'An OpenAI error: {error: {message, type, param, code, verdict_code}}.' },
    },
  },
  embeddings: {
    path: '/openai/v1/embeddings',
    method: 'POST',
    summary: 'OpenAI embeddings: a list of embedding objects, as floats or base64',
    calls: { noun: 'embedding' },
    responses: {
      '200': { description: 'An OpenAI list of embedding objects, with the usage.' },
      default: { description: 'An OpenAI error: {error: {message, type, param, code, verdict_code}}.' },
    },
  },
  openai_models: {
    path: '/openai/v1/models',
    method: 'GET',
    summary: 'OpenAI model list: the aliases and the targets they name',
    responses: { '200': { description: 'An OpenAI list of model objects.' } },
  },
  openai_model: {
    path: '/openai/v1/models/{model}',
    label: '/openai/v1/models/:model',
    method: 'GET',
    summary: 'OpenAI model object of an alias or a provider:model target the gateway can call',
    responses: {
      '200': { description: 'An OpenAI model object.' },
      '404': { description: 'An OpenAI error: no such alias or provider.' },
    },
  },
} as const satisfies Readonly<Record<string, RouteEntry>>;

/** The name of one route of {@link ROUTE_TABLE}. */
export type RouteKey = keyof typeof ROUTE_TABLE;

/** The routes that call providers: each is a modality and may have its own limits (`routes` in the configuration). */
export type RouteName = {
  [K in RouteKey]: (typeof ROUTE_TABLE)[K] extends { readonly calls: object } ? K : never;
}[RouteKey];

/** The kinds of model a route asks for: the names of the routes that call providers. */
export type Modality = RouteName;

/** Every route name, in table order. */
export const ROUTE_KEYS = Object.keys(ROUTE_TABLE) as RouteKey[];

/** The routes that call providers, in table order (the configuration's route names, the modalities). */
export const ROUTE_NAMES = ROUTE_KEYS.filter((key): key is RouteName => 'calls' in ROUTE_TABLE[key]);

/** True for the name of a route that calls providers. */
export function isRouteName(key: string): key is RouteName {
  return (ROUTE_NAMES as readonly string[]).includes(key);
}

/** The entry of one route, typed as the common shape. */
export function routeEntry(key: RouteKey): RouteEntry {
  return ROUTE_TABLE[key];
}

/** The path of each provider route, by modality (the console's list of endpoints). */
export const MODALITY_PATHS = Object.fromEntries(
  ROUTE_NAMES.map((name) => [name, ROUTE_TABLE[name].path]),
) as { readonly [K in RouteName]: (typeof ROUTE_TABLE)[K]['path'] };

/** How each provider route names its models, by modality (`image`, `video`…; the console's labels). */
export const MODALITY_NOUNS = Object.fromEntries(
  ROUTE_NAMES.map((name) => [name, ROUTE_TABLE[name].calls.noun]),
) as { readonly [K in RouteName]: (typeof ROUTE_TABLE)[K]['calls']['noun'] };

/** The label of a route's log lines, metrics and usage records: its path, or the template of a path with a parameter. */
export function routeLabelOf(key: RouteKey): `/${string}` {
  const entry = routeEntry(key);
  return entry.label ?? entry.path;
}

/** The route that calls providers a request's label belongs to, or `undefined` for the gateway's other routes. */
export function providerRouteOf(label: string): RouteName | undefined {
  PROVIDER_ROUTES ??= new Map(
    ROUTE_KEYS.flatMap((key) => {
      const name = isRouteName(key) ? key : routeEntry(key).partOf;
      return name !== undefined && isRouteName(name) ? [[routeLabelOf(key), name] as const] : [];
    }),
  );
  return PROVIDER_ROUTES.get(label);
}

/** The labels of {@link providerRouteOf}, made on its first call (a request's log label, once per request). */
let PROVIDER_ROUTES: Map<string, RouteName> | undefined;
