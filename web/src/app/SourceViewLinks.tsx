import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { kindNamed } from '../kinds/registry.ts';
import { Link, useRouter } from '../router/Router.tsx';
import { sourceViewPath } from '../router/routes.ts';

/**
 * The way to the views only one kind has (a set-agent-comm store's rooms), one link per store
 * read: they are not conversations, and have no place in the list. Several stores of a kind are
 * told apart by their folder's name, with as many of the folders above it as tell them apart
 * (`one-session/sac-store`, `sac-store`).
 */
export function SourceViewLinks({ sources }: { sources: SessionsResponse['sources'] | undefined }) {
  const { route } = useRouter();
  return (sources ?? []).flatMap((store) =>
    Object.entries(kindNamed(store.kind)?.views ?? {}).map(([name, { link }]) => {
      const ofKind = (sources ?? []).filter((other) => other.kind === store.kind).map((other) => other.root);
      const open = (route.view === 'conversation' || route.view === 'source-view') && route.source === store.id;
      return (
        <Link key={`${store.id}/${name}`} to={sourceViewPath(store.id, name)} className="button" aria-current={open ? 'page' : undefined} title={`${link.title} ${store.root}`}>
          {ofKind.length > 1 ? `${link.label}: ${folderNameApart(store.root, ofKind)}` : link.label}
        </Link>
      );
    }),
  );
}

/** The last folders of `root`'s path, as many as no other of `roots` ends with. */
function folderNameApart(root: string, roots: readonly string[]): string {
  const partsOf = (path: string) => path.replace(/[/\\]+$/, '').split(/[/\\]/).filter((part) => part !== '');
  const parts = partsOf(root);
  const others = roots.filter((other) => other !== root).map(partsOf);
  for (let last = 1; last <= parts.length; last++) {
    const tail = parts.slice(-last).join('/');
    if (!others.some((other) => other.slice(-last).join('/') === tail)) return tail;
  }
  return root;
}
