import type { ReactNode } from 'react';
import { Notice } from '../../../components/ui/notice.tsx';

/** A form-level failure, announced to screen readers as soon as it appears. */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return <Notice tone="error">{children}</Notice>;
}
