import { Alert, Box, Card, CardContent, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { BarChart } from '@mui/x-charts/BarChart';
import { useTranslate } from 'react-admin';
import type { Interview, InterviewQuestion } from '../../../contract/interview';
import { formatNumber as num } from '../../lib/numbers';

const BAR = '#1976d2';

/** One question's options (or scale values) as horizontal bars of percent, with the counts in words beside. */
function ChoiceResults({ q }: { q: InterviewQuestion }) {
  const translate = useTranslate();
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems={{ md: 'center' }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <BarChart
          height={Math.max(90, q.options.length * 34 + 30)}
          layout="horizontal"
          margin={{ left: 8, right: 16, top: 8, bottom: 0 }}
          yAxis={[{ scaleType: 'band', data: q.options.map((o) => o.title), width: 150 }]}
          xAxis={[{ min: 0, max: 100, valueFormatter: (v: number) => `${v} %`, height: 24 }]}
          series={[{ data: q.options.map((o) => o.percent), color: BAR, valueFormatter: (v: number | null) => `${num(v ?? 0)} %` }]}
          hideLegend
        />
      </Box>
      <Box sx={{ minWidth: 240 }}>
        {q.options.map((o) => (
          <Stack key={o.id} direction="row" justifyContent="space-between" spacing={2} data-testid={`result-${q.position}-${o.title}`}>
            <Typography variant="body2">{o.title}</Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {translate('resources.interview.show.count', { count: o.count, percent: num(o.percent) })}
            </Typography>
          </Stack>
        ))}
        {q.average !== null && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {translate('resources.interview.show.average', { value: num(q.average) })}
          </Typography>
        )}
      </Box>
    </Stack>
  );
}

function TextResults({ q }: { q: InterviewQuestion }) {
  const translate = useTranslate();
  if (q.texts.length === 0) return <Typography color="text.secondary">{translate('resources.interview.show.no_texts')}</Typography>;
  return (
    <List dense disablePadding sx={{ maxHeight: 320, overflow: 'auto' }}>
      {q.texts.map((t, i) => (
        <ListItem key={i} divider disableGutters>
          <ListItemText primary={t.text} secondary={t.member ?? undefined} />
        </ListItem>
      ))}
    </List>
  );
}

/** The survey's questions with their results: bars for choices and scales, the answers for free text. */
export function InterviewResults({ interview }: { interview: Interview }) {
  const translate = useTranslate();
  return (
    <Stack spacing={2}>
      {interview.anonymous && <Alert severity="info">{translate('resources.interview.hints.anonymous_results')}</Alert>}
      {interview.questions.map((q) => (
        <Card key={q.id} data-testid={`question-${q.position}`}>
          <CardContent>
            <Stack direction="row" spacing={1} alignItems="baseline" sx={{ mb: 1 }} flexWrap="wrap">
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {q.position}. {q.title}
              </Typography>
              <Chip
                size="small"
                variant="outlined"
                label={translate(`resources.interview.kinds.${q.kind}`) + (q.kind === 'scale' ? ` 1–${q.scale_max}` : '')}
              />
              <Typography variant="body2" color="text.secondary">
                {translate('resources.interview.show.base', { count: q.answered })}
              </Typography>
            </Stack>
            {q.kind === 'text' ? <TextResults q={q} /> : <ChoiceResults q={q} />}
          </CardContent>
        </Card>
      ))}
    </Stack>
  );
}
