import { lazy, Suspense, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, CardActionArea, CardContent, CardHeader, LinearProgress, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { Dashboard } from '../../../contract/dashboard';
import { REQUEST_STAGES } from '../../../contract/serviceRequests';
import { apiFetch } from '../../dataProvider/http';
import { ComplexSelector, useComplexSelection } from '../../layout/complexSelection';
import { LoadError } from '../../components/LoadError';
import { usePageHeader } from '../../layout/navigation';
import { formatDate, formatDateTime } from '../../lib/dates';
import { formatNumber } from '../../lib/numbers';

// The chart library is two thirds of this screen's code: the tiles and lists show without waiting for it.
const BarChart = lazy(() => import('@mui/x-charts/BarChart').then((m) => ({ default: m.BarChart })));
const CHART_HEIGHT = 240;

export const DASHBOARD_TABS = ['overview', 'requests', 'voting', 'finance'] as const;

const hryvnias = (kopiyky: number) => new Intl.NumberFormat('uk-UA', { style: 'currency', currency: 'UAH', maximumFractionDigits: 0 }).format(kopiyky / 100);

function Tile({ title, to, children }: { title: string; to?: string; children: ReactNode }) {
  const body = (
    <CardContent>
      <Typography variant="subtitle2" color="text.secondary" gutterBottom>
        {title}
      </Typography>
      {children}
    </CardContent>
  );
  return (
    <Card sx={{ flex: '1 1 200px', minWidth: 180 }}>
      {to ? (
        <CardActionArea component={RouterLink} to={to}>
          {body}
        </CardActionArea>
      ) : (
        body
      )}
    </Card>
  );
}

const Big = ({ children, color }: { children: ReactNode; color?: string }) => (
  <Typography variant="h4" component="div" sx={{ color }}>
    {children}
  </Typography>
);

/** /dashboard/{index}: the management company's day at a glance for the selected complex; `index` picks the tab. */
export default function DashboardPage() {
  const translate = useTranslate();
  const turnout = (v: { voted: number; total: number; turnout_percent: number }) =>
    translate('app.dashboard.turnout', { voted: v.voted, total: v.total, percent: formatNumber(v.turnout_percent) });
  const navigate = useNavigate();
  const { index } = useParams();
  const tab = Math.min(Math.max(Number(index) || 0, 0), DASHBOARD_TABS.length - 1);
  const { complexId, complex } = useComplexSelection();
  usePageHeader(complex ? `${translate('app.dashboard.title')}: ${complex.name}` : translate('app.dashboard.title'));
  const { data, isPending, error, refetch } = useQuery({
    queryKey: ['dashboard', complexId],
    queryFn: () => apiFetch<{ data: Dashboard }>('/dashboard', { query: complexId === undefined ? {} : { complex_id: complexId } }).then((r) => r.data),
    refetchInterval: 60_000,
  });

  const show = (name: (typeof DASHBOARD_TABS)[number]) => tab === 0 || DASHBOARD_TABS[tab] === name;

  return (
    <Box>
      <Stack direction="row" sx={{ mb: 2, alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Tabs value={tab} onChange={(_e, v: number) => navigate(`/dashboard/${v}`)}>
          {DASHBOARD_TABS.map((t) => (
            <Tab key={t} label={translate(`app.dashboard.tabs.${t}`)} />
          ))}
        </Tabs>
        {/* The overview is of one complex: it is chosen here, the header shows no selector on this page. */}
        <Box data-testid="dashboard-complex">
          <ComplexSelector />
        </Box>
      </Stack>
      {isPending && <LinearProgress aria-label={translate('ra.page.loading')} />}
      {error && <LoadError error={error} onRetry={() => void refetch()} />}
      {data && (
        <Stack spacing={2}>
          {show('requests') && data.requests && (
            <>
              <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
                <Tile title={translate('app.dashboard.open_requests')} to="/Requests?stage=new&stage=underReview&stage=executor">
                  <Big>{data.requests.open}</Big>
                </Tile>
                <Tile title={translate('app.dashboard.overdue')} to="/Requests?overdue=1">
                  <Big color={data.requests.overdue ? 'error.main' : undefined}>{data.requests.overdue}</Big>
                </Tile>
                {REQUEST_STAGES.map((stage) => (
                  <Tile key={stage} title={translate(`resources.service_requests.stages.${stage}`)} to={`/Requests?stage=${stage}`}>
                    <Big>{data.requests!.by_stage[stage]}</Big>
                  </Tile>
                ))}
              </Stack>
              <Card>
                <CardHeader title={translate('app.dashboard.per_day')} slotProps={{ title: { variant: 'subtitle1' } }} />
                <CardContent>
                  <Suspense fallback={<Box sx={{ height: CHART_HEIGHT }} />}>
                    <BarChart
                      height={CHART_HEIGHT}
                      xAxis={[{ scaleType: 'band', data: data.requests.per_day.map((d) => formatDate(d.date).slice(0, 5)) }]}
                      series={[{ data: data.requests.per_day.map((d) => d.count), label: translate('app.dashboard.new_requests') }]}
                      hideLegend
                    />
                  </Suspense>
                </CardContent>
              </Card>
            </>
          )}
          {show('voting') && data.votings && (
            <Card>
              <CardHeader title={translate('app.dashboard.votings')} slotProps={{ title: { variant: 'subtitle1' } }} />
              <CardContent>
                {data.votings.length === 0 && <Typography color="text.secondary">{translate('app.dashboard.no_votings')}</Typography>}
                <Stack spacing={1.5}>
                  {data.votings.map((v) => (
                    <Box key={v.id}>
                      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
                        <Link component={RouterLink} to={`/Voting/${v.id}`}>
                          {v.title}
                        </Link>
                        <Typography variant="body2" color="text.secondary">
                          {formatDate(v.meeting_date)} · {turnout(v)}
                        </Typography>
                      </Stack>
                      <LinearProgress
                        variant="determinate"
                        value={v.turnout_percent}
                        aria-label={`${v.title}: ${turnout(v)}`}
                        sx={{ height: 6, borderRadius: 3, mt: 0.5 }}
                      />
                    </Box>
                  ))}
                </Stack>
              </CardContent>
            </Card>
          )}
          {show('voting') && data.surveys && (
            <Card>
              <CardHeader title={translate('app.dashboard.surveys')} slotProps={{ title: { variant: 'subtitle1' } }} />
              <CardContent>
                {data.surveys.length === 0 && <Typography color="text.secondary">{translate('app.dashboard.no_surveys')}</Typography>}
                <Stack spacing={1}>
                  {data.surveys.map((s) => (
                    <Stack key={s.id} direction="row" sx={{ justifyContent: 'space-between' }}>
                      <Link component={RouterLink} to={`/Interview/${s.id}`}>
                        {s.title}
                      </Link>
                      <Typography variant="body2" color="text.secondary">
                        {translate('app.dashboard.survey_line', { answers: s.answers, date: formatDate(s.end_at) })}
                      </Typography>
                    </Stack>
                  ))}
                </Stack>
              </CardContent>
            </Card>
          )}
          {tab === 0 && data.messages && (
            <Card>
              <CardHeader title={translate('app.dashboard.messages')} slotProps={{ title: { variant: 'subtitle1' } }} />
              <CardContent>
                {data.messages.length === 0 && <Typography color="text.secondary">{translate('app.dashboard.no_messages')}</Typography>}
                <Stack spacing={1}>
                  {data.messages.map((m) => (
                    <Box key={m.id}>
                      <Typography variant="caption" color="text.secondary">
                        {formatDateTime(m.created_at)} · {m.author} ·{' '}
                        <Link component={RouterLink} to={`/Requests/${m.request_id}`}>
                          {translate('app.dashboard.request_no', { number: m.number })}
                        </Link>
                      </Typography>
                      <Typography noWrap>{m.message}</Typography>
                    </Box>
                  ))}
                </Stack>
              </CardContent>
            </Card>
          )}
          {show('finance') && data.bills && (
            <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
              <Tile title={translate('app.dashboard.charged', { month: data.bills.month.split('-').reverse().join('.') })} to="/Members">
                <Big>{hryvnias(data.bills.charged)}</Big>
              </Tile>
              <Tile title={translate('app.dashboard.collected')} to="/Members">
                <Big>{hryvnias(data.bills.collected)}</Big>
                <LinearProgress
                  variant="determinate"
                  value={data.bills.charged ? Math.min(100, (data.bills.collected / data.bills.charged) * 100) : 0}
                  aria-label={translate('app.dashboard.collected')}
                  sx={{ height: 6, borderRadius: 3, mt: 1 }}
                />
              </Tile>
            </Stack>
          )}
          {!data.requests && !data.votings && !data.bills && <Alert severity="info">{translate('app.dashboard.nothing')}</Alert>}
        </Stack>
      )}
    </Box>
  );
}
