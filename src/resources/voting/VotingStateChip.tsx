import type { QuestionStatus, VotingState } from '../../../contract/voting';
import { StateChip } from '../../components/content/StateChip';

const STATE_TONES: Record<VotingState, 'info' | 'success' | 'default'> = { scheduled: 'info', voting: 'success', finished: 'default' };
export function VotingStateChip({ state }: { state: VotingState }) {
  return <StateChip label={`resources.voting.states.${state}`} tone={STATE_TONES[state]} />;
}

const STATUS_TONES: Record<QuestionStatus, 'info' | 'success' | 'warning' | 'default'> = {
  adopted: 'success',
  rejected: 'warning',
  open: 'info',
  not_adopted: 'default',
};
export function QuestionStatusChip({ status }: { status: QuestionStatus }) {
  return <StateChip label={`resources.voting.statuses.${status}`} tone={STATUS_TONES[status]} />;
}
