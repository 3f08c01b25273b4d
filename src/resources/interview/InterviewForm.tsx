import type { ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import {
  ArrayInput,
  BooleanInput,
  maxLength,
  minLength,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextInput,
  Toolbar,
  useSimpleFormIterator,
  useSourceContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import { QUESTION_KINDS, type Interview, type QuestionKind } from '../../../contract/interview';
import { AudienceInputs } from '../../components/content/AudienceInputs';
import { UkDateTimeInput } from '../../components/inputs/DateInputs';
import { KEEP_TYPED_VALUES } from '../../components/forms';

interface FormQuestion {
  title?: string;
  kind?: QuestionKind;
  scale_max?: number | string | null;
  options?: { title?: string }[];
}

const toIso = (v: unknown) => (v instanceof Date ? v.toISOString() : typeof v === 'string' && v ? new Date(v).toISOString() : v);

/**
 * The form's values as POST/PUT /interview expects them: options as plain strings for the choice
 * questions only, a scale's maximum for scales only, the dates in ISO. A survey with answers keeps
 * its questions and audience as they are (`locked`).
 */
export function interviewTransform(locked?: Interview) {
  return (data: Record<string, unknown>) => {
    const questions = ((data.questions as FormQuestion[] | undefined) ?? []).map((q) => ({
      title: q.title ?? '',
      kind: q.kind,
      scale_max: q.kind === 'scale' ? Number(q.scale_max ?? 5) : null,
      options: q.kind === 'single' || q.kind === 'multiple' ? (q.options ?? []).map((o) => o.title ?? '') : [],
    }));
    const out: Record<string, unknown> = {
      title: data.title,
      description: data.description ?? '',
      complex_ids: data.complex_ids ?? [],
      house_ids: data.house_ids ?? [],
      start_at: toIso(data.start_at),
      end_at: toIso(data.end_at),
      anonymous: Boolean(data.anonymous),
      published: Boolean(data.published),
      questions,
    };
    if (locked) {
      out.complex_ids = locked.complex_ids;
      out.house_ids = locked.house_ids;
      out.anonymous = locked.anonymous;
      out.start_at = locked.start_at;
      out.questions = locked.questions.map((q) => ({
        title: q.title,
        kind: q.kind,
        scale_max: q.scale_max,
        options: q.kind === 'single' || q.kind === 'multiple' ? q.options.map((o) => o.title) : [],
      }));
    }
    return out;
  };
}

function AddButton({ label, value }: { label: string; value: object }) {
  const translate = useTranslate();
  const { add } = useSimpleFormIterator();
  return (
    <Button size="small" startIcon={<AddIcon />} onClick={() => add(value)}>
      {translate(label)}
    </Button>
  );
}

/** Options for the choice questions, a 1–5 or 1–10 scale for scales; nothing for free text. */
function QuestionDetails() {
  const translate = useTranslate();
  const { getSource } = useSourceContext();
  const kind = useWatch({ name: getSource('kind') }) as QuestionKind | undefined;
  if (kind === 'single' || kind === 'multiple') {
    return (
      <Box sx={{ pl: { md: 2 }, width: '100%' }}>
        <Typography variant="body2" color="text.secondary">
          {translate('resources.interview.fields.options')}
        </Typography>
        <ArrayInput source="options" label={false}>
          <SimpleFormIterator inline disableClear addButton={<AddButton label="resources.interview.actions.add_option" value={{ title: '' }} />}>
            <TextInput
              source="title"
              label="resources.interview.fields.option"
              validate={[required(), maxLength(300)]}
              helperText={false}
              sx={{ minWidth: 320 }}
            />
          </SimpleFormIterator>
        </ArrayInput>
      </Box>
    );
  }
  if (kind === 'scale') {
    return (
      <SelectInput
        source="scale_max"
        label="resources.interview.fields.scale_max"
        choices={[5, 10].map((m) => ({ id: m, name: translate('resources.interview.hints.scale', { max: m }) }))}
        validate={required()}
        helperText={false}
        sx={{ minWidth: 200 }}
      />
    );
  }
  return null;
}

function FormToolbar({ onCancel }: { onCancel: () => void }) {
  const translate = useTranslate();
  return (
    <Toolbar sx={{ justifyContent: 'flex-end', gap: 1 }}>
      <Button onClick={onCancel}>{translate('app.actions.cancel')}</Button>
      <SaveButton label="app.actions.save" />
    </Toolbar>
  );
}

/** The survey's fields and its question editor (up/down buttons reorder the questions). */
export function InterviewForm({
  locked,
  defaultValues,
  onCancel,
  children,
}: {
  locked?: boolean;
  defaultValues?: Record<string, unknown>;
  onCancel?: () => void;
  children?: ReactNode;
}) {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <SimpleForm toolbar={<FormToolbar onCancel={onCancel ?? (() => navigate('/Interview'))} />} defaultValues={defaultValues} resetOptions={KEEP_TYPED_VALUES}>
      <TextInput source="title" label="resources.interview.fields.title" validate={[required(), minLength(3), maxLength(300)]} fullWidth />
      <TextInput source="description" label="resources.interview.fields.description" multiline minRows={2} validate={maxLength(5000)} fullWidth />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <UkDateTimeInput source="start_at" label="resources.interview.fields.start_at" validate={required()} disabled={locked} />
        <UkDateTimeInput source="end_at" label="resources.interview.fields.end_at" validate={required()} />
      </Box>
      <BooleanInput source="published" label="resources.interview.fields.published" helperText="resources.interview.hints.published" />
      {locked ? (
        <Alert severity="info" sx={{ width: '100%', my: 1 }}>
          {translate('resources.interview.hints.locked')}
        </Alert>
      ) : (
        <>
          <BooleanInput source="anonymous" label="resources.interview.fields.anonymous" helperText="resources.interview.hints.anonymous" />
          <AudienceInputs />
          <Typography variant="h6" sx={{ mt: 2 }}>
            {translate('resources.interview.fields.questions')}
          </Typography>
          <ArrayInput source="questions" label={false}>
            <SimpleFormIterator
              inline={false}
              disableClear
              addButton={
                <AddButton label="resources.interview.actions.add_question" value={{ title: '', kind: 'single', options: [{ title: '' }, { title: '' }] }} />
              }
              sx={{ '& .RaSimpleFormIterator-line': { borderBottom: 1, borderColor: 'divider', pb: 2 } }}
            >
              <TextInput
                source="title"
                label="resources.interview.fields.question_title"
                validate={[required(), minLength(3), maxLength(1000)]}
                multiline
                fullWidth
                helperText={false}
              />
              <SelectInput
                source="kind"
                label="resources.interview.fields.kind"
                choices={QUESTION_KINDS.map((k) => ({ id: k, name: `resources.interview.kinds.${k}` }))}
                validate={required()}
                helperText={false}
                sx={{ minWidth: 240 }}
              />
              <QuestionDetails />
            </SimpleFormIterator>
          </ArrayInput>
        </>
      )}
      {children}
    </SimpleForm>
  );
}
