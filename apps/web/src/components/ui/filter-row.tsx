import { Group, type GroupProps } from '@mantine/core';
import classes from './filter-row.module.css';

/** The row of a screen's filters (a list's, the dashboard's): labels level, also when a field shows an error. */
export function FilterRow({ children, ...props }: Omit<GroupProps, 'align' | 'className'>) {
  return (
    <Group gap="sm" wrap="wrap" {...props} className={classes.row}>
      {children}
    </Group>
  );
}
