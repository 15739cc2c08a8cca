import type { Context } from 'hono';
import { ROUTE_TABLE } from '../../basics/route-table.js';
import { jsonBodyOf } from '../../middleware/read-body.js';
import type { GatewayEnv, GatewayRuntime } from '../../pipeline/gateway-env.js';
import { respond, systemFailure } from '../../pipeline/gateway-env.js';
import { SURFACE_PREFIXES, surfaceHeaders } from '../../pipeline/renderer.js';
import { invalidRequest } from '../../request/read-request.js';
import { REQUEST_SCHEMAS } from '../../request/request-schemas.js';
import { post } from '../../routes/provider-routes.js';
import { serveCall } from '../../routes/serve-call.js';
import { embeddingsCacheSubject, serveThroughCache } from '../../routes/serve-through-cache.js';
import { serveTextRequest } from '../../routes/text.js';
import type { DropInSurface } from '../surface.js';
import {
  chatCompletionsRenderer,
  chatCompletionsRequestSchema,
  toTextRequest as chatToTextRequest,
} from './chat-completions.js';
import { embeddingsRenderer, embedInputs, fromEmbedMany } from './embeddings.js';
import { OPENAI_ERROR_RENDERER } from './openai-errors.js';
import {
  responsesRenderer,
  responsesRequestSchema,
  toTextRequest as responsesToTextRequest,
} from './responses.js';

/**
 * The OpenAI surface: OpenAI's SDKs and the tools built on them, pointed at `<gateway>/openai/v1`, talk to
 * every configured provider through the gateway's pipeline (docs/gateway.md, "Use it from your existing client").
 */

/** An OpenAI model object. */
function modelObject(id: string, ownedBy: string) {
  return { id, object: 'model', created: 0, owned_by: ownedBy };
}

/** Answer an OpenAI object from a GET route, counted as a success in the log line and the metrics. */
function answerObject(c: Context<GatewayEnv>, body: unknown): Response {
  c.get('facts').code = 'ok';
  return Response.json(body, { headers: surfaceHeaders(OPENAI_ERROR_RENDERER, c.get('traceId'), {}) });
}

/** `GET /openai/v1/models` and `GET /openai/v1/models/{model}`. */
function registerModels(
  surface: DropInSurface,
  app: Parameters<DropInSurface['register']>[0],
  runtime: GatewayRuntime,
) {
  app.get(ROUTE_TABLE.openai_models.path, (c) => {
    // The aliases, then the targets they name: any other `provider:model` works as well, but cannot be listed.
    const aliases = Object.entries(runtime.aliases);
    const targets = [...new Set(aliases.flatMap(([, list]) => list))];
    const data = [
      ...aliases.map(([name]) => modelObject(name, 'verdict')),
      ...targets.map((target) => modelObject(target, target.split(':')[0] ?? target)),
    ];
    return answerObject(c, { object: 'list', data });
  });
  // A target's model id may hold slashes (`openrouter:meta-llama/llama-3.3-70b-instruct`).
  app.get(`${ROUTE_TABLE.openai_model.label}{.+}`, (c) => {
    const id = c.req.param('model');
    const resolved = runtime.resolve(id, 'text', c.get('traceId'));
    if (!resolved.ok) return respond(c, resolved.failure);
    const owner = Object.hasOwn(runtime.aliases, id) ? 'verdict' : (id.split(':')[0] ?? surface.name);
    return answerObject(c, modelObject(id, owner));
  });
}

/** The OpenAI surface under `/openai/`. */
export const OPENAI_SURFACE: DropInSurface = {
  name: 'openai',
  prefix: SURFACE_PREFIXES.openai,
  renderer: OPENAI_ERROR_RENDERER,
  register(app, runtime) {
    post(app, runtime, 'openai_chat_completions', jsonBodyOf(chatCompletionsRequestSchema), (c, body) => {
      c.set('renderer', chatCompletionsRenderer(body));
      const text = chatToTextRequest(body);
      return serveTextRequest(c, runtime, text);
    });
    post(app, runtime, 'openai_responses', jsonBodyOf(responsesRequestSchema), (c, body) => {
      c.set('renderer', responsesRenderer(body));
      const translated = responsesToTextRequest(body);
      if (!translated.ok) {
        const { code, message, details } = invalidRequest(translated.problems);
        return Promise.resolve(respond(c, systemFailure(code, message, c.get('traceId'), details)));
      }
      const text = translated.request;
      return serveTextRequest(c, runtime, text);
    });
    post(app, runtime, 'embeddings', jsonBodyOf(REQUEST_SCHEMAS.embeddings), (c, body) => {
      c.set('renderer', embeddingsRenderer(body));
      return serveThroughCache(c, runtime, embeddingsCacheSubject(body), () =>
        serveCall(c, runtime, {
          route: 'embeddings',
          model: body.model,
          call: (input) => embedInputs(body, input),
          convert: fromEmbedMany,
        }),
      );
    });
    registerModels(OPENAI_SURFACE, app, runtime);
  },
};
