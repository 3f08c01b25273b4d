import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Card, Stack, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import {
  ArrayInput,
  AutocompleteInput,
  BooleanInput,
  CreateBase,
  maxLength,
  minLength,
  NumberInput,
  RadioButtonGroupInput,
  required,
  SaveButton,
  SelectInput,
  SimpleForm,
  SimpleFormIterator,
  TextInput,
  Toolbar,
  useNotify,
  useSimpleFormIterator,
  useSourceContext,
  useTranslate,
} from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { Voting, VotingForm, VotingRegime } from '../../../contract/voting';
import { UkDateInput, UkTimeInput } from '../../components/inputs/DateInputs';
import { useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { fetchVotingForm, votingPath } from './api';

/** A labelled «add question» button (react-admin's own is an icon only). */
function AddQuestionButton() {
  const translate = useTranslate();
  const { add } = useSimpleFormIterator();
  return (
    <Button size="small" startIcon={<AddIcon />} onClick={() => add({ title: '', threshold: 'majority' })}>
      {translate('resources.voting.actions.add_question')}
    </Button>
  );
}

function FormToolbar() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Toolbar sx={{ justifyContent: 'flex-end', gap: 1 }}>
      <Button onClick={() => navigate('/Voting')}>{translate('app.actions.cancel')}</Button>
      <SaveButton label="app.actions.save" />
    </Toolbar>
  );
}

/** One agenda question: the resolution's wording and its threshold, limited to what the regime allows. */
function QuestionThreshold({ form }: { form: VotingForm }) {
  const regime = useWatch({ name: 'regime' }) as VotingRegime;
  return (
    <SelectInput
      source="threshold"
      label="resources.voting.fields.threshold"
      validate={required()}
      choices={form.thresholds.filter((t) => t.regimes.includes(regime)).map((t) => ({ id: t.id, name: t.name }))}
      helperText={false}
      sx={{ minWidth: 240 }}
    />
  );
}

/** The statute's percent and the 67 % cap, only for a statute threshold (inside the agenda iterator). */
function StatutePercent() {
  const { getSource } = useSourceContext();
  const threshold = useWatch({ name: getSource('threshold') });
  if (threshold !== 'statute') return null;
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
      <NumberInput
        source="threshold_percent"
        label="resources.voting.fields.threshold_percent"
        min={50}
        max={75}
        step={0.01}
        validate={required()}
        helperText={false}
        sx={{ width: 200 }}
      />
      <BooleanInput source="capped" label="resources.voting.fields.capped" helperText={false} />
    </Stack>
  );
}

function ThresholdHelp({ form }: { form: VotingForm }) {
  const regime = useWatch({ name: 'regime' }) as VotingRegime;
  return (
    <Alert severity="info" sx={{ width: '100%', mb: 1 }}>
      {form.thresholds
        .filter((t) => t.regimes.includes(regime))
        .map((t) => (
          <Typography key={t.id} variant="body2">
            <b>{t.name}.</b> {t.description}
          </Typography>
        ))}
    </Alert>
  );
}

/** /Voting/create: a meeting of one house with its agenda, each question worded as a resolution with its threshold. */
export default function VotingCreate() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const notify = useNotify();
  const { houseIds } = useComplexSelection();
  usePageHeader(translate('resources.voting.create_title'), '/Voting');
  const { data: form } = useQuery({ queryKey: ['voting-form'], queryFn: fetchVotingForm });
  if (!form) return null;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <CreateBase<Voting>
      resource="voting"
      redirect={false}
      mutationOptions={{
        onSuccess: (record) => {
          notify('resources.voting.notifications.created', { type: 'success' });
          navigate(votingPath(record.id));
        },
      }}
      transform={(data: Record<string, unknown>) => ({
        ...data,
        questions: ((data.questions as Record<string, unknown>[]) ?? []).map((q) => ({
          ...q,
          threshold_percent: q.threshold === 'statute' ? q.threshold_percent : null,
          capped: q.threshold === 'statute' ? Boolean(q.capped) : false,
        })),
      })}
    >
      <Card sx={{ maxWidth: 1000 }}>
        <SimpleForm
          toolbar={<FormToolbar />}
          defaultValues={{
            house_id: houseIds?.length === 1 ? houseIds[0] : undefined,
            regime: 'osbb',
            meeting_date: today,
            meeting_time: '18:30',
            signed_only: false,
            questions: [{ title: '', threshold: 'majority' }],
          }}
        >
          <TextInput source="title" label="resources.voting.fields.title" validate={[required(), minLength(3), maxLength(300)]} fullWidth />
          <AutocompleteInput source="house_id" label="resources.voting.fields.house_id" choices={form.houses} validate={required()} fullWidth />
          <RadioButtonGroupInput
            source="regime"
            label="resources.voting.fields.regime"
            choices={form.regimes.map((r) => ({ id: r.id, name: `${r.name} — ${r.law}` }))}
            helperText="resources.voting.hints.regime"
            row={false}
          />
          <TextInput source="initiator" label="resources.voting.fields.initiator" validate={[required(), minLength(3)]} fullWidth />
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <UkDateInput source="meeting_date" label="resources.voting.fields.meeting_date" validate={required()} />
            <UkTimeInput source="meeting_time" label="resources.voting.fields.meeting_time" validate={required()} />
            <UkDateInput source="notice_date" label="resources.voting.fields.notice_date" />
          </Stack>
          <TextInput source="place" label="resources.voting.fields.place" validate={[required(), minLength(3)]} fullWidth />
          <TextInput source="video_tools" label="resources.voting.fields.video_tools" fullWidth />
          <TextInput source="chair" label="resources.voting.fields.chair" fullWidth />
          <TextInput
            source="statute_text"
            label="resources.voting.fields.statute_text"
            helperText="resources.voting.hints.statute_text"
            multiline
            minRows={2}
            fullWidth
          />
          <BooleanInput source="signed_only" label="resources.voting.fields.signed_only" helperText="resources.voting.hints.signed_only" />
          <Typography variant="h6" sx={{ mt: 2 }}>
            {translate('resources.voting.fields.questions')}
          </Typography>
          <ThresholdHelp form={form} />
          <ArrayInput source="questions" label={false}>
            <SimpleFormIterator
              inline={false}
              disableReordering={false}
              addButton={<AddQuestionButton />}
              sx={{ '& .RaSimpleFormIterator-line': { borderBottom: 1, borderColor: 'divider', pb: 2 } }}
            >
              <TextInput
                source="title"
                label="resources.voting.fields.question_title"
                validate={[required(), minLength(3), maxLength(1000)]}
                multiline
                fullWidth
                helperText={false}
              />
              <TextInput source="description" label="resources.voting.fields.question_description" multiline fullWidth helperText={false} />
              <QuestionThreshold form={form} />
              <StatutePercent />
            </SimpleFormIterator>
          </ArrayInput>
          <Box sx={{ width: '100%' }}>
            <Alert severity="info">{translate('resources.voting.hints.electorate')}</Alert>
          </Box>
        </SimpleForm>
      </Card>
    </CreateBase>
  );
}
