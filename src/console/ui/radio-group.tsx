/** Props of {@link RadioGroup}. */
export interface RadioGroupProps<K extends string> {
  /** The legend naming the group. */
  legend: string;
  /** The `name` shared by the radio buttons. */
  name: string;
  /** Each choice's label, by value. */
  choices: Readonly<Record<K, string>>;
  /** The value chosen. */
  value: K;
  /** Called with the value chosen. */
  onChange: (value: K) => void;
  /** `segmented`: one compact row of buttons, the chosen one filled, instead of a list. */
  variant?: 'list' | 'segmented';
}

/** A fieldset of labelled radio buttons, one per choice. */
export function RadioGroup<K extends string>({
  legend,
  name,
  choices,
  value,
  onChange,
  variant = 'list',
}: RadioGroupProps<K>) {
  return (
    <fieldset class={variant === 'segmented' ? 'segmented' : undefined}>
      <legend>{legend}</legend>
      {(Object.keys(choices) as K[]).map((key) => (
        <label key={key} class="choice">
          <input
            type="radio"
            name={name}
            value={key}
            checked={value === key}
            onChange={() => onChange(key)}
          />
          {choices[key]}
        </label>
      ))}
    </fieldset>
  );
}
