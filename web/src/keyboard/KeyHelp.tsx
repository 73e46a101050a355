import { useEffect, useRef } from 'react';
import { focusView } from '../app/focusView.ts';

export const KEYS: [string, string][] = [
  ['j  ↓', 'next entry (of a conversation, a search’s hits, or the live view’s rows)'],
  ['k  ↑', 'previous entry'],
  ['r', 'raw JSON of the selected entry (a record entry, on its session’s page or across the stores; spex and set-agent-comm show their text verbatim)'],
  ['End  G', 'go to the newest entry and follow'],
  ['Home', 'go to the first entry'],
  [']', 'next session in the list (or its conversation in a store)'],
  ['[', 'previous session in the list (or its conversation in a store)'],
  ['/', 'search all sessions (on the search page: its words, selected)'],
  ['l', 'live: every new item of every source (on it: its filters kept)'],
  ['g', 'map: who talks to whom (on it: what it shows kept)'],
  ['t', 'switch times between UTC and local'],
  ['m', 'monospace text on or off'],
  ['←  →', 'on the map, its arrows focused: the previous or next arrow (↑ ↓ too; Home, End: the first, the last)'],
  ['Enter', 'on a session across the stores: the selected item in its store’s own page; on a search: the selected hit’s entry; in the live view: the selected row’s item; on the map: the focused arrow’s messages'],
  ['Esc', 'in a field: leave it; on the map: close an arrow’s messages; here: close this list'],
  ['?', 'this list'],
];

export function KeyHelp({ onClose }: { onClose(): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    // The dialog is taken out of the page when it closes, so the browser gives the focus back to
    // no one: it goes back here to what had it, or, opened by its key with nothing focused, to the
    // view, not to the page's start: the next Tab goes on in the view, and the next Enter is the
    // view's (given to the list's button, it opened the list again in place of the selected item).
    const before = document.activeElement;
    if (dialog !== null && !dialog.open) dialog.showModal();
    return () => {
      if (before instanceof HTMLElement && before !== document.body && before.isConnected) before.focus();
      else if (!focusView()) document.querySelector<HTMLElement>('[data-key-help]')?.focus();
    };
  }, []);
  return (
    <dialog ref={ref} className="key-help" aria-label="Keyboard shortcuts" onClose={onClose} onCancel={onClose}>
      <h2>Keyboard</h2>
      <dl>
        {KEYS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              {keys.split('  ').map((key) => (
                <kbd key={key}>{key}</kbd>
              ))}
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={onClose} autoFocus>
        Close
      </button>
    </dialog>
  );
}
