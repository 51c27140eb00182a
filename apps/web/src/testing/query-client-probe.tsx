import { act } from '@testing-library/react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * A refetch on demand, as a save's invalidation or a poll would start it: render `<Probe />` beside the
 * screen (inside `renderWithProviders`, which makes its own QueryClient), then `await refetch(key)`.
 */
export function queryClientProbe() {
  let client: ReturnType<typeof useQueryClient> | undefined;
  function Probe() {
    client = useQueryClient();
    return null;
  }
  const refetch = async (queryKey: QueryKey) => {
    if (!client) throw new Error('queryClientProbe: render <Probe /> first');
    const current = client;
    await act(() => current.refetchQueries({ queryKey }));
  };
  return { Probe, refetch };
}
