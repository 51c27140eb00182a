import { Paper, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A message block for the auth area: an error (`role="alert"`) or a confirmation
 * (`role="status"`), announced to screen readers when it appears. Lighter than Mantine's Alert, which
 * the sign-in page's first load cannot afford (docs/decisions/007).
 */
export function Notice({ tone, title, children }: { tone: 'error' | 'success'; title?: ReactNode; children?: ReactNode }) {
  const color = tone === 'error' ? 'red' : 'green';
  return (
    <Paper
      role={tone === 'error' ? 'alert' : 'status'}
      p="sm"
      radius="sm"
      bg={`var(--mantine-color-${color}-light)`}
      style={{ borderInlineStart: `4px solid var(--mantine-color-${color}-filled)` }}
    >
      {title ? (
        <Text fw={600} size="sm" c={`${color}.9`}>
          {title}
        </Text>
      ) : null}
      {children ? (
        <Text component="div" size="sm" c={`${color}.9`}>
          {children}
        </Text>
      ) : null}
    </Paper>
  );
}
