// Words as the product writes them, on a page or in an export.

/** Words begun with a capital, as at the head of a sentence, a caption or a heading: "the record" → "The record". */
export function capitalize(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}
