import { Alert, Button, List, Stack, Text } from '@mantine/core';
import { fieldLabel } from '@sf/contract/messages';
import { useState } from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describeApiError } from '../../lib/api-client.ts';
import { isVersionConflict } from '../../lib/version-conflict.ts';
import { currentLanguage } from '../../lib/i18n.ts';

/** A field the other person changed since the form was opened; `theirValue` in words, null when it has none to show. */
export type TheirChange = { field: string; label: string; theirValue: string | null; isAlsoMine: boolean };

type Options<Values extends FieldValues, Saved extends { version: number }> = {
  form: UseFormReturn<Values>;
  /** The record the form was opened with; null while creating (nothing to conflict with). */
  record: Saved | null;
  /**
   * Reads the record afresh. Beside the query cache on purpose: a drawer keyed by the record's version
   * (programs, rewards) would remount on a newer version in the cache and drop what was typed.
   */
  load: () => Promise<Saved>;
  /** The form's values for a record, as the form was opened with them. */
  toValues: (record: Saved) => Values;
  /**
   * A field's value in words where the raw value says little (a code, an image): a text, null to name the
   * field alone, undefined for the value as it is (a text, a number, yes/no, "vuoto"; a list by its name alone).
   */
  describeValue?: (field: string, value: unknown) => string | null | undefined;
  /** After the merge, for what the form shows beside its values (a reward's image preview). */
  onReloaded?: (fresh: Saved) => void;
};

// Form values are plain data (strings, booleans, arrays of rows): equal when they serialise alike.
const isSameValue = (left: unknown, right: unknown) => JSON.stringify(left ?? null) === JSON.stringify(right ?? null);

const isGroup = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The form's fields by path, a group's (a merchant's `address`) one by one, so that the user's street and
 * someone else's CAP are both kept; a list (a program's tiers) stays one field.
 */
function fieldsByPath(values: unknown, prefix = ''): Map<string, unknown> {
  const fields = new Map<string, unknown>();
  if (!isGroup(values)) return fields;
  for (const [key, value] of Object.entries(values)) {
    const path = prefix + key;
    if (isGroup(value)) for (const [inner, innerValue] of fieldsByPath(value, `${path}.`)) fields.set(inner, innerValue);
    else fields.set(path, value);
  }
  return fields;
}

/**
 * After a 409 `version_conflict` the form offers "reload and re-apply my changes": it reads the record
 * afresh, puts the fields the user changed (those differing from the values the form was opened with)
 * on top of it, sends the fresh version from then on, and says which fields the other person changed,
 * with their value where the user changed the same field (the user's value stays in the field).
 * `version` is the one to send: the reloaded record's, else the record's the form was opened with.
 */
export function useVersionConflict<Values extends FieldValues, Saved extends { version: number }>({
  form,
  record,
  load,
  toValues,
  describeValue,
  onReloaded,
}: Options<Values, Saved>) {
  const { t } = useTranslation('records');
  const [failure, setFailure] = useState<unknown>(null);
  const [reloaded, setReloaded] = useState<Saved | null>(null);
  const [theirChanges, setTheirChanges] = useState<TheirChange[] | null>(null);
  const [isReloading, setIsReloading] = useState(false);
  const [reloadFailure, setReloadFailure] = useState<unknown>(null);

  const valueInWords = (field: string, value: unknown): string | null => {
    const described = describeValue?.(field, value);
    if (described !== undefined) return described;
    if (value === null || value === undefined || value === '') return t('conflict.blank');
    if (typeof value === 'boolean') return t(value ? 'conflict.yes' : 'conflict.no');
    if (typeof value === 'string' || typeof value === 'number') return String(value);
    return null;
  };

  const reload = async () => {
    setIsReloading(true);
    setReloadFailure(null);
    try {
      const fresh = await load();
      const freshValues = toValues(fresh);
      const opened = fieldsByPath(form.formState.defaultValues);
      const mine = fieldsByPath(form.getValues());
      const theirs = fieldsByPath(freshValues);
      const paths = [...theirs.keys()];
      // Compared with the opening values rather than read from `dirtyFields`, which react-hook-form fills
      // only for the fields a component subscribed to.
      const myFields = paths.filter((path) => !isSameValue(mine.get(path), opened.get(path)));
      const language = currentLanguage();
      setTheirChanges(
        paths
          .filter((path) => !isSameValue(theirs.get(path), opened.get(path)))
          .map((field) => ({
            field,
            // Named as the contract names it: a group's field by its own label (`address.city` → Città).
            label: fieldLabel(field.split('.').at(-1) ?? field, language),
            theirValue: valueInWords(field, theirs.get(field)),
            isAlsoMine: myFields.includes(field),
          })),
      );
      form.reset(freshValues);
      for (const path of myFields) {
        form.setValue(path as Path<Values>, mine.get(path) as PathValue<Values, Path<Values>>, { shouldDirty: true });
      }
      setReloaded(fresh);
      setFailure(null);
      onReloaded?.(fresh);
    } catch (error) {
      // The conflict stays on screen with its button, to try again; the record's reads are often silent.
      setReloadFailure(error);
    } finally {
      setIsReloading(false);
    }
  };

  /** For the form's catch: true when the failure was a version conflict, now shown by the notice. */
  const catchConflict = (error: unknown): boolean => {
    if (!isVersionConflict(error)) return false;
    setFailure(error);
    setTheirChanges(null);
    return true;
  };

  // Versions only go up: a record saved since the reload (the drawer staying open) is newer still.
  const version = record ? Math.max(record.version, reloaded?.version ?? 0) : undefined;

  return { version, catchConflict, notice: { failure, reloadFailure, theirChanges, isReloading, reload } };
}

export type VersionConflictState = ReturnType<typeof useVersionConflict>['notice'];

/**
 * Above an edit form: the conflict in the API's words with the button that reloads and re-applies the
 * user's changes; after the reload, which fields someone else had changed. Nothing otherwise.
 */
export function VersionConflictNotice({ conflict }: { conflict: VersionConflictState }) {
  const { t } = useTranslation('records');
  if (conflict.failure) {
    return (
      <Alert color="orange" role="alert" title={t('conflict.title')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{describeApiError(conflict.failure)}</Text>
          {conflict.reloadFailure ? (
            <Text size="sm" c="red">
              {describeApiError(conflict.reloadFailure)}
            </Text>
          ) : null}
          <Button size="xs" variant="light" color="orange" loading={conflict.isReloading} onClick={() => void conflict.reload()}>
            {t('conflict.reload')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (!conflict.theirChanges) return null;
  return (
    <Alert color="blue" role="status" title={t('conflict.reloadedTitle')}>
      <Stack gap="xs">
        {conflict.theirChanges.length === 0 ? (
          <Text size="sm">{t('conflict.noTheirChanges')}</Text>
        ) : (
          <>
            <Text size="sm">{t('conflict.theirChanges')}</Text>
            <List size="sm">
              {conflict.theirChanges.map((change) => (
                <List.Item key={change.field}>
                  {change.isAlsoMine
                    ? change.theirValue === null
                      ? t('conflict.bothChanged', { field: change.label })
                      : t('conflict.bothChangedTo', { field: change.label, value: change.theirValue })
                    : change.theirValue === null
                      ? change.label
                      : t('conflict.changedTo', { field: change.label, value: change.theirValue })}
                </List.Item>
              ))}
            </List>
          </>
        )}
        <Text size="sm">{t('conflict.saveAgain')}</Text>
      </Stack>
    </Alert>
  );
}
