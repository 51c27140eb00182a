import { Button, FileInput, Group, Image, Input, Stack } from '@mantine/core';
import { IconPhoto, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-error.ts';
import { COVER_MAX_BYTES, COVER_TYPES, useUploadNewsCover, type CoverUpload } from '../api/upload-news-cover.ts';

type Props = {
  url: string | null;
  onUploaded: (cover: CoverUpload) => void;
  onRemove: () => void;
  error?: string | undefined;
};

/** Uploads as soon as a file is picked: the post then only carries the returned id. */
export function CoverImageField({ url, onUploaded, onRemove, error }: Props) {
  const { t } = useTranslation('news');
  const upload = useUploadNewsCover();
  const [localError, setLocalError] = useState<string | null>(null);

  const onPick = async (file: File | null) => {
    setLocalError(null);
    if (!file) return;
    if (!COVER_TYPES.includes(file.type)) return setLocalError(t('editor.cover.wrongType'));
    if (file.size > COVER_MAX_BYTES) return setLocalError(t('editor.cover.tooLarge'));
    try {
      onUploaded(await upload.mutateAsync(file));
    } catch (failure) {
      // Other failures were already shown as a toast by the API client.
      if (isApiError(failure) && failure.code === 'validation') {
        setLocalError(failure.fields?.[0]?.message ?? failure.message);
      }
    }
  };

  return (
    <Stack gap="xs">
      {url ? (
        <Input.Wrapper label={t('editor.cover.label')} error={error ?? localError ?? undefined}>
          <Image src={url} alt={t('editor.cover.alt')} radius="sm" mah={200} w="auto" fit="contain" mt={4} />
          <Group gap="xs" mt="xs">
            <FileInput
              aria-label={t('editor.cover.replace')}
              placeholder={t('editor.cover.replace')}
              accept={COVER_TYPES.join(',')}
              onChange={(file) => void onPick(file)}
              value={null}
              leftSection={<IconPhoto size={16} aria-hidden />}
              disabled={upload.isPending}
            />
            <Button variant="subtle" color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={onRemove}>
              {t('editor.cover.remove')}
            </Button>
          </Group>
        </Input.Wrapper>
      ) : (
        <FileInput
          label={t('editor.cover.label')}
          description={t('editor.cover.hint')}
          placeholder={t('editor.cover.pick')}
          accept={COVER_TYPES.join(',')}
          onChange={(file) => void onPick(file)}
          value={null}
          leftSection={<IconPhoto size={16} aria-hidden />}
          error={error ?? localError ?? undefined}
          disabled={upload.isPending}
          rightSection={upload.isPending ? <span aria-live="polite">…</span> : null}
        />
      )}
    </Stack>
  );
}
