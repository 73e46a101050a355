/**
 * Focuses the view shown (every view is a `main`), without scrolling it: the one not hidden while
 * a view's code loads, nor kept from the keyboard (`inert`, under a phone's open sessions list).
 * False when there is none yet, or the focus did not land there.
 */
export function focusView(): boolean {
  const view = [...document.querySelectorAll<HTMLElement>('main')].find((main) => !main.classList.contains('view-loading') && main.closest('[inert], [hidden]') === null && main.getClientRects().length > 0);
  if (view === undefined) return false;
  if (!view.hasAttribute('tabindex')) view.setAttribute('tabindex', '-1');
  view.focus({ preventScroll: true });
  return document.activeElement === view;
}
