import { useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import { Alert, Box, Button, Card, CardContent, Chip, Container, Divider, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import HowToVoteIcon from '@mui/icons-material/HowToVote';
import type { PublicBallot, PublicVoting } from '../../../contract/voting';
import { formatDate } from '../../lib/dates';

const API = '/api/public/voting';

/**
 * The co-owner's page is Ukrainian only (the issue asks for a Ukrainian page): it is opened by
 * people who never see the admin panel and its language switch.
 */
const T = {
  loading: 'Завантаження…',
  heading: 'Голосування співвласників',
  meeting: 'Збори',
  when: 'Дата і час',
  place: 'Місце',
  video: 'Відеоконференція',
  initiator: 'Ініціатор',
  pollEnds: 'Письмове опитування триває до',
  agenda: 'Порядок денний',
  identify: 'Щоб проголосувати, підтвердьте, що ви співвласник',
  identifyHint: 'Вкажіть телефон або e-mail, записаний за вами в управителя. Ми надішлемо одноразовий код.',
  identifyHintEmail: 'Вкажіть e-mail, записаний за вами в управителя. Ми надішлемо на нього одноразовий код.',
  contact: 'Телефон або e-mail',
  contactEmail: 'E-mail',
  sendCode: 'Отримати код',
  code: 'Код з повідомлення',
  confirm: 'Підтвердити',
  resend: 'Надіслати код ще раз',
  voter: 'Ви голосуєте як',
  identifiedBy: { sms_code: 'Вас ідентифіковано кодом з SMS на', email_code: 'Вас ідентифіковано кодом з e-mail на' },
  honesty:
    'Ваш бюлетень буде позначено як електронний із зазначенням способу ідентифікації. Закон (ч. 19 ст. 10 Закону № 417-VIII) вимагає для ' +
    'електронного бюлетеня кваліфікований електронний підпис (КЕП); ',
  honestyNoKep: 'підписання КЕП на цій сторінці ще не підключено, тож бюлетень буде без КЕП.',
  signedOnly:
    'На цих зборах зараховують лише паперові листки та бюлетені з КЕП. Підписання КЕП тут не підключено, тож проголосуйте, будь ласка, ' +
    'на паперовому листку опитування — зверніться до ініціатора зборів.',
  for: 'За',
  against: 'Проти',
  already: { paper: 'Ви вже проголосували на паперовому листку', electronic: 'Ви вже проголосували електронно' },
  submit: 'Проголосувати',
  chooseOne: 'Оберіть «за» або «проти» хоча б з одного питання.',
  thanks: 'Дякуємо! Ваш голос записано.',
  closed: (d: string) => `Голосування відкриється в день зборів, ${d}.`,
  over: 'Голосування за цими зборами завершено.',
  onlyTwo: 'У бюлетені лише «за» або «проти»: утриматися закон не передбачає.',
  statuses: { adopted: 'Прийнято', rejected: 'Не прийнято', open: 'Голосування триває', not_adopted: 'Не прийнято' },
};

async function call<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (init.token) headers.Authorization = `Bearer ${init.token}`;
  const res = await fetch(`${API}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const json = (await res.json().catch(() => ({}))) as { data?: T; message?: string; errors?: Record<string, string[]> };
  if (!res.ok) {
    const first = json.errors ? Object.values(json.errors)[0]?.[0] : undefined;
    throw new Error(first ?? json.message ?? 'Не вдалося виконати запит. Спробуйте ще раз.');
  }
  return json.data as T;
}

/** /Vote/{token}: a co-owner identifies themselves by a one-time code and votes «за» or «проти». Mobile first. */
export default function VotePage() {
  const { token = '' } = useParams();
  const [meeting, setMeeting] = useState<PublicVoting | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [contact, setContact] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [session, setSession] = useState<string | null>(null);
  const [ballot, setBallot] = useState<PublicBallot | null>(null);
  const [answers, setAnswers] = useState<Record<string, 'for' | 'against'>>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  useEffect(() => {
    document.title = T.heading;
    call<PublicVoting>(`/${token}`).then(setMeeting, (e: Error) => setError(e.message));
  }, [token]);

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const sendCode = () =>
    run(async () => {
      const r = await call<{ challenge: string; message: string }>(`/${token}/code`, { method: 'POST', body: { contact } });
      setChallenge(r.challenge);
      setInfo(r.message);
    });
  const verify = () =>
    run(async () => {
      const r = await call<{ token: string; ballot: PublicBallot }>(`/${token}/verify`, { method: 'POST', body: { challenge, code: code.trim() } });
      setSession(r.token);
      setBallot(r.ballot);
      setInfo(null);
    });
  const submit = () =>
    run(async () => {
      if (Object.keys(answers).length === 0) throw new Error(T.chooseOne);
      const r = await call<PublicBallot>(`/${token}/ballot`, { method: 'POST', body: { answers }, token: session ?? undefined });
      setBallot(r);
      setAnswers({});
      setDone(true);
    });

  if (!meeting) {
    return (
      <Container maxWidth="sm" sx={{ py: 4 }}>
        {error ? <Alert severity="error">{error}</Alert> : <Typography>{T.loading}</Typography>}
      </Container>
    );
  }
  // This page has no signing step of its own yet: a meeting that counts only signed ballots is voted on paper.
  const cannotCount = meeting.signed_only;
  // A code goes by SMS only while the server can send SMS; otherwise the page asks for an e-mail.
  const bySms = meeting.code_channels.includes('sms');
  const beforeMeeting = !meeting.open && new Date().toISOString().slice(0, 10) < meeting.opens_on;
  return (
    <Box sx={{ bgcolor: 'grey.100', minHeight: '100vh', py: { xs: 1, sm: 3 } }}>
      <Container maxWidth="sm" sx={{ px: { xs: 1, sm: 2 } }}>
        <Stack spacing={2}>
          <Card>
            <CardContent>
              <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 1 }}>
                <HowToVoteIcon color="primary" />
                <Typography variant="overline">{T.heading}</Typography>
              </Stack>
              <Typography variant="h6" component="h1">
                {meeting.title}
              </Typography>
              <Typography variant="body2" color="text.secondary" gutterBottom>
                {meeting.address}
              </Typography>
              <Typography variant="body2">
                <b>{T.when}:</b> {formatDate(meeting.meeting_date)}, {meeting.meeting_time}
              </Typography>
              <Typography variant="body2">
                <b>{T.place}:</b> {meeting.place}
              </Typography>
              {meeting.video_tools && (
                <Typography variant="body2">
                  <b>{T.video}:</b> {meeting.video_tools}
                </Typography>
              )}
              <Typography variant="body2">
                <b>{T.initiator}:</b> {meeting.initiator}
              </Typography>
              <Typography variant="body2">
                <b>{T.pollEnds}:</b> {formatDate(meeting.poll_ends)}
              </Typography>
            </CardContent>
          </Card>

          {error && <Alert severity="error">{error}</Alert>}
          {!meeting.open && <Alert severity="info">{beforeMeeting ? T.closed(formatDate(meeting.opens_on)) : T.over}</Alert>}
          {meeting.open && cannotCount && <Alert severity="warning">{T.signedOnly}</Alert>}

          {meeting.open && !cannotCount && !session && (
            <Card>
              <CardContent>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                  {T.identify}
                </Typography>
                <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                  {bySms ? T.identifyHint : T.identifyHintEmail}
                </Typography>
                <Stack spacing={2}>
                  <TextField
                    label={bySms ? T.contact : T.contactEmail}
                    value={contact}
                    onChange={(e) => setContact(e.target.value)}
                    // A phone or an e-mail in one field: 'username' is the valid token for such an identifier ('tel email' is not one).
                    autoComplete={bySms ? 'username' : 'email'}
                    type={bySms ? 'text' : 'email'}
                    fullWidth
                    slotProps={{ htmlInput: { inputMode: 'email' } }}
                  />
                  {!challenge ? (
                    <Button variant="contained" size="large" onClick={sendCode} disabled={busy || contact.trim().length < 3}>
                      {T.sendCode}
                    </Button>
                  ) : (
                    <>
                      {info && <Alert severity="info">{info}</Alert>}
                      <TextField
                        label={T.code}
                        value={code}
                        onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                        fullWidth
                        slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
                      />
                      <Button variant="contained" size="large" onClick={verify} disabled={busy || code.length !== 6}>
                        {T.confirm}
                      </Button>
                      <Button onClick={sendCode} disabled={busy}>
                        {T.resend}
                      </Button>
                    </>
                  )}
                </Stack>
              </CardContent>
            </Card>
          )}

          {ballot && (
            <Card>
              <CardContent>
                <Typography variant="body2" color="text.secondary">
                  {T.voter}
                </Typography>
                <Typography variant="subtitle1" sx={{ fontWeight: 600 }} data-testid="voter-name">
                  {ballot.voter.name}
                </Typography>
                <Typography variant="body2">
                  {ballot.voter.units.join('; ')} · {ballot.voter.area.toLocaleString('uk-UA')} м²
                </Typography>
                <Alert severity="info" sx={{ mt: 1.5 }}>
                  {T.identifiedBy[ballot.voter.identification]} {ballot.voter.identified_target}. {T.honesty}
                  {T.honestyNoKep}
                </Alert>
                {done && (
                  <Alert severity="success" sx={{ mt: 1.5 }} data-testid="vote-done">
                    {T.thanks}
                  </Alert>
                )}
              </CardContent>
            </Card>
          )}

          <Card>
            <CardContent>
              <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
                {T.agenda}
              </Typography>
              {ballot && (
                <Typography variant="caption" color="text.secondary">
                  {T.onlyTwo}
                </Typography>
              )}
              <Stack divider={<Divider flexItem />} spacing={1.5} sx={{ mt: 1 }}>
                {meeting.questions.map((q) => {
                  const already = ballot?.answered[String(q.id)];
                  return (
                    <Box key={q.id} data-testid={`vote-question-${q.position}`}>
                      <Typography variant="body1">
                        {q.position}. {q.title}
                      </Typography>
                      {q.description && (
                        <Typography variant="body2" color="text.secondary">
                          {q.description}
                        </Typography>
                      )}
                      <Typography variant="caption" color="text.secondary" component="div">
                        {q.threshold_text}
                      </Typography>
                      {!ballot && <Chip size="small" label={T.statuses[q.status]} sx={{ mt: 0.5 }} />}
                      {ballot && already && (
                        <Alert severity="success" icon={false} sx={{ mt: 1, py: 0 }}>
                          {T.already[already.channel]}: «{already.answer === 'for' ? T.for : T.against}» ({formatDate(already.date)})
                        </Alert>
                      )}
                      {ballot && !already && meeting.open && (
                        <ToggleButtonGroup
                          exclusive
                          fullWidth
                          sx={{ mt: 1 }}
                          value={answers[String(q.id)] ?? null}
                          onChange={(_, v: 'for' | 'against' | null) => {
                            const next = { ...answers };
                            if (v) next[String(q.id)] = v;
                            else delete next[String(q.id)];
                            setAnswers(next);
                          }}
                        >
                          <ToggleButton value="for" color="success" sx={{ py: 1.5 }}>
                            {T.for}
                          </ToggleButton>
                          <ToggleButton value="against" color="error" sx={{ py: 1.5 }}>
                            {T.against}
                          </ToggleButton>
                        </ToggleButtonGroup>
                      )}
                    </Box>
                  );
                })}
              </Stack>
              {ballot && meeting.open && meeting.questions.some((q) => !ballot.answered[String(q.id)]) && (
                <Button variant="contained" size="large" fullWidth sx={{ mt: 2 }} onClick={submit} disabled={busy || Object.keys(answers).length === 0}>
                  {T.submit}
                </Button>
              )}
            </CardContent>
          </Card>
        </Stack>
      </Container>
    </Box>
  );
}
