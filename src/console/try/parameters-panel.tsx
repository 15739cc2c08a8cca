import {
  type Parameters,
  type PlaygroundRequest,
  REASONING_EFFORTS,
  type RequestProblem,
  readJsonObject,
  readParameters,
  SAMPLE_TOOL,
  type ToolDraft,
  toolProblems,
} from './request-model.js';

/** Labels of the parameters, as the panel shows them. */
const PARAMETER_LABELS: Readonly<Record<keyof Parameters, string>> = {
  temperature: 'Temperature (0–2)',
  top_p: 'Top p (0–1)',
  max_output_tokens: 'Max tokens',
  stop: 'Stop sequences (one a line)',
  seed: 'Seed',
  reasoning_effort: 'Reasoning effort',
  provider_options: 'Provider options (JSON)',
};

/** A field's problem under it, named by `id` so the field can point at it. */
function Problem({ id, problem }: { id: string; problem: RequestProblem | undefined }) {
  if (problem === undefined) return null;
  return (
    <span class="field-problem" id={id}>
      {problem.message}
    </span>
  );
}

/** The attributes that tie a field to its problem, when it has one. */
function invalidIf(problem: RequestProblem | undefined, id: string) {
  return problem === undefined ? {} : { 'aria-invalid': true as const, 'aria-describedby': id };
}

/** Props of {@link ParametersPanel}. */
export interface ParametersPanelProps {
  /** The request whose parameters, tools and response format are shown. */
  request: PlaygroundRequest;
  /** The text options the route takes (`undefined`: the gateway does not say, so all are offered). */
  offered: ReadonlySet<string> | undefined;
  /** Called with the changed members. */
  onChange: (change: Partial<PlaygroundRequest>) => void;
}

/**
 * The side panel of a text request: sampling parameters, tools and a JSON-schema response format, each shown
 * only when the route's provider takes it (`GET /v1/models`, `text_options`), checked as they are typed.
 */
export function ParametersPanel({ request, offered, onChange }: ParametersPanelProps) {
  const takes = (name: string) => offered === undefined || offered.has(name);
  const { problems } = readParameters(request.parameters, offered);
  const problemOf = (field: string) => problems.find((p) => p.field === field);
  const setParameter = (name: keyof Parameters, value: string) =>
    onChange({ parameters: { ...request.parameters, [name]: value } });
  const shown = (Object.keys(PARAMETER_LABELS) as (keyof Parameters)[]).filter(takes);
  return (
    <details class="panel parameters" open>
      <summary>Parameters</summary>
      <div class="grid">
        {offered !== undefined && (
          <p class="hint">Only what this route's provider takes is offered; an empty field is not sent.</p>
        )}
        {shown.map((name) => {
          const problem = problemOf(name);
          const id = `parameter-${name}-problem`;
          const value = request.parameters[name];
          const label = PARAMETER_LABELS[name];
          if (name === 'reasoning_effort') {
            return (
              <label key={name}>
                {label}
                <select value={value} onChange={(e) => setParameter(name, e.currentTarget.value)}>
                  <option value="">The provider's default</option>
                  {REASONING_EFFORTS.map((effort) => (
                    <option key={effort} value={effort}>
                      {effort}
                    </option>
                  ))}
                </select>
              </label>
            );
          }
          const multiline = name === 'stop' || name === 'provider_options';
          const field = {
            id: `parameter-${name}`,
            value,
            spellcheck: false,
            onInput: (e: { currentTarget: { value: string } }) => setParameter(name, e.currentTarget.value),
            ...invalidIf(problem, id),
          };
          return (
            <div key={name} class="field">
              <label for={`parameter-${name}`}>{label}</label>
              {multiline ? (
                <textarea
                  rows={name === 'stop' ? 2 : 3}
                  placeholder={name === 'provider_options' ? '{"openai": {"user": "me"}}' : ''}
                  {...field}
                />
              ) : (
                <input inputMode="decimal" autocomplete="off" {...field} />
              )}
              <Problem id={id} problem={problem} />
            </div>
          );
        })}
        {takes('tools') && <Tools tools={request.tools} onChange={(tools) => onChange({ tools })} />}
        {takes('response_format') && <ResponseFormat request={request} onChange={onChange} />}
      </div>
    </details>
  );
}

