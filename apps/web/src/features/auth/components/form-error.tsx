import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';

/** A form-level failure, announced to screen readers as soon as it appears. */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {children}
    </Alert>
  );
}
