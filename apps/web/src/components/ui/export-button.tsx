import { Button } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download, type Download } from '../../lib/download.ts';
import { toApiQuery } from '../../hooks/use-list-params.ts';
import { notifySuccess } from '../../lib/notify.ts';

/** Hands a downloaded file to the browser as a save, under the server's file name. */
export function saveDownload({ blob, filename }: Download): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the save; the object URL is released once the browser took it.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

type Props = {
  /** The list's API path, e.g. `/admin/customers`: the file is `<path>/export.csv`. */
  path: string;
  /** The list's current parameters: the export has the same search, filters and sort (all pages). */
  params: Record<string, unknown>;
};

/** Exports what the list shows (its search, filters and sort; every page) as the list's CSV. */
export function ExportButton({ path, params }: Props) {
  const { t } = useTranslation('lists');
  const [isBusy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const file = await download(`${path}/export.csv`, { params: toApiQuery(params, { isPagingLeftOut: true }) });
      saveDownload(file);
      notifySuccess(t('exported', { name: file.filename }));
    } catch {
      // The client already showed a toast with the reason.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} loading={isBusy} onClick={() => void onClick()}>
      {isBusy ? t('exporting') : t('export')}
    </Button>
  );
}