function Tools({ tools, onChange }: { tools: ToolDraft[]; onChange: (tools: ToolDraft[]) => void }) {
  const change = (index: number, member: Partial<ToolDraft>) =>
    onChange(tools.map((tool, i) => (i === index ? { ...tool, ...member } : tool)));
  return (
    <fieldset class="tools">
      <legend>Tools</legend>
      {tools.length === 0 && <p class="hint">No tool: the model answers in text.</p>}
      {tools.map((tool, index) => {
        const problems = toolProblems(tool, index, tools);
        const nameProblem = problems.find((p) => p.field.endsWith('/name'));
        const schemaProblem = problems.find((p) => p.field.endsWith('/parameters'));
        const n = index + 1;
        return (
          <fieldset key={index} class="tool">
            <legend>{`Tool ${n}`}</legend>
            <label>
              {`Tool ${n} name`}
              <input
                value={tool.name}
                spellcheck={false}
                autocomplete="off"
                onInput={(e) => change(index, { name: e.currentTarget.value })}
                {...invalidIf(nameProblem, `tool-${n}-name-problem`)}
              />
            </label>
            <Problem id={`tool-${n}-name-problem`} problem={nameProblem} />
            <label>
              {`Tool ${n} description`}
              <input
                value={tool.description}
                onInput={(e) => change(index, { description: e.currentTarget.value })}
              />
            </label>
            <label>
              {`Tool ${n} parameters (JSON Schema)`}
              <textarea
                rows={5}
                spellcheck={false}
                value={tool.parameters}
                onInput={(e) => change(index, { parameters: e.currentTarget.value })}
                {...invalidIf(schemaProblem, `tool-${n}-parameters-problem`)}
              />
            </label>
            <Problem id={`tool-${n}-parameters-problem`} problem={schemaProblem} />
            <button type="button" class="quiet" onClick={() => onChange(tools.filter((_, i) => i !== index))}>
              {`Remove tool ${n}`}
            </button>
          </fieldset>
        );
      })}
      <button
        type="button"
        onClick={() =>
          onChange([
            ...tools,
            tools.length === 0 ? SAMPLE_TOOL : { ...SAMPLE_TOOL, name: `tool_${tools.length + 1}` },
          ])
        }
      >
        Add a tool
      </button>
    </fieldset>
  );
}

function ResponseFormat({
  request,
  onChange,
}: {
  request: PlaygroundRequest;
  onChange: (change: Partial<PlaygroundRequest>) => void;
}) {
  const format = request.responseFormat;
  const set = (member: Partial<PlaygroundRequest['responseFormat']>) =>
    onChange({ responseFormat: { ...format, ...member } });
  const read = readJsonObject(format.schema);
  const schemaProblem = read.ok ? undefined : { field: 'response_format/schema', message: read.message };
  return (
    <fieldset class="response-format">
      <legend>Structured output</legend>
      <label class="choice">
        <input type="checkbox" checked={format.on} onChange={(e) => set({ on: e.currentTarget.checked })} />
        Answer with a JSON object of a schema
      </label>
      {format.on && (
        <>
          <label>
            Schema name
            <input
              value={format.name}
              spellcheck={false}
              autocomplete="off"
              onInput={(e) => set({ name: e.currentTarget.value })}
            />
          </label>
          <label>
            JSON Schema of the answer
            <textarea
              rows={7}
              spellcheck={false}
              value={format.schema}
              onInput={(e) => set({ schema: e.currentTarget.value })}
              {...invalidIf(schemaProblem, 'response-schema-problem')}
            />
          </label>
          <Problem id="response-schema-problem" problem={schemaProblem} />
        </>
      )}
    </fieldset>
  );
}
