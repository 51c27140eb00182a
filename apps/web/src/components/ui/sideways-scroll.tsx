import { Table, Text, type TableScrollContainerProps } from "@mantine/core";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import classes from "./sideways-scroll.module.css";

type ScrollEdges = { start: boolean; end: boolean };

/**
 * Which sides of a table wider than its box have columns out of sight: measured on the scroll container
 * (native scrolling, the theme's default) when it scrolls and when it or the table changes size (a phone
 * turned, the rows arrived).
 */
function useScrollEdges() {
  const viewportRef = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState<ScrollEdges>({ start: false, end: false });
  const measure = useCallback(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    // A pixel of slack: zoomed screens report fractional widths rounded both ways.
    const start = viewport.scrollLeft > 1;
    const end =
      viewport.scrollLeft + viewport.clientWidth < viewport.scrollWidth - 1;
    setEdges((current) =>
      current.start === start && current.end === end ? current : { start, end },
    );
  }, []);
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    // Measured by the observer's first report, which comes after the browser's own layout: measuring here
    // would force a layout of the page as its rows arrive.
    const observer = new ResizeObserver(measure);
    observer.observe(viewport);
    if (viewport.firstElementChild)
      observer.observe(viewport.firstElementChild);
    return () => observer.disconnect();
  }, [measure]);
  return { viewportRef, edges, measure };
}

/**
 * Every table that can be wider than its screen (a phone) scrolls sideways in this box and says so: a line
 * above it ("Scorri la tabella di lato…") and a shade on the edge where columns are out of sight. One rule
 * for the list kit's tables and the tables screens draw themselves (decision 013).
 */
export function SidewaysScroll({
  children,
  ...containerProps
}: TableScrollContainerProps) {
  const { t } = useTranslation("lists");
  const { viewportRef, edges, measure } = useScrollEdges();
  return (
    <>
      {/* Said before the table: columns out of sight are otherwise missed. */}
      {edges.start || edges.end ? (
        <Text size="xs" c="dimmed">
          {t("scrollHint")}
        </Text>
      ) : null}
      <div
        className={classes.edges}
        data-more-start={edges.start || undefined}
        data-more-end={edges.end || undefined}
      >
        <Table.ScrollContainer
          {...containerProps}
          ref={viewportRef}
          onScroll={measure}
        >
          {children}
        </Table.ScrollContainer>
      </div>
    </>
  );
}
