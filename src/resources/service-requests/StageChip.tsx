import type { ReactElement } from 'react';
import { Chip, type ChipProps } from '@mui/material';
import NewReleasesOutlined from '@mui/icons-material/NewReleasesOutlined';
import ManageSearchOutlined from '@mui/icons-material/ManageSearchOutlined';
import EngineeringOutlined from '@mui/icons-material/EngineeringOutlined';
import TaskAltOutlined from '@mui/icons-material/TaskAltOutlined';
import { useTranslate } from 'react-admin';
import type { RequestStage } from '../../../contract/serviceRequests';

/** The stage icons (docs/architecture.md, "Interface conventions"): new, underReview, executor, done. */
export const STAGE_ICONS: Record<RequestStage, ReactElement> = {
  new: <NewReleasesOutlined data-icon="new" />,
  underReview: <ManageSearchOutlined data-icon="underReview" />,
  executor: <EngineeringOutlined data-icon="executor" />,
  done: <TaskAltOutlined data-icon="done" />,
};

export const STAGE_COLORS: Record<RequestStage, ChipProps['color']> = {
  new: 'info',
  underReview: 'warning',
  executor: 'primary',
  done: 'success',
};

export function StageChip({ stage, size = 'small', ...rest }: { stage: RequestStage } & Omit<ChipProps, 'label' | 'icon' | 'color'>) {
  const translate = useTranslate();
  return (
    <Chip
      icon={STAGE_ICONS[stage]}
      label={translate(`resources.service_requests.stages.${stage}`)}
      color={STAGE_COLORS[stage]}
      size={size}
      variant="outlined"
      {...rest}
    />
  );
}
