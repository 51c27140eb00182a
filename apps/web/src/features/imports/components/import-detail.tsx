import { Alert, Badge, Button, Group, Progress, Skeleton, Stack, Table, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { Import } from '@sf/contract/imports';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Can } from '../../../components/can.tsx';
import { saveDownload } from '../../../components/ui/export-button.tsx';
import { FailureAlert } from '../../../components/ui/failure-alert.tsx';
import { isBlockingFailure, StaleDataNotice } from '../../../components/ui/stale-data-notice.tsx';
import { download } from '../../../lib/download.ts';
import { useFormatters } from '../../../lib/format.ts';
import { useChangeImport } from '../api/change-import.ts';
import { IMPORTS_PATH, useImport } from '../api/get-imports.ts';

const STATUS_COLORS: Record<Import['status'], string> = { validated: 'blue', queued: 'yellow', running: 'yellow', done: 'green', cancelled: 'gray', failed: 'red' };

export function ImportStatusBadge({ status }: { status: Import['status'] }) {
  const { t } = useTranslation('imports');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** An import: the check's result with its row errors, then the progress bar, then the report. */
export function ImportDetailView({ id }: { id: string }) {
  const { t } = useTranslation('imports');
  const format = useFormatters();
  const query = useImport(id);
  const change = useChangeImport();
  const [isDownloading, setDownloading] = useState(false);
  const detail = query.data;
  if (isBlockingFailure(query)) return <FailureAlert error={query.error} missing={{ title: t('detail.notFound.title'), text: t('detail.notFound.text') }} />;
  if (!detail) return <Skeleton h={200} />;
  const isActive = detail.status === 'queued' || detail.status === 'running';

  // A cancelled import can be neither started nor resumed (a new upload is needed): asked first.
  const confirmCancel = () =>
    modals.openConfirmModal({
      title: t('detail.cancelConfirm.title'),
      children: <Text size="sm">{t('detail.cancelConfirm.message')}</Text>,
      labels: { confirm: t('detail.cancelConfirm.confirm'), cancel: t('detail.cancelConfirm.back') },
      confirmProps: { color: 'red' },
      onConfirm: () => change.mutate({ id, action: 'cancel' }),
    });

  const downloadErrors = async () => {
    setDownloading(true);
    try {
      saveDownload(await download(`${IMPORTS_PATH}/${id}/errors.csv`));
    } catch {
      // The client showed the reason.
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Stack>
      {/* A failed poll keeps the last progress on screen, and says it may be behind. */}
      <StaleDataNotice query={query} />
      <Group justify="space-between">
        <Text fw={600}>
          {detail.fileName} · {t(`kind.${detail.kind}`)}
        </Text>
        <ImportStatusBadge status={detail.status} />
      </Group>
      <Text size="sm" c="dimmed">
        {t('detail.dialect', {
          separator: detail.dialect.delimiter === ';' ? t('wizard.semicolon') : t('wizard.comma'),
          format: detail.dialect.delimiter === ';' ? t('detail.italianExcel') : t('detail.plainCsv'),
        })}
      </Text>
      <Group gap="xl">
        <Text>{t('detail.total', { count: detail.totalRows, formatted: format.number(detail.totalRows) })}</Text>
        <Text fw={600}>{t('detail.valid', { count: detail.validRows, formatted: format.number(detail.validRows) })}</Text>
        <Text c={detail.errorRows > 0 ? 'red.9' : undefined}>{t('detail.errors', { formatted: format.number(detail.errorRows) })}</Text>
      </Group>
      {isActive || detail.status === 'done' || detail.status === 'cancelled' ? (
        <Stack gap={4}>
          <Progress value={detail.progress} size="lg" animated={isActive} aria-label={t('detail.progressLabel')} />
          <Text size="sm" aria-live="polite">
            {t('detail.progress', { count: detail.importedRows, percent: detail.progress, processed: format.number(detail.processedRows), total: format.number(detail.totalRows), imported: format.number(detail.importedRows) })}
          </Text>
        </Stack>
      ) : null}
      {detail.report ? (
        <Alert color={detail.status === 'done' ? 'green' : 'gray'} title={t(detail.status === 'done' ? 'detail.reportTitle' : 'detail.cancelledTitle')}>
          {t('detail.report', { imported: format.number(detail.report.imported), skipped: format.number(detail.report.skipped), errors: format.number(detail.report.errors) })}
        </Alert>
      ) : null}
      <Can permission="imports:write">
        <Group>
          {detail.status === 'failed' ? (
            <Button onClick={() => change.mutate({ id, action: 'start' })} loading={change.isPending}>
              {t('detail.resume')}
            </Button>
          ) : null}
          {detail.status === 'validated' ? (
            <Button onClick={() => change.mutate({ id, action: 'start' })} loading={change.isPending} disabled={detail.validRows === 0}>
              {t('detail.start', { count: detail.validRows, formatted: format.number(detail.validRows) })}
            </Button>
          ) : null}
          {detail.status === 'validated' || detail.status === 'failed' || isActive ? (
            <Button variant="default" color="red" onClick={confirmCancel} loading={change.isPending}>
              {t('detail.cancel')}
            </Button>
          ) : null}
        </Group>
      </Can>
      {detail.errors.length > 0 ? (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={600}>{t('detail.rowErrors')}</Text>
            <Button variant="default" size="xs" leftSection={<IconDownload size={14} aria-hidden />} loading={isDownloading} onClick={() => void downloadErrors()}>
              {t('detail.downloadErrors')}
            </Button>
          </Group>
          <Table striped withTableBorder>
            <Table.Caption>{t('detail.errorsCaption')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('detail.row')}</Table.Th>
                <Table.Th>{t('detail.column')}</Table.Th>
                <Table.Th>{t('detail.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {detail.errors.map((error) => (
                <Table.Tr key={`${error.row}-${error.column}`}>
                  <Table.Td>{error.row}</Table.Td>
                  <Table.Td>{error.column}</Table.Td>
                  <Table.Td>{error.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      ) : null}
    </Stack>
  );
}
