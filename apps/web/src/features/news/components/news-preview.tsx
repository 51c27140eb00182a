import { Badge, Box, Card, Image, Stack, Text, Title, Typography } from '@mantine/core';
import { useTranslation } from 'react-i18next';

type Props = {
  title: string;
  summary: string;
  bodyHtml: string;
  coverUrl: string | null;
  dateLabel: string;
  isPinned: boolean;
};

/**
 * The post as a customer's phone shows it: a narrow card with cover, title, date, summary and the body.
 * The body is HTML the server has already cleaned (or the editor's own output before saving).
 */
export function NewsPreview({ title, summary, bodyHtml, coverUrl, dateLabel, isPinned }: Props) {
  const { t } = useTranslation('news');
  return (
    <Box
      role="region"
      aria-label={t('preview.region')}
      mx="auto"
      p="sm"
      style={{ width: 'min(100%, 390px)', border: '10px solid var(--mantine-color-dark-6)', borderRadius: 32 }}
    >
      <Card padding="md" radius="md" withBorder>
        {coverUrl && (
          <Card.Section>
            <Image src={coverUrl} alt="" h={180} fit="cover" />
          </Card.Section>
        )}
        <Stack gap={6} mt={coverUrl ? 'md' : 0}>
          {isPinned && (
            <Badge size="xs" variant="light" w="fit-content">
              {t('preview.pinned')}
            </Badge>
          )}
          <Title order={2} size="h4">
            {title || t('preview.untitled')}
          </Title>
          <Text size="xs" c="dimmed">
            {dateLabel}
          </Text>
          {summary && (
            <Text size="sm" fw={500}>
              {summary}
            </Text>
          )}
          <Typography fz="sm">
            {/* Sanitised by the server's allow-list before it is stored; see news rich-text on the API. */}
            <div dangerouslySetInnerHTML={{ __html: bodyHtml }} />
          </Typography>
        </Stack>
      </Card>
    </Box>
  );
}
