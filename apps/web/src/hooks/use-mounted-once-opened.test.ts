import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useMountedOnceOpened } from './use-mounted-once-opened.ts';

describe('useMountedOnceOpened', () => {
  it('is false until the first opening, then stays true when closed again', () => {
    const { result, rerender } = renderHook(({ isOpen }) => useMountedOnceOpened(isOpen), { initialProps: { isOpen: false } });
    expect(result.current).toBe(false);
    rerender({ isOpen: false });
    expect(result.current).toBe(false);
    rerender({ isOpen: true });
    expect(result.current).toBe(true);
    rerender({ isOpen: false });
    expect(result.current).toBe(true);
  });

  it('is true at once for a dialog opened by its address (a reload of ?customer=new)', () => {
    const { result } = renderHook(() => useMountedOnceOpened(true));
    expect(result.current).toBe(true);
  });
});
