import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Modal,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  API_KEY_SCOPES,
  createApiKeySchema,
  listApiKeysQuerySchema,
  type ApiKey,
  type ApiKeyKind,
  type ApiKeyScope,
  type CreatedApiKey,
} from '@sf/contract/integration';
import { issueMessage } from '@sf/contract/validation';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ListPage } from '../../../components/ui/list-page.tsx';
import { useList, type ListParams } from '../../../hooks/use-list-params.ts';
import { describeApiError } from '../../../lib/api-client.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { currentLanguage } from '../../../lib/texts.ts';
import { useFormatters } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { API_KEYS_PATH, useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/api-keys.ts';

type SortField = ListParams<typeof listApiKeysQuerySchema>['sort'];
type Option = { value: string; label: string };

const getRowId = (key: ApiKey) => key.id;

/** `/api-keys` — Pages → Chiavi API (admins): the keys of the tills and of the customers' app. */
export function ApiKeysPage({ merchantOptions }: { merchantOptions: Option[] }) {
  const { t } = useTranslation('apiKeys');
  // The app's one date-time format (four-digit year, the profile's time zone), as on every other screen.
  const format = useFormatters();
  const list = useList(listApiKeysQuerySchema, useApiKeys);
  const revoke = useRevokeApiKey();
  const [isCreating, setIsCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const confirmRevoke = (key: ApiKey) =>
    modals.openConfirmModal({
      title: t('revoke.title'),
      children: <Text size="sm">{t('revoke.message', { name: key.name })}</Text>,
      labels: { confirm: t('revoke.confirm'), cancel: t('revoke.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => revoke.mutate(key.id, { onSuccess: () => notifySuccess(t('revoke.done', { name: key.name })) }),
    });

  const columns = useMemo<DataTableColumn<ApiKey, SortField>[]>(
    () => [
      { id: 'name', header: t('columns.name'), sortField: 'name', firstOrder: 'asc', isName: true, cell: (key) => <Text fw={500}>{key.name}</Text> },
      { id: 'prefix', header: t('columns.prefix'), cell: (key) => <Code>{key.prefix}…</Code> },
      { id: 'kind', header: t('columns.kind'), cell: (key) => (key.kind === 'app' ? t('kind.app') : (key.merchantName ?? t('kind.merchant'))) },
      { id: 'scopes', header: t('columns.scopes'), cell: (key) => key.scopes.map((scope) => t(`scope.${scope.replace(':', '_')}`)).join(', ') },
      { id: 'createdAt', header: t('columns.createdAt'), sortField: 'createdAt', firstOrder: 'desc', cell: (key) => format.dateTime(key.createdAt) },
      { id: 'lastUsedAt', header: t('columns.lastUsedAt'), sortField: 'lastUsedAt', firstOrder: 'desc', cell: (key) => (key.lastUsedAt ? format.dateTime(key.lastUsedAt) : '—') },
      {
        id: 'status',
        header: t('columns.status'),
        cell: (key) => (
          <Badge color={key.status === 'active' ? 'green' : 'gray'} variant="light">
            {t(`status.${key.status}`)}
          </Badge>
        ),
      },
      {
        id: 'actions',
        header: t('columns.actions'),
        cell: (key) =>
          key.status === 'active' ? (
            <Button size="xs" variant="light" color="red" onClick={() => confirmRevoke(key)} aria-label={t('revoke.label', { name: key.name })}>
              {t('revoke.button')}
            </Button>
          ) : null,
      },
    ],
    [t, format],
  );

  return (
    <ListPage
      list={list}
      texts={{ title: t('title'), caption: t('caption'), empty: t('empty'), errorTitle: t('errorTitle'), searchPlaceholder: t('searchPlaceholder') }}
      exportPath={API_KEYS_PATH}
      create={{ label: t('create'), onClick: () => setIsCreating(true) }}
      intro={
        <Text c="dimmed" size="sm">
          {t('intro')}
        </Text>
      }
      filters={[
        {
          type: 'select',
          field: 'status',
          label: t('filters.status'),
          allLabel: t('filters.allStatuses'),
          options: [
            { value: 'active', label: t('status.active') },
            { value: 'revoked', label: t('status.revoked') },
          ],
          width: 170,
        },
        {
          type: 'select',
          field: 'kind',
          label: t('filters.kind'),
          allLabel: t('filters.allKinds'),
          options: [
            { value: 'merchant', label: t('kind.merchant') },
            { value: 'app', label: t('kind.app') },
          ],
          width: 190,
        },
      ]}
      columns={columns}
      getRowId={getRowId}
      minWidth={1000}
    >
      <Modal opened={isCreating} onClose={() => setIsCreating(false)} title={t('form.title')} size="lg" closeButtonProps={{ 'aria-label': t('close') }}>
        {isCreating ? (
          <CreateKeyForm
            merchantOptions={merchantOptions}
            onCreated={(answer) => {
              setIsCreating(false);
              setCreated(answer);
            }}
          />
        ) : null}
      </Modal>
      <Modal opened={created !== null} onClose={() => setCreated(null)} title={t('secret.title')} size="lg" closeOnClickOutside={false} closeButtonProps={{ 'aria-label': t('close') }}>
        {created ? <SecretOnce created={created} onDone={() => setCreated(null)} /> : null}
      </Modal>
    </ListPage>
  );
}

function SecretOnce({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const { t } = useTranslation('apiKeys');
  return (
    <Stack gap="md">
      <Alert color="orange" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('secret.warningTitle')}>
        {t('secret.warning', { name: created.key.name })}
      </Alert>
      {/* The theme's monospace stack, not the bare generic: DejaVu Sans Mono (Linux's 'monospace') at 14 px
          lost the underscores of "sfk_…_…" in an input, and the secret read as three words. */}
      <TextInput label={t('secret.label')} value={created.secret} readOnly data-testid="api-key-secret" styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} />
      <Group justify="flex-end">
        <CopyButton value={created.secret}>
          {({ copied, copy }) => (
            <Button variant="light" leftSection={<IconKey size={16} aria-hidden />} onClick={copy}>
              {copied ? t('secret.copied') : t('secret.copy')}
            </Button>
          )}
        </CopyButton>
        <Button onClick={onDone}>{t('secret.done')}</Button>
      </Group>
    </Stack>
  );
}

function CreateKeyForm({ merchantOptions, onCreated }: { merchantOptions: Option[]; onCreated: (created: CreatedApiKey) => void }) {
  const { t } = useTranslation('apiKeys');
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ApiKeyKind>('merchant');
  const [merchantId, setMerchantId] = useState<string | null>(null);
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['purchases:write', 'cards:read', 'vouchers:use']);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  // A till records purchases; only the customers' app signs customers up.
  const available = API_KEY_SCOPES.filter((scope) => (kind === 'merchant' ? scope !== 'customers:write' : scope !== 'purchases:write'));

  const submit = () => {
    const body = { name: name.trim(), kind, ...(kind === 'merchant' && merchantId ? { merchantId } : {}), scopes: scopes.filter((s) => available.includes(s)) };
    const parsed = createApiKeySchema.safeParse(body);
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'name');
        // The contract's own words for the name and the merchant (a name too long is not "required");
        // the scopes get the form's hint, which says what to do.
        found[field] ??= field === 'scopes' ? t('form.errors.scopes') : issueMessage(issue, currentLanguage());
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setFailure(null);
    create.mutate(parsed.data, {
      onSuccess: onCreated,
      onError: (error) => {
        if (isApiError(error) && error.fields) {
          setErrors(Object.fromEntries(error.fields.map((field) => [field.field, field.message])));
        }
        setFailure(describeApiError(error));
      },
    });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        {failure ? (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        ) : null}
        <TextInput label={t('form.name')} description={t('form.nameHint')} value={name} onChange={(event) => {
            setName(event.currentTarget.value);
            setErrors(({ name: _name, ...rest }) => rest);
          }} error={errors['name']} required data-autofocus />
        <Radio.Group label={t('form.kind')} value={kind} onChange={(value) => setKind(value as ApiKeyKind)}>
          <Group gap="lg" mt="xs">
            <Radio value="merchant" label={t('kind.merchant')} />
            <Radio value="app" label={t('kind.app')} />
          </Group>
        </Radio.Group>
        {kind === 'merchant' ? (
          <Select label={t('form.merchant')} data={merchantOptions} value={merchantId} onChange={setMerchantId} searchable required error={errors['merchantId']} />
        ) : null}
        <Checkbox.Group label={t('form.scopes')} value={scopes} onChange={(value) => setScopes(value as ApiKeyScope[])} error={errors['scopes']} required>
          <Stack gap="xs" mt="xs">
            {available.map((scope) => (
              <Checkbox key={scope} value={scope} label={t(`scope.${scope.replace(':', '_')}`)} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending}>
            {t('form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
