// Long texts are clipped for scanning, never shortened: a view offers the whole text beside the
// part shown, and copy always copies the whole text as written. One rule for every kind's texts.

const CLIP_CHARS = 1_500;
const CLIP_LINES = 24;

/** The part of a text shown before "show all": null when the whole text is short enough. */
export function clipForDisplay(text: string): string | null {
  let end = Math.min(text.length, CLIP_CHARS);
  let lines = 0;
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= CLIP_LINES) {
      end = i;
      break;
    }
  }
  if (end >= text.length) return null;
  // Never split a surrogate pair: the part shown is the text's own characters.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end);
}
