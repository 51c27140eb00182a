import { Badge } from '@mantine/core';
import type { ProgramStatus } from '@sf/contract/programs';
import { useTranslation } from 'react-i18next';

const COLORS: Record<ProgramStatus, string> = { draft: 'gray', active: 'green', closed: 'red' };

export function ProgramStatusBadge({ status }: { status: ProgramStatus }) {
  const { t } = useTranslation('programs');
  return (
    <Badge color={COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}
