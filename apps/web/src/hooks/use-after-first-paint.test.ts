import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAfterFirstPaint } from './use-after-first-paint.ts';

// One file, in order: the flag lives for the page's lifetime, as the signed-in app's first paint does.
describe('useAfterFirstPaint', () => {
  it('is false at the first render and turns true once a frame has gone by', async () => {
    const { result } = renderHook(() => useAfterFirstPaint());
    expect(result.current).toBe(false);
    await waitFor(() => expect(result.current).toBe(true));
  });

  it('is true at once for a later mount in the same page (another sign-in)', () => {
    const { result } = renderHook(() => useAfterFirstPaint());
    expect(result.current).toBe(true);
  });
});
