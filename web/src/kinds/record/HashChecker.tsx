import { useId, useState } from 'react';
import { utf8Length } from '../../text/markers.ts';
import { countOf } from '../../text/count.ts';

// Metadata mode keeps the text's UTF-8 length and SHA-256 (rule.metadataOnly). A reader who has
// a candidate text can check it here; it never leaves the browser.

type Verdict = { state: 'idle' } | { state: 'match' } | { state: 'differs'; bytes: number } | { state: 'error'; message: string };

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function HashChecker({ textHash, textLength }: { textHash: string; textLength: number | null }) {
  const id = useId();
  const [candidate, setCandidate] = useState('');
  // A textarea turns every line break into LF, so a text written with CRLF needs them put back.
  const [crlf, setCrlf] = useState(false);
  const [verdict, setVerdict] = useState<Verdict>({ state: 'idle' });

  const check = async () => {
    const text = crlf ? candidate.replace(/\n/g, '\r\n') : candidate;
    try {
      const hash = `sha256:${await sha256Hex(text)}`;
      setVerdict(hash === textHash.toLowerCase() ? { state: 'match' } : { state: 'differs', bytes: utf8Length(text) });
    } catch (error) {
      setVerdict({ state: 'error', message: (error as Error).message });
    }
  };

  return (
    <details className="hash-checker">
      <summary>Check a candidate text against the hash</summary>
      <label htmlFor={id}>Candidate text (hashed in this browser; it is sent nowhere)</label>
      <textarea
        id={id}
        rows={2}
        value={candidate}
        onChange={(event) => {
          setCandidate(event.target.value);
          setVerdict({ state: 'idle' });
        }}
      />
      <div className="hash-checker-actions">
        <label className="check">
          <input type="checkbox" checked={crlf} onChange={(event) => { setCrlf(event.target.checked); setVerdict({ state: 'idle' }); }} />
          line breaks are CRLF
        </label>
        <button type="button" onClick={() => void check()}>
          Check
        </button>
        <output className={`hash-verdict hash-${verdict.state}`} aria-live="polite">
          {verdict.state === 'match' && 'matches: this candidate is the withheld text, byte for byte'}
          {verdict.state === 'differs' &&
            `does not match (candidate is ${countOf(verdict.bytes, 'byte')}${textLength !== null ? `, the withheld text ${countOf(textLength, 'byte')}` : ''})`}
          {verdict.state === 'error' && `could not hash: ${verdict.message}`}
        </output>
      </div>
    </details>
  );
}
