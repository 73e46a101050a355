// What a "refused only" filter keeps, said on its hover: a session's own filter and the live view's
// keep the same messages, in the same words.

export const REFUSED_ONLY_TITLE = 'Only the messages refused: sent ones the host did not queue, received ones it rejected';
