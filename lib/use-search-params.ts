// Query-string parameters of a static page: known only after hydration (the exported HTML has none).
import { useRouter } from 'next/router';
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

/**
 * False in the static HTML and during hydration, true from the render after it: a page without a
 * query string has `router.isReady` already on its first client render, and rendering from it then
 * would differ from the exported HTML (React's hydration error #418).
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function useSearchParam(name: string): { ready: boolean; value: string | null } {
  const router = useRouter();
  const hydrated = useHydrated();
  const raw = router.query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  const ready = router.isReady && hydrated;
  return { ready, value: ready && value ? value : null };
}
