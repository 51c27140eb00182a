import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { memo, useEffect, useId, useImperativeHandle, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  label: string;
  value: string;
  onChange: (html: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  /** Receives what moves the focus to the text (react-hook-form's `field.ref`: a refused form focuses its first error). */
  focusRef?: Ref<{ focus(): void }> | undefined;
};

/**
 * The body editor. Only what the server's allow-list keeps is offered (paragraphs, headings, lists,
 * quotes, links, bold/italic/underline), so the preview after saving matches what was written.
 */
function RichTextFieldInner({ label, value, onChange, onBlur, error, focusRef }: Props) {
  const { t } = useTranslation('news');
  const labelId = useId();
  const errorId = useId();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, code: false, codeBlock: false, horizontalRule: false, strike: false }),
      Link.configure({ openOnClick: false }),
    ],
    content: value,
    editorProps: {
      attributes: {
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(error ? { 'aria-describedby': errorId, 'aria-invalid': 'true' } : {}),
      },
    },
    onUpdate: ({ editor: current }) => {
      if (!current.isDestroyed) onChange(current.isEmpty ? '' : current.getHTML());
    },
    onBlur: () => onBlur?.(),
  });

  // tiptap's focus scrolls the text into view too.
  useImperativeHandle(focusRef, () => ({ focus: () => void editor?.commands.focus() }), [editor]);

  // A reset of the form (reload after a conflict, a save) replaces the text without marking it changed.
  useEffect(() => {
    // A destroyed editor (useEditor replaces it as the drawer re-renders) has no schema left: getHTML would throw.
    if (!editor || editor.isDestroyed) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if (current !== value) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({
      editorProps: {
        attributes: {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-labelledby': labelId,
          ...(error ? { 'aria-describedby': errorId, 'aria-invalid': 'true' } : {}),
        },
      },
    });
  }, [editor, error, errorId, labelId]);

  return (
    <Input.Wrapper label={label} labelElement="div" labelProps={{ id: labelId }} error={error} errorProps={{ id: errorId }}>
      <RichTextEditor
        editor={editor}
        labels={{
          boldControlLabel: t('editor.toolbar.bold'),
          italicControlLabel: t('editor.toolbar.italic'),
          underlineControlLabel: t('editor.toolbar.underline'),
          h2ControlLabel: t('editor.toolbar.h2'),
          h3ControlLabel: t('editor.toolbar.h3'),
          bulletListControlLabel: t('editor.toolbar.bulletList'),
          orderedListControlLabel: t('editor.toolbar.orderedList'),
          blockquoteControlLabel: t('editor.toolbar.blockquote'),
          linkControlLabel: t('editor.toolbar.link'),
          unlinkControlLabel: t('editor.toolbar.unlink'),
          undoControlLabel: t('editor.toolbar.undo'),
          redoControlLabel: t('editor.toolbar.redo'),
          linkEditorInputLabel: t('editor.toolbar.linkUrl'),
          linkEditorInputPlaceholder: 'https://example.com',
          linkEditorSave: t('editor.toolbar.linkSave'),
          linkEditorExternalLink: t('editor.toolbar.linkExternal'),
          linkEditorInternalLink: t('editor.toolbar.linkInternal'),
        }}
        mt={4}
      >
        <RichTextEditor.Toolbar sticky stickyOffset={0}>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content mih={200} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}

/** Memoised: the surrounding form re-renders on every keystroke in other fields, the editor need not. */
export const RichTextField = memo(RichTextFieldInner);
