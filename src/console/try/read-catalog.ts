import { isJsonObject } from '../../contract/findings.js';

/** What `GET /v1/models` says the gateway offers: providers with their modalities, and aliases. */
export interface Catalog {
  /** Configured providers, by id, with the modalities each serves. */
  providers: { id: string; modalities: string[]; demo?: boolean }[];
  /** Configured aliases (route names standing for one or more `provider:model` targets). */
  aliases: string[];
}

/**
 * Reads the catalog from a `GET /v1/models` envelope (`metadata.providers`, `metadata.aliases`; docs/gateway.md);
 * whatever is missing or malformed reads as empty.
 */
export function readCatalog(body: unknown): Catalog {
  const metadata = isJsonObject(body) && isJsonObject(body.metadata) ? body.metadata : {};
  const providers = Array.isArray(metadata.providers)
    ? metadata.providers.filter(isJsonObject).flatMap((p) =>
        typeof p.id === 'string'
          ? [
              {
                id: p.id,
                modalities: Array.isArray(p.modalities)
                  ? p.modalities.filter((m): m is string => typeof m === 'string')
                  : [],
                ...(p.demo === true ? { demo: true } : {}),
              },
            ]
          : [],
      )
    : [];
  const aliases = isJsonObject(metadata.aliases) ? Object.keys(metadata.aliases) : [];
  return { providers, aliases };
}

/** Route suggestions for a modality: every alias, and `provider:` for each provider serving the modality. */
export function routeSuggestions(catalog: Catalog, modality: string): string[] {
  return [
    ...catalog.aliases,
    ...catalog.providers.filter((p) => p.modalities.includes(modality)).map((p) => `${p.id}:`),
  ];
}
