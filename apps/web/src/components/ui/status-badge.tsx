import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/** A status in a list or a page: Mantine's light badge of that colour (the theme keeps it as wide as its word). */
export function StatusBadge({ color, children }: { color: string; children: ReactNode }) {
  return (
    <Badge variant="light" color={color}>
      {children}
    </Badge>
  );
}
