import { createElement, lazy, type ComponentType } from 'react';

// A view's code comes in its own chunk, loaded when the view is first shown. Shown through
// React.lazy alone, a view opened by its address first showed Suspense's placeholder, and React
// reveals what was behind a placeholder no sooner than 300 ms after it (its throttle for
// fallbacks): the view's first requests waited that long on an idle page. main.tsx loads the
// code of the view an address opens before the first render, and a view whose code is here is
// rendered as itself, without suspending.

/** A view whose code is loaded when it is first shown; `load()` before that shows it without a placeholder. */
export type ViewCode<P> = ComponentType<P> & { load(): Promise<unknown> };

export function viewCode<P extends object>(importModule: () => Promise<{ default: ComponentType<P> }>): ViewCode<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<{ default: ComponentType<P> }> | null = null;
  const load = () =>
    (loading ??= importModule().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(load);
  // `loaded` is set before lazy's own callback runs, so a render after the code came renders the
  // view itself: the lazy wrapper never shows content, and a view is never mounted twice.
  const View = (props: P) => createElement(loaded ?? Lazy, props);
  return Object.assign(View, { load });
}
