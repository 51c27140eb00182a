import { Badge, useMantineTheme, type MantineTheme } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';

/**
 * The markup of Mantine's `<Badge variant="light" color={color}>` as plain elements, its colours from
 * Badge's own resolver and the theme. For the status shown on every row of a list: Mantine's component
 * (props, theme styles, Box) was one of the largest parts of a list's first render (decision 010,
 * sixth pass). A test compares the two.
 */
const ROOT_CLASS = `${Badge.classes.root} mantine-Badge-root`;
const LABEL_CLASS = `${Badge.classes.label} mantine-Badge-label`;

// The resolved colours per theme and colour: a list asks for the same few on every row.
const stylesByTheme = new WeakMap<MantineTheme, Map<string, CSSProperties>>();

function lightBadgeStyle(theme: MantineTheme, color: string): CSSProperties {
  let styles = stylesByTheme.get(theme);
  if (!styles) stylesByTheme.set(theme, (styles = new Map()));
  let style = styles.get(color);
  if (!style) {
    const variables = Badge.varsResolver(theme, { color, variant: 'light' } as never, {}).root ?? {};
    // Never narrower than its word: a squeezed table column cut it to "IN ATTE…" at 1366 px.
    style = { minWidth: 'max-content', ...(Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined)) as CSSProperties) };
    styles.set(color, style);
  }
  return style;
}

export function StatusBadge({ color, children }: { color: string; children: ReactNode }) {
  const theme = useMantineTheme();
  return (
    <div className={ROOT_CLASS} data-variant="light" style={lightBadgeStyle(theme, color)}>
      <span className={LABEL_CLASS}>{children}</span>
    </div>
  );
}
