/** Focuses the view shown (every view is a `main`), without scrolling it; false when there is none yet. */
export function focusView(): boolean {
  const view = document.querySelector<HTMLElement>('main');
  if (view === null) return false;
  if (!view.hasAttribute('tabindex')) view.setAttribute('tabindex', '-1');
  view.focus({ preventScroll: true });
  return true;
}
