import { Button, Group } from '@mantine/core';
import type { NewsPost } from '@sf/contract/news';
import { useTranslation } from 'react-i18next';
import type { NewsAction } from '../api/run-news-post-action.ts';
import type { SaveIntent } from '../lib/news-form.ts';

type Props = {
  /** The saved post's status; none for a new post. */
  status: NewsPost['status'] | undefined;
  isDirty: boolean;
  isBusy: boolean;
  /** Publish now or schedule, as the form's publishing choice says. */
  primaryIntent: SaveIntent;
  onSave: (intent: SaveIntent) => void;
  onAction: (action: NewsAction) => void;
  onDelete: () => void;
};

/** The buttons a post's status allows, in a bar that stays in reach however long the post is. */
export function NewsPostActionBar({ status, isDirty, isBusy, primaryIntent, onSave, onAction, onDelete }: Props) {
  const { t } = useTranslation('news');
  const isSaved = status !== undefined;
  const isEditableSchedule = !status || status === 'draft' || status === 'scheduled';
  return (
    <Group
      justify="space-between"
      gap="sm"
      wrap="wrap"
      py="sm"
      style={{
        borderTop: '1px solid var(--mantine-color-default-border)',
        position: 'sticky',
        bottom: 0,
        background: 'var(--mantine-color-body)',
        zIndex: 2,
      }}
    >
      <Group gap="sm">
        {(status === 'draft' || status === 'scheduled') && (
          <Button variant="subtle" color="red" onClick={onDelete} disabled={isBusy}>
            {t('actions.delete')}
          </Button>
        )}
        {status === 'published' && (
          <Button variant="subtle" color="red" onClick={() => onAction('archive')} disabled={isBusy}>
            {t('actions.archive')}
          </Button>
        )}
        {(status === 'published' || status === 'scheduled') && (
          <Button variant="default" onClick={() => onAction('unpublish')} disabled={isBusy}>
            {t('actions.unpublish')}
          </Button>
        )}
      </Group>
      <Group gap="sm">
        {(!status || status === 'draft') && (
          <Button variant="default" onClick={() => onSave('draft')} loading={isBusy} disabled={!isDirty && isSaved}>
            {t('actions.saveDraft')}
          </Button>
        )}
        {(status === 'published' || status === 'archived') && (
          <Button variant={status === 'archived' ? 'default' : 'filled'} onClick={() => onSave('keep')} loading={isBusy} disabled={!isDirty}>
            {t('actions.saveChanges')}
          </Button>
        )}
        {status === 'archived' && (
          <Button onClick={() => onAction('publish')} loading={isBusy}>
            {t('actions.republish')}
          </Button>
        )}
        {isEditableSchedule && (
          <Button onClick={() => onSave(primaryIntent)} loading={isBusy}>
            {primaryIntent === 'schedule'
              ? t(status === 'scheduled' ? 'actions.reschedule' : 'actions.schedule')
              : t(status === 'scheduled' ? 'actions.publishNow' : 'actions.publish')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
