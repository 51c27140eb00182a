import type { ReactNode } from 'react';

/**
 * Text cut to one line with an ellipsis inside a table cell, whole on hover (title) and for screen
 * readers (the text itself is all there): for free text such as a reason or an operator's e-mail,
 * which would otherwise widen its column past the screen at 1366 px.
 *
 * `maxWidth` cuts it at a fixed width. `fill` cuts it at its column's width instead: it then adds
 * nothing to the column's own width (width 0, stretched to the cell), so a column given its share of
 * the table (DataTable `width`) stays that wide whatever the text, and a wider screen shows more of it.
 */
export function TruncatedText({ text, maxWidth, fill = false, children }: { text: string; maxWidth?: number; fill?: boolean; children?: ReactNode }) {
  const size = fill ? { width: 0, minWidth: '100%' } : { maxWidth };
  return (
    <span title={text} style={{ display: 'block', ...size, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
      {children ?? text}
    </span>
  );
}
