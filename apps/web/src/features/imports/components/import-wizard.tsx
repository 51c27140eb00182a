import { Alert, Button, Checkbox, FileInput, Group, SegmentedControl, Select, Stack, Table, Text } from '@mantine/core';
import { IMPORT_FIELDS, REQUIRED_IMPORT_FIELDS, type ImportDetail, type ImportKind } from '@sf/contract/imports';
import { IconFileTypeCsv } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateImport } from '../api/create-import.ts';
import { proposeMapping, readCsvHead, type CsvHead } from '../lib/read-csv-head.ts';

type Props = {
  /** The programs an opening balance may credit, or imported customers join. */
  programOptions: { value: string; label: string }[];
  onChecked: (detail: ImportDetail) => void;
  onCancel: () => void;
};

const NOT_IMPORTED = '';

/** Choose a file, map its columns, run the check (the dry run): the import starts from its result. */
export function ImportWizard({ programOptions, onChecked, onCancel }: Props) {
  const { t } = useTranslation('imports');
  const create = useCreateImport();
  const [kind, setKind] = useState<ImportKind>('customers');
  const [file, setFile] = useState<File | null>(null);
  const [head, setHead] = useState<CsvHead | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [programId, setProgramId] = useState<string | null>(null);
  const [sendWelcome, setSendWelcome] = useState(false);

  const choose = async (chosen: File | null, chosenKind = kind) => {
    setFile(chosen);
    setHead(null);
    setReadError(null);
    if (!chosen) return;
    try {
      const read = await readCsvHead(chosen);
      setHead(read);
      setMapping(proposeMapping(chosenKind, read.header));
    } catch {
      setReadError(t('wizard.unreadable'));
    }
  };

  const missing = REQUIRED_IMPORT_FIELDS[kind].filter((field) => !mapping[field]);
  // Balances: a program for the rows without one. Customers: the program they join, needed to send
  // the welcome, which comes from it alone (decision 035).
  const needsProgram = kind === 'balances' ? !mapping['programId'] && !programId : sendWelcome && !programId;
  const canCheck = file !== null && head !== null && missing.length === 0 && !needsProgram;

  const check = async () => {
    if (!file || !canCheck) return;
    try {
      const detail = await create.mutateAsync({
        file,
        kind,
        dryRun: true,
        mapping: Object.fromEntries(Object.entries(mapping).filter(([, column]) => column !== NOT_IMPORTED)),
        programId: programId ?? undefined,
        sendWelcome: kind === 'customers' && sendWelcome,
      });
      onChecked(detail);
    } catch {
      // The client showed the reason.
    }
  };

  const columnOptions = [{ value: NOT_IMPORTED, label: t('wizard.notImported') }, ...(head?.header ?? []).map((name) => ({ value: name, label: name }))];
  return (
    <Stack>
      <SegmentedControl
        aria-label={t('wizard.kind')}
        value={kind}
        onChange={(value) => {
          setKind(value as ImportKind);
          if (head) setMapping(proposeMapping(value as ImportKind, head.header));
        }}
        data={[
          { value: 'customers', label: t('kind.customers') },
          { value: 'balances', label: t('kind.balances') },
        ]}
      />
      <Text size="sm" c="dimmed">
        {t(`wizard.help.${kind}`)}
      </Text>
      <FileInput
        label={t('wizard.file')}
        description={t('wizard.fileHelp')}
        accept=".csv,text/csv"
        value={file}
        onChange={(chosen) => void choose(chosen)}
        leftSection={<IconFileTypeCsv size={16} aria-hidden />}
        clearable
        clearButtonProps={{ 'aria-label': t('wizard.clearFile') }}
      />
      {readError ? <Alert color="red">{readError}</Alert> : null}
      {head ? (
        <Stack gap="sm">
          <Text size="sm">{t('wizard.detected', { separator: head.delimiter === ';' ? t('wizard.semicolon') : t('wizard.comma'), count: head.header.length, columns: head.header.length })}</Text>
          <Text fw={600}>{t('wizard.mapping')}</Text>
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('wizard.field')}</Table.Th>
                <Table.Th>{t('wizard.column')}</Table.Th>
                <Table.Th>{t('wizard.example')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {IMPORT_FIELDS[kind].map((field) => {
                const column = mapping[field] ?? NOT_IMPORTED;
                const index = head.header.indexOf(column);
                const isRequired = REQUIRED_IMPORT_FIELDS[kind].includes(field);
                return (
                  <Table.Tr key={field}>
                    <Table.Td>
                      {t(`fields.${field}`)}
                      {isRequired ? ' *' : ''}
                    </Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={t('wizard.columnFor', { field: t(`fields.${field}`) })}
                        data={columnOptions}
                        value={column}
                        onChange={(value) => setMapping((current) => ({ ...current, [field]: value ?? NOT_IMPORTED }))}
                        allowDeselect={false}
                        error={isRequired && !mapping[field] ? t('wizard.required') : undefined}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" c="dimmed">
                        {index >= 0 ? (head.rows[0]?.[index] ?? '') : '—'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          {kind === 'balances' ? (
            <Select
              label={t('wizard.program')}
              description={t('wizard.programHelp')}
              data={programOptions}
              value={programId}
              onChange={setProgramId}
              clearable
              error={needsProgram ? t('wizard.required') : undefined}
            />
          ) : null}
          {kind === 'customers' ? (
            <Select
              label={t('wizard.customersProgram')}
              description={t('wizard.customersProgramHelp')}
              data={programOptions}
              value={programId}
              onChange={setProgramId}
              clearable
              error={needsProgram ? t('wizard.welcomeNeedsProgram') : undefined}
            />
          ) : null}
          {kind === 'customers' ? (
            <Checkbox
              label={t('wizard.sendWelcome')}
              description={t('wizard.sendWelcomeHelp')}
              checked={sendWelcome}
              onChange={(event) => setSendWelcome(event.currentTarget.checked)}
            />
          ) : null}
        </Stack>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('wizard.cancel')}
        </Button>
        <Button onClick={() => void check()} disabled={!canCheck} loading={create.isPending}>
          {t('wizard.check')}
        </Button>
      </Group>
    </Stack>
  );
}
