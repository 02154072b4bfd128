// Query-string parameters of a static page: known only after hydration (the exported HTML has none).
import { useRouter } from 'next/router';

export function useSearchParam(name: string): { ready: boolean; value: string | null } {
  const router = useRouter();
  const raw = router.query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return { ready: router.isReady, value: value ? value : null };
}
