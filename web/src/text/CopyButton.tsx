import { useState } from 'react';

/** Copies exactly what `getText` gives, which may first fetch a text the page had clipped. */
export function CopyButton({ getText, label, children = 'Copy' }: { getText: () => string | Promise<string>; label: string; children?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(await getText());
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 1500);
  };
  return (
    <button type="button" className="small" aria-label={label} onClick={() => void copy()}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : children}
    </button>
  );
}
