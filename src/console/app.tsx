import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { CheckView } from './check/check-view.js';
import { CompareView } from './compare/compare-view.js';
import { ReceiptView } from './receipt/receipt-view.js';
import { TryView } from './try/try-view.js';
import { UsageView } from './usage/usage-view.js';

/** One view of the console: its fragment (`#id`), its name in the navigation, and its component. */
interface ConsoleView {
  id: string;
  title: string;
  view: ComponentType;
}

/** The views in the order the navigation lists them; the first is the default. Adding a view is one entry. */
const VIEWS: readonly ConsoleView[] = [
  { id: 'try', title: 'Try', view: TryView },
  { id: 'compare', title: 'Compare', view: CompareView },
  { id: 'check', title: 'Check', view: CheckView },
  { id: 'receipt', title: 'Receipt', view: ReceiptView },
  { id: 'usage', title: 'Usage', view: UsageView },
];

/** The view a fragment names: `#usage`, or `#usage?trace_id=…` with the view's own parameters after `?`. */
function viewOf(hash: string): ConsoleView {
  const id = hash.replace(/^#\/?/, '').split('?')[0];
  return VIEWS.find((v) => v.id === id) ?? (VIEWS[0] as ConsoleView);
}

/** The console: its views, chosen by the address's fragment (`#try`, `#compare`, `#check`, `#receipt`, `#usage`). */
export function App() {
  const [current, setCurrent] = useState<ConsoleView>(viewOf(location.hash));
  useEffect(() => {
    const follow = () => setCurrent(viewOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  const View = current.view;
  return (
    <>
      <header>
        <h1>
          verdict <span>console</span>
        </h1>
        <nav aria-label="Views">
          {VIEWS.map((v) => (
            <a key={v.id} href={`#${v.id}`} aria-current={v === current ? 'page' : undefined}>
              {v.title}
            </a>
          ))}
        </nav>
      </header>
      <main class={`view-${current.id}`}>
        <View />
      </main>
    </>
  );
}
