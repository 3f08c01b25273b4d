import type { InterviewStatus } from '../../../contract/interview';
import { StateChip } from '../../components/content/StateChip';

const TONES = { draft: 'default', active: 'success', finished: 'info' } as const;

export function InterviewStatusChip({ status }: { status: InterviewStatus }) {
  return <StateChip label={`resources.interview.statuses.${status}`} tone={TONES[status]} />;
}
