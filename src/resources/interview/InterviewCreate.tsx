import { useNavigate } from 'react-router-dom';
import { Card } from '@mui/material';
import { CreateBase, useNotify, useTranslate } from 'react-admin';
import type { Interview } from '../../../contract/interview';
import { useComplexSelection } from '../../layout/complexSelection';
import { usePageHeader } from '../../layout/navigation';
import { interviewPath } from './api';
import { InterviewForm, interviewTransform } from './InterviewForm';

/** /Interview/create: a survey for the complex chosen in the header (by default), starting now, for two weeks. */
export default function InterviewCreate() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const notify = useNotify();
  const { complexId } = useComplexSelection();
  usePageHeader(translate('resources.interview.create_title'), '/Interview');
  const start = new Date();
  start.setSeconds(0, 0);
  const end = new Date(start.getTime() + 14 * 24 * 3600 * 1000);
  return (
    <CreateBase<Interview>
      resource="interview"
      redirect={false}
      transform={interviewTransform()}
      mutationOptions={{
        onSuccess: (record) => {
          notify('resources.interview.notifications.created', { type: 'success' });
          navigate(interviewPath(record.id));
        },
      }}
    >
      <Card sx={{ maxWidth: 1000 }}>
        <InterviewForm
          defaultValues={{
            complex_ids: complexId !== undefined ? [complexId] : [],
            house_ids: [],
            start_at: start,
            end_at: end,
            anonymous: false,
            published: true,
            questions: [{ title: '', kind: 'single', options: [{ title: '' }, { title: '' }] }],
          }}
        />
      </Card>
    </CreateBase>
  );
}
