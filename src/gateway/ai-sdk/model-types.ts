import type {
  EmbeddingModel,
  experimental_generateVideo,
  ImageModel,
  LanguageModel,
  SpeechModel,
  TranscriptionModel,
} from 'ai';
import type { Modality } from '../basics/route-table.js';

// The AI SDK models the gateway calls, one per modality, and how a provider's video models run: the types the
// providers, the packaged types and the demo provider share (docs/design.md, "The gateway's layout").

/** A video model, as `experimental_generateVideo` takes it. */
export type VideoModel = Parameters<typeof experimental_generateVideo>[0]['model'];

/**
 * The AI SDK model each modality calls, as the provider packages make it: an object that names its provider,
 * never a string id for the AI SDK's own gateway. A modality of the route table without an entry here does not
 * compile.
 */
export interface ModalityModels {
  /** For `POST /v1/text`. */
  readonly text: Exclude<LanguageModel, string>;
  /** For `POST /v1/images`. */
  readonly images: Exclude<ImageModel, string>;
  /** For `POST /v1/speech`. */
  readonly speech: Exclude<SpeechModel, string>;
  /** For `POST /v1/transcriptions`. */
  readonly transcriptions: Exclude<TranscriptionModel, string>;
  /** For `POST /v1/videos`. */
  readonly videos: Exclude<VideoModel, string>;
  /** For `POST /openai/v1/embeddings`. */
  readonly embeddings: Exclude<EmbeddingModel, string>;
}

/** The model a modality calls. */
export type ModelOf<K extends Modality> = ModalityModels[K];

/** Makes the model of one modality from a model id. */
export type ModelMaker<K extends Modality> = (modelId: string) => ModelOf<K>;

/** The model makers of one provider, per modality; a missing entry means "not offered". */
export type ModelMakers = { readonly [K in Modality]?: ModelMaker<K> };

/**
 * How a provider's video models run (docs/gateway.md, "Endpoints"), as its installed SDK implements them: a model with
 * `doStart`/`doStatus` starts a job; one with only `doGenerate` polls inside its one call.
 */
export type VideoRun =
  | {
      /** Started as a job (`experimental_startVideo`) and polled (`experimental_getVideoStatus`). */
      readonly kind: 'job';
      /**
       * Whether a polled job's `operation` has the shape this provider's SDK gave when the job started. A job id
       * is the client's to send, so one made up is refused before any call (the SDKs build a URL from it).
       */
      readonly isOperation: (operation: unknown) => boolean;
    }
  | {
      /** Finished in one call of the model's `doGenerate`, which polls the provider itself: no job id to give. */
      readonly kind: 'call';
      /** The provider options that make the SDK poll every `pollMs` milliseconds. */
      readonly pollOptions: (pollMs: number) => Record<string, Record<string, number>>;
    };
