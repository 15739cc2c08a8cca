import { useState } from 'preact/hooks';

/** Props of {@link FileDrop}. */
export interface FileDropProps {
  /** The label of the file input. */
  label: string;
  /** Accepted types, as for `<input type="file" accept>`. */
  accept?: string;
  /** Take several files at once. */
  multiple?: boolean;
  /** Called with the files chosen or dropped. */
  onFiles: (files: File[]) => void;
}

/** A labelled file input inside an area that also takes dropped files. */
export function FileDrop({ label, accept, multiple = false, onFiles }: FileDropProps) {
  const [over, setOver] = useState(false);
  const [loaded, setLoaded] = useState<string[]>([]);
  // A dropped file is not the input's: say which were taken, since the input itself says none was chosen.
  const take = (files: File[], dropped: boolean) => {
    setLoaded(dropped ? files.map((f) => f.name) : []);
    onFiles(files);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the labelled file input inside is the keyboard path
    <div
      class={over ? 'drop over' : 'drop'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const files = [...(event.dataTransfer?.files ?? [])];
        if (files.length > 0) take(multiple ? files : files.slice(0, 1), true);
      }}
    >
      <label>
        {label}
        <input
          type="file"
          accept={accept}
          multiple={multiple}
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            if (files.length > 0) take(files, false);
          }}
        />
      </label>
      <span class="hint">
        {loaded.length > 0
          ? `Dropped: ${loaded.join(', ')}`
          : `or drop ${multiple ? 'files' : 'a file'} here`}
      </span>
    </div>
  );
}

/** The exact bytes of a file chosen in the page. */
export async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await file.arrayBuffer());
}
