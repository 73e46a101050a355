/**
 * Why a search's text cannot be looked for (a regular expression that does not compile), or null.
 * The matcher, and the regular-expression engine it holds, load with the first search that asks
 * this, not with the command: the first answer does not wait for them.
 */
export async function describeBadSearchText(query: { q: string; regex: '0' | '1'; case: '0' | '1' }): Promise<string | null> {
  if (query.q === '') return null;
  const { createTextMatcher } = await import('../../shared/textMatch.ts');
  const matcher = createTextMatcher(query.q, { regex: query.regex === '1', matchCase: query.case === '1' });
  return 'error' in matcher ? matcher.error : null;
}
