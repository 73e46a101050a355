import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isRefusal } from './api/client.ts';
import { App, loadViewCode } from './app/App.tsx';
import { EventStreamProvider } from './events/EventStream.tsx';
import { RouterProvider } from './router/Router.tsx';
import { parseRoute } from './router/routes.ts';
import { FirstRowsProvider } from './conversation/FirstRows.tsx';
import { SettingsProvider } from './settings/Settings.tsx';
import './app/app.css';
import './conversation/conversation.css';

// The one place where long-lived objects are made: nothing is created when a module is imported.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The live feed says when something changed; until then what we have is current.
      staleTime: Infinity,
      refetchOnWindowFocus: false,
      // Once more for a failure (a 503 with retry-after, a lost connection); never for a refusal.
      retry: (failures, error) => failures < 1 && !isRefusal(error),
    },
  },
});

/** How long the first render waits for the code of the view its address opens; past it the view shows a placeholder until it comes. */
const VIEW_CODE_WAIT_MS = 1_000;

const viewCodeHere = Promise.race([loadViewCode(parseRoute(window.location.pathname, window.location.search)), new Promise((resolve) => setTimeout(resolve, VIEW_CODE_WAIT_MS))]);
// A view whose code failed to load says so where it is shown (its lazy wrapper throws it there).
void viewCodeHere.catch(() => undefined).then(render);

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SettingsProvider>
          <RouterProvider>
            <EventStreamProvider>
              <FirstRowsProvider>
                <App />
              </FirstRowsProvider>
            </EventStreamProvider>
          </RouterProvider>
        </SettingsProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
