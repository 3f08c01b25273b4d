import { useState } from 'react';
import { Box, Button, IconButton, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import CloseIcon from '@mui/icons-material/Close';
import { Joyride, STATUS, type EventData, type TooltipRenderProps } from 'react-joyride';
import { useTranslate } from 'react-admin';

export interface TourStep {
  /** CSS selector of the element the step points at */
  target: string;
  /** i18n key or text */
  title?: string;
  /** i18n key or text */
  content: string;
}

/** localStorage key of a tour's progress (docs/architecture.md, "Interface conventions": tour progress is kept in local storage). */
export const tourStorageKey = (tourKey: string) => `tour.${tourKey}`;
export const tourDone = (tourKey: string) => localStorage.getItem(tourStorageKey(tourKey)) === 'done';

function TourTooltip({
  index,
  size,
  step,
  isLastStep,
  backProps,
  primaryProps,
  closeProps,
  tooltipProps,
  understood,
}: TooltipRenderProps & { understood: boolean }) {
  const translate = useTranslate();
  return (
    <Paper
      {...tooltipProps}
      elevation={8}
      sx={{ width: 360, maxWidth: 'calc(100vw - 32px)', p: 2 }}
      aria-label={typeof step.title === 'string' ? step.title : undefined}
    >
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="caption" color="text.secondary" data-testid="tour-progress" sx={{ flex: 1 }}>
          {index + 1}/{size}
        </Typography>
        <IconButton size="small" onClick={closeProps.onClick} aria-label={translate('app.tour.close')}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Stack>
      {step.title && (
        <Typography variant="subtitle1" sx={{ fontWeight: 600, mb: 0.5 }}>
          {step.title}
        </Typography>
      )}
      <Box sx={{ typography: 'body2', mb: 2 }}>{step.content}</Box>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <IconButton size="small" onClick={backProps.onClick} disabled={index === 0} aria-label={translate('app.tour.back')}>
          <ArrowBackIcon fontSize="small" />
        </IconButton>
        <IconButton size="small" onClick={primaryProps.onClick} disabled={isLastStep} aria-label={translate('app.tour.forward')}>
          <ArrowForwardIcon fontSize="small" />
        </IconButton>
        <Box sx={{ flex: 1 }} />
        {understood && (
          <Button size="small" onClick={closeProps.onClick}>
            {translate('app.tour.understood')}
          </Button>
        )}
        <Button size="small" variant="contained" onClick={primaryProps.onClick}>
          {translate(isLastStep ? 'app.tour.finish' : 'app.tour.next')}
        </Button>
      </Stack>
    </Paper>
  );
}

/**
 * A guided tour of a screen, shown once per `tourKey`: numbered steps «n/total», back and forward
 * arrows, «Далі» and «Завершити» on the last step, optionally «Зрозуміло» (ends the tour at
 * once). Over an overlay; Esc closes it, a click on the overlay does not. Closing, finishing or
 * «Зрозуміло» all mark the tour as seen in localStorage.
 */
export function Tour({ tourKey, steps, understood = false }: { tourKey: string; steps: TourStep[]; understood?: boolean }) {
  const translate = useTranslate();
  const [run, setRun] = useState(() => !tourDone(tourKey));
  if (!run || steps.length === 0) return null;

  const onEvent = (data: EventData) => {
    const ended = data.status === STATUS.FINISHED || data.status === STATUS.SKIPPED || data.action === 'close';
    if (ended) {
      localStorage.setItem(tourStorageKey(tourKey), 'done');
      setRun(false);
    }
  };

  return (
    <Joyride
      run
      continuous
      steps={steps.map((s) => ({ target: s.target, title: s.title ? translate(s.title) : undefined, content: translate(s.content), skipBeacon: true }))}
      onEvent={onEvent}
      tooltipComponent={(props: TooltipRenderProps) => <TourTooltip {...props} understood={understood} />}
      options={{ overlayClickAction: false, dismissKeyAction: 'close', closeButtonAction: 'close', showProgress: true, zIndex: 1500 }}
    />
  );
}
