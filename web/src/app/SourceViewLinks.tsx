import type { SessionsResponse } from '../../../shared/wire/conversations.ts';
import { kindNamed } from '../kinds/registry.ts';
import { Link, useRouter } from '../router/Router.tsx';
import { sourceViewPath } from '../router/routes.ts';

/**
 * The way to the views only one kind has (a set-agent-comm store's rooms), one link per store
 * read: they are not conversations, and have no place in the list. Several stores of a kind are
 * told apart by their folder's name.
 */
export function SourceViewLinks({ sources }: { sources: SessionsResponse['sources'] | undefined }) {
  const { route } = useRouter();
  return (sources ?? []).flatMap((store) =>
    Object.entries(kindNamed(store.kind)?.views ?? {}).map(([name, { link }]) => {
      const several = (sources ?? []).filter((other) => other.kind === store.kind).length > 1;
      const open = (route.view === 'conversation' || route.view === 'source-view') && route.source === store.id;
      return (
        <Link key={`${store.id}/${name}`} to={sourceViewPath(store.id, name)} className="button" aria-current={open ? 'page' : undefined} title={`${link.title} ${store.root}`}>
          {several ? `${link.label}: ${folderName(store.root)}` : link.label}
        </Link>
      );
    }),
  );
}

function folderName(root: string): string {
  return root.replace(/[/\\]+$/, '').split(/[/\\]/).at(-1) || root;
}
