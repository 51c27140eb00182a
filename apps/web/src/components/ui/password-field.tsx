import { TextInput, UnstyledButton, type TextInputProps } from '@mantine/core';
import { useState, type Ref } from 'react';
import { useTexts } from '../../lib/texts.ts';

/**
 * A password input with a show/hide button. Built on TextInput because Mantine's PasswordInput (with
 * ActionIcon) cost the sign-in page ~3 kB gzip of its 150 kB budget (docs/decisions/007); the
 * toggle here is also a real, labelled button that keyboard and screen-reader users can reach.
 */
export function PasswordField({ ref, ...props }: Omit<TextInputProps, 'type' | 'rightSection'> & { ref?: Ref<HTMLInputElement> }) {
  const { t } = useTexts();
  const [isVisible, setVisible] = useState(false);
  return (
    <TextInput
      {...props}
      ref={ref}
      type={isVisible ? 'text' : 'password'}
      rightSectionPointerEvents="all"
      rightSection={
        <UnstyledButton
          type="button"
          onClick={() => setVisible((visible) => !visible)}
          aria-label={t('password.show')}
          aria-pressed={isVisible}
          style={{ display: 'flex', padding: 4, borderRadius: 4, color: 'var(--mantine-color-dimmed)' }}
        >
          <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
            <circle cx="12" cy="12" r="3" />
            {isVisible ? null : <path d="M3 3l18 18" />}
          </svg>
        </UnstyledButton>
      }
    />
  );
}
