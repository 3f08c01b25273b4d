import { useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Card,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Respondent } from '../../../contract/interview';
import { usePageHeader } from '../../layout/navigation';
import { formatDateTime } from '../../lib/dates';
import { fetchInterview, fetchRespondents, interviewPath } from './api';
import { LoadError } from '../../components/LoadError';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useUrlListState } from '../generic/urlListState';

type Tab = 'answered' | 'not_answered';
const LIST_DEFAULTS = { sort: { field: 'name', order: 'ASC' as const }, perPage: 25 };

/** /Interview/{id}/users: the residents of the survey's houses who answered and who did not (the header shows no complex selection here). */
export default function InterviewUsers() {
  const { id = '' } = useParams();
  const translate = useTranslate();
  // The tab, search and page live in the address, as on every list: reload and Back keep them.
  const list = useUrlListState(LIST_DEFAULTS);
  const tab: Tab = list.get('status') === 'not_answered' ? 'not_answered' : 'answered';
  const search = list.get('q');
  const { page, perPage } = list;
  const { data: s, error } = useQuery({ queryKey: ['interview', id], queryFn: () => fetchInterview(id), enabled: /^\d+$/.test(id) });
  const typed = useDebouncedValue(search);
  const query = { status: tab, search_query: typed.trim() || undefined, page, per_page: perPage };
  const { data } = useQuery({
    queryKey: ['interview-users', id, query],
    queryFn: () => fetchRespondents(id, query),
    placeholderData: (prev) => prev,
    enabled: Boolean(s),
  });
  usePageHeader(s ? translate('resources.interview.users_title', { title: s.title }) : translate('resources.interview.title'), interviewPath(id));
  if (error) return <LoadError error={error} />;
  if (!s) return null;
  const showAnswers = tab === 'answered' && !s.anonymous;
  const answerOf = (r: Respondent, qid: number) => r.response?.answers?.[String(qid)] ?? '—';
  return (
    <Box>
      {s.anonymous && tab === 'answered' && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('resources.interview.hints.anonymous_results')}
        </Alert>
      )}
      <Card>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }} sx={{ px: 2, pt: 1 }}>
          <Tabs sx={{ flexShrink: 0 }} value={tab} onChange={(_, v: Tab) => list.update({ filter: { status: v === 'answered' ? '' : v } })}>
            {(['answered', 'not_answered'] as const).map((k) => (
              <Tab key={k} value={k} label={`${translate(`resources.interview.tabs.${k}`)} (${data?.summary[k] ?? 0})`} data-testid={`tab-${k}`} />
            ))}
          </Tabs>
          <TextField
            size="small"
            placeholder={translate('ra.action.search')}
            value={search}
            onChange={(e) => list.update({ filter: { q: e.target.value } })}
            slotProps={{ htmlInput: { 'aria-label': translate('ra.action.search') } }}
            sx={{ width: { md: 300 }, ml: { md: 'auto' } }}
          />
        </Stack>
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.interview.fields.name')}</TableCell>
                <TableCell>{translate('resources.interview.fields.units')}</TableCell>
                {tab === 'answered' && <TableCell>{translate('resources.interview.fields.recorded')}</TableCell>}
                {showAnswers &&
                  s.questions.map((q) => (
                    <TableCell key={q.id} title={q.title}>
                      № {q.position}
                    </TableCell>
                  ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {(data?.data ?? []).map((r) => (
                <TableRow key={r.id} hover data-testid={`respondent-${r.id}`}>
                  <TableCell>
                    <Typography variant="body2">{r.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {[r.phone, r.email].filter(Boolean).join(' · ') || '—'}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    {r.units.map((u) => (
                      <Typography key={u} variant="body2">
                        {u}
                      </Typography>
                    ))}
                  </TableCell>
                  {tab === 'answered' && (
                    <TableCell>
                      {r.response && (
                        <>
                          <Typography variant="body2">{translate(`resources.interview.channels.${r.response.channel}`)}</Typography>
                          <Typography variant="caption" color="text.secondary">
                            {formatDateTime(r.response.created_at)}
                            {r.response.recorded_by ? ` · ${r.response.recorded_by}` : ''}
                          </Typography>
                        </>
                      )}
                    </TableCell>
                  )}
                  {showAnswers && s.questions.map((q) => <TableCell key={q.id}>{answerOf(r, q.id)}</TableCell>)}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
        {data && data.pagination.total === 0 && (
          <Typography color="text.secondary" sx={{ p: 2 }}>
            {translate('ra.navigation.no_results')}
          </Typography>
        )}
        <TablePagination
          component="div"
          count={data?.pagination.total ?? 0}
          page={Math.max(0, page - 1)}
          rowsPerPage={perPage}
          rowsPerPageOptions={[10, 25, 50, 100]}
          labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
          labelDisplayedRows={({ from, to, count }) => translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })}
          onPageChange={(_, p) => list.update({ page: p + 1 })}
          onRowsPerPageChange={(e) => list.update({ perPage: Number(e.target.value) })}
        />
      </Card>
    </Box>
  );
}
