import { Chip } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { ArticleStatus } from '../../../contract/articles';

const COLORS: Record<ArticleStatus, 'default' | 'info' | 'success'> = { draft: 'default', scheduled: 'info', published: 'success' };

export function ArticleStatusChip({ status }: { status: ArticleStatus }) {
  const translate = useTranslate();
  return (
    <Chip size="small" color={COLORS[status]} variant={status === 'draft' ? 'outlined' : 'filled'} label={translate(`resources.articles.statuses.${status}`)} />
  );
}
