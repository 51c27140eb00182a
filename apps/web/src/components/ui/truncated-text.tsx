import type { ReactNode } from 'react';

/**
 * Text cut to one line with an ellipsis inside a table cell, whole on hover (title) and for screen
 * readers (the text itself is all there): for free text such as a reason or an operator's e-mail,
 * which would otherwise widen its column past the screen at 1366 px.
 */
export function TruncatedText({ text, maxWidth, children }: { text: string; maxWidth: number; children?: ReactNode }) {
  return (
    <span title={text} style={{ display: 'block', maxWidth, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
      {children ?? text}
    </span>
  );
}
