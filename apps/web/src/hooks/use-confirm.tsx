import { Text } from '@mantine/core';
import { useModals } from '@mantine/modals';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export type ConfirmOptions = { title: string; message: string; confirmLabel: string; isDanger?: boolean };

/**
 * A confirmation dialog as a promise: `if (await confirm(...))` reads like the rule it enforces. Shared
 * by every feature (the unsaved-changes guard of the drawers, the news editor's commands).
 */
export function useConfirm() {
  const modals = useModals();
  const { t } = useTranslation('records');
  return useCallback(
    ({ title, message, confirmLabel, isDanger = false }: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        modals.openConfirmModal({
          title,
          children: <Text size="sm">{message}</Text>,
          labels: { confirm: confirmLabel, cancel: t('confirm.cancel') },
          confirmProps: { color: isDanger ? 'red' : undefined },
          onConfirm: () => resolve(true),
          onCancel: () => resolve(false),
          onClose: () => resolve(false),
        });
      }),
    [modals, t],
  );
}
