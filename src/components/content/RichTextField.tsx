import {
  RichTextInput,
  RichTextInputToolbar,
  AlignmentButtons,
  ClearButtons,
  FormatButtons,
  LevelSelect,
  LinkButtons,
  ListButtons,
  QuoteButtons,
} from 'ra-input-rich-text';
import { required as requiredValidator } from 'react-admin';

/**
 * The rich text editor with what the API keeps: headings, emphasis, alignment, lists, links and
 * quotes. Colours and inline images are left out because the server would drop them.
 */
export function RichTextField({ source, required, label }: { source: string; required?: boolean; label?: string }) {
  return (
    <RichTextInput
      source={source}
      label={label}
      validate={required ? requiredValidator() : undefined}
      fullWidth
      toolbar={
        <RichTextInputToolbar>
          <LevelSelect size="small" />
          <FormatButtons size="small" />
          <AlignmentButtons size="small" />
          <ListButtons size="small" />
          <LinkButtons size="small" />
          <QuoteButtons size="small" />
          <ClearButtons size="small" />
        </RichTextInputToolbar>
      }
      sx={{ '& .ProseMirror': { minHeight: 220 } }}
    />
  );
}
