import { isJsonObject } from '../../contract/findings.js';

/** One provider as `GET /v1/models` lists it. */
export interface CatalogProvider {
  /** The configured id, the part of a route before the colon. */
  id: string;
  /** The provider type (`openai`, `anthropic`…), when listed. */
  type: string;
  /** A label for people, when the gateway gives one or marks the provider as its demo (`demo: true`). */
  label?: string;
  /** The modalities it serves. */
  modalities: string[];
  /** Model ids the gateway lists for it, by modality (empty when it lists none). */
  models: Record<string, string[]>;
  /** The text request options its wire format takes (`text_options`), when the gateway lists them. */
  textOptions?: string[];
}

/** What `GET /v1/models` says the gateway offers: providers with their modalities, and aliases. */
export interface Catalog {
  /** Configured providers, in the order listed. */
  providers: CatalogProvider[];
  /** Configured aliases: each route name with the `provider:model` targets it stands for. */
  aliases: { name: string; targets: string[] }[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/**
 * Model ids a listed provider offers per modality. A `models` member may be a list of ids (for every modality
 * it serves), of `{ id, modality }` objects, or a map from modality to ids.
 */
function modelsOf(value: unknown, modalities: string[]): Record<string, string[]> {
  const models: Record<string, string[]> = {};
  const add = (modality: string, id: string) => {
    models[modality] = [...(models[modality] ?? []), id];
  };
  if (Array.isArray(value)) {
    for (const item of value) {
      if (typeof item === 'string') for (const m of modalities) add(m, item);
      else if (isJsonObject(item) && typeof item.id === 'string') {
        const listed = typeof item.modality === 'string' ? [item.modality] : strings(item.modalities);
        for (const m of listed.length > 0 ? listed : modalities) add(m, item.id);
      }
    }
  } else if (isJsonObject(value)) {
    for (const [modality, ids] of Object.entries(value)) for (const id of strings(ids)) add(modality, id);
  }
  return models;
}

/**
 * Reads the catalog from a `GET /v1/models` envelope (`metadata.providers`, `metadata.aliases`; docs/gateway.md);
 * whatever is missing or malformed reads as empty.
 */
export function readCatalog(body: unknown): Catalog {
  const metadata = isJsonObject(body) && isJsonObject(body.metadata) ? body.metadata : {};
  const providers = Array.isArray(metadata.providers)
    ? metadata.providers.filter(isJsonObject).flatMap((p): CatalogProvider[] => {
        if (typeof p.id !== 'string') return [];
        const modalities = strings(p.modalities);
        return [
          {
            id: p.id,
            type: typeof p.type === 'string' ? p.type : p.id,
            ...(typeof p.label === 'string' && p.label !== ''
              ? { label: p.label }
              : p.demo === true
                ? { label: 'offline demo, generated answers' }
                : {}),
            modalities,
            models: modelsOf(p.models, modalities),
            ...(Array.isArray(p.text_options) ? { textOptions: strings(p.text_options) } : {}),
          },
        ];
      })
    : [];
  const aliases = isJsonObject(metadata.aliases)
    ? Object.entries(metadata.aliases).map(([name, targets]) => ({
        name,
        targets: typeof targets === 'string' ? [targets] : strings(targets),
      }))
    : [];
  return { providers, aliases };
}

/**
 * A model to offer per provider type and modality when the gateway lists none: ids the providers document and
 * docs/gateway.md uses in its examples. Any other id is one "Another route" away.
 */
const SUGGESTED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  openai: { text: 'gpt-4o-mini', images: 'gpt-image-1', speech: 'tts-1', transcriptions: 'whisper-1' },
  anthropic: { text: 'claude-sonnet-4-5' },
  google: {
    text: 'gemini-2.5-flash',
    images: 'gemini-2.5-flash-image',
    speech: 'gemini-2.5-flash-preview-tts',
    transcriptions: 'gemini-3.5-transcribe',
    videos: 'veo-3.0-generate-001',
  },
  replicate: { images: 'black-forest-labs/flux-schnell', videos: 'minimax/video-01' },
  // The demo provider (`verdict gateway --demo`) answers any model id; these are the ids docs/gateway.md uses.
  demo: { text: 'chat', images: 'image', speech: 'tts', transcriptions: 'stt', videos: 'video' },
};

/** One choice of the route picker. */
export interface RouteChoice {
  /** What is sent as `model`: an alias or `provider:model`. */
  route: string;
  /** What the picker shows. */
  label: string;
}

/** A group of the route picker: the aliases, or one provider's models. */
export interface RouteGroup {
  /** The group's heading. */
  label: string;
  /** Its choices. */
  routes: RouteChoice[];
}

/** True when an alias has a target whose provider serves the modality (or whose provider is not listed). */
function aliasServes(catalog: Catalog, targets: string[], modality: string): boolean {
  return targets.some((target) => {
    const provider = catalog.providers.find((p) => p.id === target.split(':')[0]);
    return provider === undefined || provider.modalities.includes(modality);
  });
}

/**
 * The routes to offer for a modality, grouped: aliases first, then each provider serving it with the models
 * the gateway lists for it, or else a documented model of its type. The first route is the default.
 */
export function routeGroups(catalog: Catalog, modality: string): RouteGroup[] {
  const groups: RouteGroup[] = [];
  const aliases = catalog.aliases.filter((a) => aliasServes(catalog, a.targets, modality));
  if (aliases.length > 0) {
    groups.push({
      label: 'Aliases',
      routes: aliases.map((a) => ({ route: a.name, label: `${a.name} → ${a.targets.join(', ')}` })),
    });
  }
  for (const provider of catalog.providers) {
    if (!provider.modalities.includes(modality)) continue;
    const listed = provider.models[modality] ?? [];
    const suggested = SUGGESTED[provider.type]?.[modality];
    const ids = listed.length > 0 ? listed : suggested === undefined ? [] : [suggested];
    if (ids.length === 0) continue;
    groups.push({
      label: provider.label === undefined ? provider.id : `${provider.id}: ${provider.label}`,
      routes: ids.map((id) => ({ route: `${provider.id}:${id}`, label: `${provider.id}:${id}` })),
    });
  }
  return groups;
}

/** The providers serving a modality for which no model can be offered: a route for them must be typed. */
export function unlistedProviders(catalog: Catalog, modality: string): string[] {
  const offered = new Set(routeGroups(catalog, modality).flatMap((g) => g.routes.map((r) => r.route)));
  return catalog.providers
    .filter((p) => p.modalities.includes(modality) && ![...offered].some((r) => r.startsWith(`${p.id}:`)))
    .map((p) => p.id);
}

/**
 * The text options a route takes: those of its provider, or for an alias those every target's provider takes;
 * `undefined` when the catalog cannot say (a typed route of an unlisted provider, a gateway that lists none).
 */
export function textOptionsOf(catalog: Catalog, route: string): ReadonlySet<string> | undefined {
  const alias = catalog.aliases.find((a) => a.name === route);
  const targets = alias === undefined ? [route] : alias.targets;
  let taken: Set<string> | undefined;
  for (const target of targets) {
    const options = catalog.providers.find((p) => p.id === target.split(':')[0])?.textOptions;
    if (options === undefined) return undefined;
    taken = new Set(taken === undefined ? options : options.filter((o) => taken?.has(o)));
  }
  return taken;
}
