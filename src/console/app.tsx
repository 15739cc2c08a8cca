import { useEffect, useState } from 'preact/hooks';
import { CheckView } from './check/check-view.js';
import { ReceiptView } from './receipt/receipt-view.js';
import { TryView } from './try/try-view.js';
import { UsageView } from './usage/usage-view.js';

const VIEWS = {
  try: { title: 'Try', view: TryView },
  check: { title: 'Check', view: CheckView },
  receipt: { title: 'Receipt', view: ReceiptView },
  usage: { title: 'Usage', view: UsageView },
} as const;

type ViewName = keyof typeof VIEWS;

function viewOf(hash: string): ViewName {
  const name = hash.replace(/^#\/?/, '');
  return Object.hasOwn(VIEWS, name) ? (name as ViewName) : 'try';
}

/** The console: three views, chosen by the address's fragment (`#try`, `#check`, `#receipt`). */
export function App() {
  const [view, setView] = useState<ViewName>(viewOf(location.hash));
  useEffect(() => {
    const follow = () => setView(viewOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const View = VIEWS[view].view;
  return (
    <>
      <header>
        <h1>verdict console</h1>
        <nav aria-label="Views">
          {(Object.keys(VIEWS) as ViewName[]).map((name) => (
            <a key={name} href={`#${name}`} aria-current={name === view ? 'page' : undefined}>
              {VIEWS[name].title}
            </a>
          ))}
        </nav>
      </header>
      <main>
        <View />
      </main>
    </>
  );
}
